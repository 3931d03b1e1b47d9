/* Draws a graph as SVG: nodes in columns by level (longest path from a root), ordered within a column
 * to keep edges short, edges as curved arrows from upstream to downstream. No library. */
(function () {
  "use strict";
  const { h, GLYPH } = window.Swale;

  const NODE_H = 46, GAP_X = 52, GAP_Y = 18, PAD = 12, MIN_W = 110, MAX_W = 230, INSET = 46;
  const NAME_FONT = "600 13px", ASSET_FONT = "11.5px";

  /** Text width in px with the page's fonts (a fair estimate where no canvas is available). */
  let ctx = null;
  function measure(text, font, mono) {
    if (typeof document !== "undefined" && !ctx) ctx = document.createElement("canvas").getContext("2d");
    if (!ctx) return text.length * (mono ? 7 : 8);
    const css = getComputedStyle(document.documentElement);
    ctx.font = font + " " + (mono ? css.getPropertyValue("--mono") : css.fontFamily);
    return ctx.measureText(text).width;
  }

  /** nodes: [{name, asset, upstreams}] → {pos: Map(name → {x, y, w, level}), width, height}. */
  function layout(nodes) {
    const byName = new Map(nodes.map((n) => [n.name, n]));
    const ups = (n) => (n.upstreams || []).filter((u) => byName.has(u));
    const level = new Map();
    const levelOf = (name, seen = new Set()) => {
      if (level.has(name)) return level.get(name);
      if (seen.has(name)) return 0; // a cycle cannot be adopted; guard anyway
      seen.add(name);
      const l = ups(byName.get(name)).reduce((m, u) => Math.max(m, levelOf(u, seen) + 1), 0);
      level.set(name, l);
      return l;
    };
    nodes.forEach((n) => levelOf(n.name));

    const columns = [];
    nodes.forEach((n) => (columns[level.get(n.name)] ||= []).push(n.name));
    const downs = new Map(nodes.map((n) => [n.name, []]));
    nodes.forEach((n) => ups(n).forEach((u) => downs.get(u).push(n.name)));

    // Barycentre ordering: a few sweeps down and up the levels.
    const index = new Map();
    const reindex = () => columns.forEach((c) => c.forEach((name, i) => index.set(name, i)));
    reindex();
    const bary = (names) => {
      const ns = names.filter((x) => index.has(x));
      return ns.length ? ns.reduce((s, x) => s + index.get(x), 0) / ns.length : null;
    };
    const sweep = (col, neighbours) => {
      const keyed = col.map((name, i) => [name, bary(neighbours(name)) ?? i]);
      keyed.sort((a, b) => a[1] - b[1]);
      keyed.forEach(([name], i) => { col[i] = name; });
      reindex();
    };
    for (let pass = 0; pass < 3; pass++) {
      for (let l = 1; l < columns.length; l++) sweep(columns[l], (n) => ups(byName.get(n)));
      for (let l = columns.length - 2; l >= 0; l--) sweep(columns[l], (n) => downs.get(n));
    }

    const width = (n) => Math.min(MAX_W, Math.max(MIN_W,
      Math.max(measure(n.name, NAME_FONT), measure("⬡ " + (n.asset || ""), ASSET_FONT, true)) + INSET));
    const colW = columns.map((c) => Math.max(...c.map((name) => width(byName.get(name)))));
    const tallest = Math.max(...columns.map((c) => c.length));
    const totalH = tallest * NODE_H + (tallest - 1) * GAP_Y;
    const pos = new Map();
    let x = PAD;
    columns.forEach((c, l) => {
      const colH = c.length * NODE_H + (c.length - 1) * GAP_Y;
      let y = PAD + (totalH - colH) / 2;
      c.forEach((name) => {
        pos.set(name, { x, y, w: colW[l], level: l });
        y += NODE_H + GAP_Y;
      });
      x += colW[l] + GAP_X;
    });
    return { pos, width: x - GAP_X + PAD, height: totalH + 2 * PAD };
  }

  /**
   * Renders into `container`. states: {node: {state, instance}}; href(node) → link or null.
   * Each node is a <g class="node s-STATE" data-node data-state>.
   */
  function draw(container, nodes, states, href) {
    if (!nodes.length) {
      container.replaceChildren(h("p", { class: "muted" }, "no nodes"));
      return;
    }
    const { pos, width, height } = layout(nodes);
    const svg = h("svg:svg", {
      class: "dag", viewBox: "0 0 " + width + " " + height, width, height, role: "img",
      "aria-label": "graph of " + nodes.length + " nodes",
      style: "min-width:" + Math.round(width * 0.6) + "px",
    });
    svg.append(h("svg:defs", {}, h("svg:marker", {
      id: "arrow", viewBox: "0 0 10 10", refX: 9, refY: 5, markerWidth: 7, markerHeight: 7, orient: "auto-start-reverse",
    }, h("svg:path", { d: "M 0 0 L 10 5 L 0 10 z", class: "arrow-head" }))));

    const edges = h("svg:g", { class: "edges" });
    for (const n of nodes) {
      const to = pos.get(n.name);
      for (const u of n.upstreams || []) {
        const from = pos.get(u);
        if (!from) continue;
        const x1 = from.x + from.w, y1 = from.y + NODE_H / 2, x2 = to.x - 2, y2 = to.y + NODE_H / 2;
        const dx = Math.max(24, (x2 - x1) / 2);
        edges.append(h("svg:path", {
          class: "edge", "marker-end": "url(#arrow)", dataset: { from: u, to: n.name },
          d: `M ${x1} ${y1} C ${x1 + dx} ${y1}, ${x2 - dx} ${y2}, ${x2} ${y2}`,
        }));
      }
    }
    svg.append(edges);

    for (const n of nodes) {
      const p = pos.get(n.name);
      const cell = (states && states[n.name]) || null;
      const state = cell ? window.Swale.shown(cell.state, cell.instance) : "none";
      const glyph = GLYPH[state] || "";
      const g = h("svg:g", { class: "node s-" + state, dataset: { node: n.name, state } },
        h("svg:title", {}, n.name + (n.asset ? " → asset " + n.asset : " (task)") + "\nstate: " + state
          + (n.operator ? "\noperator: " + n.operator : "") + (n.pool ? "\npool: " + n.pool : "")),
        h("svg:rect", { x: p.x, y: p.y, width: p.w, height: NODE_H, rx: 8, ry: 8 }),
        h("svg:text", { x: p.x + 12, y: p.y + (n.asset ? 19 : 28), class: "name" }, fit(n.name, NAME_FONT, false, p.w - INSET)),
        n.asset ? h("svg:text", { x: p.x + 12, y: p.y + 35, class: "asset" },
          fit("⬡ " + n.asset, ASSET_FONT, true, p.w - INSET + 18)) : null,
        glyph ? h("svg:text", { x: p.x + p.w - 10, y: p.y + 19, class: "glyph", "text-anchor": "end" }, glyph) : null);
      const link = href && href(n.name);
      svg.append(link ? h("svg:a", { href: link }, g) : g);
    }
    container.replaceChildren(svg);
  }

  /** The text, cut with an ellipsis where it would not fit in `max` px. */
  function fit(text, font, mono, max) {
    if (measure(text, font, mono) <= max) return text;
    let cut = text.length;
    while (cut > 1 && measure(text.slice(0, cut) + "…", font, mono) > max) cut--;
    return text.slice(0, cut) + "…";
  }

  window.SwaleDag = { layout, draw };
})();
