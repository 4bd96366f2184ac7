// Tall Tales web client: one shell for every game. This module is the entry point: it routes
// addresses to pages and draws the two front-door pages (home, join).
//
// Routes:  /             home (create a room, join one)
//          /?join=CODE   join screen (the QR code's link)
//          #/room/CODE   phone: this browser's seat (lobby, then the controller)
//          #/table/CODE  table screen: a spectator showing the public view
//
// Modules (plain ES modules, no build step; the imports between them have no cycles):
//   shell.js         HTTP, the game list, renderer loading, navigation, the connection banner
//   forms.js         the join and create forms
//   options-form.js  form fields; house-rule controls from a game's options schema
//   room.js          RoomPage: a room's socket, state, log and drawing (lobby, then the game)
//   lobby.js         RoomPage's lobby: players, host controls, room code and QR, house rules
//   game-page.js     RoomPage during and after a game: renderer, banner, countdown, rematch
//   problems.js      RoomPage's errors from the server and the pages that replace a room
//   dom.js, net.js   DOM helpers; the room's WebSocket
//
// Each game has a renderer module, web/games/<game-id>.js, loaded by dynamic import:
//   export function mount(container, ctx)  -> {update(state, room, ctx), unmount()}
// (or the older renderTable / renderPhone(container, state, room, ctx), redrawn on every
// message), and optionally describeEvent(event, ctx), turnText(state, room, ctx),
// optionLabels. A game without one is played by games/generic.js, from its prompts.
// See games/README.md, and makeCtx() in room.js for what ctx holds.

import { append, clear, clearErrors, el, friendlyError, isCode, loadSeat, normCode, savedSeats } from "./dom.js";
import { createForm, joinForm } from "./forms.js";
import { RoomPage } from "./room.js";
import { hideConnection, loadGames, onNavigate } from "./shell.js";

const app = document.getElementById("app");

// --- routing ---------------------------------------------------------------------------------
let current = null;
let currentKey = null;

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

onNavigate(() => {
  currentKey = null;
  route();
});

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

route();
