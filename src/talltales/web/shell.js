// Services every page of the web client shares: HTTP requests, the game list, loading a
// game's renderer module (or a generic fallback), moving to another address, and the
// connection banner.

import { el } from "./dom.js";

// --- HTTP ------------------------------------------------------------------------------------
export async function request(method, url, body) {
  let response;
  try {
    response = await fetch(url, {
      method,
      headers: body === undefined ? {} : { "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw { code: "network", reason: "" };
  }
  let data = null;
  try {
    data = await response.json();
  } catch { /* not JSON */ }
  if (!response.ok) throw data && data.code ? data : { code: `http-${response.status}`, reason: `the server answered ${response.status}` };
  return data;
}

let gamesPromise = null;
export function loadGames() {
  if (!gamesPromise) {
    gamesPromise = request("GET", "/api/games").catch((err) => {
      gamesPromise = null;
      throw err;
    });
  }
  return gamesPromise;
}

const modules = new Map();
/** The renderer module of a game; a generic one when it has none (yet). */
export function loadGameModule(id) {
  if (!/^[a-z0-9][a-z0-9-]{0,63}$/.test(id)) return Promise.resolve(genericGame);
  if (!modules.has(id)) {
    modules.set(id, import(`./games/${id}.js`).catch((err) => {
      console.error(`no renderer for ${id}`, err);
      return genericGame;
    }));
  }
  return modules.get(id);
}

// --- moving between pages ---------------------------------------------------------------------
let rebuild = () => {};

/** app.js tells the shell how to rebuild the page for the current address. */
export function onNavigate(fn) {
  rebuild = fn;
}

/** Go to `url` in this tab and draw its page. */
export function navigate(url) {
  const target = new URL(url, location.href);
  if (target.href === location.href) history.replaceState(null, "", url);
  else history.pushState(null, "", url);
  rebuild(); // always rebuild, even when the address did not change
}

// --- connection banner (index.html holds it, so it survives page changes) -------------------------
const connBox = document.getElementById("reconnecting");
const connText = document.getElementById("reconnecting-text");
const connRetry = document.getElementById("reconnect-now");
let connRetryFn = null;
let connDelayTimer = null;
connRetry?.addEventListener("click", () => connRetryFn?.());

export function showConnection(text, retry) {
  clearTimeout(connDelayTimer);
  connText.textContent = text;
  connRetryFn = retry || null;
  connRetry.hidden = !retry;
  connBox.hidden = false;
  document.body.classList.add("offline");
}

export function hideConnection() {
  clearTimeout(connDelayTimer);
  connBox.hidden = true;
  document.body.classList.remove("offline");
}

/** Show the banner after `ms`, if `stillDown()` is then still true (brief blips stay quiet). */
export function showConnectionSoon(ms, text, retry, stillDown) {
  clearTimeout(connDelayTimer);
  connDelayTimer = setTimeout(() => {
    if (stillDown()) showConnection(text, retry);
  }, ms);
}

// --- a fallback for games without a renderer: their legal actions as buttons -----------------------------
const genericGame = {
  renderTable(container, state, room, ctx) {
    container.append(el("section", { class: "card-panel", testid: "table-board" },
      el("h2", {}, room.title),
      el("pre", { class: "raw-view" }, JSON.stringify(state.view, null, 2))));
  },
  renderPhone(container, state, room, ctx) {
    const legal = state.legal || [];
    container.append(el("section", { class: "card-panel" },
      el("h2", {}, room.title),
      legal.length
        ? el("ul", { class: "choices" }, legal.map((action, i) => el("li", {},
          el("button", { class: "choice", testid: `choice-${i}`, on: { click: (e) => ctx.send(action, e.currentTarget) } },
            Object.entries(action).map(([k, v]) => `${k}: ${typeof v === "object" ? JSON.stringify(v) : v}`).join(", ")))))
        : el("p", { class: "waiting" }, "Nothing to do right now."),
      el("pre", { class: "raw-view" }, JSON.stringify(state.view, null, 2))));
  },
};
