// Believe It or Not!'s card in play, as far as this screen may see it: who asks whom, the question, the statement or the claim.

import { capitalise, el, listNames } from "../../dom.js";
import { answered, cardMove, has, isMe, KIND_CLASS, KIND_NAMES, LETTERS, letterOf, moveWords, nameOf, spaces } from "./words.js";

/** A face-down card's kind as the public sees it: its name and colour class. */
const SHOWN = { movement: ["Movement", "k-mv"], "multiple-choice": ["Multiple Choice", "k-mc"], statement: ["Statement or Bluff", "k-st"] };

const note = (...children) => el("p", { class: "boin-note" }, ...children);
const reveal = (good, ...children) => el("p", { class: `boin-reveal ${good ? "good" : "bad"}`, testid: "reveal" }, ...children);
const who = (seat, ctx, you) => el("span", { class: "boin-who" }, ctx.token(seat), nameOf(seat, ctx, you));

/** "Ann → Bob · Multiple Choice · 3 spaces", as a line of tokens and words. */
function playHeader(play, ctx) {
  const [kind, kindCls] = play.card ? [KIND_NAMES[play.card.kind], KIND_CLASS[play.card.kind]] : SHOWN[play.shown_as] || SHOWN.statement;
  const parts = [who(play.asker, ctx, "You")];
  if (play.shown_as !== "movement") {
    parts.push(el("span", { class: "boin-arrow", "aria-hidden": "true" }, "\u2192"),
      el("span", { class: "sr-only" }, " asks "),
      has(play.answerer) ? who(play.answerer, ctx) : el("span", { class: "boin-who muted" }, "anyone (not chosen yet)"));
  }
  parts.push(el("span", { class: `boin-kind-tag ${kindCls}` }, kind));
  if (play.shown_as !== "movement" && play.advance) parts.push(el("span", { class: "boin-stake" }, `for ${spaces(play.advance)}`));
  return el("p", { class: "boin-play-head" }, parts);
}

/** A question's four answers, the right one (when known) and the chosen one marked. */
export function answersList(question, { chosen = "", compact = false } = {}) {
  const right = letterOf(question.correct);
  return el("ol", { class: `boin-answers${compact ? " compact" : ""}`, testid: "answers", "aria-label": "The four answers" },
    question.answers.map((answer, k) => {
      const letter = LETTERS[k];
      const isRight = right === letter;
      const isChosen = chosen === letter;
      return el("li", { class: `${isRight ? "right" : ""}${isChosen ? " chosen" : ""}`.trim() },
        el("span", { class: "boin-letter" }, letter), el("span", { class: "boin-answer" }, answer),
        isRight ? el("span", { class: "boin-mark" }, "\u2713 right answer") : null,
        isChosen && !isRight ? el("span", { class: "boin-mark" }, "\u2717 chosen") : null,
        isChosen && isRight ? el("span", { class: "sr-only" }, " (chosen)") : null);
    }));
}

function challengeLine({ asker, answerer }) {
  return el("p", { class: "boin-challenge", testid: "challenge" },
    el("strong", {}, "CHALLENGE! "),
    `${asker} landed on ${answerer === "you" ? "your" : `${answerer}'s`} space and plays the top card of the pile at ${answerer}.`);
}

function questionPart(play, { asker, answerer }, compact) {
  if (!play.question) return note(`${asker} is choosing one of the card's questions to ask ${answerer}…`);
  return [
    el("p", { class: "boin-question", testid: "question" }, play.question.text),
    answersList(play.question, { chosen: play.verdict ? play.verdict[0] : "", compact }),
    play.verdict ? reveal(/right/.test(play.verdict), answered(answerer, play.verdict)) : note(`${capitalise(answerer)}: pick A, B, C or D.`),
  ];
}

function statementPart(play, { asker, answerer }) {
  if (!play.said) return note(`${asker} is choosing a true statement, or making one up, to tell ${answerer}…`);
  const said = el("blockquote", { class: "boin-said", testid: "said" }, play.said);
  if (!play.verdict || !play.card) return [said, note(`${capitalise(answerer)}: is it true, or a bluff? Believe it or not?`)];
  const bluff = play.card.kind === "bluff";
  return [
    said,
    reveal(!bluff, `${capitalise(answerer)}: “${play.verdict}”. ${bluff ? "It was a bluff!" : "It was true!"}`),
    bluff && play.card.truth ? note("The real fact: ", play.card.truth) : null,
  ];
}

/** A disputed claim, turned over: what the card says, and who won the bonus. */
function disputed(play, ctx) {
  const says = cardMove(play.card);
  const honest = says === play.claim;
  return [
    reveal(honest, `${capitalise(nameOf(play.disputer, ctx))} disputed! The card says ${moveWords(says)}: `,
      honest ? "it was the truth." : "it was a bluff!"),
    has(play.bonus_to) ? note(`${capitalise(nameOf(play.bonus_to, ctx))} won the dispute and picks a bonus.`) : null,
  ];
}

/** The seconds left to dispute a claim, and who let it stand (and, on the table, who is deciding). */
function disputeWindow(view, play, ctx, now) {
  const left = view.deadline ? Math.max(0, Math.ceil((view.deadline - now) / 1000)) : null;
  const passed = play.passed || [];
  const waiting = (play.disputers || []).filter((s) => !passed.includes(s));
  const total = Math.max(1, Number(ctx.room?.options?.dispute_seconds) || 10);
  return [
    el("p", { class: "boin-dispute", testid: "dispute" },
      el("strong", {}, "Think it's a lie? "),
      isMe(play.asker, ctx) ? "The others may dispute your claim " : "Tap “I do not believe it!” on your phone ",
      left !== null ? el("span", { class: "boin-secs", testid: "dispute-seconds" }, `within ${left} s`) : null, "."),
    left !== null
      ? el("div", { class: "boin-bar", "aria-hidden": "true" }, el("span", { style: { width: `${Math.min(100, (100 * left) / total)}%` } }))
      : null,
    passed.length ? note("Let it stand: ", listNames(passed.map((s) => nameOf(s, ctx)))) : null,
    waiting.length && ctx.mode === "table" ? note("Still deciding: ", listNames(waiting.map((s) => ctx.name(s)))) : null,
  ];
}

function movementPart(view, play, ctx, now, { asker }) {
  if (!play.claim) return note(`${asker} played a Movement card face down and is deciding what to claim…`);
  const claim = el("p", { class: "boin-claim", testid: "claim" }, `“Believe it or not, this card moves me ${Math.abs(play.claim)} ${play.claim < 0 ? "back" : "ahead"}.”`);
  if (has(play.disputer) && play.card) return [claim, disputed(play, ctx)];
  return [claim, view.phase === "dispute" ? disputeWindow(view, play, ctx, now) : null];
}

function playBody(view, play, ctx, now, compact, names) {
  if (view.phase === "target") return note(`${names.asker} will ask anyone: whom will ${names.asker === "You" ? "you" : "they"} pick?`);
  if (play.shown_as === "multiple-choice") return questionPart(play, names, compact);
  if (play.shown_as === "statement") return statementPart(play, names);
  return movementPart(view, play, ctx, now, names);
}

/** The card in play, live: what the public (or this seat) may see of it now. */
export function livePlay(view, ctx, now, compact) {
  const play = view.play;
  const names = { asker: nameOf(play.asker, ctx, "You"), answerer: has(play.answerer) ? nameOf(play.answerer, ctx) : null };
  return el("section", {
    class: `boin-play${play.challenge ? " challenge" : ""}`, testid: "in-play", "aria-labelledby": "boin-play-title",
  },
    el("h2", { class: "boin-section-title", id: "boin-play-title" }, "The card in play"),
    play.challenge ? challengeLine(names) : null,
    playHeader(play, ctx),
    playBody(view, play, ctx, now, compact, names));
}
