/* Start a run from the graph page, with a partition picker that fits the graph's partitioning. */
(function () {
  "use strict";
  const S = window.Swale;
  const P = window.SwalePartitions;
  const { h } = S;

  S.part(async () => {
    const graph = S.param("graph");
    const form = document.getElementById("start-form");
    let g;
    try {
      g = await S.get("/graphs/" + encodeURIComponent(graph));
    } catch (e) {
      document.getElementById("start-panel").hidden = true; // no adopted definition: nothing to start
      return;
    }
    const input = P.input(g.partitioning, { id: "start-partition", name: "partition", "aria-label": "partition" });
    form.replaceChildren(h("label", {}, "partition ", input),
      h("button", { class: "button", id: "start-run", type: "submit" }, "Start run"),
      h("span", { class: "muted small hint" }, g.partitioning + " partitions: " + P.format(g.partitioning)));
    form.addEventListener("submit", async (ev) => {
      ev.preventDefault();
      const key = P.key(g.partitioning, input);
      if (!key) return;
      const ok = await S.confirmAction("Start " + graph + " / " + key + "?",
        "A run of partition " + key + " starts with the adopted definition.", "Start run");
      if (!ok) { S.outcome("info", "Start not sent."); return; }
      const r = await S.post("/graphs/" + encodeURIComponent(graph) + "/runs", { partitions: [key] });
      if (r.status === 200 && r.body.started.length) {
        S.outcome("ok", "");
        document.querySelector("#outcome .outcome").replaceChildren("Started ",
          h("a", { href: S.runHref(graph, key) }, graph + " / " + key), ".");
      } else if (r.status === 200) {
        S.outcome("refused", "Partition " + key + " already has a run: rerun its nodes from the run page.");
      } else {
        S.outcome("error", "Start refused: " + ((r.body && r.body.detail) || "HTTP " + r.status));
      }
    });
  });
})();
