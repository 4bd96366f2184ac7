// A room: one page object for a phone seat or the table screen. It owns the socket, the
// room and state messages, the event log and the page's skeleton, and draws the header; the
// lobby (lobby.js), the game and what follows it (game-page.js) and the problems
// (problems.js) are methods mixed into RoomPage.prototype from their own modules.

import {
  append, capitalise, clear, clearErrors, el, friendlyError, initials, listNames, loadSeat,
  prefersReducedMotion, saveSeat, showError, svg,
} from "./dom.js";
import { gamePageMethods } from "./game-page.js";
import { lobbyMethods } from "./lobby.js";
import { RoomSocket } from "./net.js";
import { problemMethods } from "./problems.js";
import { hideConnection, loadGameModule, loadGames, showConnection, showConnectionSoon } from "./shell.js";

const SEAT_COLOURS = 6;

export class RoomPage {
  constructor(root, code, mode) {
    this.root = root;
    this.code = code;
    this.mode = mode;
    this.room = null;
    this.state = null;
    this.seat = null;
    this.module = null;
    this.moduleFor = null;
    this.renderer = null; // the mounted game renderer: {module, box, update, unmount}
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
    this.unmountGame();
    this.socket?.close();
    clearInterval(this.timer);
    clearTimeout(this.leaveTimer);
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
      showConnectionSoon(800, "Connecting…", retry,
        () => !this.destroyed && this.socket && !this.socket.open && !this.socket.stopped);
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

  // --- sending ---------------------------------------------------------------------------------
  /** A game action for this seat; errors are shown next to `anchor`. Resolves to the ack or null. */
  act(action, anchor) {
    if (!this.socket || this.seat === null) {
      showError("Only players can do that.", anchor, this.stage);
      return Promise.resolve(null);
    }
    // One action at a time, unless a newer state has arrived since it was sent: the server
    // sends the new state before the ack, and a choice drawn from that state is fair game.
    const stateMoved = (this.state?.version ?? -1) > (this.actVersion ?? -1);
    if (this.socket.inFlight && !stateMoved && Date.now() - this.lastActAt < 4000) return Promise.resolve(null);
    this.lastActAt = Date.now();
    this.actVersion = this.state?.version ?? -1;
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
    clear(this.after);
    if (this.room.status === "lobby") {
      this.unmountGame();
      clear(this.stage);
      if (this.side) clear(this.side);
      this.renderLobby();
    } else {
      this.renderGame(); // the game's renderer stays mounted and updates in place
    }
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
        : this.stage.querySelector("[data-primary] :is(button, textarea):not(:disabled), button[data-primary]:not(:disabled)");
      if (next && next !== document.activeElement) next.focus({ preventScroll: true });
    }
  }

  renderHeader() {
    clear(this.header);
    const room = this.room;
    const me = this.seat !== null && room.seats[this.seat] ? this.seat : null;
    append(this.header, [
      // The lobby's heading is its room code; during a game the page is headed by the game.
      room.status === "lobby" ? null : el("h1", { class: "sr-only" }, `${room.title}, room ${room.room}`),
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
}

Object.assign(RoomPage.prototype, lobbyMethods, gamePageMethods, problemMethods);
