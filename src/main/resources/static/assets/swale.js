/* Swale dashboard: shared helpers, the live event stream and the "running now" panel.
 * Plain browser JavaScript (no build step). Every page script calls Swale.page(...). */
(function () {
  "use strict";

  const API = "/api/v1";

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

  /* ---------- the operator token (outside local mode) ---------- */

  /**
   * Outside local mode actions need the bearer token: the dashboard asks for it once per browser session
   * (sessionStorage, so it is gone with the tab) and sends it with every request. Where reads are allowed
   * without it, "View read-only" skips the question until an action needs the token.
   */
  const Auth = (() => {
    const KEY = "swale.token", SKIP = "swale.readOnly";
    let session = { tokenRequired: false, readsNeedToken: false, authenticated: true };
    let asking = null;
    const token = () => sessionStorage.getItem(KEY);

    async function probe(candidate) {
      const headers = { Accept: "application/json" };
      if (candidate) headers.Authorization = "Bearer " + candidate;
      const res = await fetch(API + "/dashboard/session", { headers });
      return res.ok ? res.json() : session;
    }

    function render() {
      const el = document.getElementById("auth");
      if (!el) return;
      const signedIn = !!token() && session.authenticated;
      el.hidden = !session.tokenRequired;
      el.dataset.state = signedIn ? "operator" : "read-only";
      el.textContent = signedIn ? "operator ✓" : "read-only · sign in";
      el.title = signedIn ? "actions are sent with your token; click to forget it" : "enter the operator token to act";
    }

    /** Shows the token dialog; resolves true once a token the server accepts is stored. */
    function ask(reason) {
      if (!session.tokenRequired) return Promise.resolve(false);
      if (asking) return asking;
      asking = new Promise((resolve) => {
        let dialog = document.getElementById("token-dialog");
        if (!dialog) {
          dialog = h("dialog", { id: "token-dialog", "aria-labelledby": "token-title" });
          document.body.append(dialog);
        }
        const input = h("input", { id: "token-input", type: "password", autocomplete: "off",
          placeholder: "swale.security.token", required: true, "aria-label": "operator token" });
        const problem = h("p", { class: "problem", id: "token-problem", role: "alert" });
        const readOnly = session.readsNeedToken ? null
          : h("button", { class: "button read-only", type: "button", value: "read-only" }, "View read-only");
        const form = h("form", { method: "dialog" },
          h("h2", { id: "token-title" }, "Operator token"),
          h("p", {}, reason || "Actions on this Swale need the bearer token (swale.security.token). It is kept for this browser tab only."),
          input, problem,
          h("div", { class: "actions" }, readOnly, h("button", { class: "button confirm sign-in", type: "submit" }, "Sign in")));
        dialog.replaceChildren(form);
        let finished = false;
        const done = (ok) => { finished = true; asking = null; if (dialog.open) dialog.close(); render(); resolve(ok); };
        if (readOnly) readOnly.onclick = () => { sessionStorage.setItem(SKIP, "1"); done(false); };
        dialog.oncancel = (ev) => { if (session.readsNeedToken) ev.preventDefault(); };
        // Escape may close a modal dialog whatever cancel says: where nothing can be read without the token, it opens again.
        dialog.onclose = () => {
          if (finished) return;
          if (session.readsNeedToken) dialog.showModal(); else done(false);
        };
        form.onsubmit = async (ev) => {
          ev.preventDefault();
          const candidate = input.value.trim();
          const answer = await probe(candidate).catch(() => ({ authenticated: false }));
          if (!answer.authenticated) { problem.textContent = "That token was refused."; input.select(); return; }
          sessionStorage.setItem(KEY, candidate);
          sessionStorage.removeItem(SKIP);
          session = answer;
          done(true);
        };
        dialog.showModal();
        input.focus();
      });
      return asking;
    }

    /** Learns what this Swale needs; asks for the token unless it is known, or read-only viewing was chosen. */
    async function start() {
      session = await probe(token()).catch(() => session);
      if (token() && !session.authenticated) sessionStorage.removeItem(KEY);
      render();
      const el = document.getElementById("auth");
      if (el) el.onclick = () => {
        if (token()) { sessionStorage.removeItem(KEY); sessionStorage.setItem(SKIP, "1"); location.reload(); }
        else ask();
      };
      if (!session.tokenRequired || (token() && session.authenticated)) return;
      if (session.readsNeedToken) { while (!(await ask("Reading this Swale needs the operator token."))) { /* ask again */ } }
      else if (!sessionStorage.getItem(SKIP)) await ask();
    }

    return { token, ask, start };
  })();

  /* ---------- live events ---------- */

  const handlers = [];
  let source = null;

  function onLive(fn) { handlers.push(fn); }

  function setLive(state, text) {
    const el = document.getElementById("live");
    if (!el) return;
    el.dataset.state = state;
    el.textContent = text;
  }

  function dispatch(type, raw) {
    const data = JSON.parse(raw);
    if (type === "snapshot") setLive("on", "live");
    for (const fn of handlers) {
      try { fn(type, data); } catch (e) { console.error(e); }
    }
  }

  const EVENTS = ["snapshot", "started", "changed", "cleared", "run", "graph"];

  function connect() {
    if (Auth.token()) { stream(); return; }
    source = new EventSource(API + "/dashboard/events");
    source.onopen = () => setLive("on", "live");
    source.onerror = () => setLive("off", "reconnecting…");
    for (const t of EVENTS) source.addEventListener(t, (ev) => dispatch(t, ev.data));
  }

  /** The event stream read with fetch, which (unlike EventSource) can send the token; reconnects after a second. */
  async function stream() {
    for (;;) {
      try {
        const res = await fetch(API + "/dashboard/events", { headers: { Accept: "text/event-stream",
          Authorization: "Bearer " + Auth.token() } });
        if (!res.ok) throw new Error("HTTP " + res.status);
        setLive("on", "live");
        const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
        let buffer = "";
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          buffer += value.replace(/\r\n/g, "\n");
          let cut;
          while ((cut = buffer.indexOf("\n\n")) >= 0) {
            const block = buffer.slice(0, cut);
            buffer = buffer.slice(cut + 2);
            let type = "message", data = [];
            for (const line of block.split("\n")) {
              if (line.startsWith("event:")) type = line.slice(6).trim();
              else if (line.startsWith("data:")) data.push(line.slice(5).replace(/^ /, ""));
            }
            if (data.length && EVENTS.includes(type)) dispatch(type, data.join("\n"));
          }
        }
      } catch (e) {
        console.debug("event stream:", e.message);
      }
      setLive("off", "reconnecting…");
      await new Promise((r) => setTimeout(r, 1000));
    }
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
