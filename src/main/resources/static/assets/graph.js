/* The graph page: the DAG coloured by the selected run, and the partitions × nodes grid, newest first. */
(function () {
  "use strict";
  const S = window.Swale;
  const { h } = S;
  const PAGE = 25;
  const STATES = ["succeeded", "failed", "cancelled", "running", "ready", "waiting", "blocked"];

  S.page(() => {
    const graph = S.param("graph");
    let offset = Math.max(0, parseInt(S.param("offset") || "0", 10) || 0);
    let selected = S.param("partition");
    const filter = { state: S.param("state") || "", from: S.param("from") || "", to: S.param("to") || "" };
    document.title = graph + " · Swale";
    document.getElementById("crumbs").replaceChildren(
      h("a", { href: "./" }, "Graphs"), h("span", { class: "sep" }, "›"), h("span", {}, graph));
    document.getElementById("legend").replaceChildren(...STATES.map((s) => S.badge(s)));

    const head = (g) => h("header", { class: "page-head" },
      h("h1", {}, g.graph),
      S.facts([
        ["schedule", g.schedule ? h("code", {}, g.schedule) : "manual"],
        ["partitions", g.partitioning || "–"],
        ["definition", h("a", { href: "definition.html?graph=" + encodeURIComponent(graph), title: g.definition || "" },
          h("code", {}, S.shortHash(g.definition)))],
        ["runs", String(g.runsOfGraph)]], true),
      h("div", { class: "actions" },
        g.partitioning && g.partitioning !== "none"
          ? h("a", { class: "button small", id: "backfill-link", href: "backfill.html?graph=" + encodeURIComponent(graph) }, "Backfill…") : null,
        h("a", { class: "button small", href: "definition.html?graph=" + encodeURIComponent(graph) }, "Definition")));

    const drawDag = (g) => {
      const row = g.runs.find((r) => r.partition === selected) || g.runs[0] || null;
      const title = document.getElementById("dag-title");
      title.replaceChildren("Graph", row ? h("span", { class: "muted" }, " · run ",
        h("a", { href: S.runHref(graph, row.partition) }, row.partition), " ", S.badge(row.state)) : "");
      window.SwaleDag.draw(document.getElementById("dag"), g.nodes, row ? row.cells : null,
        row ? (n) => S.runHref(graph, row.partition, n) : null);
      for (const tr of document.querySelectorAll("#grid tr[data-partition]")) {
        tr.classList.toggle("selected", !!row && tr.dataset.partition === row.partition);
      }
    };

    const table = (g) => {
      if (!g.runs.length) return h("p", { class: "muted" }, filter.state || filter.from || filter.to ? "No run matches." : "No run yet.");
      const thead = h("thead", {}, h("tr", {},
        h("th", { class: "part", scope: "col" }, "partition"),
        h("th", { class: "run-state", scope: "col" }, "run"),
        g.nodes.map((n) => h("th", { class: "node-col", scope: "col", title: n.name },
          h("span", {}, n.name)))));
      const rows = g.runs.map((r) => h("tr", {
        dataset: { partition: r.partition, state: r.state },
        onclick: (ev) => {
          if (ev.target.closest("a")) return;
          selected = r.partition;
          drawDag(g);
        },
      },
      h("th", { class: "part", scope: "row" }, h("a", { href: S.runHref(graph, r.partition) }, r.partition)),
      h("td", { class: "run-state" }, S.badge(r.state)),
      g.nodes.map((n) => {
        const c = Object.hasOwn(r.cells, n.name) ? r.cells[n.name] : null;
        if (!c) return h("td", { class: "cell-td" }, h("span", { class: "cell s-none", title: n.name + ": not in this run's definition" }));
        const state = S.shown(c.state, c.instance);
        return h("td", { class: "cell-td", dataset: { node: n.name, state } },
          h("a", {
            class: "cell s-" + state, href: S.runHref(graph, r.partition, n.name),
            title: r.partition + " · " + n.name + ": " + state + (c.instance && state !== "running" ? " (" + c.instance + ")" : ""),
            "aria-label": n.name + " " + state,
          }, S.GLYPH[state] || ""));
      })));
      return h("div", { class: "grid-scroll" }, h("table", { id: "grid-table", class: "grid" }, thead, h("tbody", {}, rows)));
    };

    const setParams = () => {
      const url = new URL(location.href);
      url.searchParams.set("offset", String(offset));
      for (const k of ["state", "from", "to"]) {
        if (filter[k]) url.searchParams.set(k, filter[k]); else url.searchParams.delete(k);
      }
      history.replaceState(null, "", url);
    };

    const pager = (g) => {
      const first = g.runs.length === 0 ? 0 : g.offset + 1;
      const lastShown = g.offset + g.runs.length;
      const go = (o) => () => {
        offset = Math.max(0, o);
        setParams();
        load();
      };
      const of = g.matched !== null && g.matched !== undefined ? " of " + g.matched : g.more ? " of more" : "";
      return [
        h("button", { class: "button small newer", disabled: g.offset === 0, onclick: go(g.offset - PAGE) }, "‹ newer"),
        h("span", { class: "range" }, first + "–" + lastShown + of),
        h("button", { class: "button small older", disabled: !g.more, onclick: go(g.offset + PAGE) }, "older ›"),
      ];
    };

    // The filter: a run state, and a partition range (keys as the graph writes them, both included).
    const stateSelect = h("select", { id: "filter-state", "aria-label": "run state" },
      h("option", { value: "" }, "every state"),
      ["active", "complete", "failed", "cancelled"].map((st) => h("option", { value: st, selected: filter.state === st }, st)));
    const fromInput = h("input", { id: "filter-from", type: "text", size: 12, placeholder: "from partition", value: filter.from,
      pattern: "[A-Za-z0-9_]{1,16}", "aria-label": "from partition" });
    const toInput = h("input", { id: "filter-to", type: "text", size: 12, placeholder: "to partition", value: filter.to,
      pattern: "[A-Za-z0-9_]{1,16}", "aria-label": "to partition" });
    const filterForm = document.getElementById("grid-filter");
    filterForm.replaceChildren(stateSelect, fromInput, toInput,
      h("button", { class: "button small", type: "submit", id: "filter-apply" }, "Filter"));
    filterForm.addEventListener("submit", (ev) => {
      ev.preventDefault();
      filter.state = stateSelect.value;
      filter.from = fromInput.value.trim();
      filter.to = toInput.value.trim();
      offset = 0;
      setParams();
      load();
    });
    stateSelect.addEventListener("change", () => filterForm.requestSubmit());

    const query = () => "offset=" + offset + "&limit=" + PAGE
      + ["state", "from", "to"].map((k) => (filter[k] ? "&" + k + "=" + encodeURIComponent(filter[k]) : "")).join("");

    let shownJson = null;
    async function load() {
      try {
        const g = await S.get("/dashboard/graphs/" + encodeURIComponent(graph) + "/grid?" + query());
        const json = JSON.stringify(g);
        if (json === shownJson) return; // unchanged: keep the page as it is
        shownJson = json;
        document.getElementById("head").replaceChildren(head(g));
        document.getElementById("grid").replaceChildren(table(g));
        document.getElementById("pager").replaceChildren(...pager(g));
        drawDag(g);
      } catch (e) {
        shownJson = null; // the next answer redraws over the error, changed or not
        S.failure(document.getElementById("grid"), e);
      }
    }

    const reload = S.debounced(load, 200);
    S.onLive((type, data) => {
      if (type === "snapshot") reload();
      else if ((type === "run" || type === "graph") && data.graph === graph) reload();
      else if ((type === "started" || type === "cleared") && data.graph === graph) reload();
    });
    load();
  });
})();
