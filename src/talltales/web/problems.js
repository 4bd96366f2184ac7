// RoomPage's problems: errors the server sends outside an action, and the pages that replace
// a room (no seat on this device, a room that is gone, a refusal). Errors always appear in
// words, next to the control that caused them where there is one.
// Mixed into RoomPage.prototype by room.js.

import { append, clear, el, forgetSeat, friendlyError, showError } from "./dom.js";
import { joinForm } from "./forms.js";
import { hideConnection, request } from "./shell.js";

export const problemMethods = {
  onError(error) {
    if (error.client_id) return; // acts report their own errors
    switch (error.code) {
      case "bad-token":
      case "removed":
        forgetSeat(this.code);
        this.showNoSeat(friendlyError(error)); // closes the socket first
        return;
      case "no-room":
      case "game-ended":
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
  },

  // --- pages that replace the room ------------------------------------------------------------------
  showNoSeat(message) {
    this.unmountGame();
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
  },

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
  },

  showProblem(text) {
    this.unmountGame();
    hideConnection();
    clear(this.root);
    append(this.root, [
      el("header", { class: "brand small" }, el("h1", {}, el("a", { href: "/" }, "Tall Tales"))),
      el("div", { class: "narrow" },
        el("p", { class: "error-text", testid: "error", role: "alert" }, text),
        el("a", { class: "button secondary", href: "/" }, "Back to the start")),
    ]);
  },
};
