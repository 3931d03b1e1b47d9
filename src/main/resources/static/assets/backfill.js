/* The backfill page: a range and a mode, a dry run that lists what each partition would get (start, rerun
 * of failed nodes, or skip), then the backfill itself after a confirmation. */
(function () {
  "use strict";
  const S = window.Swale;
  const P = window.SwalePartitions;
  const { h } = S;
  const ACTION_STATE = { start: "ready", rerun: "blocked", skip: "waiting" };

  S.page(async () => {
    const graph = S.param("graph");
    const path = "/graphs/" + encodeURIComponent(graph);
    document.title = "Backfill " + graph + " · Swale";
    document.getElementById("crumbs").replaceChildren(
      h("a", { href: "./" }, "Graphs"), h("span", { class: "sep" }, "›"),
      h("a", { href: S.graphHref(graph) }, graph), h("span", { class: "sep" }, "›"), h("span", {}, "backfill"));

    let g;
    try {
      g = await S.get(path);
    } catch (e) {
      S.failure(document.getElementById("head"), e);
      return;
    }
    document.getElementById("head").replaceChildren(h("header", { class: "page-head" },
      h("h1", {}, "Backfill ", h("a", { href: S.graphHref(graph) }, graph)),
      S.facts([["partitions", g.partitioning], ["definition", h("code", {}, S.shortHash(g.definition))]], true)));
    const form = document.getElementById("backfill-form");
    if (g.partitioning === "none") {
      form.replaceChildren(h("p", { class: "muted" }, "This graph is not partitioned by time: there is nothing to backfill. "
        + "Start a run from the graph page instead."));
      return;
    }
    const now = new Date();
    const week = new Date(now.getTime() - 6 * (g.partitioning === "daily" ? 86400000 : 3600000));
    const from = P.input(g.partitioning, { id: "from", name: "from" }, week);
    const to = P.input(g.partitioning, { id: "to", name: "to" }, now);
    const mode = h("select", { id: "mode", name: "mode" },
      h("option", { value: "missing" }, "missing: start partitions without a run"),
      h("option", { value: "failed" }, "failed: also rerun failed nodes of failed runs"));
    const preview = h("button", { class: "button", id: "preview", type: "submit" }, "Preview (dry run)");
    const start = h("button", { class: "button danger", id: "start", type: "button", disabled: true }, "Start backfill");
    form.replaceChildren(
      h("label", {}, "from ", from), h("label", {}, "to ", to), h("label", {}, "mode ", mode), preview, start,
      h("p", { class: "muted small hint" }, "Partition keys are " + P.format(g.partitioning) + "; both ends are included."));

    let planned = null; // the request the shown preview answers; Start sends exactly it
    const request = () => ({ from: P.key(g.partitioning, from), to: P.key(g.partitioning, to), mode: mode.value });
    for (const el of [from, to, mode]) el.addEventListener("input", () => { planned = null; start.disabled = true; });

    // a rerun the service refused (its node became active meanwhile, say) is no rerun sent
    const submitted = (answer) => (answer.reruns || []).filter((r) => r.outcome && r.outcome.kind === "rerun");
    const plan = (answer) => {
      const counts = { start: 0, rerun: 0, skip: 0 };
      answer.plan.forEach((s) => counts[s.action]++);
      return [
        h("p", { class: "plan-summary", dataset: { start: counts.start, rerun: counts.rerun, skip: counts.skip } },
          answer.dryRun ? "Would start " + counts.start + " partition(s), rerun " + counts.rerun + ", skip " + counts.skip + "."
            : "Started " + answer.started.length + " partition(s), reran " + submitted(answer).length
              + ", skip " + counts.skip + "."),
        h("ol", { class: "plan" }, answer.plan.map((s) => h("li", { dataset: { partition: s.partition, action: s.action } },
          h("code", {}, s.partition), " ", S.badge(ACTION_STATE[s.action], s.action),
          s.nodes ? h("span", { class: "muted small" }, " " + s.nodes.join(", ")) : null,
          s.state ? h("span", { class: "muted small" }, " (run " + s.state + ")") : null,
          !answer.dryRun && s.action !== "skip" ? [" ", h("a", { href: S.runHref(graph, s.partition) }, "open run")] : null))),
      ];
    };

    async function send(req, dryRun) {
      const body = { ...req, dryRun };
      const r = await S.post(path + "/backfill", body);
      if (!r.ok) {
        S.outcome("error", (dryRun ? "Preview" : "Backfill") + " refused: " + ((r.body && r.body.detail) || "HTTP " + r.status));
        return null;
      }
      document.getElementById("plan").replaceChildren(...plan(r.body));
      return r.body;
    }

    form.addEventListener("submit", async (ev) => {
      ev.preventDefault();
      // the request previewed, read before it is sent: an edit during the preview is not started unpreviewed
      const req = request();
      const answer = await send(req, true);
      const edited = JSON.stringify(request()) !== JSON.stringify(req);
      planned = answer && !edited ? req : null;
      start.disabled = !planned || !answer.plan.some((s) => s.action !== "skip");
      if (answer) S.outcome("info", edited ? "The form changed during the preview: preview again to start it."
        : "Dry run: nothing was started.");
    });
    start.addEventListener("click", async () => {
      if (!planned) return;
      const ok = await S.confirmAction("Start this backfill?", "Every partition from " + planned.from + " to " + planned.to
        + " the preview lists as start or rerun is sent now.", "Start backfill");
      if (!ok) { S.outcome("info", "Backfill not sent."); return; }
      // one backfill per preview: a second click while this one is sent does nothing
      start.disabled = true;
      const sending = planned;
      planned = null;
      const answer = await send(sending, false);
      if (!answer) {
        planned = sending;
        start.disabled = false;
        return;
      }
      const reran = submitted(answer);
      const refused = answer.reruns.filter((r) => !reran.includes(r));
      S.outcome(refused.length ? "refused" : "ok", "Backfill sent: " + answer.started.length + " run(s) started, "
        + reran.length + " rerun(s) submitted" + (refused.length ? ", " + refused.length + " refused: " + refused.map((r) =>
          r.partition + " / " + r.node + " (" + ((r.outcome && (r.outcome.reason || r.outcome.kind)) || "no outcome") + ")").join("; ") : "")
        + ".");
    });
  });
})();
