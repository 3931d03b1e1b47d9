/* The definition page: adoption state (current pointer, adopted hash, refusal and its reason), the source
 * exactly as published, and the history of hashes published, adopted and refused. */
(function () {
  "use strict";
  const S = window.Swale;
  const { h } = S;
  const EVENT_STATE = { published: "ready", adopted: "succeeded", refused: "failed" };

  S.page(() => {
    const graph = S.param("graph");
    document.title = "Definition " + graph + " · Swale";
    document.getElementById("crumbs").replaceChildren(
      h("a", { href: "./" }, "Graphs"), h("span", { class: "sep" }, "›"),
      h("a", { href: S.graphHref(graph) }, graph), h("span", { class: "sep" }, "›"), h("span", {}, "definition"));
    const href = (hash) => "definition.html?graph=" + encodeURIComponent(graph) + "&hash=" + encodeURIComponent(hash);

    // a viewer who declined the token is not asked again at every change of the graph
    let declined = false;
    async function load() {
      const hash = S.param("hash");
      try {
        const d = await S.get("/dashboard/graphs/" + encodeURIComponent(graph) + "/definition" + (hash ? "?hash=" + encodeURIComponent(hash) : ""));
        const state = d.refusal && d.pending ? "refused" : d.pending ? "pending" : "adopted";
        document.getElementById("head").replaceChildren(h("header", { class: "page-head" },
          h("h1", {}, "Definition of ", h("a", { href: S.graphHref(graph) }, graph)),
          h("span", { id: "adoption-state" }, S.badge({ adopted: "succeeded", pending: "ready", refused: "failed" }[state], state))));
        document.getElementById("adoption").replaceChildren(S.facts([
          ["published (current)", d.current ? h("a", { href: href(d.current) }, h("code", {}, d.current)) : "–"],
          ["adopted", d.adopted ? h("span", {}, h("a", { href: href(d.adopted.definition) }, h("code", {}, d.adopted.definition)),
            " at ", S.time(d.adopted.adoptedAt)) : h("span", { class: "muted" }, "none")],
          d.refusal ? ["refused", h("span", {}, h("code", {}, S.shortHash(d.refusal.definition)), " at ", S.time(d.refusal.at))] : null,
        ]), d.refusal ? h("div", { class: "error-box" }, h("h4", {}, "why it was not adopted"),
          h("pre", { class: "error", id: "refusal-reason" }, d.refusal.reason)) : null);
        document.getElementById("source-title").replaceChildren("Source ", h("code", { class: "muted" }, S.shortHash(d.source.hash)),
          h("span", { class: "muted small" }, " · " + d.source.format + (d.source.hash === d.adopted?.definition ? " · adopted" : "")
            + (d.source.hash === d.current ? " · current" : "")));
        document.getElementById("source").textContent = d.source.text;
        document.getElementById("source").dataset.hash = d.source.hash;
        document.getElementById("history").replaceChildren(d.history.length ? h("ol", { class: "history-list" },
          d.history.map((e) => h("li", { dataset: { event: e.event, hash: e.hash } },
            S.time(e.at), " ", S.badge(EVENT_STATE[e.event] || "waiting", e.event), " ",
            h("a", { href: href(e.hash), class: e.hash === d.source.hash ? "current" : "" }, h("code", {}, S.shortHash(e.hash))),
            e.reason ? h("span", { class: "muted small" }, " — " + e.reason) : null)))
          : h("p", { class: "muted" }, "No history recorded yet (it starts with the next publish)."));
      } catch (e) {
        // the source may hold credentials, so it needs the token even where other reads do not
        declined = e.status === 401;
        S.failure(document.getElementById("adoption"), e.status === 401
          ? new Error("The definition source needs the operator token: sign in (top right) to read it.") : e);
      }
    }
    S.onLive((type, data) => { if (type === "graph" && data.graph === graph && !declined) load(); });
    window.addEventListener("swale:signed-in", () => { if (declined) { declined = false; load(); } });
    load();
  });
})();
