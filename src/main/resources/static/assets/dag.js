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

  /**
   * nodes: [{name, asset, upstreams}] → {pos: Map(name → {x, y, w}), routes: [{from, to, points}], width, height}.
   * An edge that skips levels passes through a waypoint in each level between, placed like a (thin) node,
   * so it bends around the nodes in its way instead of crossing them.
   */
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

    // Items are nodes and waypoints; each edge becomes a chain of items one level apart.
    const items = new Map(nodes.map((n) => [n.name, { id: n.name, node: n, level: level.get(n.name), h: NODE_H }]));
    const up = new Map([...items.keys()].map((k) => [k, []]));
    const down = new Map([...items.keys()].map((k) => [k, []]));
    const link = (a, b) => { up.get(b).push(a); down.get(a).push(b); };
    const chains = [];
    for (const n of nodes) {
      for (const u of ups(n)) {
        const chain = [u];
        for (let l = level.get(u) + 1; l < level.get(n.name); l++) {
          const id = "\u0000" + u + "\u0000" + n.name + "\u0000" + l;
          items.set(id, { id, node: null, level: l, h: 10 });
          up.set(id, []);
          down.set(id, []);
          chain.push(id);
        }
        chain.push(n.name);
        for (let i = 1; i < chain.length; i++) link(chain[i - 1], chain[i]);
        chains.push({ from: u, to: n.name, chain });
      }
    }

    const columns = [];
    for (const it of items.values()) (columns[it.level] ||= []).push(it.id);

    // Barycentre ordering: a few sweeps down and up the levels.
    const index = new Map();
    const reindex = () => columns.forEach((c) => c.forEach((id, i) => index.set(id, i)));
    reindex();
    const bary = (ids) => (ids.length ? ids.reduce((s, x) => s + index.get(x), 0) / ids.length : null);
    const sweep = (col, neighbours) => {
      const keyed = col.map((id, i) => [id, bary(neighbours(id)) ?? i, i]);
      keyed.sort((a, b) => a[1] - b[1] || a[2] - b[2]);
      keyed.forEach(([id], i) => { col[i] = id; });
      reindex();
    };
    for (let pass = 0; pass < 4; pass++) {
      for (let l = 1; l < columns.length; l++) sweep(columns[l], (id) => up.get(id));
      for (let l = columns.length - 2; l >= 0; l--) sweep(columns[l], (id) => down.get(id));
    }

    const width = (n) => Math.min(MAX_W, Math.max(MIN_W,
      Math.max(measure(n.name, NAME_FONT), measure("⬡ " + (n.asset || ""), ASSET_FONT, true),
        n.grownBy ? measure("grown by " + n.grownBy, ASSET_FONT, false) : 0) + INSET));
    const colW = columns.map((c) => Math.max(24, ...c.filter((id) => items.get(id).node).map((id) => width(items.get(id).node))));
    const colH = columns.map((c) => c.reduce((s, id) => s + items.get(id).h, 0) + (c.length - 1) * GAP_Y);
    const totalH = Math.max(...colH);
    const pos = new Map();
    let x = PAD;
    columns.forEach((c, l) => {
      let y = PAD + (totalH - colH[l]) / 2;
      c.forEach((id) => {
        const it = items.get(id);
        pos.set(id, { x, y, w: colW[l], h: it.h });
        y += it.h + GAP_Y;
      });
      x += colW[l] + GAP_X;
    });

    // Each route: out of the upstream's right side, level through each waypoint, into the downstream's left.
    const routes = chains.map(({ from, to, chain }) => {
      const points = [];
      chain.forEach((id, i) => {
        const p = pos.get(id);
        const yc = p.y + p.h / 2;
        if (i === 0) points.push([p.x + p.w, yc]);
        else if (i === chain.length - 1) points.push([p.x - 2, yc]);
        else points.push([p.x, yc], [p.x + p.w, yc]);
      });
      return { from, to, points };
    });
    const nodePos = new Map(nodes.map((n) => [n.name, pos.get(n.name)]));
    return { pos: nodePos, routes, width: x - GAP_X + PAD, height: totalH + 2 * PAD };
  }

  /** A path through the points: curves across the gaps between levels, straight through waypoints. */
  function path(points) {
    let d = "M " + points[0][0] + " " + points[0][1];
    for (let i = 1; i < points.length; i++) {
      const [x1, y1] = points[i - 1], [x2, y2] = points[i];
      if (i % 2 === 1) {
        const dx = Math.max(16, (x2 - x1) / 2);
        d += ` C ${x1 + dx} ${y1}, ${x2 - dx} ${y2}, ${x2} ${y2}`;
      } else {
        d += ` L ${x2} ${y2}`;
      }
    }
    return d;
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
    const { pos, routes, width, height } = layout(nodes);
    const svg = h("svg:svg", {
      class: "dag", viewBox: "0 0 " + width + " " + height, width, height, role: "img",
      "aria-label": "graph of " + nodes.length + " nodes",
      style: "min-width:" + Math.round(width * 0.6) + "px",
    });
    svg.append(h("svg:defs", {}, h("svg:marker", {
      id: "arrow", viewBox: "0 0 10 10", refX: 9, refY: 5, markerWidth: 7, markerHeight: 7, orient: "auto-start-reverse",
    }, h("svg:path", { d: "M 0 0 L 10 5 L 0 10 z", class: "arrow-head" }))));

    const edges = h("svg:g", { class: "edges" });
    for (const r of routes) {
      edges.append(h("svg:path", { class: "edge", "marker-end": "url(#arrow)", dataset: { from: r.from, to: r.to }, d: path(r.points) }));
    }
    svg.append(edges);

    for (const n of nodes) {
      const p = pos.get(n.name);
      const cell = (states && Object.hasOwn(states, n.name) && states[n.name]) || null;
      const state = cell ? window.Swale.shown(cell.state, cell.instance) : "none";
      const glyph = GLYPH[state] || "";
      const g = h("svg:g", { class: "node s-" + state, dataset: { node: n.name, state } },
        h("svg:title", {}, n.name + (n.asset ? " → asset " + n.asset : " (task)") + "\nstate: " + state
          + (n.operator ? "\noperator: " + n.operator : "") + (n.pool ? "\npool: " + n.pool : "")
          + (n.grownBy ? "\ngrown by " + n.grownBy : "")),
        h("svg:rect", { x: p.x, y: p.y, width: p.w, height: NODE_H, rx: 8, ry: 8 }),
        h("svg:text", { x: p.x + 12, y: p.y + (n.asset || n.grownBy ? 19 : 28), class: "name" }, fit(n.name, NAME_FONT, false, p.w - INSET)),
        n.asset ? h("svg:text", { x: p.x + 12, y: p.y + 35, class: "asset" },
          fit("⬡ " + n.asset, ASSET_FONT, true, p.w - INSET + 18)) : null,
        // a node a declared growth added to this run (docs/dynamic-graphs.md §8.8)
        n.grownBy && !n.asset ? h("svg:text", { x: p.x + 12, y: p.y + 35, class: "grown" },
          fit("grown by " + n.grownBy, ASSET_FONT, false, p.w - INSET + 18)) : null,
        glyph ? h("svg:text", { x: p.x + p.w - 10, y: p.y + 19, class: "glyph", "text-anchor": "end" }, glyph) : null,
        // a mapped node: items done of its total
        n.items && n.items.total != null ? h("svg:text", { x: p.x + p.w - 10, y: p.y + 37, class: "items",
          "text-anchor": "end" }, n.items.done + "/" + n.items.total) : null);
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
