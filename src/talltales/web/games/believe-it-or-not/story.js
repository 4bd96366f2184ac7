// Believe It or Not!'s story of the play, shared by both screens: the events seen, the last card's result, the winner.

import { capitalise, el } from "../../dom.js";
import { answersList } from "./play.js";
import { adoptStyles, dropStyles } from "./styles.js";
import {
  answered, cardMove, has, isMe, moves, moveWords, nameOf, ordinal, placeName, progress, spaceAt,
} from "./words.js";

/** What this page saw happen: the spaces pawns just moved to, and the events of the last two cards. */
class Story {
  constructor() {
    this.landed = new Set(); // the spaces pawns moved to in the latest update
    this.started = false; // a card has been played (the view shows one was)
    this.version = null;
    this.current = []; // the public events since the latest card was played (or the page opened)
    this.previous = []; // those of the card before it
  }

  follow(state, ctx) {
    const view = state.view;
    // A room message (someone reconnects) redraws the same state with the same events.
    const fresh = state.version !== this.version;
    this.version = state.version;
    if (fresh) this.landed = new Set();
    for (const event of fresh ? ctx.newEvents || [] : []) this.see(event, view);
    if (view && (view.play || view.last || view.discards > 0 || (view.log || []).length)) this.started = true;
  }

  see(event, view) {
    if (event.kind === "play" || event.kind === "challenge") {
      this.previous = this.current;
      this.current = [];
    }
    this.current.push(event);
    const d = event.data || {};
    if (event.kind === "move" && d.end !== undefined) this.landed.add(Number(d.end));
    if ((event.kind === "slide" || event.kind === "trade") && view) {
      for (const s of [d.seat, d.other]) if (has(s)) this.landed.add(view.pawns[Number(s)]);
    }
  }

  /** Where ``seat``'s pawn went in view.last's play, if this page saw the move: the space it
   * moved to, and where it slid on from there (or null); null if unseen. */
  landing(view, seat) {
    const events = view.play ? this.previous : this.current; // a new card in play: view.last is the one before
    const mine = (e, kind) => e.kind === kind && Number(e.data?.seat) === seat;
    const at = events.findIndex((e) => mine(e, "move") && e.data?.end !== undefined);
    if (at < 0) return null;
    const end = Number(events[at].data.end);
    const space = spaceAt(view, end);
    const slid = events[at + 1] && mine(events[at + 1], "slide") && space?.kind === "slide" ? space.end : null;
    return { end, slid };
  }
}

/** What the table and the phone share: the styles while on screen, the story, the latest state, a timer.
 * A screen draws itself in ``draw(view, state, room, ctx)``, ticks in ``tick()``, and leaves in ``remove()``. */
export class Screen {
  constructor(ctx) {
    adoptStyles();
    this.ctx = ctx;
    this.story = new Story();
    this.state = null;
    this.timer = null;
  }

  /** Call ``tick`` every ``ms`` milliseconds until unmounted (a dispute's countdown). */
  tickEvery(ms) {
    this.timer = setInterval(() => this.tick(), ms);
  }

  /** Every state and room message: keep ctx and state, follow the story, and (once the view has
   * a board) ``draw`` the screen. */
  update(state, room, ctx) {
    this.ctx = ctx;
    this.state = state;
    const view = state.view;
    if (!view || !view.board) return;
    this.story.follow(state, ctx);
    this.draw(view, state, room, ctx);
  }

  /** Stop the timer, take the screen's elements off the page (``remove``), drop the styles. */
  unmount() {
    clearInterval(this.timer);
    this.remove();
    dropStyles();
  }
}

// --- the last card ------------------------------------------------------------------------------------
/** "Ann moves 3 ahead to space 9 and slides on to space 11.": where to, when this page saw the move. */
function movedLine(view, story, ctx, seat, steps) {
  const who = nameOf(seat, ctx, "you");
  const landed = story.landing(view, seat);
  const slid = landed && landed.slid !== null ? ` and ${who === "you" ? "slide" : "slides"} on to ${placeName(view, landed.slid)}` : "";
  const to = landed ? ` to ${placeName(view, landed.end)}${slid}` : "";
  return `${moves(who)} ${Math.abs(steps)} ${steps < 0 ? "back" : "ahead"}${to}.`;
}

function questionResult(last, { answerer }, moved) {
  const right = /right/.test(last.verdict);
  return {
    tone: right ? "good" : "bad",
    title: answered(answerer, last.verdict),
    question: last.question,
    chosen: last.verdict[0],
    correct: last.question.correct ? capitalise(last.question.correct) : "",
    line: moved(right ? last.answerer : last.asker, last.advance),
  };
}

function statementResult(last, card, { answerer }, moved) {
  const truth = card.kind === "statement";
  const judgedRight = (last.verdict === "I believe it") === truth;
  return {
    tone: truth ? "good" : "bad",
    title: truth ? "It was true!" : "It was a bluff!",
    said: last.said,
    fact: truth ? "" : card.truth,
    line: `${capitalise(answerer)} said “${last.verdict}”. ${moved(judgedRight ? last.answerer : last.asker, last.advance)}`,
  };
}

function disputedResult(last, card, ctx, { asker }, moved) {
  const says = cardMove(card);
  const honest = says === last.claim;
  const who = nameOf(last.disputer, ctx);
  return {
    tone: honest ? "good" : "bad",
    title: honest ? "Disputed: it was the truth!" : "Disputed: it was a bluff!",
    claim: last.claim,
    line: `${capitalise(who)} disputed, and the card says ${moveWords(says)}: ${moved(last.asker, says)} `
      + `${capitalise(honest ? asker : who)} won the bonus.`,
  };
}

function standingResult(last, card, ctx, moved) {
  const mine = isMe(last.asker, ctx) && card && card.count;
  const says = mine ? cardMove(card) : 0;
  return {
    tone: "plain",
    title: "Nobody disputed",
    claim: last.claim,
    line: `The claim stands: ${moved(last.asker, last.claim)} `
      + (mine ? `Your card said ${moveWords(says)}, and nobody else will know.` : "The card stays secret."),
  };
}

/** The card played before, from view.last (so a reload shows it too): what became of it, and
 * who moved how far (and where to, when this page saw the move). */
export function lastResult(view, story, ctx) {
  const last = view.last;
  if (!last) return null;
  const names = { asker: nameOf(last.asker, ctx, "you"), answerer: has(last.answerer) ? nameOf(last.answerer, ctx) : "" };
  const moved = (seat, steps) => movedLine(view, story, ctx, seat, steps);
  const card = last.card;
  if (last.question && last.verdict) return questionResult(last, names, moved);
  if (last.shown_as === "statement" && last.verdict && card) return statementResult(last, card, names, moved);
  if (has(last.disputer) && card) return disputedResult(last, card, ctx, names, moved);
  if (last.claim) return standingResult(last, card, ctx, moved);
  return null;
}

export function resultBox(result, compact) {
  if (!result) return null;
  return el("section", { class: `boin-result ${result.tone}${compact ? " compact" : ""}`, testid: "last-result", "aria-labelledby": "boin-result-title" },
    el("h2", { class: "boin-section-title", id: "boin-result-title" }, "The last card"),
    el("p", { class: "boin-result-title", testid: "reveal" }, result.title),
    result.question && !compact ? el("p", { class: "boin-question small" }, result.question.text) : null,
    result.question && !compact ? answersList(result.question, { chosen: result.chosen, compact: true }) : null,
    result.said && !compact ? el("blockquote", { class: "boin-said small" }, result.said) : null,
    result.claim && !compact ? el("p", { class: "boin-claim small" }, `Claimed: ${moveWords(result.claim)}`) : null,
    result.correct && compact ? el("p", { class: "boin-fact", testid: "right-answer" }, result.correct) : null,
    result.fact ? el("p", { class: "boin-fact", testid: "real-fact" }, el("strong", {}, "The real fact: "), result.fact) : null,
    el("p", { class: "boin-note" }, result.line));
}

/** The end: who won, then every pawn from the furthest along. */
export function winnerBox(view, ctx) {
  if (!has(view.winner)) return null;
  const mine = isMe(view.winner, ctx);
  const title = mine ? "You win!" : `${ctx.name(view.winner)} wins!`;
  const seats = view.pawns.map((_, s) => s);
  seats.sort((a, b) => (a === view.winner ? -1 : b === view.winner ? 1 : progress(view, view.pawns[b]) - progress(view, view.pawns[a])));
  return el("section", { class: "winner boin-winner", testid: "winner", role: "status", "aria-label": title },
    el("p", { class: "winner-title" }, title),
    el("p", { class: "winner-detail" }, `${mine ? "Your" : `${ctx.name(view.winner)}'s`} pawn reached YOU HAVE WON THE GAME.`),
    el("ol", { class: "ranking" }, seats.map((s, k) => el("li", {},
      el("span", { class: "place" }, ordinal(k + 1)),
      el("span", { class: "ranked" }, ctx.token(s), ctx.name(s)),
      el("span", { class: "points" }, s === view.winner ? "won" : placeName(view, view.pawns[s]))))));
}
