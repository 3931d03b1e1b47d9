/* Durations on the graph page: a node's run time over the runs of the graph's newest N partitions as a line chart, and the
 * slowest nodes with a sparkline each (click one to chart it). */
(function () {
  "use strict";
  const S = window.Swale;
  const { h } = S;
  const W = 640, H = 180, PAD_L = 56, PAD_B = 26, PAD_T = 10, PAD_R = 12;

  const median = (xs) => {
    if (!xs.length) return 0;
    const s = [...xs].sort((a, b) => a - b);
    return s[Math.floor(s.length / 2)];
  };
  const fmt = (ms) => (ms < 1000 ? ms + " ms" : ms < 60000 ? (ms / 1000).toFixed(ms < 10000 ? 1 : 0) + " s" : S.duration(ms));

  function series(data, node) {
    return data.runs.map((r) => ({ partition: r.partition, d: Object.hasOwn(r.nodes, node) ? r.nodes[node] : null }));
  }

  function chart(data, node) {
    const pts = series(data, node);
    const values = pts.filter((p) => p.d).map((p) => p.d.ms);
    if (!values.length) return h("p", { class: "muted" }, "No finished attempt of " + node + " in these runs.");
    const max = Math.max(1, ...values);
    const x = (i) => PAD_L + (pts.length === 1 ? 0 : (i * (W - PAD_L - PAD_R)) / (pts.length - 1));
    const y = (ms) => PAD_T + (H - PAD_T - PAD_B) * (1 - ms / max);
    const line = pts.map((p, i) => (p.d ? [x(i), y(p.d.ms)] : null)).filter(Boolean);
    const svg = h("svg:svg", { class: "trend", viewBox: "0 0 " + W + " " + H, role: "img", dataset: { node },
      "aria-label": "run time of " + node + " over the newest " + pts.length + " partitions" },
      h("svg:line", { x1: PAD_L, y1: PAD_T, x2: PAD_L, y2: H - PAD_B, class: "axis" }),
      h("svg:line", { x1: PAD_L, y1: H - PAD_B, x2: W - PAD_R, y2: H - PAD_B, class: "axis" }),
      h("svg:text", { x: PAD_L - 6, y: PAD_T + 4, class: "tick", "text-anchor": "end" }, fmt(max)),
      h("svg:text", { x: PAD_L - 6, y: H - PAD_B, class: "tick", "text-anchor": "end" }, "0"),
      h("svg:text", { x: PAD_L, y: H - 6, class: "tick" }, pts[0].partition),
      h("svg:text", { x: W - PAD_R, y: H - 6, class: "tick", "text-anchor": "end" }, pts[pts.length - 1].partition),
      h("svg:polyline", { class: "trend-line", points: line.map((p) => p.join(",")).join(" ") }),
      pts.map((p, i) => (p.d ? h("svg:a", { href: S.runHref(data.graph, p.partition, node) },
        h("svg:circle", { class: "point s-" + p.d.status, cx: x(i), cy: y(p.d.ms), r: 4,
          dataset: { partition: p.partition, ms: p.d.ms } },
        h("svg:title", {}, p.partition + ": " + fmt(p.d.ms) + " (" + p.d.status + ", attempt " + p.d.attempt + ")"))) : null)));
    return svg;
  }

  function spark(data, node) {
    const values = series(data, node).map((p) => (p.d ? p.d.ms : null));
    const max = Math.max(1, ...values.filter((v) => v !== null));
    const pts = values.map((v, i) => (v === null ? null : (i * 100) / Math.max(1, values.length - 1) + "," + (20 - (18 * v) / max)))
      .filter(Boolean).join(" ");
    return h("svg:svg", { class: "spark", viewBox: "0 0 100 22", preserveAspectRatio: "none", "aria-hidden": "true" },
      h("svg:polyline", { points: pts }));
  }

  S.part(() => {
    const graph = S.param("graph");
    const box = document.getElementById("trend");
    const form = document.getElementById("trend-form");
    const nodeSelect = h("select", { id: "trend-node", "aria-label": "node" });
    const runsSelect = h("select", { id: "trend-runs", "aria-label": "runs" },
      [10, 30, 100, 200].map((n) => h("option", { value: n, selected: n === 30 }, "newest " + n + " partitions")));
    form.replaceChildren(nodeSelect, runsSelect);
    let data = null, node = null;

    const draw = () => {
      const stats = data.nodes.map((n) => {
        const v = series(data, n).filter((p) => p.d).map((p) => p.d.ms);
        return { n, median: median(v), last: v.length ? v[v.length - 1] : null, max: v.length ? Math.max(...v) : null };
      }).sort((a, b) => b.median - a.median);
      if (!node || !data.nodes.includes(node)) node = stats.length ? stats[0].n : null;
      nodeSelect.replaceChildren(...data.nodes.map((n) => h("option", { value: n, selected: n === node }, n)));
      if (!node || !data.runs.length) { box.replaceChildren(h("p", { class: "muted" }, "No run yet.")); return; }
      box.replaceChildren(chart(data, node),
        h("table", { class: "slowest" },
          h("thead", {}, h("tr", {}, h("th", {}, "slowest nodes"), h("th", {}, "median"), h("th", {}, "last"), h("th", {}, "max"), h("th", {}, "trend"))),
          h("tbody", {}, stats.slice(0, 12).map((s) => h("tr", { dataset: { node: s.n }, class: s.n === node ? "selected" : "",
            onclick: () => { node = s.n; draw(); } },
          h("th", {}, s.n), h("td", {}, fmt(s.median)), h("td", {}, s.last === null ? "–" : fmt(s.last)),
          h("td", {}, s.max === null ? "–" : fmt(s.max)), h("td", {}, spark(data, s.n)))))));
    };

    const load = async () => {
      try {
        data = await S.get("/dashboard/graphs/" + encodeURIComponent(graph) + "/durations?runs=" + runsSelect.value);
        draw();
      } catch (e) {
        S.failure(box, e);
      }
    };
    nodeSelect.addEventListener("change", () => { node = nodeSelect.value; draw(); });
    runsSelect.addEventListener("change", load);
    const reload = S.debounced(load, 2000);
    S.onLive((type, d) => { if (type === "run" && d.graph === graph && d.state !== "active") reload(); });
    load();
  });
})();
