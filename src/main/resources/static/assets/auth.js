/* Swale dashboard: the operator token (outside local mode) and the live event stream. Included before
 * swale.js, which it serves (window.SwaleAuth); it builds its dialog with Swale.h once the page runs. */
(function () {
  "use strict";

  const API = "/api/v1";
  // swale.js is loaded after this file; the dialog is only built once a page runs, when it is there
  const h = (...args) => window.Swale.h(...args);

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
        const done = (ok) => {
          finished = true; asking = null; if (dialog.open) dialog.close(); render(); resolve(ok);
          // a page that showed what needs the token (the definition source) reads it again
          if (ok) window.dispatchEvent(new Event("swale:signed-in"));
        };
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

  // the wait before the stream is opened again: a second, doubled at each refusal up to 30 s, a second again once live
  let retryMs = 1000;
  function nextRetryMs() {
    const wait = retryMs;
    retryMs = Math.min(retryMs * 2, 30000);
    return wait;
  }

  function dispatch(type, raw) {
    const data = JSON.parse(raw);
    if (type === "snapshot") { setLive("on", "live"); retryMs = 1000; }
    for (const fn of handlers) {
      try { fn(type, data); } catch (e) { console.error(e); }
    }
  }

  const EVENTS = ["snapshot", "started", "changed", "cleared", "run", "graph"];

  function connect() {
    if (Auth.token()) { stream(); return; }
    source = new EventSource(API + "/dashboard/events");
    source.onopen = () => setLive("on", "live");
    source.onerror = () => {
      setLive("off", "reconnecting…");
      // an answer other than 200 (503 over max-streams, a replica stopping, a proxy's 502) closes an
      // EventSource for good: open a new one later, backing off as the token holders' stream does, so that a
      // replica that refuses streams is not asked again every second by every open page
      if (source.readyState === EventSource.CLOSED) {
        const closed = source;
        setTimeout(() => { if (source === closed) connect(); }, nextRetryMs());
      }
    };
    for (const t of EVENTS) source.addEventListener(t, (ev) => dispatch(t, ev.data));
  }

  /** The event stream read with fetch, which (unlike EventSource) can send the token; reconnects, backing off. */
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
      await new Promise((r) => setTimeout(r, nextRetryMs()));
    }
  }

  window.SwaleAuth = { Auth, onLive, connect };
})();
