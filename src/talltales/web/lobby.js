// RoomPage's lobby: the players and their badges, the host's controls (bots, start), the room
// code with its QR code, and the house rules. Mixed into RoomPage.prototype by room.js.

import { append, el, showError } from "./dom.js";
import { optionControls } from "./options-form.js";

const BOTS = [
  ["greedy", "Greedy bot (medium)"],
  ["search", "Search bot (hard)"],
  ["smart", "Smart bot (best)"],
  ["random", "Random bot (easy)"],
];

export const lobbyMethods = {
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
  },

  optionsBox(amHost, table) {
    const room = this.room;
    const game = this.games?.find((g) => g.id === room.game);
    const labels = this.module?.optionLabels || {};
    if (table || !game) return null;
    const controls = optionControls(game, room.options || {}, {
      prefix: "option-", disabled: !amHost, labels,
      onChange: amHost ? (key, value, input) => this.command({ type: "set-options", options: { [key]: value } }, input) : null,
    });
    const family = el("input", {
      id: "option-family", testid: "option-family", type: "checkbox", checked: room.family_filter, disabled: !amHost,
      on: { change: (e) => { // a change that could not be sent is put back
        if (!this.command({ type: "set-options", options: {}, family_filter: e.target.checked }, e.target)) {
          e.target.checked = !e.target.checked;
        }
      } },
    });
    return el("details", { class: "card-panel options-box", open: amHost, testid: "options-form" },
      el("summary", {}, amHost ? "House rules (you can change them)" : "House rules"),
      this.packsField(game, amHost),
      controls.fields,
      el("div", { class: "field check" }, family, el("label", { htmlFor: "option-family" }, "Family-friendly filter")));
  },

  // The card packs a game ships, as checkboxes: the host picks, everyone sees the choice.
  packsField(game, amHost) {
    const packs = game.packs || [];
    if (!packs.length) return null;
    const chosen = new Set(this.room.packs || packs.filter((p) => p.default).map((p) => p.id));
    const boxes = packs.map((pack) => {
      const id = `pack-${pack.id}`;
      const box = el("input", {
        id, type: "checkbox", testid: id, checked: chosen.has(pack.id), disabled: !amHost,
        "aria-describedby": `${id}-about`,
        on: { change: (e) => {
          const next = new Set(chosen);
          if (e.target.checked) next.add(pack.id); else next.delete(pack.id);
          if (!next.size) { // a game is dealt from at least one pack
            e.target.checked = true;
            showError("Keep at least one pack of cards.", e.target, this.stage);
            return;
          }
          const order = packs.map((p) => p.id).filter((p) => next.has(p));
          if (!this.command({ type: "set-options", packs: order }, e.target)) e.target.checked = !e.target.checked;
        } },
      });
      return el("div", { class: "field check pack" }, box,
        el("label", { htmlFor: id }, pack.title),
        el("span", { class: "hint block", id: `${id}-about` },
          `${pack.cards} cards${pack.description ? ` · ${pack.description}` : ""}`));
    });
    return el("fieldset", { class: "packs", testid: "packs", "data-error-slot": "" },
      el("legend", {}, amHost ? "Card packs (pick one or more)" : "Card packs"), ...boxes);
  },
};
