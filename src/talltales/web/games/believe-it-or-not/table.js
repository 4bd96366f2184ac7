// Believe It or Not!'s table screen: the card in play (or the last card, or how to play) above the board; players and piles beside it.

import { el } from "../../dom.js";
import { boardGrid, legend } from "./board.js";
import { livePlay } from "./play.js";
import { lastResult, resultBox, Screen, winnerBox } from "./story.js";
import { cards, howToPlayList, isMe, placeName, WON } from "./words.js";

function howToPlay() {
  return el("section", { class: "boin-how", testid: "how-to-play", "aria-labelledby": "boin-how-title" },
    el("h2", { class: "boin-section-title", id: "boin-how-title" }, "How to play"),
    howToPlayList());
}

function badges(seat, ctx) {
  return [
    isMe(seat, ctx) ? el("span", { class: "badge you" }, "you") : null,
    ctx.seatInfo(seat)?.kind === "bot" ? el("span", { class: "badge bot" }, "bot") : null,
    ctx.seatInfo(seat)?.stand_in ? el("span", { class: "badge standin" }, "bot playing") : null,
  ];
}

function playersList(view, state, ctx) {
  const over = view.phase === "over";
  return el("section", { class: "boin-players", testid: "players", "aria-labelledby": `boin-players-title-${ctx.mode}` },
    el("h2", { class: "boin-section-title", id: `boin-players-title-${ctx.mode}` }, "Players"),
    el("ol", {}, view.pawns.map((pos, seat) => {
      const tern = !over && seat === view.tern;
      const deciding = !over && (state.pending || []).includes(seat);
      const place = placeName(view, pos);
      return el("li", { class: `${tern ? "tern" : ""}${deciding ? " deciding" : ""}`.trim(), testid: `player-${seat}`, "aria-current": tern ? "true" : null },
        ctx.token(seat),
        el("span", { class: "boin-pname" }, ctx.name(seat), badges(seat, ctx)),
        el("span", { class: "boin-place", testid: `place-${seat}` }, place === WON ? "WON" : place),
        el("span", { class: "boin-hand-size" }, cards(view.hand_sizes[seat])),
        tern ? el("span", { class: "badge turn" }, "tern token") : null,
        deciding && !tern ? el("span", { class: "badge turn" }, "deciding") : null);
    })));
}

function pilesBox(view) {
  return el("section", { class: "boin-piles", testid: "piles", "aria-label": "The cards" },
    el("p", { testid: "draw-pile" }, el("span", { class: "boin-pile-n" }, String(view.draw_pile)), " in the draw pile"),
    el("p", { testid: "discards" }, el("span", { class: "boin-pile-n" }, String(view.discards)), " discarded"),
    view.challenges ? el("p", { class: "boin-waiting-challenge" }, `${view.challenges} challenge${view.challenges > 1 ? "s" : ""} to come`) : null);
}

export class TableScreen extends Screen {
  constructor(container, ctx) {
    super(ctx);
    this.top = el("div", { class: "boin-top" });
    this.boardSlot = el("div", { class: "boin-board-slot" });
    this.root = el("div", { class: "boin boin-table" }, this.top, this.boardSlot, legend());
    container.append(this.root);
    this.sideLast = el("div", { class: "boin-side-last" });
    this.side = el("div", { class: "boin boin-side" });
    (ctx.side || this.root).append(this.side);
    this.tickEvery(250);
  }

  draw(view, state, room, ctx) {
    this.drawTop();
    const board = boardGrid(view, ctx, { landed: this.story.landed });
    this.boardSlot.replaceWith(board);
    this.boardSlot = board;
    this.side.replaceChildren(this.sideLast, playersList(view, state, ctx), pilesBox(view));
  }

  /** The top of the main column: the winner, the card in play, the last card, or how to play.
   * While a card is in play it takes the width, and the last card waits in the side column. */
  drawTop() {
    const { ctx, state } = this;
    const view = state.view;
    const winner = winnerBox(view, ctx);
    const live = view.play && !winner ? livePlay(view, ctx, ctx.now(), false) : null;
    const last = winner ? null : resultBox(lastResult(view, this.story, ctx), Boolean(live));
    this.top.replaceChildren(winner || live || (!this.story.started ? howToPlay() : last) || this.choosing(view));
    this.sideLast.replaceChildren(...(live && last ? [last] : []));
  }

  /** Between cards: whose turn it is to pick one. */
  choosing(view) {
    return el("section", { class: "boin-play", "aria-label": "The card in play" },
      el("p", { class: "boin-note" }, `${this.ctx.name(view.tern)} is choosing a card to play…`));
  }

  tick() {
    const view = this.state?.view;
    if (view && view.phase === "dispute" && view.deadline) this.drawTop();
  }

  remove() {
    this.root.remove();
    this.side.remove();
  }
}
