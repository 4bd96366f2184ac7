// RoomPage once the game has started: the game's renderer, the turn banner, the countdown,
// the "your turn" buzz, and after the end the rematch offer; the phone's footer (leave).
// Mixed into RoomPage.prototype by room.js.

import { buzz, clear, el, forgetSeat, listNames } from "./dom.js";
import { navigate } from "./shell.js";

/**
 * A renderer instance for `mod` in `container`: {update(state, room, ctx), unmount()}.
 * Modules with the lifecycle export `mount(container, ctx)`, which returns the instance;
 * older ones export `renderTable` / `renderPhone`, which are called on an emptied container
 * (and side column) for every message.
 */
export function mountRenderer(mod, container, ctx) {
  if (typeof mod.mount === "function") {
    const instance = mod.mount(container, ctx) || {};
    return {
      update: (state, room, c) => instance.update?.(state, room, c),
      unmount: () => instance.unmount?.(),
    };
  }
  const side = ctx.side;
  const wipe = () => { clear(container); if (side) clear(side); };
  return {
    update(state, room, c) {
      wipe();
      (c.mode === "table" ? mod.renderTable : mod.renderPhone)(container, state, room, c);
    },
    unmount: wipe,
  };
}

export const gamePageMethods = {
  /** Draw the game: the renderer is mounted once, then updated with every message. */
  renderGame() {
    const waitText = !this.module ? "Loading the game…" : !this.state ? "Dealing…" : null;
    if (waitText) {
      this.unmountGame(); // a rematch starts afresh with the new deal
      clear(this.stage);
      if (this.side) clear(this.side);
      this.stage.append(el("p", { class: "loading" }, waitText));
      return;
    }
    const ctx = this.makeCtx();
    if (!this.renderer || this.renderer.module !== this.module) {
      this.unmountGame();
      clear(this.stage);
      if (this.side) clear(this.side);
      const box = el("div", { class: "game-box" });
      this.stage.append(box);
      try {
        this.renderer = { module: this.module, box, ...mountRenderer(this.module, box, ctx) };
      } catch (err) {
        console.error(err);
        this.renderer = null;
        this.drawFailed(true);
        return;
      }
    }
    try {
      this.renderer.update(this.state, this.room, ctx);
      this.drawFailed(false);
    } catch (err) {
      console.error(err);
      this.drawFailed(true);
    }
  },

  /** Take the game's renderer off the page (the lobby, another page, a rematch). */
  unmountGame() {
    const renderer = this.renderer;
    this.renderer = null;
    if (!renderer) return;
    try { renderer.unmount(); } catch (err) { console.error(err); }
    renderer.box.remove();
  },

  drawFailed(failed) {
    this.stage.querySelector(":scope > .draw-failed")?.remove();
    if (failed) {
      this.stage.append(el("p", { class: "error-text draw-failed" }, "This screen could not be drawn. Reload the page to try again."));
    }
  },

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
  },

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
    // the footer is redrawn on every message, so "armed" lives on the page, not the button
    const armed = () => Date.now() < (this.leaveArmedUntil || 0);
    const leave = el("button", { class: "ghost danger-text", testid: "leave" }, armed() ? "Tap again to leave" : label);
    leave.addEventListener("click", () => {
      if (!armed()) {
        this.leaveArmedUntil = Date.now() + 4000;
        leave.textContent = "Tap again to leave";
        clearTimeout(this.leaveTimer);
        this.leaveTimer = setTimeout(() => { if (leave.isConnected) leave.textContent = label; }, 4000);
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
  },

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
  },

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
  },

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
  },

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
  },
};
