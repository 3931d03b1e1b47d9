/* The pools page: per pool its slots, what runs (every replica), pending, delayed, lag and dead letters.
 * Redrawn when an instance starts or clears, and every few seconds for the lag (which has no event). */
(function () {
  "use strict";
  const S = window.Swale;
  const { h } = S;
  const REFRESH_MS = 3000;

  const number = (v) => (v === null || v === undefined ? h("span", { class: "muted" }, "–") : String(v));

  function card(p) {
    const used = Math.min(1, p.slots ? p.running / p.slots : 0);
    return h("article", { class: "pool-card", dataset: { pool: p.name } },
      h("header", {}, h("h2", {}, p.name),
        h("span", { class: "slots-line" }, h("b", { class: "running-count" }, String(p.running)), " of ",
          h("span", { class: "slots" }, String(p.slots)), " slots running")),
      h("div", { class: "meter", role: "meter", "aria-valuemin": 0, "aria-valuemax": p.slots, "aria-valuenow": p.running,
        "aria-label": "slots in use" }, h("span", { style: "width:" + Math.round(used * 100) + "%" })),
      S.facts([
        ["running here", number(p.runningHere)],
        ["pending", h("span", { class: "pending" }, number(p.pending))],
        ["delayed", h("span", { class: "delayed" }, number(p.delayed))],
        ["lag", h("span", { class: "lag" }, number(p.lag))],
        ["consumed", number(p.consumed)],
        ["dead letters", p.deadLetters ? h("a", { href: "dead-letters.html?channel=pool." + encodeURIComponent(p.name) },
          String(p.deadLetters)) : number(p.deadLetters)],
        ["topic", h("code", {}, p.topic)]]),
      p.kafkaError ? h("p", { class: "problem small" }, "Kafka: " + p.kafkaError) : null);
  }

  const runIds = (list, key) => list.length
    ? h("span", {}, ...list.map((x, i) => h("code", { class: key, title: key }, (i ? " " : "") + x.runId)))
    : h("span", { class: "muted" }, "–");

  /* Resources (docs/resources.md): one row each, from GET /api/v1/resources. */
  function resources(list) {
    if (!list.length) return [h("p", { class: "muted" }, "No resource is declared, held or waited for.")];
    return [h("table", { class: "resources" },
      h("thead", {}, h("tr", {}, h("th", {}, "resource"), h("th", {}, "held"), h("th", {}, "holders"),
        h("th", {}, "waiting"))),
      h("tbody", {}, ...list.map((r) => h("tr", { dataset: { resource: r.name } },
        h("th", {}, h("code", {}, r.name), r.declared ? null : h("span", { class: "muted small" }, " (undeclared)")),
        h("td", { class: "held" }, r.held + " of " + r.capacity),
        h("td", {}, runIds(r.holders, "holder")),
        h("td", { class: "waiting" }, runIds(r.waiting, "waiter"))))))];
  }

  S.page(() => {
    document.title = "Pools · Swale";
    const box = document.getElementById("pools");
    let shownJson = null;
    const load = async () => {
      try {
        const pools = await S.get("/pools");
        const json = JSON.stringify(pools);
        if (json === shownJson) return;
        shownJson = json;
        box.replaceChildren(...(pools.length ? pools.map(card) : [h("p", { class: "muted" }, "No pool is configured.")]));
      } catch (e) {
        shownJson = null; // the next answer redraws over the error, changed or not
        S.failure(box, e);
      }
    };
    const resourceBox = document.getElementById("resources");
    let shownResources = null;
    const loadResources = async () => {
      try {
        const body = await S.get("/resources");
        const json = JSON.stringify(body.resources);
        if (json === shownResources) return;
        shownResources = json;
        resourceBox.replaceChildren(...resources(body.resources));
      } catch (e) {
        S.failure(resourceBox, e);
      }
    };
    // awaited by the debounce: a refresh never starts while the last is still waiting for its answers
    const loadAll = () => Promise.all([load(), loadResources()]);
    const reload = S.debounced(loadAll, 300);
    S.onLive((type) => {
      if (type === "snapshot" || type === "started" || type === "changed" || type === "cleared") reload();
    });
    setInterval(reload, REFRESH_MS);
    loadAll();
  });
})();
