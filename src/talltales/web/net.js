// The room's WebSocket: hello with the seat token and last version, automatic reconnect with
// backoff, keep-alive pings, and acts that survive a reconnect (same client_id, so the server
// applies each at most once).

import { randomId } from "./dom.js";

const HEARTBEAT_MS = 15000; // ping this often while open
const SILENCE_MS = 40000; // nothing heard for this long: the socket is dead, reconnect
const RESEND_WINDOW_MS = 30000; // acts younger than this are resent after a reconnect
const MAX_DELAY_MS = 10000;

/** Errors after which retrying the same hello cannot help. */
const FATAL = new Set(["bad-token", "no-room", "game-ended", "rate-limited"]);

export class RoomSocket {
  /**
   * @param {{room: string, token: string|null, onMessage: Function, onStatus: Function}} opts
   * onStatus(status, detail): status is "connecting", "open", "reconnecting", "restarting"
   * or "failed"; detail has {attempt, delay, code}.
   */
  constructor({ room, token, onMessage, onStatus }) {
    this.room = room;
    this.token = token || null;
    this.onMessage = onMessage;
    this.onStatus = onStatus;
    this.ws = null;
    this.welcomed = false;
    this.everWelcomed = false;
    this.stopped = false;
    this.attempt = 0;
    this.lastVersion = -1;
    this.lastHeard = 0;
    this.retryTimer = null;
    this.heartbeat = null;
    this.restarting = false;
    this.outbox = new Map(); // client_id -> {message, at, sent, resent, resolve, reject}
    this.status = "idle";
    this._online = () => this.retryNow();
    this._visible = () => {
      if (document.visibilityState !== "visible") return;
      if (!this.welcomed) this.retryNow();
      else if (Date.now() - this.lastHeard > HEARTBEAT_MS) this._ping();
    };
    window.addEventListener("online", this._online);
    document.addEventListener("visibilitychange", this._visible);
  }

  get open() {
    return Boolean(this.ws && this.welcomed && this.ws.readyState === WebSocket.OPEN);
  }

  _setStatus(status, detail = {}) {
    this.status = status;
    try { this.onStatus?.(status, detail); } catch (err) { console.error(err); }
  }

  connect() {
    if (this.stopped) return;
    clearTimeout(this.retryTimer);
    this.retryTimer = null;
    if (this.ws) return;
    this._setStatus(this.everWelcomed ? (this.restarting ? "restarting" : "reconnecting") : "connecting",
      { attempt: this.attempt, delay: 0 });
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    let ws;
    try {
      ws = new WebSocket(`${scheme}//${location.host}/ws`);
    } catch (err) {
      console.error(err);
      this._scheduleRetry(0);
      return;
    }
    this.ws = ws;
    ws.addEventListener("open", () => {
      if (this.ws !== ws) return;
      this.lastHeard = Date.now();
      const hello = { type: "hello", room: this.room, last_version: this.lastVersion };
      if (this.token) hello.token = this.token;
      ws.send(JSON.stringify(hello));
    });
    ws.addEventListener("message", (event) => {
      if (this.ws !== ws) return;
      this.lastHeard = Date.now();
      let message;
      try {
        message = JSON.parse(event.data);
      } catch {
        return;
      }
      this._handle(message);
    });
    ws.addEventListener("close", (event) => {
      if (this.ws !== ws) return;
      this._dropped(event.code);
    });
    // "error" is always followed by "close".
  }

  _dropped(code) {
    const ws = this.ws;
    this.ws = null;
    this.welcomed = false;
    clearInterval(this.heartbeat);
    this.heartbeat = null;
    if (ws) {
      try { ws.close(); } catch { /* already closed */ }
    }
    if (!this.stopped) this._scheduleRetry(code);
  }

  _scheduleRetry(code) {
    this.attempt += 1;
    const base = code === 1012 || this.restarting ? 1000 : 500;
    const delay = Math.min(MAX_DELAY_MS, base * 2 ** (this.attempt - 1)) * (0.8 + Math.random() * 0.4);
    this._setStatus(this.restarting ? "restarting" : "reconnecting",
      { attempt: this.attempt, delay: Math.round(delay), code });
    clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => this.connect(), delay);
  }

  /** Try again at once (the "try now" button, the browser coming back online). */
  retryNow() {
    if (this.stopped || this.welcomed) return;
    if (this.ws && this.ws.readyState === WebSocket.CONNECTING) return;
    if (this.ws) this._dropped(0);
    clearTimeout(this.retryTimer);
    this.connect();
  }

  _ping() {
    if (!this.open) return;
    if (Date.now() - this.lastHeard > SILENCE_MS) {
      this._dropped(4000); // silent for too long: assume the network dropped us
      return;
    }
    this.ws.send(JSON.stringify({ type: "ping" }));
  }

  _handle(message) {
    switch (message.type) {
      case "welcome":
        this.welcomed = true;
        this.everWelcomed = true;
        this.restarting = false;
        this.attempt = 0;
        clearInterval(this.heartbeat);
        this.heartbeat = setInterval(() => this._ping(), HEARTBEAT_MS);
        this._setStatus("open");
        break;
      case "state":
        if (typeof message.version === "number") this.lastVersion = message.version;
        break;
      case "ack": {
        const entry = this.outbox.get(message.client_id);
        if (entry) {
          this.outbox.delete(message.client_id);
          entry.resolve(message);
        }
        break;
      }
      case "error": {
        if (message.client_id && this.outbox.has(message.client_id)) {
          const entry = this.outbox.get(message.client_id);
          this.outbox.delete(message.client_id);
          entry.reject({ ...message, silent: entry.resent });
          return; // the caller shows it next to its control
        }
        if (!this.welcomed && FATAL.has(message.code)) {
          this.stopped = true;
          const ws = this.ws;
          this.ws = null;
          try { ws?.close(1000); } catch { /* ignore */ }
          this._setStatus("failed", { code: message.code });
        }
        break;
      }
      case "restarting":
        this.restarting = true;
        this._setStatus("restarting", { attempt: this.attempt, delay: 0 });
        break;
      default:
        break;
    }
    try {
      this.onMessage?.(message);
    } catch (err) {
      console.error(err);
    }
    if (message.type === "welcome") this._flush();
  }

  _flush() {
    const now = Date.now();
    for (const [id, entry] of this.outbox) {
      if (now - entry.at > RESEND_WINDOW_MS) {
        this.outbox.delete(id);
        entry.reject({ code: "not-connected", reason: "the connection was lost", silent: entry.sent });
        continue;
      }
      entry.resent = entry.sent;
      entry.sent = true;
      this.ws.send(JSON.stringify(entry.message));
    }
  }

  /** Send a lobby/host command now; false when not connected. */
  send(message) {
    if (!this.open) return false;
    this.ws.send(JSON.stringify(message));
    return true;
  }

  /** Send a game action; resolves on ack, rejects with the error {code, reason}. */
  act(action) {
    const clientId = randomId();
    const message = { type: "act", client_id: clientId, action };
    return new Promise((resolve, reject) => {
      const entry = { message, at: Date.now(), sent: false, resent: false, resolve, reject };
      this.outbox.set(clientId, entry);
      if (this.open) {
        entry.sent = true;
        this.ws.send(JSON.stringify(message));
      }
    });
  }

  /** Acts sent but not yet acknowledged. */
  get inFlight() {
    return this.outbox.size;
  }

  close() {
    this.stopped = true;
    clearTimeout(this.retryTimer);
    clearInterval(this.heartbeat);
    window.removeEventListener("online", this._online);
    document.removeEventListener("visibilitychange", this._visible);
    const ws = this.ws;
    this.ws = null;
    this.welcomed = false;
    if (ws) {
      try { ws.close(1000); } catch { /* ignore */ }
    }
    for (const entry of this.outbox.values()) entry.reject({ code: "closed", reason: "left", silent: true });
    this.outbox.clear();
  }
}
