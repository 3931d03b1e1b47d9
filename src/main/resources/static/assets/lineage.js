/* The assets page: assets drawn as a lineage DAG (an arrow from each asset to those made from it, across
 * every adopted graph), and every asset with its producer, consumers and newest record. */
(function () {
  "use strict";
  const S = window.Swale;
  const { h } = S;

  const ref = (r) => h("span", { class: "ref" }, h("a", { href: S.graphHref(r.graph) }, r.graph), " · ", r.node);

  S.page(() => {
    document.title = "Assets · Swale";
    const only = h("select", { id: "lineage-graph", "aria-label": "graph" });
    let data = null;

    const draw = () => {
      const shown = data.assets.filter((a) => !only.value || (a.producer && a.producer.graph === only.value));
      const nodes = shown.map((a) => ({ name: a.asset, asset: a.producer ? a.producer.graph + " · " + a.producer.node : null,
        upstreams: a.upstreams }));
      const states = Object.fromEntries(shown.map((a) => [a.asset, { state: a.newest ? a.newest.status : "none" }]));
      window.SwaleDag.draw(document.getElementById("lineage"), nodes, states,
        (name) => "#asset-" + encodeURIComponent(name));
      document.getElementById("assets").replaceChildren(shown.length ? h("div", { class: "grid-scroll" }, h("table", { class: "assets-table" },
        h("thead", {}, h("tr", {}, ["asset", "produced by", "made from", "consumed by", "newest record"].map((c) => h("th", { scope: "col" }, c)))),
        h("tbody", {}, shown.map((a) => h("tr", { id: "asset-" + a.asset, dataset: { asset: a.asset } },
          h("th", { scope: "row" }, h("code", {}, a.asset)),
          h("td", { class: "producer" }, a.producer ? ref(a.producer) : h("span", { class: "muted" }, "no graph")),
          h("td", { class: "upstreams" }, a.upstreams.length ? a.upstreams.map((u, i) => [i ? ", " : "", h("code", {}, u)])
            : h("span", { class: "muted" }, "–")),
          h("td", { class: "consumers" }, a.consumers.length ? a.consumers.map((c, i) => [i ? ", " : "", ref(c)])
            : h("span", { class: "muted" }, "none")),
          h("td", { class: "newest" }, a.newest ? h("span", {}, S.badge(a.newest.status), " ",
            h("a", { href: S.runHref(a.producer.graph, a.newest.partition, a.producer.node) }, a.newest.partition), " ",
            S.time(a.newest.terminatedAt)) : h("span", { class: "muted" }, "no record yet")))))))
        : h("p", { class: "muted" }, "No asset yet."));
    };

    const load = async () => {
      try {
        data = await S.get("/dashboard/assets");
        const keep = only.value;
        only.replaceChildren(h("option", { value: "" }, "every graph"),
          ...data.graphs.map((g) => h("option", { value: g, selected: g === keep }, g)));
        draw();
      } catch (e) {
        S.failure(document.getElementById("assets"), e);
      }
    };
    only.addEventListener("change", draw);
    document.getElementById("lineage-filter").replaceChildren(only);
    const reload = S.debounced(load, 1000);
    S.onLive((type, d) => { if (type === "graph" || (type === "run" && d.state !== "active")) reload(); });
    load();
  });
})();
