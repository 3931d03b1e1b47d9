/* The run page's timeline: one row per node, bars for the wait in the queue, each attempt (coloured by its
 * outcome, so a retry shows) and the waits between attempts; open bars grow until they end. */
(function () {
  "use strict";
  const S = window.Swale;
  const { h } = S;
  const LABEL = 150, ROW = 24, BAR = 14, AXIS = 22, RIGHT = 16, MIN_W = 2;

  const fmt = (ms) => (ms < 1000 ? Math.round(ms) + " ms" : ms < 60000 ? (ms / 1000).toFixed(1) + " s" : S.duration(ms));
  const OUTCOME_STATE = { succeeded: "succeeded", failed: "failed", cancelled: "cancelled", retry: "blocked",
    lease_expired: "failed", released: "waiting", continue: "ready", running: "running", cancelling: "running" };

  function draw(box, t) {
    const width = Math.max(480, box.clientWidth || 800);
    const span = Math.max(1, t.to - t.from);
    const x = (ms) => LABEL + ((ms - t.from) * (width - LABEL - RIGHT)) / span;
    const height = AXIS + t.nodes.length * ROW + 4;
    const svg = h("svg:svg", { class: "gantt", viewBox: "0 0 " + width + " " + height, width, height, role: "img",
      "aria-label": "timeline of " + t.nodes.length + " nodes over " + fmt(span) });
    for (let i = 0; i <= 4; i++) {
      const at = t.from + (span * i) / 4;
      svg.append(h("svg:line", { class: "tick-line", x1: x(at), x2: x(at), y1: AXIS - 4, y2: height }),
        h("svg:text", { class: "tick", x: x(at), y: 12, "text-anchor": i === 0 ? "start" : i === 4 ? "end" : "middle" },
          "+" + fmt(at - t.from)));
    }
    t.nodes.forEach((n, row) => {
      const y = AXIS + row * ROW;
      const g = h("svg:g", { class: "gantt-row", dataset: { node: n.name, state: n.state, attempts: n.attempts, retried: n.retried } },
        h("svg:text", { class: "label", x: LABEL - 8, y: y + ROW / 2 + 4, "text-anchor": "end" },
          n.name.length > 20 ? n.name.slice(0, 19) + "…" : n.name, n.retried ? " ↻" : ""));
      for (const b of n.bars) {
        const end = b.to === null ? t.now : b.to;
        const state = b.kind === "run" ? OUTCOME_STATE[b.outcome] || "cancelled" : "waiting";
        const bx = x(b.from);
        const rect = h("svg:rect", {
          class: "bar k-" + b.kind + " s-" + state + (b.to === null ? " open" : ""),
          x: bx, y: y + (ROW - BAR) / 2 + (b.kind === "run" ? 0 : 3), width: Math.max(MIN_W, x(end) - bx),
          height: b.kind === "run" ? BAR : BAR - 6, rx: 3,
          dataset: { kind: b.kind, attempt: b.attempt, outcome: b.outcome, runId: b.runId },
        }, h("svg:title", {}, n.name + " · " + b.runId + " · " + (b.kind === "run" ? "attempt " + b.attempt + ": " + b.outcome
          : b.kind === "queue" ? "waiting in the queue" : "waiting before attempt " + b.attempt) + " · " + fmt(end - b.from)
          + (b.error ? "\n" + b.error : "")));
        g.append(rect);
      }
      svg.append(g);
    });
    box.replaceChildren(svg, h("div", { class: "legend gantt-legend" },
      h("span", {}, h("i", { class: "key k-queue" }), "queue / wait"),
      ["succeeded", "failed", "retry", "running"].map((o) => h("span", {}, h("i", { class: "key s-" + OUTCOME_STATE[o] }), o))));
  }

  S.part(() => {
    const graph = S.param("graph");
    const partition = S.param("partition");
    const box = document.getElementById("gantt");
    let data = null;
    const load = async () => {
      try {
        data = await S.get("/dashboard/graphs/" + encodeURIComponent(graph) + "/runs/" + encodeURIComponent(partition) + "/timeline");
        data.loadedAt = Date.now();
        draw(box, data);
      } catch (e) {
        S.failure(box, e);
      }
    };
    const reload = S.debounced(load, 300);
    S.onLive((type, d) => {
      if (type === "snapshot") reload();
      else if (d.graph === graph && d.partition === partition) reload();
    });
    // Open bars (running, queued) grow with the clock between events.
    setInterval(() => {
      if (!data || !data.nodes.some((n) => n.bars.some((b) => b.to === null))) return;
      const now = Date.now() - (data.loadedAt || Date.now()) + data.now;
      draw(box, { ...data, now, to: Math.max(data.to, now) });
    }, 1000);
    window.addEventListener("resize", S.debounced(() => data && draw(box, data), 200));
    load();
  });
})();
