/* The graphs page: every graph with its schedule, adopted definition, run counts and latest runs. */
(function () {
  "use strict";
  const S = window.Swale;
  const { h } = S;

  function card(g) {
    const counts = h("ul", { class: "counts" },
      ["active", "complete", "failed", "cancelled"].map((s) =>
        h("li", { class: g.runs[s] ? "" : "zero", dataset: { state: s } }, S.badge(s, s + " " + g.runs[s]))));
    const recent = h("ol", { class: "recent", "aria-label": "latest runs, newest first" },
      (g.recent || []).map((r) => h("li", {},
        h("a", {
          href: S.runHref(g.name, r.partition), class: "cell s-" + r.state, dataset: { partition: r.partition, state: r.state },
          title: r.partition + ": " + r.state, "aria-label": r.partition + " " + r.state,
        }, S.GLYPH[r.state] || ""))));
    return h("article", { class: "graph-card", dataset: { graph: g.name } },
      h("h2", {}, h("a", { href: S.graphHref(g.name) }, g.name)),
      S.facts([
        ["schedule", g.schedule ? h("code", {}, g.schedule) : h("span", { class: "muted" }, "manual")],
        ["partitions", g.partitioning || "–"],
        ["definition", h("code", { title: g.definition || "" }, S.shortHash(g.definition))]]),
      counts,
      (g.recent || []).length ? recent : h("p", { class: "muted small" }, "no runs yet"));
  }

  S.page(() => {
    const box = document.getElementById("graphs");
    let shownJson = null;
    const known = new Map(); // graph/partition → state, for the runs shown
    const load = async () => {
      try {
        const graphs = await S.get("/dashboard/graphs");
        known.clear();
        graphs.forEach((g) => (g.recent || []).forEach((r) => known.set(g.name + "/" + r.partition, r.state)));
        const json = JSON.stringify(graphs);
        if (json === shownJson) return;
        shownJson = json;
        box.replaceChildren(...(graphs.length ? graphs.map(card)
          : [h("p", { class: "muted" }, "No graph yet: publish a definition with POST /api/v1/definitions.")]));
      } catch (e) {
        shownJson = null; // the next answer redraws over the error, changed or not
        S.failure(box, e);
      }
    };
    const reload = S.debounced(load, 500);
    // The run counts may be up to a second old: one more load once the changes stop shows them settled.
    let settled = null;
    S.onLive((type, data) => {
      // Node-level changes within a run leave this page as it is; a run changing state does not.
      if (type === "run" && known.get(data.graph + "/" + data.partition) === data.state) return;
      if (type === "run" || type === "graph" || type === "snapshot") {
        reload();
        clearTimeout(settled);
        settled = setTimeout(reload, 1500);
      }
    });
    load();
  });
})();
