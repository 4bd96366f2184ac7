// Tall Tales web client: one shell for every game.
//
// Routes:  /             home (create a room, join one)
//          /?join=CODE   join screen (the QR code's link)
//          #/room/CODE   phone: this browser's seat (lobby, then the controller)
//          #/table/CODE  table screen: a spectator showing the public view
//
// Each game has a renderer module, web/games/<game-id>.js, loaded by dynamic import:
//   export function renderTable(container, state, room, ctx)
//   export function renderPhone(container, state, room, ctx)
// and optionally describeEvent(event, ctx), turnText(state, room, ctx), optionLabels.
// See makeCtx() below for what ctx holds.

import {
  append, buzz, capitalise, clear, clearErrors, el, forgetSeat, friendlyError, initials,
  isCode, lastName, listNames, loadSeat, normCode, prefersReducedMotion, rememberName,
  saveSeat, savedSeats, showError, svg,
} from "./dom.js";
import { RoomSocket } from "./net.js";

const app = document.getElementById("app");
const SEAT_COLOURS = 6;
const BOTS = [
  ["greedy", "Greedy bot (medium)"],
  ["search", "Search bot (hard)"],
  ["random", "Random bot (easy)"],
];

// --- HTTP ------------------------------------------------------------------------------------
async function request(method, url, body) {
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
function loadGames() {
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
function loadGameModule(id) {
  if (!/^[a-z0-9][a-z0-9-]{0,63}$/.test(id)) return Promise.resolve(genericGame);
  if (!modules.has(id)) {
    modules.set(id, import(`./games/${id}.js`).catch((err) => {
      console.error(`no renderer for ${id}`, err);
      return genericGame;
    }));
  }
  return modules.get(id);
}

// --- routing ---------------------------------------------------------------------------------
let current = null;
let currentKey = null;

function navigate(url) {
  const target = new URL(url, location.href);
  if (target.href === location.href) history.replaceState(null, "", url);
  else history.pushState(null, "", url);
  currentKey = null; // always rebuild, even when the address did not change
  route();
}

function route() {
  const key = location.pathname + location.search + location.hash;
  if (key === currentKey) return;
  currentKey = key;
  current?.destroy?.();
  current = null;
  hideConnection();
  clear(app);
  clearErrors();
  let m;
  if ((m = /^#\/room\/([A-Za-z]{4})\/?$/.exec(location.hash))) {
    current = new RoomPage(app, normCode(m[1]), "phone");
  } else if ((m = /^#\/table\/([A-Za-z]{4})\/?$/.exec(location.hash))) {
    current = new RoomPage(app, normCode(m[1]), "table");
  } else {
    const join = new URLSearchParams(location.search).get("join");
    document.body.dataset.mode = "home";
    if (join && isCode(join)) joinPage(app, normCode(join));
    else homePage(app);
  }
  app.focus({ preventScroll: true });
}

window.addEventListener("popstate", route);
window.addEventListener("hashchange", route);

// --- connection banner (index.html holds it, so it survives page changes) -------------------------
const connBox = document.getElementById("reconnecting");
const connText = document.getElementById("reconnecting-text");
const connRetry = document.getElementById("reconnect-now");
let connRetryFn = null;
let connDelayTimer = null;
connRetry?.addEventListener("click", () => connRetryFn?.());

function showConnection(text, retry) {
  clearTimeout(connDelayTimer);
  connText.textContent = text;
  connRetryFn = retry || null;
  connRetry.hidden = !retry;
  connBox.hidden = false;
  document.body.classList.add("offline");
}

function hideConnection() {
  clearTimeout(connDelayTimer);
  connBox.hidden = true;
  document.body.classList.remove("offline");
}

// --- forms shared by home, join and "no seat" pages ------------------------------------------------
function field(label, input, hint) {
  const hintEl = hint ? el("p", { class: "hint", id: `${input.id}-hint` }, hint) : null;
  if (hintEl) input.setAttribute("aria-describedby", hintEl.id);
  return el("div", { class: "field" }, el("label", { htmlFor: input.id }, label), input, hintEl);
}

function nameInput(id, testid) {
  return el("input", {
    id, testid, type: "text", name: "name", required: true, maxLength: 24, minLength: 1,
    autocomplete: "nickname", value: lastName(), placeholder: "Your name", spellcheck: "false",
    enterkeyhint: "go",
  });
}

function codeInput(id, testid, code) {
  return el("input", {
    id, testid, type: "text", name: "code", required: true, maxLength: 4, minLength: 4,
    pattern: "[A-Za-z]{4}", autocomplete: "off", value: code || "", placeholder: "ABCD",
    autocapitalize: "characters", spellcheck: "false", class: "code-input",
    on: { input: (e) => { e.target.value = e.target.value.toUpperCase().replace(/[^A-Z]/g, ""); } },
  });
}

/** The join form: a code (editable or fixed) and a name; takes a seat and opens it. */
function joinForm({ code = "", fixedCode = false, heading = "Join a room" } = {}) {
  const codeEl = codeInput("join-code", "join-code", code);
  const nameEl = nameInput("join-name", "join-name");
  const submit = el("button", { type: "submit", class: "primary big", testid: "join-submit" }, "Join");
  const watch = el("button", { type: "button", class: "secondary", testid: "join-watch" }, "Watch on this screen (table)");
  const form = el("form", { class: "card-panel join-form", testid: "join-form", "aria-labelledby": "join-title", novalidate: "" },
    el("h2", { id: "join-title" }, heading),
    fixedCode ? el("p", { class: "big-code", "aria-label": `Room ${code.split("").join(" ")}` }, code) : null,
    fixedCode ? null : field("Room code", codeEl, "Four letters, shown on the host's screen."),
    field("Your name", nameEl, "1 to 24 characters. Everyone at the table will see it."),
    el("div", { class: "row", "data-error-slot": "" }, submit, watch),
  );
  if (fixedCode) { codeEl.type = "hidden"; form.append(codeEl); }
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    clearErrors();
    const room = normCode(codeEl.value);
    const name = nameEl.value.trim();
    if (!isCode(room)) return showError("A room code is four letters.", fixedCode ? submit : codeEl);
    if (!name) { nameEl.focus(); return showError("Type your name first.", nameEl); }
    submit.disabled = true;
    try {
      const seat = await request("POST", `/api/rooms/${room}/seats`, { name });
      rememberName(name);
      saveSeat(seat.room, { token: seat.token, seat: seat.seat, name });
      navigate(`/#/room/${seat.room}`);
    } catch (err) {
      submit.disabled = false;
      showError(friendlyError(err), submit);
    }
  });
  watch.addEventListener("click", () => {
    const room = normCode(codeEl.value);
    if (!isCode(room)) return showError("A room code is four letters.", watch);
    navigate(`/#/table/${room}`);
  });
  return form;
}

// --- options from a msgspec JSON schema -----------------------------------------------------
function humanise(key) {
  return capitalise(String(key).replace(/[_-]+/g, " "));
}

function optionProps(game) {
  const schema = game.options_schema || {};
  const defs = schema.$defs || {};
  const deref = (s) => {
    for (let i = 0; s && s.$ref && i < 8; i++) s = defs[s.$ref.split("/").pop()];
    return s || {};
  };
  const root = deref(schema);
  return Object.entries(root.properties || {}).map(([key, raw]) => {
    let prop = deref(raw);
    if (Array.isArray(prop.anyOf)) {
      const inner = prop.anyOf.map(deref).find((p) => p.type !== "null") || {};
      prop = { ...inner, default: prop.default ?? inner.default, title: prop.title ?? inner.title, description: prop.description ?? inner.description };
    }
    return [key, prop];
  });
}

/**
 * Form controls for a game's options: enums as selects, booleans as checkboxes, integers as
 * number inputs with their bounds. Returns {fields, read()} where read() gives the values or
 * null (after reporting) when one is invalid.
 */
function optionControls(game, values, { prefix, disabled = false, onChange = null, labels = {} }) {
  const fields = [];
  const readers = [];
  for (const [key, prop] of optionProps(game)) {
    const meta = labels[key] || {};
    const id = `${prefix}${key}`;
    const label = meta.label || prop.title || humanise(key);
    const hint = meta.hint || prop.description || null;
    const value = key in values ? values[key] : (game.options?.[key] ?? prop.default);
    let input;
    let read;
    if (Array.isArray(prop.enum)) {
      input = el("select", { id, testid: id, disabled },
        prop.enum.map((v, i) => el("option", { value: String(i), selected: v === value },
          meta.values?.[v] ?? humanise(v))));
      read = () => prop.enum[Number(input.value)];
    } else if (prop.type === "boolean") {
      input = el("input", { id, testid: id, type: "checkbox", checked: Boolean(value), disabled });
      read = () => input.checked;
    } else if (prop.type === "integer" || prop.type === "number") {
      const min = prop.minimum ?? (prop.exclusiveMinimum !== undefined ? prop.exclusiveMinimum + 1 : undefined);
      const max = prop.maximum ?? (prop.exclusiveMaximum !== undefined ? prop.exclusiveMaximum - 1 : undefined);
      input = el("input", {
        id, testid: id, type: "number", inputMode: "numeric", value: String(value ?? ""),
        step: prop.type === "integer" ? "1" : "any", disabled,
        min: min === undefined ? null : String(min), max: max === undefined ? null : String(max),
      });
      read = () => {
        const n = Number(input.value);
        if (input.value === "" || !Number.isFinite(n) || (prop.type === "integer" && !Number.isInteger(n))
          || (min !== undefined && n < min) || (max !== undefined && n > max)) {
          const range = min !== undefined && max !== undefined ? ` from ${min} to ${max}` : "";
          throw { input, text: `${label}: choose a whole number${range}.` };
        }
        return n;
      };
    } else if (prop.type === "string") {
      input = el("input", { id, testid: id, type: "text", value: String(value ?? ""), disabled,
        maxLength: prop.maxLength ?? null });
      read = () => input.value;
    } else {
      continue; // a shape this form does not know: the server default applies
    }
    const wrap = input.type === "checkbox"
      ? el("div", { class: "field check" }, input, el("label", { htmlFor: id }, label),
        hint ? el("p", { class: "hint", id: `${id}-hint` }, hint) : null)
      : field(label, input, hint);
    if (hint && input.type === "checkbox") input.setAttribute("aria-describedby", `${id}-hint`);
    if (onChange) {
      input.addEventListener("change", () => {
        try {
          onChange(key, read(), input);
        } catch (bad) {
          showError(bad.text, bad.input);
        }
      });
    }
    fields.push(wrap);
    readers.push([key, read]);
  }
  return {
    fields,
    read() {
      const out = {};
      for (const [key, read] of readers) {
        try {
          out[key] = read();
        } catch (bad) {
          showError(bad.text, bad.input);
          bad.input.focus();
          return null;
        }
      }
      return out;
    },
  };
}

// --- home ------------------------------------------------------------------------------------
function homePage(root) {
  document.title = "Tall Tales";
  const createSlot = el("div", { class: "create-slot" }, el("p", { class: "loading" }, "Loading games…"));
  const mine = savedSeats().slice(0, 4);
  append(root, [
    el("header", { class: "brand" },
      el("h1", {}, "Tall Tales"),
      el("p", { class: "tagline" }, "Bluff-and-trivia party games. Phones are the controllers; a shared screen is the table.")),
    el("div", { class: "home-grid" },
      createSlot,
      el("div", { class: "home-side" },
        joinForm(),
        mine.length ? el("section", { class: "card-panel", "aria-labelledby": "mine-title" },
          el("h2", { id: "mine-title" }, "Your rooms on this device"),
          el("ul", { class: "plain-list", testid: "saved-rooms" }, mine.map((s) =>
            el("li", {}, el("a", { class: "button secondary", href: `/#/room/${s.code}` },
              `Room ${s.code}`, s.name ? ` as ${s.name}` : ""))))) : null)),
  ]);
  loadGames().then(
    (list) => { clear(createSlot); createSlot.append(createForm(list)); },
    (err) => {
      clear(createSlot);
      createSlot.append(el("div", { class: "card-panel" }, el("h2", {}, "Create a room"),
        el("p", { class: "error-text", testid: "error", role: "alert" }, friendlyError(err)),
        el("button", { class: "secondary", on: { click: () => { currentKey = null; route(); } } }, "Try again")));
    },
  );
}

function createForm(gameList) {
  const gameSelect = el("select", { id: "create-game", testid: "create-game" },
    gameList.map((g) => el("option", { value: g.id }, `${g.title} · ${g.min_players}–${g.max_players}`)));
  const summary = el("p", { class: "hint", id: "create-game-summary", "aria-live": "polite" });
  const optionsBox = el("fieldset", { class: "options", testid: "create-options" });
  const family = el("input", { id: "create-family", testid: "create-family", type: "checkbox", checked: true });
  const nameEl = nameInput("create-name", "create-name");
  const submit = el("button", { type: "submit", class: "primary big", testid: "create-submit" }, "Create room");
  let controls = null;

  async function showGame() {
    const game = gameList.find((g) => g.id === gameSelect.value) || gameList[0];
    summary.textContent = game.summary || "";
    const mod = await loadGameModule(game.id);
    if (game.id !== gameSelect.value) return;
    controls = optionControls(game, game.options || {}, { prefix: "create-option-", labels: mod.optionLabels || {} });
    clear(optionsBox);
    append(optionsBox, [el("legend", {}, "House rules"),
      controls.fields.length ? controls.fields : el("p", { class: "hint" }, "This game has no options.")]);
  }
  gameSelect.addEventListener("change", showGame);
  gameSelect.setAttribute("aria-describedby", summary.id);

  const form = el("form", { class: "card-panel create-form", testid: "create-form", "aria-labelledby": "create-title", novalidate: "" },
    el("h2", { id: "create-title" }, "Create a room"),
    el("div", { class: "field" }, el("label", { htmlFor: "create-game" }, "Game"), gameSelect, summary),
    optionsBox,
    el("div", { class: "field check" }, family, el("label", { htmlFor: "create-family" }, "Family-friendly filter"),
      el("p", { class: "hint", id: "create-family-hint" }, "Refuses rude words in names and answers.")),
    field("Your name", nameEl, "You will be the host."),
    el("div", { class: "row", "data-error-slot": "" }, submit),
  );
  family.setAttribute("aria-describedby", "create-family-hint");
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    clearErrors();
    const name = nameEl.value.trim();
    if (!name) { nameEl.focus(); return showError("Type your name first.", nameEl); }
    const options = controls ? controls.read() : {};
    if (options === null) return;
    submit.disabled = true;
    try {
      const seat = await request("POST", "/api/rooms", {
        game: gameSelect.value, name, options, family_filter: family.checked,
      });
      rememberName(name);
      saveSeat(seat.room, { token: seat.token, seat: seat.seat, name });
      navigate(`/#/room/${seat.room}`);
    } catch (err) {
      submit.disabled = false;
      showError(friendlyError(err), submit);
    }
  });
  showGame();
  return form;
}

// --- /?join=CODE -------------------------------------------------------------------------------
function joinPage(root, code) {
  document.title = `Join ${code} · Tall Tales`;
  const saved = loadSeat(code);
  append(root, [
    el("header", { class: "brand small" }, el("h1", {}, el("a", { href: "/" }, "Tall Tales"))),
    el("div", { class: "narrow" },
      saved ? el("section", { class: "card-panel", "aria-labelledby": "rejoin-title" },
        el("h2", { id: "rejoin-title" }, "You already have a seat here"),
        el("p", {}, "This device joined room ", code, saved.name ? ` as ${saved.name}` : "", "."),
        el("a", { class: "button primary big", href: `/#/room/${code}`, testid: "rejoin" }, "Back to my seat")) : null,
      joinForm({ code, fixedCode: true, heading: saved ? "Or join again with another name" : `Join room ${code}` }),
      el("p", { class: "center" }, el("a", { href: "/" }, "Create a room instead"))),
  ]);
  if (!saved) document.getElementById("join-name")?.focus();
}

// --- a room: lobby, then the game ------------------------------------------------------------------
class RoomPage {
  constructor(root, code, mode) {
    this.root = root;
    this.code = code;
    this.mode = mode;
    this.room = null;
    this.state = null;
    this.seat = null;
    this.module = null;
    this.moduleFor = null;
    this.log = [];
    this.newEvents = [];
    this.offset = 0;
    this.wasMine = false;
    this.lastControl = null;
    this.lastActAt = 0;
    this.pendingFocus = null;
    this.botKind = "greedy";
    this.games = null;
    this.socket = null;
    this.timer = null;
    this.destroyed = false;
    this.saved = mode === "phone" ? loadSeat(code) : null;
    document.body.dataset.mode = mode;
    document.title = `${mode === "table" ? "Table" : "Room"} ${code} · Tall Tales`;
    this.build();
    if (mode === "phone" && !this.saved) {
      this.showNoSeat(null);
      return;
    }
    loadGames().then((list) => { this.games = list; if (this.room?.status === "lobby") this.render(); }, () => {});
    this.socket = new RoomSocket({
      room: code,
      token: this.saved?.token,
      onMessage: (m) => this.onMessage(m),
      onStatus: (s, d) => this.onStatus(s, d),
    });
    this.socket.connect();
    this.timer = setInterval(() => this.updateCountdown(), 250);
  }

  destroy() {
    this.destroyed = true;
    this.socket?.close();
    clearInterval(this.timer);
    clearInterval(this.leaveTimer);
    hideConnection();
  }

  // --- skeleton ----------------------------------------------------------------------------
  build() {
    const table = this.mode === "table";
    this.header = el("header", { class: "room-header" });
    this.banner = el("div", { class: "turn-banner", testid: "turn-banner", role: "status", "aria-live": "polite", hidden: true },
      el("span", { class: "turn-title" }), el("span", { class: "turn-detail" }));
    this.countdown = el("div", { class: "countdown", testid: "countdown", role: "timer", "aria-label": "Time left", hidden: true });
    this.stage = el("div", { class: "stage", id: "stage" });
    this.after = el("div", { class: "after" });
    this.logList = el("ol", { class: "event-log", testid: "event-log", "aria-live": "polite", "aria-relevant": "additions" });
    this.logBox = el("section", { class: "log", "aria-labelledby": "log-title", hidden: true },
      el("h2", { id: "log-title", class: "log-title" }, table ? "What just happened" : "Recent"), this.logList);
    this.footer = el("footer", { class: "room-footer" });
    if (table) {
      this.side = el("div", { class: "side-slot" });
      this.roomEl = el("div", { class: "room room-table" });
      append(this.root, [
        append(this.roomEl, [
          this.header,
          el("div", { class: "table-top" }, this.banner, this.countdown),
          el("div", { class: "table-body" },
            el("div", { class: "table-main" }, this.stage, this.after),
            el("aside", { class: "table-side", "aria-label": "Scores and events" }, this.side, this.logBox))]),
      ]);
    } else {
      this.side = null;
      this.roomEl = el("div", { class: "room room-phone" }, this.header, this.banner, this.countdown, this.stage, this.after, this.logBox, this.footer);
      this.root.append(this.roomEl);
    }
    this.stage.append(el("p", { class: "loading" }, "Connecting to room ", this.code, "…"));
  }

  // --- connection -----------------------------------------------------------------------------
  onStatus(status, detail) {
    if (this.destroyed) return;
    const retry = () => this.socket?.retryNow();
    if (status === "open") hideConnection();
    else if (status === "connecting") {
      clearTimeout(connDelayTimer);
      connDelayTimer = setTimeout(() => {
        if (!this.destroyed && this.socket && !this.socket.open && !this.socket.stopped) showConnection("Connecting…", retry);
      }, 800);
    } else if (status === "restarting") {
      showConnection("The server is restarting. Reconnecting in a moment…", retry);
    } else if (status === "reconnecting") {
      const secs = Math.max(1, Math.round((detail.delay || 0) / 1000));
      showConnection(detail.delay ? `Connection lost. Reconnecting in ${secs} s…` : "Reconnecting…", retry);
    } else if (status === "failed") {
      hideConnection();
    }
    this.header.dataset.connection = status;
  }

  onMessage(message) {
    if (this.destroyed) return;
    switch (message.type) {
      case "welcome":
        this.seat = message.seat ?? null;
        this.syncClock(message.server_time);
        if (this.saved && this.seat !== null && this.saved.seat !== this.seat) {
          this.saved.seat = this.seat;
          saveSeat(this.code, this.saved);
        }
        break;
      case "room":
        this.onRoom(message);
        break;
      case "state":
        this.onState(message);
        break;
      case "pong":
        this.syncClock(message.server_time);
        break;
      case "error":
        this.onError(message);
        break;
      default:
        break;
    }
  }

  syncClock(serverTime) {
    if (typeof serverTime === "number" && serverTime > 0) this.offset = serverTime - Date.now();
  }

  onRoom(room) {
    const prev = this.room;
    this.room = room;
    if (prev && prev.status === "finished" && room.status === "playing") {
      this.state = null; // a rematch: the new deal follows
      this.wasMine = false;
      this.addLog("A new game begins!", "separator");
    } else if (prev && prev.status === "lobby" && room.status === "playing") {
      this.addLog("The game begins!", "separator");
    }
    this.noteSeatChanges(prev, room);
    if (this.mode === "phone" && this.saved?.name && room.status === "lobby") {
      // Seats after a removed one move up; names are unique in a room.
      const mine = room.seats.findIndex((s) => s.kind === "human" && s.name.toLowerCase() === this.saved.name.toLowerCase());
      if (mine >= 0 && mine !== this.seat) {
        this.seat = mine;
        this.saved.seat = mine;
        saveSeat(this.code, this.saved);
      }
    }
    if (this.moduleFor !== room.game) {
      this.moduleFor = room.game;
      this.module = null;
      loadGameModule(room.game).then((mod) => {
        if (this.moduleFor !== room.game || this.destroyed) return;
        this.module = mod;
        this.render();
      });
    }
    this.render();
  }

  noteSeatChanges(prev, next) {
    if (!prev || next.status === "lobby" || prev.seats.length !== next.seats.length) return;
    next.seats.forEach((n, i) => {
      const p = prev.seats[i];
      if (this.mode === "phone" && i === this.seat) return; // our own reconnects are not news
      if (p.kind === "human" && n.kind === "bot") this.addLog(`${n.name} left the game; a bot plays on for them.`, "seat");
      else if (!p.stand_in && n.stand_in) this.addLog(`A bot is playing for ${n.name} until they come back.`, "seat");
      else if (p.connected && !n.connected) this.addLog(`${n.name} lost connection.`, "seat");
      else if (!p.connected && n.connected && n.kind === "human") this.addLog(`${n.name} is back.`, "seat");
      if (!p.host && n.host && n.seat !== undefined) this.addLog(`${n.name} is now the host.`, "seat");
    });
  }

  onState(state) {
    this.syncClock(state.server_time);
    this.state = state;
    this.newEvents = (state.events || []).map((e) => ({ ...e, version: state.version }));
    const ctx = this.makeCtx();
    for (const event of this.newEvents) this.addLog(this.describe(event, ctx), event.kind, event.data);
    this.render();
    this.checkTurn();
  }

  onError(error) {
    if (error.client_id) return; // acts report their own errors
    switch (error.code) {
      case "bad-token":
        forgetSeat(this.code);
        this.socket?.close();
        this.showNoSeat(friendlyError(error));
        return;
      case "removed":
        forgetSeat(this.code);
        this.socket?.close();
        this.showNoSeat(friendlyError(error));
        return;
      case "no-room":
        if (!this.room || !this.socket?.welcomed) {
          this.socket?.close();
          this.showMissing();
          return;
        }
        break;
      case "rate-limited":
        if (!this.socket?.welcomed) {
          this.socket?.close();
          this.showProblem(friendlyError(error));
          return;
        }
        break;
      default:
        break;
    }
    const recent = this.lastControl && Date.now() - this.lastControl.at < 5000 ? this.lastControl.anchor : null;
    showError(friendlyError(error), recent, this.stage);
  }

  // --- sending ---------------------------------------------------------------------------------
  /** A game action for this seat; errors are shown next to `anchor`. Resolves to the ack or null. */
  act(action, anchor) {
    if (!this.socket || this.seat === null) {
      showError("Only players can do that.", anchor, this.stage);
      return Promise.resolve(null);
    }
    if (this.socket.inFlight && Date.now() - this.lastActAt < 4000) return Promise.resolve(null);
    this.lastActAt = Date.now();
    clearErrors();
    const button = anchor instanceof HTMLButtonElement ? anchor : null;
    if (anchor && anchor === document.activeElement) this.pendingFocus = anchor.dataset?.testid || anchor.id || null;
    if (button) { button.disabled = true; button.setAttribute("aria-busy", "true"); }
    const restore = () => {
      if (button && button.isConnected) { button.disabled = false; button.removeAttribute("aria-busy"); }
    };
    return this.socket.act(action).then(
      (ack) => { restore(); return ack; },
      (err) => {
        restore();
        if (!err.silent && !this.destroyed) showError(friendlyError(err), anchor, this.stage);
        return null;
      },
    );
  }

  /** A lobby/host command (start, add-bot, …); false when it could not be sent. */
  command(message, anchor) {
    clearErrors();
    if (!this.socket || !this.socket.send(message)) {
      showError(friendlyError({ code: "not-connected" }), anchor, this.stage);
      return false;
    }
    this.lastControl = { anchor, at: Date.now() };
    return true;
  }

  // --- helpers for renderers -----------------------------------------------------------------------
  name(seat) {
    const info = this.room?.seats?.[seat];
    return info ? info.name : `Seat ${Number(seat) + 1}`;
  }

  token(seat, { label = false, extra = "" } = {}) {
    const name = this.name(seat);
    return el("span", {
      class: `token seat-c${seat % SEAT_COLOURS} ${extra}`.trim(),
      "aria-hidden": label ? null : "true",
      "aria-label": label ? name : null,
      role: label ? "img" : null,
      title: name,
    }, initials(name));
  }

  badges(seat) {
    const info = this.room?.seats?.[seat];
    if (!info) return [];
    const out = [];
    if (this.mode === "phone" && seat === this.seat) out.push(el("span", { class: "badge you" }, "you"));
    if (info.host) out.push(el("span", { class: "badge host" }, "host"));
    if (info.kind === "bot") out.push(el("span", { class: "badge bot" }, "bot"));
    else if (info.stand_in) out.push(el("span", { class: "badge standin" }, "bot playing"));
    if (info.kind === "human" && !info.connected && !(this.mode === "phone" && seat === this.seat)) {
      out.push(el("span", { class: "badge off" }, "offline"));
    }
    return out;
  }

  makeCtx() {
    const page = this;
    const state = this.state;
    return {
      mode: this.mode,
      seat: this.seat,
      room: this.room,
      state: this.state,
      code: this.code,
      side: this.side,
      events: this.log,
      newEvents: this.newEvents,
      reducedMotion: prefersReducedMotion(),
      el, svg, clear, append, initials, listNames,
      send: (action, anchor) => page.act(action, anchor),
      name: (seat) => page.name(seat),
      seatInfo: (seat) => page.room?.seats?.[seat] || null,
      seatClass: (seat) => `seat-c${seat % SEAT_COLOURS}`,
      token: (seat, opts) => page.token(seat, opts),
      badges: (seat) => page.badges(seat),
      isPending: (seat) => Boolean(state?.pending?.includes(seat)),
      isMine: () => page.seat !== null && Boolean(state?.pending?.includes(page.seat)),
      now: () => Date.now() + page.offset,
    };
  }

  describe(event, ctx) {
    try {
      const text = this.module?.describeEvent?.(event, ctx);
      if (text) return text;
    } catch (err) { console.error(err); }
    return capitalise(String(event.text || event.kind).replace(/\bseat (\d+)\b/gi, (_, n) => this.name(Number(n))));
  }

  addLog(text, kind, data = null) {
    const entry = { text, kind, data, at: Date.now() };
    this.log.push(entry);
    if (this.log.length > 100) this.log.shift();
    const item = el("li", { class: `log-${kind || "event"} fresh` }, text);
    this.logList.prepend(item);
    setTimeout(() => item.classList.remove("fresh"), 1500);
    while (this.logList.children.length > (this.mode === "table" ? 7 : 5)) this.logList.lastChild.remove();
    this.logBox.hidden = false;
  }

  // --- rendering -------------------------------------------------------------------------------------
  render() {
    if (this.destroyed || !this.room) return;
    const active = document.activeElement;
    const focused = active && active !== document.body && this.root.contains(active)
      ? active.dataset?.testid || active.id || null : null;
    const focusKey = focused || this.pendingFocus;
    this.pendingFocus = null;
    this.roomEl.dataset.status = this.room.status;
    this.renderHeader();
    clear(this.stage);
    clear(this.after);
    if (this.side) clear(this.side);
    if (this.room.status === "lobby") this.renderLobby();
    else this.renderGame();
    this.renderAfter();
    this.renderFooter();
    this.updateBanner();
    this.updateCountdown();
    this.logBox.hidden = this.room.status === "lobby" || this.log.length === 0;
    if (focusKey) {
      // Keep keyboard focus where it was; when that control is gone (a move was made), go to
      // the first control the renderer marked as primary (data-primary), so Tab starts there.
      const again = this.root.querySelector(`[data-testid="${CSS.escape(focusKey)}"]`) || document.getElementById(focusKey);
      const next = again && !again.disabled ? again
        : this.stage.querySelector("[data-primary] button:not(:disabled), button[data-primary]:not(:disabled)");
      if (next && next !== document.activeElement) next.focus({ preventScroll: true });
    }
  }

  renderHeader() {
    clear(this.header);
    const room = this.room;
    const me = this.seat !== null && room.seats[this.seat] ? this.seat : null;
    append(this.header, [
      el("a", { href: "/", class: "home-link" }, "Tall Tales"),
      el("span", { class: "hdr-game" }, room.title),
      el("span", { class: "hdr-code" }, "Room ", el("strong", { testid: "header-code" }, room.room)),
      this.mode === "phone" && me !== null
        ? el("span", { class: "hdr-you", testid: "me" }, this.token(me), el("span", { class: "sr-only" }, "You are "), room.seats[me].name)
        : null,
      this.mode === "table" && room.status !== "lobby"
        ? el("span", { class: "hdr-join" }, "Watching as the table")
        : null,
    ]);
  }

  renderLobby() {
    const room = this.room;
    const table = this.mode === "table";
    const me = this.seat;
    const amHost = !table && me !== null && Boolean(room.seats[me]?.host);
    const joinUrl = `${location.origin}/?join=${room.room}`;
    const full = room.seats.length >= room.max_players;
    const tooFew = room.seats.length < room.min_players;

    const seatList = el("ul", { class: "seat-list", testid: "seat-list", "aria-label": "Players" },
      room.seats.map((s) => el("li", { class: `seat${s.connected ? "" : " offline"}`, testid: `seat-${s.seat}` },
        this.token(s.seat),
        el("span", { class: "seat-name" }, s.name),
        el("span", { class: "badges" },
          !table && s.seat === me ? el("span", { class: "badge you" }, "you") : null,
          s.host ? el("span", { class: "badge host", testid: `host-${s.seat}` }, "host") : null,
          s.kind === "bot" ? el("span", { class: "badge bot" }, "bot") : null,
          s.kind === "human"
            ? el("span", { class: `badge ${s.connected || (!table && s.seat === me) ? "on" : "off"}` },
              s.connected || (!table && s.seat === me) ? "connected" : "not connected")
            : null),
        amHost && !s.host
          ? el("button", {
            class: "small danger", testid: `remove-seat-${s.seat}`,
            "aria-label": s.kind === "bot" ? `Remove ${s.name}` : `Remove ${s.name} from the room`,
            on: { click: (e) => this.command({ type: "remove-seat", seat: s.seat }, e.currentTarget) },
          }, s.kind === "bot" ? "Remove" : "Kick")
          : null)));

    const seatsBox = el("section", { class: "card-panel seats", "aria-labelledby": "seats-title" },
      el("h2", { id: "seats-title" }, "Players ", el("span", { class: "count" }, `${room.seats.length} of ${room.max_players}`)),
      seatList,
      el("p", { class: "hint" }, tooFew
        ? `${room.title} needs at least ${room.min_players} players; bots count.`
        : full ? "Every seat is taken." : "More players can still join."));

    let controls;
    if (amHost) {
      const kind = el("select", { id: "bot-kind", testid: "bot-kind", on: { change: (e) => { this.botKind = e.target.value; } } },
        BOTS.map(([value, label]) => el("option", { value, selected: value === this.botKind }, label)));
      controls = el("section", { class: "card-panel host-controls", "aria-labelledby": "host-title" },
        el("h2", { id: "host-title" }, "You are the host"),
        el("div", { class: "row", "data-error-slot": "" },
          el("label", { htmlFor: "bot-kind", class: "sr-only" }, "Kind of bot"),
          kind,
          el("button", {
            class: "secondary", testid: "add-bot", disabled: full,
            on: { click: (e) => this.command({ type: "add-bot", bot: kind.value }, e.currentTarget) },
          }, "Add bot")),
        el("div", { class: "row", "data-error-slot": "" },
          el("button", {
            class: "primary big", testid: "start", disabled: tooFew, "aria-describedby": "start-hint",
            on: { click: (e) => this.command({ type: "start" }, e.currentTarget) },
          }, "Start the game")),
        el("p", { class: "hint", id: "start-hint" }, tooFew
          ? `Waiting for at least ${room.min_players} players (add a bot to play now).`
          : `Ready with ${room.seats.length} players.`));
    } else {
      const host = room.seats.find((s) => s.host);
      controls = el("p", { class: "waiting", role: "status" },
        table ? "Scan the code with your phone to join. " : "",
        host ? `Waiting for ${host.name} to start the game…` : "Waiting for the host to start the game…");
    }

    const codeBox = el("section", { class: "card-panel join-box", "aria-labelledby": "code-title" },
      el("h1", { id: "code-title", class: "code-label" }, "Room code"),
      el("p", { class: "room-code", testid: "room-code", "aria-label": `Room code ${room.room.split("").join(" ")}` }, room.room),
      el("figure", { class: "qr" },
        el("img", { src: `/api/rooms/${room.room}/qr.svg`, alt: `QR code: scan to join room ${room.room}`, testid: "qr", width: "240", height: "240" }),
        el("figcaption", {}, "Scan to join, or open ", el("span", { class: "url", testid: "join-url" }, joinUrl))),
      el("p", { class: "game-name" }, room.title, ` · ${room.min_players}–${room.max_players} players`));

    const optionsBox = this.optionsBox(amHost, table);
    const tableLink = !table
      ? el("p", {}, el("a", {
        href: `/#/table/${room.room}`, target: "_blank", rel: "noopener", class: "button secondary", testid: "open-table",
      }, "Open the table screen"), el("span", { class: "hint block" }, "On a TV or laptop everyone can see."))
      : null;

    append(this.stage, [
      el("div", { class: `lobby${table ? " lobby-table" : ""}` },
        codeBox,
        el("div", { class: "lobby-main" }, seatsBox, controls, optionsBox, tableLink)),
    ]);
  }

  optionsBox(amHost, table) {
    const room = this.room;
    const game = this.games?.find((g) => g.id === room.game);
    const labels = this.module?.optionLabels || {};
    if (!game) return null;
    const controls = optionControls(game, room.options || {}, {
      prefix: "option-", disabled: !amHost, labels,
      onChange: amHost ? (key, value, input) => this.command({ type: "set-options", options: { [key]: value } }, input) : null,
    });
    const family = el("input", {
      id: "option-family", testid: "option-family", type: "checkbox", checked: room.family_filter, disabled: !amHost,
      on: { change: (e) => this.command({ type: "set-options", options: {}, family_filter: e.target.checked }, e.target) },
    });
    if (table) {
      return null;
    }
    return el("details", { class: "card-panel options-box", open: amHost, testid: "options-form" },
      el("summary", {}, amHost ? "House rules (you can change them)" : "House rules"),
      controls.fields,
      el("div", { class: "field check" }, family, el("label", { htmlFor: "option-family" }, "Family-friendly filter")));
  }

  renderGame() {
    if (!this.module) {
      this.stage.append(el("p", { class: "loading" }, "Loading the game…"));
      return;
    }
    if (!this.state) {
      this.stage.append(el("p", { class: "loading" }, "Dealing…"));
      return;
    }
    const draw = this.mode === "table" ? this.module.renderTable : this.module.renderPhone;
    try {
      draw(this.stage, this.state, this.room, this.makeCtx());
    } catch (err) {
      console.error(err);
      this.stage.append(el("p", { class: "error-text" }, `This game could not be drawn: ${err.message}`));
    }
  }

  renderAfter() {
    const room = this.room;
    if (room.status !== "finished") return;
    const amHost = this.mode === "phone" && this.seat !== null && room.seats[this.seat]?.host;
    if (!this.socket) {
      this.after.append(el("p", { class: "hint" }, "This game is over and the room is closed."),
        el("a", { class: "button secondary", href: "/" }, "Back to the start"));
      return;
    }
    if (amHost) {
      this.after.append(el("div", { class: "row", "data-error-slot": "" },
        el("button", {
          class: "primary big", testid: "rematch",
          on: { click: (e) => this.command({ type: "rematch" }, e.currentTarget) },
        }, "Rematch: play again"),
        el("a", { class: "button secondary", href: "/" }, "Back to the start")));
    } else if (this.mode === "phone") {
      this.after.append(el("p", { class: "waiting" }, "Waiting for the host to offer a rematch…"),
        el("a", { class: "button secondary", href: "/" }, "Back to the start"));
    } else {
      this.after.append(el("p", { class: "waiting" }, "The host can start a rematch from their phone."));
    }
  }

  renderFooter() {
    clear(this.footer);
    if (this.mode !== "phone" || this.seat === null || !this.socket) return;
    const room = this.room;
    const info = room.seats[this.seat];
    if (!info) return;
    const links = el("a", { href: `/#/table/${room.room}`, target: "_blank", rel: "noopener", class: "button ghost" }, "Table screen");
    if ((room.status === "lobby" && info.host) || room.status === "finished" || info.kind === "bot") {
      if (room.status !== "lobby") this.footer.append(links);
      return; // the host stays in the lobby (they can remove others instead); after the end, nothing to leave
    }
    const label = room.status === "lobby" ? "Leave the room" : "Leave the game (a bot takes over)";
    const leave = el("button", { class: "ghost danger-text", testid: "leave" }, label);
    let armed = false;
    leave.addEventListener("click", () => {
      if (!armed) {
        armed = true;
        leave.textContent = "Tap again to leave";
        clearInterval(this.leaveTimer);
        this.leaveTimer = setTimeout(() => { armed = false; if (leave.isConnected) leave.textContent = label; }, 4000);
        return;
      }
      if (!this.command({ type: "leave" }, leave)) return;
      forgetSeat(this.code);
      const socket = this.socket;
      this.socket = null;
      setTimeout(() => socket.close(), 200);
      navigate("/");
    });
    this.footer.append(el("div", { class: "row", "data-error-slot": "" }, leave, room.status === "lobby" ? null : links));
  }

  turnInfo() {
    const room = this.room;
    const state = this.state;
    if (!room || room.status === "lobby") return null;
    const ctx = this.makeCtx();
    if (room.status === "finished") {
      const outcome = state?.outcome;
      const winners = outcome?.ranking?.[0] || [];
      const names = winners.map((s) => this.name(s));
      return {
        title: "Game over",
        detail: names.length ? `${listNames(names)} ${names.length > 1 ? "share the win" : "wins"}!` : "",
        mine: false,
      };
    }
    if (!state) return { title: "Dealing…", detail: "", mine: false };
    let custom = null;
    try { custom = this.module?.turnText?.(state, room, ctx) || null; } catch (err) { console.error(err); }
    const mine = ctx.isMine();
    if (custom) return { mine, ...custom };
    const pending = state.pending || [];
    if (mine) return { title: "Your turn!", detail: "", mine };
    if (!pending.length) return { title: "…", detail: "", mine };
    const names = pending.map((s) => this.name(s));
    return { title: `${listNames(names)}'s turn`, detail: "", mine };
  }

  updateBanner() {
    const info = this.turnInfo();
    if (!info) {
      this.banner.hidden = true;
      return;
    }
    this.banner.hidden = false;
    const [title, detail] = this.banner.children;
    if (title.textContent !== info.title) title.textContent = info.title;
    if (detail.textContent !== (info.detail || "")) detail.textContent = info.detail || "";
    this.banner.classList.toggle("mine", Boolean(info.mine));
    this.banner.dataset.mine = info.mine ? "true" : "false";
    this.banner.classList.toggle("over", this.room.status === "finished");
  }

  checkTurn() {
    if (this.mode !== "phone") return;
    const mine = this.room?.status === "playing" && this.seat !== null && Boolean(this.state?.pending?.includes(this.seat));
    if (mine && !this.wasMine) {
      buzz([120, 60, 120]);
      this.banner.classList.remove("flash");
      void this.banner.offsetWidth; // restart the animation
      this.banner.classList.add("flash");
    }
    this.wasMine = mine;
    document.title = mine ? `▶ Your turn · Room ${this.code}` : `Room ${this.code} · Tall Tales`;
  }

  updateCountdown() {
    const deadline = this.state?.deadline;
    if (!deadline || this.room?.status !== "playing") {
      this.countdown.hidden = true;
      return;
    }
    const left = Math.max(0, deadline - (Date.now() + this.offset));
    const secs = Math.ceil(left / 1000);
    const text = `${Math.floor(secs / 60)}:${String(secs % 60).padStart(2, "0")}`;
    this.countdown.hidden = false;
    if (this.countdown.textContent !== text) {
      this.countdown.textContent = text;
      this.countdown.setAttribute("aria-label", `${secs} seconds left`);
    }
    this.countdown.classList.toggle("urgent", secs <= 10);
  }

  // --- pages that replace the room ------------------------------------------------------------------
  showNoSeat(message) {
    this.socket?.close();
    this.socket = null;
    hideConnection();
    clear(this.root);
    const slot = el("div", { class: "narrow" }, el("p", { class: "loading" }, "Looking for room ", this.code, "…"));
    append(this.root, [el("header", { class: "brand small" }, el("h1", {}, el("a", { href: "/" }, "Tall Tales"))), slot]);
    request("GET", `/api/rooms/${this.code}`).then((data) => {
      if (this.destroyed) return;
      clear(slot);
      if (message) slot.append(el("p", { class: "error-text", testid: "error", role: "alert" }, message));
      if (data.room.status === "lobby") {
        slot.append(joinForm({ code: this.code, fixedCode: true, heading: `Join room ${this.code}` }));
      } else {
        slot.append(el("section", { class: "card-panel" },
          el("h2", {}, `Room ${this.code}`),
          el("p", {}, data.room.status === "finished" ? "This game is over." : "This game has already started, so nobody can join it now."),
          el("a", { class: "button primary big", href: `/#/table/${this.code}`, testid: "watch" }, "Watch it as the table")));
      }
      slot.append(el("p", { class: "center" }, el("a", { href: "/" }, "Back to the start")));
    }, (err) => {
      if (this.destroyed) return;
      clear(slot);
      slot.append(el("p", { class: "error-text", testid: "error", role: "alert" }, message || friendlyError(err)),
        el("a", { class: "button secondary", href: "/" }, "Back to the start"));
    });
  }

  showMissing() {
    // A finished room is still readable over HTTP (after a restart it has no live room).
    request("GET", `/api/rooms/${this.code}`).then((data) => {
      if (this.destroyed) return;
      this.socket = null;
      this.seat = this.mode === "phone" ? (this.saved?.seat ?? null) : null;
      this.onRoom(data.room);
      if (data.state) this.onState(data.state);
    }, (err) => {
      if (this.destroyed) return;
      this.showProblem(friendlyError(err));
    });
  }

  showProblem(text) {
    hideConnection();
    clear(this.root);
    append(this.root, [
      el("header", { class: "brand small" }, el("h1", {}, el("a", { href: "/" }, "Tall Tales"))),
      el("div", { class: "narrow" },
        el("p", { class: "error-text", testid: "error", role: "alert" }, text),
        el("a", { class: "button secondary", href: "/" }, "Back to the start")),
    ]);
  }
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

route();
