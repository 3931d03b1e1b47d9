/* The run page: every node with its state, pool, run id, attempt, times, error and output; rerun a
 * node or cancel the run, each after a confirmation, with the outcome shown. */
(function () {
  "use strict";
  const S = window.Swale;
  const { h } = S;

  const REFUSALS = {
    active: "refused (active): the node already has a task instance that is still active",
    not_ready: "refused (not_ready): the node's trigger rule is not met by its upstreams",
    no_record: "refused (no_record): the node has not run yet in this run",
  };

  S.page(() => {
    const graph = S.param("graph");
    const partition = S.param("partition");
    const path = "/graphs/" + encodeURIComponent(graph) + "/runs/" + encodeURIComponent(partition);
    document.title = graph + " · " + partition + " · Swale";
    document.getElementById("crumbs").replaceChildren(
      h("a", { href: "./" }, "Graphs"), h("span", { class: "sep" }, "›"),
      h("a", { href: S.graphHref(graph) }, graph), h("span", { class: "sep" }, "›"), h("span", {}, partition));

    async function rerun(node) {
      const ok = await S.confirmAction("Rerun " + node + "?",
        "Node " + node + " of " + graph + " / " + partition + " runs again, and its downstream nodes follow.", "Rerun");
      if (!ok) { S.outcome("info", "Rerun of " + node + " not sent."); return; }
      try {
        const r = await S.post(path + "/nodes/" + encodeURIComponent(node) + "/rerun");
        if (r.status === 200) S.outcome("ok", "Rerun of " + node + " submitted as " + r.body.runId + ".");
        else if (r.status === 409) S.outcome("refused", "Rerun of " + node + " " + (REFUSALS[r.body.outcome] || r.body.outcome)
          + (r.body.detail ? " — " + r.body.detail : "") + ".");
        else S.outcome("error", "Rerun of " + node + " failed: " + ((r.body && r.body.detail) || "HTTP " + r.status));
      } catch (e) {
        S.outcome("error", "Rerun of " + node + " failed: " + e.message);
      }
      reload();
    }

    async function cancel() {
      const ok = await S.confirmAction("Cancel this run?",
        "Every unfinished node of " + graph + " / " + partition + " is cancelled; running tasks are asked to stop.", "Cancel run");
      if (!ok) { S.outcome("info", "Cancel not sent."); return; }
      try {
        const r = await S.post(path + "/cancel");
        if (r.status === 200) S.outcome("ok", "Run cancelled.");
        else if (r.status === 409) S.outcome("refused", "Cancel refused: " + ((r.body && r.body.detail) || "the run is not active") + ".");
        else S.outcome("error", "Cancel failed: " + ((r.body && r.body.detail) || "HTTP " + r.status));
      } catch (e) {
        S.outcome("error", "Cancel failed: " + e.message);
      }
      reload();
    }

    const head = (r) => h("header", { class: "page-head" },
      h("h1", {}, h("a", { href: S.graphHref(graph) }, graph), " / ", partition, " ",
        h("span", { id: "run-state" }, S.badge(r.state))),
      S.facts([
        ["requested", S.time(r.requestedAt)],
        ["settled", S.time(r.settledAt)],
        ["definition", h("code", { title: r.definition }, S.shortHash(r.definition))]], true),
      h("div", { class: "actions" },
        h("button", { id: "cancel", class: "button danger", disabled: r.state !== "active", onclick: cancel,
          title: r.state === "active" ? "cancel every unfinished node" : "only an active run can be cancelled" }, "Cancel run")));

    const field = (label, value) => [label, value];

    const nodeCard = (n) => {
      const state = S.shown(n.state, n.instance && n.instance.state);
      const rec = n.record;
      const attempt = n.attempt == null ? "–" : n.attempt + (n.maxAttempts ? " of " + n.maxAttempts : "");
      const runId = n.instance ? n.instance.runId : rec ? rec.runId : null;
      const output = rec && rec.output != null ? JSON.stringify(rec.output, null, 2) : null;
      return h("article", { class: "node-card s-" + state, id: "node-" + n.name, dataset: { node: n.name, state } },
        h("header", {},
          h("h3", {}, n.name),
          S.badge(state),
          n.grownBy ? h("span", { class: "grown muted", title: "added to this run by the output of " + n.grownBy },
            "grown by " + n.grownBy) : null,
          n.instance ? h("span", { class: "instance muted" }, n.instance.state) : null,
          n.items ? h("span", { class: "items", title: "items done of the map's total" },
            n.items.total == null ? "no items" : n.items.done + "/" + n.items.total) : null,
          h("button", { class: "button small rerun", onclick: () => rerun(n.name), title: "run this node again" }, "Rerun")),
        S.facts([
          field("pool", n.pool),
          field("run id", runId ? h("code", {}, runId) : h("span", { class: "muted" }, "–")),
          field("attempt", attempt),
          n.startedAt ? field("started", S.time(n.startedAt)) : null,
          field("terminated", rec ? S.time(rec.terminatedAt) : h("span", { class: "muted" }, "–")),
          n.asset ? field("asset", h("code", {}, n.asset)) : null,
          (n.upstreams || []).length ? field("after", n.upstreams.join(", ")) : null]),
        n.instance && n.instance.waitingText
          ? h("p", { class: "waiting-lease small" }, "⏳ " + n.instance.waitingText) : null,
        rec && rec.error ? h("div", { class: "error-box" }, h("h4", {}, "error"), h("pre", { class: "error" }, rec.error)) : null,
        n.lastError ? h("div", { class: "error-box soft" }, h("h4", {}, "last attempt failed, retrying"),
          h("pre", { class: "error" }, n.lastError)) : null,
        n.items ? itemList(n) : null,
        output ? h("details", { class: "output", open: true }, h("summary", {}, "output"), h("pre", {}, output)) : null,
        rec && rec.outputOmitted ? h("p", { class: "muted small" }, "output omitted: it was too large to keep") : null);
    };

    /** A mapped node's items, each with its state, run id and a rerun of that one item. */
    const itemList = (n) => h("details", { class: "items-list", open: n.items.list.length <= 20 },
      h("summary", {}, n.items.succeeded + " succeeded · " + n.items.failed + " failed · " + n.items.active + " active"),
      h("ul", {}, ...n.items.list.map((it) => h("li", { dataset: { item: it.index, state: it.state } },
        h("code", {}, "[" + it.index + "]"), " ", S.badge(it.state), " ",
        it.runId ? h("code", { class: "muted" }, it.runId) : null,
        it.state === "failed" || it.state === "cancelled"
          ? h("button", { class: "button small rerun-item", onclick: () => rerun(n.name + "[" + it.index + "]"),
            title: "run this item again" }, "Rerun item") : null))));

    let shownJson = null;
    async function load() {
      try {
        const next = await S.get("/dashboard" + path);
        const json = JSON.stringify(next);
        if (json === shownJson) return; // unchanged: keep the page as it is (text selection, open details)
        shownJson = json;
        const run = next;
        document.getElementById("head").replaceChildren(head(run));
        const states = Object.fromEntries(run.nodes.map((n) => [n.name, { state: n.state, instance: n.instance && n.instance.state }]));
        window.SwaleDag.draw(document.getElementById("dag"), run.nodes, states, (n) => "#node-" + encodeURIComponent(n));
        document.getElementById("nodes").replaceChildren(...run.nodes.map(nodeCard));
      } catch (e) {
        shownJson = null; // the next answer redraws over the error, changed or not
        S.failure(document.getElementById("nodes"), e);
      }
    }

    const reload = S.debounced(load, 150);
    S.onLive((type, data) => {
      if (type === "snapshot") reload();
      else if (data.graph === graph && data.partition === partition) reload();
    });
    load();
  });
})();
