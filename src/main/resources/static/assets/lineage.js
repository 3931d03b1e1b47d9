/* The assets page: graphs linked by the assets they produce and consume (drawn as a DAG), and every asset
 * with its producer, consumers and newest record. */
(function () {
  "use strict";
  const S = window.Swale;
  const { h } = S;

  const ref = (r) => h("span", { class: "ref" }, h("a", { href: S.graphHref(r.graph) }, r.graph), " · ", r.node);

  S.page(() => {
    document.title = "Assets · Swale";
    const load = async () => {
      try {
        const l = await S.get("/dashboard/assets");
        const ups = new Map(l.graphs.map((g) => [g, new Set()]));
        const via = new Map(l.graphs.map((g) => [g, []]));
        for (const e of l.edges) { ups.get(e.to).add(e.from); via.get(e.from).push(e.asset); }
        const nodes = l.graphs.map((g) => ({ name: g, asset: via.get(g).length ? [...new Set(via.get(g))].join(", ") : null,
          upstreams: [...ups.get(g)] }));
        window.SwaleDag.draw(document.getElementById("lineage"), nodes, null, (g) => S.graphHref(g));
        document.getElementById("assets").replaceChildren(l.assets.length ? h("div", { class: "grid-scroll" }, h("table", { class: "assets-table" },
          h("thead", {}, h("tr", {}, ["asset", "produced by", "consumed by", "newest record"].map((c) => h("th", { scope: "col" }, c)))),
          h("tbody", {}, l.assets.map((a) => h("tr", { dataset: { asset: a.asset } },
            h("th", { scope: "row" }, h("code", {}, a.asset)),
            h("td", { class: "producer" }, a.producer ? ref(a.producer) : h("span", { class: "muted" }, "no graph")),
            h("td", { class: "consumers" }, a.consumers.length ? a.consumers.map((c, i) => [i ? ", " : "", ref(c)])
              : h("span", { class: "muted" }, "none")),
            h("td", { class: "newest" }, a.newest ? h("span", {}, S.badge(a.newest.status), " ",
              h("a", { href: S.runHref(a.producer.graph, a.newest.partition, a.producer.node) }, a.newest.partition), " ",
              S.time(a.newest.terminatedAt)) : h("span", { class: "muted" }, "no record yet")))))))
          : h("p", { class: "muted" }, "No asset yet."));
      } catch (e) {
        S.failure(document.getElementById("assets"), e);
      }
    };
    const reload = S.debounced(load, 1000);
    S.onLive((type, d) => { if (type === "graph" || (type === "run" && d.state !== "active")) reload(); });
    load();
  });
})();
