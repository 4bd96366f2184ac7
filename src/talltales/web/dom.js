// Small, safe DOM helpers shared by the shell and the game renderers.
//
// Everything a player typed reaches the page through text nodes only: `el` turns every
// string child into a Text node and never touches innerHTML.

const BOOLEAN_PROPS = new Set(["disabled", "checked", "hidden", "selected", "required", "open",
  "readOnly", "multiple", "autofocus"]);
const VALUE_PROPS = new Set(["value", "min", "max", "step", "maxLength", "minLength", "type",
  "name", "id", "htmlFor", "tabIndex", "placeholder", "autocomplete", "inputMode", "pattern",
  "title", "lang", "download"]);

/**
 * Create an element.
 *   el("button", {class: "big", testid: "roll", on: {click: fn}, "aria-label": "Roll"}, "Roll")
 * Props: class, testid, on (event listeners), style (object of CSSOM properties), dataset
 * (object), boolean/value properties, anything else as an attribute. Children: strings and
 * numbers become text nodes; nodes are appended; arrays are flattened; null/false skipped.
 */
export function el(tag, props = null, ...children) {
  const node = document.createElement(tag);
  if (props) {
    for (const [key, value] of Object.entries(props)) {
      if (value === null || value === undefined || value === false && !BOOLEAN_PROPS.has(key)) continue;
      if (key === "innerHTML" || key === "outerHTML") throw new Error("el(): no innerHTML");
      if (key === "class") node.className = value;
      else if (key === "testid") node.dataset.testid = value;
      else if (key === "text") node.textContent = String(value);
      else if (key === "on") {
        for (const [type, fn] of Object.entries(value)) node.addEventListener(type, fn);
      } else if (key === "style") Object.assign(node.style, value);
      else if (key === "dataset") Object.assign(node.dataset, value);
      else if (BOOLEAN_PROPS.has(key)) node[key] = Boolean(value);
      else if (VALUE_PROPS.has(key)) node[key] = value;
      else if (key === "href" || key === "src") node.setAttribute(key, safeUrl(String(value)));
      else node.setAttribute(key, String(value));
    }
  }
  append(node, children);
  return node;
}

/** Append children (strings become text nodes). */
export function append(node, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(node, child);
    else if (child instanceof Node) node.appendChild(child);
    else node.appendChild(document.createTextNode(String(child)));
  }
  return node;
}

/** Remove every child. */
export function clear(node) {
  while (node.firstChild) node.removeChild(node.firstChild);
  return node;
}

/** Only same-origin paths, fragments and http(s) URLs; anything else becomes "#". */
export function safeUrl(url) {
  if (/^(\/|#|\?|\.\/)/.test(url)) return url;
  try {
    const parsed = new URL(url, location.href);
    if (parsed.protocol === "http:" || parsed.protocol === "https:") return parsed.href;
  } catch { /* fall through */ }
  return "#";
}

/** An SVG element (static shapes only). */
export function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS("http://www.w3.org/2000/svg", tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, String(value));
  for (const child of children) if (child) node.appendChild(child);
  return node;
}

// --- room codes, ids, storage ---------------------------------------------------------------
export const CODE_RE = /^[A-Za-z]{4}$/;
export const isCode = (text) => CODE_RE.test(String(text || "").trim());
export const normCode = (text) => String(text || "").trim().toUpperCase();

/** A random id for act messages (works outside secure contexts, unlike randomUUID). */
export function randomId() {
  const bytes = new Uint8Array(12);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

const PREFIX = "talltales:";
function readJson(key) {
  try {
    const raw = localStorage.getItem(PREFIX + key);
    return raw ? JSON.parse(raw) : null;
  } catch { return null; }
}
function writeJson(key, value) {
  try {
    if (value === null) localStorage.removeItem(PREFIX + key);
    else localStorage.setItem(PREFIX + key, JSON.stringify(value));
  } catch { /* private mode: the seat only lasts this page */ }
}

/** The seat this browser holds in a room: {token, seat, name, at} or null. */
export const loadSeat = (code) => {
  const seat = readJson(`seat:${normCode(code)}`);
  return seat && typeof seat.token === "string" ? seat : null;
};
export const saveSeat = (code, seat) =>
  writeJson(`seat:${normCode(code)}`, seat ? { ...seat, at: Date.now() } : null);
export const forgetSeat = (code) => writeJson(`seat:${normCode(code)}`, null);
export const lastName = () => readJson("name") || "";
export const rememberName = (name) => writeJson("name", name);

/** Rooms this browser holds seats in, most recent first. */
export function savedSeats() {
  const found = [];
  try {
    for (let i = 0; i < localStorage.length; i++) {
      const key = localStorage.key(i);
      if (key && key.startsWith(PREFIX + "seat:")) {
        const code = key.slice((PREFIX + "seat:").length);
        const seat = loadSeat(code);
        if (seat && isCode(code)) found.push({ code, ...seat });
      }
    }
  } catch { /* no storage */ }
  return found.sort((a, b) => (b.at || 0) - (a.at || 0));
}

// --- errors ---------------------------------------------------------------------------------
const FRIENDLY = {
  "not-your-turn": "It's not your turn yet.",
  "host-only": "Only the host can do that.",
  "filtered": "This room is family-friendly: please choose other words.",
  "bad-token": "This device no longer holds a seat in this room.",
  "no-room": "There is no open room with that code. Check the four letters.",
  "game-ended": "This game has ended.",
  "game-over": "The game is already over.",
  "removed": "The host removed you from this room.",
  "rate-limited": "Too many tries: wait a minute and try again.",
  "too-large": "That was too long to send.",
  "hello-timeout": "The connection timed out; reconnecting.",
  "not-connected": "Not connected right now. Wait for the connection to come back and try again.",
  "network": "Could not reach the server. Check your connection and try again.",
  "malformed": "The game didn't understand that. Reload the page and try again.",
  "bad-json": "The game didn't understand that. Reload the page and try again.",
  "hello-first": "The game didn't understand that. Reload the page and try again.",
};

/** Words a player understands for an error {code, reason}. */
export function friendlyError(error) {
  const code = error && error.code;
  const reason = error && error.reason ? String(error.reason) : "";
  if (code === "illegal") return reason ? `Not allowed: ${reason}.`.replace(/\.\.$/, ".") : "That is not allowed right now.";
  if (code === "text-too-long") return reason || "That text is too long.";
  if (FRIENDLY[code]) return FRIENDLY[code];
  if (/^http-5/.test(code || "")) return "The server is having trouble. Try again in a moment.";
  if (reason) return capitalise(reason);
  return "Something went wrong. Please try again.";
}

export function capitalise(text) {
  const s = String(text);
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/**
 * Show one error message in words, right after `anchor` (or inside `fallback` when the anchor
 * is gone). There is only ever one [data-testid=error] on the page: showing a new one
 * removes the old one.
 */
export function showError(text, anchor, fallback) {
  clearErrors();
  const box = el("p", { class: "error-text", testid: "error", role: "alert" }, text);
  if (anchor && anchor.isConnected) {
    // Buttons inside grids/lists: place the message after the control's row when possible.
    const host = anchor.closest("[data-error-slot]") || anchor;
    host.insertAdjacentElement("afterend", box);
  } else if (fallback && fallback.isConnected) {
    fallback.prepend(box);
  } else {
    document.getElementById("app")?.prepend(box);
  }
  return box;
}

export function clearErrors() {
  for (const old of document.querySelectorAll('[data-testid="error"]')) old.remove();
}

// --- people -----------------------------------------------------------------------------------
/** Up to two initials for a name ("Ann Lee" -> "AL", "bob" -> "B"). */
export function initials(name) {
  const words = String(name || "?").trim().split(/\s+/).filter(Boolean);
  if (!words.length) return "?";
  const letters = words.length > 1 ? [words[0], words[words.length - 1]] : [words[0]];
  return letters.map((w) => Array.from(w)[0].toUpperCase()).join("");
}

/** "Ann", "Ann and Bob", "Ann, Bob and Cy". */
export function listNames(names) {
  if (names.length <= 1) return names.join("");
  return `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`;
}

export const prefersReducedMotion = () =>
  window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;

/** Vibrate where the device can (phones); silently nothing elsewhere. */
export function buzz(pattern) {
  try {
    if (navigator.vibrate && !prefersReducedMotion()) navigator.vibrate(pattern);
  } catch { /* not allowed */ }
}
