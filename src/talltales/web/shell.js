// Services every page of the web client shares: HTTP requests, the game list, loading a
// game's renderer module (or a generic fallback), moving to another address, and the
// connection banner.

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
const GENERIC = "./games/generic.js";

/** Whether a module can draw a game: the lifecycle (`mount`) or the older render functions. */
const drawsGames = (mod) => Boolean(mod && (typeof mod.mount === "function"
  || (typeof mod.renderTable === "function" && typeof mod.renderPhone === "function")));

/**
 * The renderer module of a game, `games/<id>.js`; the generic renderer (games/generic.js),
 * which plays any game from its prompts, when the game has none yet (404), it fails to load,
 * or it draws nothing.
 */
export function loadGameModule(id) {
  if (!/^[a-z0-9][a-z0-9-]{0,63}$/.test(id) || id === "generic") return import(GENERIC);
  if (!modules.has(id)) {
    modules.set(id, import(`./games/${id}.js`).then(
      (mod) => (drawsGames(mod) ? mod : import(GENERIC)),
      () => import(GENERIC), // no renderer of its own (yet): the browser has logged the 404
    ));
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
