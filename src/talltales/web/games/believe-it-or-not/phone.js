// Believe It or Not!'s phone: the seat's prompt (drawn by the generic renderer, with a few words more), its hand, its pawn's place.

import { capitalise, el } from "../../dom.js";
import { mount as mountGeneric } from "../generic.js";
import { boardGrid } from "./board.js";
import { handList, rememberOpen } from "./cards.js";
import { livePlay } from "./play.js";
import { lastResult, resultBox, Screen, winnerBox } from "./story.js";
import { cards, howToPlayList, named, ordinal, placeName, rankOf } from "./words.js";

const CLAIM_HINT = [
  "Nobody disputes? You move as you claimed, and nobody sees the card. Somebody disputes? ",
  "The card is turned over, you move as it really says, and whoever was right gets a bonus.",
];
const BLUFF_HINT = "Fill the blanks of HINT #1, or write your own fib around the key words of HINT #2. Say it as if it were true: it ends “believe it or not”.";

/** An option of the asker's pick, with what only the asker knows: a question's right answer, a claim's truth. */
function optionWords(option, card) {
  const a = option.action || {};
  if (a.type === "ask" && card.questions?.[a.question]?.correct) {
    return { ...option, label: `${option.label} (${capitalise(card.questions[a.question].correct)})` };
  }
  if (a.type === "claim") {
    const truth = a.direction === card.direction && a.count === card.count;
    return { ...option, label: `Move ${a.count} ${a.direction}${truth ? " \u2713 true" : ""}` };
  }
  return option;
}

/** HINT #1 and HINT #2 of a bluff card, with how to use them. */
function hintsBox(card) {
  return el("section", { class: "boin-hints", testid: "hints", "aria-label": "Hints from your card", dataset: { card: card.id } },
    el("p", { testid: "hint-1" }, el("span", { class: "boin-hint-label" }, "HINT #1"), card.hint1),
    el("p", { testid: "hint-2" }, el("span", { class: "boin-hint-label" }, "HINT #2"), (card.hint2 || []).join(" · ")),
    el("p", { class: "hint" }, BLUFF_HINT));
}

export class PhoneScreen extends Screen {
  constructor(container, ctx) {
    super(ctx);
    this.howOpen = null; // null: as the game stands; true/false: the player's choice
    this.winner = el("div", { class: "boin-winner-slot" });
    this.how = el("details", { class: "boin-how-toggle", testid: "how-to-play" }, el("summary", {}, "How to play"), howToPlayList());
    this.howAuto = false; // what the game last opened it to; a toggle to anything else is the player's
    this.how.addEventListener("toggle", () => { if (this.how.open !== this.howAuto) this.howOpen = this.how.open; });
    this.context = el("div", { class: "boin-context" });
    this.choose = el("section", { class: "boin-choose", "aria-labelledby": "boin-choose-title", hidden: true });
    this.promptHost = el("div", { class: "boin-prompt-host" });
    this.generic = mountGeneric(this.promptHost, { ...ctx, mode: "phone" });
    for (const extra of this.promptHost.querySelectorAll(".view-box, .results-slot")) extra.hidden = true;
    this.me = el("p", { class: "boin-me", testid: "my-place" });
    this.handBox = el("section", { class: "boin-hand-box", "aria-labelledby": "boin-hand-title" });
    this.places = el("div", { class: "boin-places-slot" });
    this.hints = null;
    this.openIds = new Set(); // the "Read" and "Everyone's pawns" boxes the player opened
    this.root = el("div", { class: "boin boin-phone" },
      this.winner, this.choose, this.promptHost, this.context, this.how, this.me, this.handBox, this.places);
    container.append(this.root);
    this.tickEvery(500);
  }

  draw(view, state, room, ctx) {
    const pending = (state.pending || []).includes(ctx.seat);
    const choosing = pending && view.phase === "choose-card";
    const over = view.phase === "over" || Boolean(state.outcome);
    this.winner.replaceChildren(...[winnerBox(view, ctx)].filter(Boolean));
    this.drawHow(over);
    this.drawPrompt(state, room, view, { pending, choosing, over });
    this.drawContext(view, pending, over);
    this.drawMe(view, over);
    this.drawHand(view, state, choosing);
    this.places.replaceChildren(this.miniBoard(view, over));
  }

  /** How to play: open before the first card, unless the player opened or closed it. */
  drawHow(over) {
    this.howAuto = !this.story.started && !over;
    const open = this.howOpen ?? this.howAuto;
    if (this.how.open !== open) this.how.open = open;
    this.how.hidden = over;
  }

  /** The prompt: the hand itself while choosing a card; otherwise the generic renderer's. */
  drawPrompt(state, room, view, { pending, choosing, over }) {
    this.choose.hidden = !choosing;
    // While this seat waits, the generic renderer says whom for (and what this phone sent).
    this.promptHost.hidden = choosing || over;
    // The generic renderer draws the prompt only: the view and the outcome are drawn here.
    const asked = choosing || over ? { prompt: null, legal: [] } : { prompt: this.prompt(state, view) };
    const shown = { ...state, ...asked, view: null, outcome: null };
    this.generic.update(shown, room, { ...this.ctx, mode: "phone" });
    this.addHints(state, view);
    this.root.classList.toggle("claiming", pending && view.phase === "ask" && view.play?.shown_as === "movement");
  }

  /** The seat's prompt, with a few more words than the game's: hints, right answers, the truth. */
  prompt(state, view) {
    const prompt = state.prompt;
    if (!prompt || typeof prompt !== "object") return prompt;
    const card = view.play?.card;
    if (prompt.kind === "write") {
      return { ...prompt, question: String(prompt.question || "").split(/\s*HINT #1:/)[0] };
    }
    if (prompt.kind === "pick" && card && view.phase === "ask") {
      return { ...prompt, options: (prompt.options || []).map((o) => optionWords(o, card)) };
    }
    return prompt;
  }

  /** HINT #1 and HINT #2 of a bluff card, between the question and the text box. */
  addHints(state, view) {
    const card = view.play?.card;
    const writing = state.prompt?.kind === "write" && card && card.kind === "bluff";
    if (!writing) {
      this.hints?.remove();
      this.hints = null;
      return;
    }
    const question = this.promptHost.querySelector("[data-testid=prompt-question]");
    if (!question) return;
    if (!this.hints || this.hints.dataset.card !== card.id) {
      this.hints?.remove();
      this.hints = hintsBox(card);
    }
    if (question.nextElementSibling !== this.hints) question.after(this.hints);
  }

  /** Above the hand: the card in play (unless this seat is asked), and the last card. */
  drawContext(view, pending, over) {
    const ctx = this.ctx;
    const parts = [];
    const play = view.play;
    if (play && !over) {
      const mineToAsk = play.asker === ctx.seat && (view.phase === "ask" || view.phase === "target");
      if (mineToAsk && play.card) {
        if (play.card.kind === "movement") parts.push(el("p", { class: "hint boin-claim-hint", testid: "claim-hint" }, ...CLAIM_HINT));
      } else if (!pending) {
        parts.push(livePlay(view, ctx, ctx.now(), true));
      }
    }
    if (!over && !(pending && view.phase !== "choose-card")) parts.push(resultBox(lastResult(view, this.story, ctx), true));
    this.context.replaceChildren(...parts.filter(Boolean));
  }

  /** Where this seat's pawn is, and (until the end) its place in the race. */
  drawMe(view, over) {
    const me = this.ctx.seat;
    this.me.replaceChildren(this.ctx.token(me), el("span", {}, "Your pawn: ", el("strong", {}, placeName(view, view.pawns[me])),
      over ? null : el("span", { class: "muted" }, ` (${ordinal(rankOf(view, me))} of ${view.players})`)));
  }

  /** The hand: in the prompt's place while choosing a card to play, else below. */
  drawHand(view, state, choosing) {
    const list = handList(view, state, this.ctx, choosing, this.openIds);
    if (choosing) {
      const title = named(state.prompt?.question, this.ctx) || "Your turn: pick a card to play from your hand";
      this.choose.replaceChildren(
        el("h2", { class: "boin-choose-title", id: "boin-choose-title" }, title),
        el("p", { class: "hint" }, "Tap a card to play it. “Read” shows what is on it."),
        list);
      this.choose.setAttribute("data-primary", "");
      this.handBox.replaceChildren();
      this.handBox.hidden = true;
    } else {
      this.choose.replaceChildren();
      this.choose.removeAttribute("data-primary");
      this.handBox.hidden = view.phase === "over";
      const title = `Your hand: ${cards((view.hand || []).length)}`;
      this.handBox.replaceChildren(el("h2", { class: "boin-hand-title", id: "boin-hand-title" }, title), list);
    }
  }

  /** Everyone's pawns, as a list and a small board, in a box the player may open. */
  miniBoard(view, over) {
    const ctx = this.ctx;
    const places = el("ul", { class: "boin-places", testid: "places" }, view.pawns.map((pos, seat) => el("li", {},
      ctx.token(seat), el("span", {}, seat === ctx.seat ? `${ctx.name(seat)} (you)` : ctx.name(seat)),
      !over && seat === view.tern ? el("span", { class: "badge turn" }, "tern") : null,
      el("span", { class: "boin-place" }, placeName(view, pos)))));
    const mini = el("details", { class: "boin-mini", open: this.openIds.has("mini") }, el("summary", {}, "Everyone's pawns"),
      places, boardGrid(view, ctx, { compact: true, landed: this.story.landed }));
    return rememberOpen(mini, "mini", this.openIds);
  }

  tick() {
    const view = this.state?.view;
    if (view && view.phase === "dispute" && view.deadline && !(this.state.pending || []).includes(this.ctx.seat)) {
      this.drawContext(view, false, false);
    }
  }

  remove() {
    this.generic.unmount?.();
    this.root.remove();
  }
}
