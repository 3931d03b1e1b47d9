/* Swale dashboard: shared helpers and the "running now" panel; the token and the live event stream are in
 * auth.js, which every page includes before this file. Plain browser JavaScript (no build step). Every page
 * script calls Swale.page(...). */
(function () {
  "use strict";

  const API = "/api/v1";
  const { Auth, onLive, connect } = window.SwaleAuth;

  /** Builds an element: h("a", {href: "x", class: "y"}, "text", child…). Text is never parsed as HTML. */
  function h(tag, attrs, ...children) {
    const svg = tag.startsWith("svg:");
    const el = svg ? document.createElementNS("http://www.w3.org/2000/svg", tag.slice(4)) : document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === null || v === undefined || v === false) continue;
      if (k.startsWith("on") && typeof v === "function") el.addEventListener(k.slice(2), v);
      else if (k === "dataset") Object.assign(el.dataset, v);
      else el.setAttribute(k, v === true ? "" : String(v));
    }
    for (const c of children.flat(Infinity)) {
      if (c === null || c === undefined || c === false) continue;
      el.append(c instanceof Node ? c : document.createTextNode(String(c)));
    }
    return el;
  }

  async function request(method, path, body, retried) {
    const headers = { Accept: "application/json" };
    const token = Auth.token();
    if (token) headers.Authorization = "Bearer " + token;
    if (body !== undefined) headers["Content-Type"] = "application/json";
    const res = await fetch(API + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    if (res.status === 401 && !retried && await Auth.ask("This needs the operator token.")) {
      return request(method, path, body, true);
    }
    let parsed = null;
    const text = await res.text();
    if (text) {
      try { parsed = JSON.parse(text); } catch (e) { parsed = { detail: text }; }
    }
    return { status: res.status, ok: res.ok, body: parsed };
  }

  async function get(path) {
    const r = await request("GET", path);
    if (!r.ok) {
      const err = new Error((r.body && (r.body.detail || r.body.title)) || ("HTTP " + r.status));
      err.status = r.status;
      throw err;
    }
    return r.body;
  }

  const post = (path, body) => request("POST", path, body);

  const enc = encodeURIComponent;
  const runHref = (graph, partition, node) =>
    "run.html?graph=" + enc(graph) + "&partition=" + enc(partition) + (node ? "#node-" + enc(node) : "");
  const graphHref = (graph) => "graph.html?graph=" + enc(graph);
  const param = (name) => new URLSearchParams(location.search).get(name);
  const shortHash = (hash) => (hash ? hash.slice(0, 10) : "–");

  /** A time as the browser's local date and time (YYYY-MM-DD HH:MM:SS); the exact UTC time in the title. */
  function time(iso) {
    if (!iso) return h("span", { class: "muted" }, "–");
    const d = new Date(iso);
    const p2 = (n) => String(n).padStart(2, "0");
    const text = d.getFullYear() + "-" + p2(d.getMonth() + 1) + "-" + p2(d.getDate()) + " "
      + p2(d.getHours()) + ":" + p2(d.getMinutes()) + ":" + p2(d.getSeconds());
    return h("time", { datetime: iso, title: iso + " (UTC)" }, text);
  }

  /** A definition list of [label, value] pairs, each pair kept together on one line where it fits. */
  function facts(pairs, inline) {
    return h("dl", { class: "facts" + (inline ? " inline" : "") },
      pairs.filter(Boolean).map(([label, value]) => h("div", { class: "fact" }, h("dt", {}, label), h("dd", {}, value))));
  }

  function duration(ms) {
    const s = Math.max(0, Math.floor(ms / 1000));
    if (s < 60) return s + " s";
    const m = Math.floor(s / 60);
    if (m < 60) return m + " min " + (s % 60) + " s";
    return Math.floor(m / 60) + " h " + (m % 60) + " min";
  }

  const GLYPH = {
    succeeded: "✓", failed: "✕", cancelled: "⊘", blocked: "!", ready: "•", waiting: "", running: "▶",
    cancelling: "■", pending: "•", complete: "✓", active: "▶",
  };

  /** The state a cell shows: an active instance that runs is "running", else the node state. */
  const shown = (state, instance) => (instance === "running" || instance === "cancelling" ? "running" : state);

  function badge(state, text) {
    return h("span", { class: "badge s-" + state, dataset: { state } }, text || state);
  }

  /** Calls fn at most once per `ms`, and once more after a burst, never two at a time. */
  function debounced(fn, ms) {
    let timer = null, running = false, again = false;
    const run = async () => {
      timer = null;
      if (running) { again = true; return; }
      running = true;
      try { await fn(); } catch (e) { console.error(e); }
      running = false;
      if (again) { again = false; schedule(); }
    };
    const schedule = () => { if (!timer) timer = setTimeout(run, ms); };
    return schedule;
  }

  /* ---------- confirmation dialog and outcome line ---------- */

  function confirmAction(title, message, confirmLabel) {
    return new Promise((resolve) => {
      let dialog = document.getElementById("confirm-dialog");
      if (!dialog) {
        dialog = h("dialog", { id: "confirm-dialog", "aria-labelledby": "confirm-title" });
        document.body.append(dialog);
      }
      const yes = h("button", { class: "button danger confirm", value: "yes", type: "submit" }, confirmLabel);
      const no = h("button", { class: "button cancel", value: "no", type: "submit" }, "Keep it");
      dialog.replaceChildren(h("form", { method: "dialog" },
        h("h2", { id: "confirm-title" }, title), h("p", {}, message), h("div", { class: "actions" }, no, yes)));
      dialog.onclose = () => resolve(dialog.returnValue === "yes");
      dialog.returnValue = "";
      dialog.showModal();
      no.focus();
    });
  }

  function outcome(kind, text) {
    const box = document.getElementById("outcome");
    if (!box) return;
    box.replaceChildren(h("span", { class: "outcome " + kind, dataset: { kind } }, text));
  }

  /* ---------- running-now panel ---------- */

  const CLEAR_AFTER_MS = 2500;

  function runningItem(i) {
    return h("li", { class: "running-item", dataset: { key: i.key, runId: i.runId, started: i.startedAt || "" } },
      h("a", { href: runHref(i.graph, i.partition, i.node), class: "what" },
        h("span", { class: "node" }, i.node),
        h("span", { class: "where" }, i.graph + " · " + i.partition)),
      h("span", { class: "meta" },
        badge(i.state === "cancelling" ? "cancelling" : "running", i.state),
        " attempt " + i.attempt + "/" + i.maxAttempts + " · ",
        h("span", { class: "elapsed" }, i.startedAt ? duration(Date.now() - Date.parse(i.startedAt)) : "–")));
  }

  function panel() {
    const root = document.getElementById("running");
    if (!root) return;
    const pools = new Map();

    const poolSection = (name, slots) => {
      if (pools.has(name)) return pools.get(name);
      const count = h("span", { class: "count" });
      const list = h("ul", { class: "running-list" });
      const empty = h("p", { class: "empty muted" }, "nothing runs");
      const section = h("section", { class: "pool", dataset: { pool: name } },
        h("h3", {}, h("span", { class: "pool-name" }, name), count), list, empty);
      const entry = { section, list, count, empty, slots };
      pools.set(name, entry);
      const sorted = [...pools.keys()].sort();
      const next = sorted[sorted.indexOf(name) + 1];
      root.querySelector(".pools").insertBefore(section, next ? pools.get(next).section : null);
      return entry;
    };

    const refresh = (entry) => {
      const n = entry.list.querySelectorAll(".running-item:not(.cleared)").length;
      entry.count.textContent = n + (entry.slots ? " / " + entry.slots + " slots" : " running");
      entry.empty.hidden = entry.list.children.length > 0;
    };

    root.replaceChildren(h("h2", {}, "Running now"), h("div", { class: "pools" }));

    onLive((type, data) => {
      if (type === "snapshot") {
        pools.clear();
        root.querySelector(".pools").replaceChildren();
        for (const p of data.pools) {
          const entry = poolSection(p.name, p.slots);
          for (const i of p.running) entry.list.append(runningItem(i));
          refresh(entry);
        }
      } else if (type === "started" || type === "changed") {
        const entry = poolSection(data.pool);
        const old = entry.list.querySelector('[data-key="' + CSS.escape(data.key) + '"]');
        const item = runningItem(data);
        if (old) old.replaceWith(item);
        else { item.classList.add("entering"); entry.list.append(item); }
        refresh(entry);
      } else if (type === "cleared") {
        const entry = pools.get(data.pool);
        const item = entry && entry.list.querySelector('[data-key="' + CSS.escape(data.key) + '"]');
        if (!item) return;
        item.classList.add("cleared");
        item.querySelector(".meta").replaceChildren(badge(data.outcome === "gone" ? "cancelled" : data.outcome,
          "cleared: " + data.outcome));
        refresh(entry);
        setTimeout(() => { item.remove(); refresh(entry); }, CLEAR_AFTER_MS);
      }
    });

    setInterval(() => {
      for (const el of root.querySelectorAll(".running-item:not(.cleared)")) {
        if (el.dataset.started) {
          el.querySelector(".elapsed").textContent = duration(Date.now() - Date.parse(el.dataset.started));
        }
      }
    }, 1000);
  }

  const SECTIONS = [["./", "Graphs", "graphs"], ["pools.html", "Pools", "pools"],
    ["dead-letters.html", "Dead letters", "dead-letters"], ["assets.html", "Assets", "assets"]];

  /** The links to every page, and the token button, in the top bar. */
  function frame() {
    const top = document.querySelector("header.top");
    if (!top || top.querySelector("nav.sections")) return;
    const current = document.body.dataset.section || document.body.dataset.page;
    top.querySelector(".brand").after(h("nav", { class: "sections", "aria-label": "Sections" },
      SECTIONS.map(([href, label, id]) => h("a", { href, "aria-current": id === current ? "page" : null }, label))));
    top.append(h("button", { id: "auth", class: "button small auth", type: "button", hidden: true }));
  }

  const parts = [];
  /** A part of a page in a script of its own: runs after the page's code. */
  function part(fn) { parts.push(fn); }

  /** Lays out the common frame, asks for the token where needed, then runs the page's own code. */
  function page(init) {
    document.addEventListener("DOMContentLoaded", async () => {
      frame();
      panel();
      try {
        await Auth.start();
      } catch (e) {
        console.error(e);
      }
      try {
        init();
        for (const fn of parts) {
          try { fn(); } catch (e) { console.error(e); }
        }
      } finally {
        connect();
      }
    });
  }

  function failure(container, err) {
    container.replaceChildren(h("p", { class: "problem", role: "alert" }, err.message || String(err)));
  }

  window.Swale = {
    h, get, post, request, runHref, graphHref, param, shortHash, time, facts, duration, badge, shown, GLYPH, debounced,
    confirmAction, outcome, onLive, page, part, failure,
  };
})();
