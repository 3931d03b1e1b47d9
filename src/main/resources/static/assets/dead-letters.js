/* The dead-letters page: every channel with its count; a channel's letters a page at a time (every letter
 * is reachable), each with its attempt history; a task's letter reruns its node through the rerun path. */
(function () {
  "use strict";
  const S = window.Swale;
  const { h } = S;
  const PAGE = 25;

  const REFUSALS = {
    active: "refused (active): the node already has a task instance that is still active",
    not_ready: "refused (not_ready): the node's trigger rule is not met by its upstreams",
    no_record: "refused (no_record): the node has not run yet in this run",
    already_rerun: "refused (already_rerun): this letter's task has been rerun since; rerun the node from its run page to run it again",
  };

  S.page(() => {
    let channel = S.param("channel");
    const cursors = [""]; // the cursor of each page shown so far: back is the previous one
    // how many letters came before each of those pages: a page cut short by Kafka's deadline holds fewer than PAGE
    const before = [0];
    document.title = "Dead letters · Swale";

    async function channels() {
      const box = document.getElementById("channels");
      try {
        const list = await S.get("/dead-letters");
        if (!channel) channel = (list.find((c) => c.count > 0) || list[0] || {}).channel || null;
        box.replaceChildren(h("ul", { class: "chips", "aria-label": "channels" }, list.map((c) => h("li", {},
          h("a", { href: "?channel=" + encodeURIComponent(c.channel), class: "chip" + (c.channel === channel ? " current" : ""),
            dataset: { channel: c.channel, count: c.count },
            onclick: (ev) => { ev.preventDefault(); select(c.channel); } },
          c.channel, " ", h("span", { class: "count" }, String(c.count)))))));
      } catch (e) {
        S.failure(box, e);
      }
    }

    function select(next) {
      channel = next;
      cursors.length = 1;
      before.length = 1;
      const url = new URL(location.href);
      url.searchParams.set("channel", channel);
      history.replaceState(null, "", url);
      channels();
      letters();
    }

    // `from`: the channel the letter was read from (ids like 0-3 exist in every channel's topic)
    async function rerun(from, l) {
      const ok = await S.confirmAction("Rerun " + l.node + "?", "Node " + l.node + " of " + l.graph + " / " + l.partition
        + " runs again under a new run id (the dead letter itself is not replayed).", "Rerun");
      if (!ok) { S.outcome("info", "Rerun of " + l.node + " not sent."); return; }
      try {
        const r = await S.post("/dead-letters/" + encodeURIComponent(from) + "/" + encodeURIComponent(l.id) + "/rerun");
        if (r.status === 200) {
          S.outcome("ok", "Rerun of " + l.node + " submitted as " + r.body.runId + ".");
        } else if (r.status === 409) {
          S.outcome("refused", "Rerun of " + l.node + " " + (REFUSALS[r.body.outcome] || r.body.outcome) + ".");
        } else {
          S.outcome("error", "Rerun of " + l.node + " failed: " + ((r.body && r.body.detail) || "HTTP " + r.status));
        }
      } catch (e) {
        S.outcome("error", "Rerun of " + l.node + " failed: " + e.message);
      }
    }

    const attempts = (l) => (l.history && l.history.length ? h("table", { class: "attempts" },
      h("thead", {}, h("tr", {}, ["attempt", "step", "worker", "started", "ended", "outcome", "error"].map((c) => h("th", {}, c)))),
      h("tbody", {}, l.history.map((a) => h("tr", { dataset: { outcome: a.outcome } },
        h("td", {}, String(a.attempt)), h("td", {}, String(a.step)), h("td", {}, a.worker || "–"),
        h("td", {}, S.time(a.startedAt)), h("td", {}, S.time(a.endedAt)),
        h("td", {}, S.badge(a.outcome === "succeeded" ? "succeeded" : a.outcome === "retry" ? "blocked" : "failed", a.outcome)),
        h("td", { class: "err" }, a.error || ""))))) : h("p", { class: "muted small" }, "no attempt history in this letter"));

    const row = (from, l) => h("article", { class: "letter", dataset: { letter: l.id, node: l.node || "" } },
      h("header", {},
        h("code", { class: "id" }, l.id),
        l.graph ? h("a", { href: S.runHref(l.graph, l.partition, l.node) }, l.graph + " / " + l.partition + " / " + l.node)
          : h("span", { class: "muted" }, l.key || "(no task identity)"),
        h("span", { class: "muted small" }, S.time(l.enqueuedAt)),
        l.attempts != null ? h("span", { class: "small" }, "attempts " + l.attempts + (l.maxAttempts ? "/" + l.maxAttempts : "")) : null,
        from.startsWith("pool.") && l.node ? h("button", { class: "button small rerun", type: "button", onclick: () => rerun(from, l) }, "Rerun") : null),
      l.error ? h("pre", { class: "error" }, l.error) : null,
      h("details", { class: "history" }, h("summary", {}, "attempt history (" + ((l.history || []).length) + ")"), attempts(l)));

    async function letters() {
      const box = document.getElementById("letters");
      const pager = document.getElementById("letters-pager");
      if (!channel) return;
      const from = channel;
      document.getElementById("letters-title").textContent = "Letters of " + from;
      const cursor = cursors[cursors.length - 1];
      // the rows of another channel are not left to act on while this one loads
      box.replaceChildren();
      pager.replaceChildren(h("span", { class: "muted" }, "loading…"));
      try {
        const page = await S.get("/dead-letters/" + encodeURIComponent(from) + "/page?limit=" + PAGE
          + (cursor ? "&cursor=" + encodeURIComponent(cursor) : ""));
        // another channel was chosen meanwhile: its own load shows its letters
        if (from !== channel) return;
        const first = before[before.length - 1];
        // a read cut short by its deadline is not an empty channel: say so rather than "No dead letter."
        const cut = page.partial ? h("p", { class: "problem partial", role: "status" }, page.letters.length
          ? "Kafka answered slowly: this page may be short. Reload, or go on with next ›."
          : "Kafka answered slowly: no letter was read in time (swale.ops.kafka-timeout). Reload to try again.") : null;
        box.replaceChildren(...(page.letters.length ? page.letters.map((l) => row(from, l))
          : cut ? [] : [h("p", { class: "muted" }, "No dead letter.")]), ...(cut ? [cut] : []));
        pager.replaceChildren(
          h("button", { class: "button small newer", disabled: cursors.length === 1,
            onclick: () => { cursors.pop(); before.pop(); letters(); } }, "‹ previous"),
          h("span", { class: "range" }, (page.letters.length ? first + 1 : 0) + "–" + (first + page.letters.length) + " of " + page.total),
          h("button", { class: "button small older", disabled: !page.next,
            onclick: () => { cursors.push(page.next); before.push(first + page.letters.length); letters(); } },
            "next ›"));
      } catch (e) {
        if (from === channel) S.failure(box, e);
      }
    }

    channels().then(letters);
  });
})();
