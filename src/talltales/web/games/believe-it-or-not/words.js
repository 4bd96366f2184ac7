// Believe It or Not!'s small words: card kinds, moves and places, names and ranks, from the view.

import { capitalise, el } from "../../dom.js";

export const KIND_NAMES = { "multiple-choice": "Multiple Choice", statement: "Statement", bluff: "Bluff", movement: "Movement" };
export const KIND_CLASS = { "multiple-choice": "k-mc", statement: "k-st", bluff: "k-bl", movement: "k-mv" };
export const LETTERS = "ABCD";
export const MINUS = "\u2212";
export const WON = "YOU HAVE WON THE GAME";

const HOW_TO_PLAY = [
  "On your turn, play a card from your hand (your phone shows it) at another player.",
  "Questions: answer right and you move ahead; answer wrong and the asker does.",
  "Statements: true, or a bluff? Judge right and you move; judge wrong and the teller moves.",
  "Movement cards go face down: claim a move, true or not. Anyone may tap “I do not believe it!” to turn the card over.",
  "Land on another pawn to challenge it. First pawn to YOU HAVE WON THE GAME wins!",
];

/** The rules in five lines, as a numbered list. */
export function howToPlayList() {
  return el("ol", {}, HOW_TO_PLAY.map((line) => el("li", {}, line)));
}

/** "Ann moves" / "You move". */
export const moves = (who) => `${capitalise(who)} ${who === "you" ? "move" : "moves"}`;
export const spaces = (n) => `${n} ${Math.abs(n) === 1 ? "space" : "spaces"}`;
export const moveWords = (n) => `move ${Math.abs(n)} ${n < 0 ? "back" : "ahead"}`;
export const signed = (n) => (n < 0 ? `${MINUS}${-n}` : `+${n}`);
/** "1 card", "3 cards". */
export const cards = (n) => `${n} ${n === 1 ? "card" : "cards"}`;

/** A seat number is there (the view sends null or leaves it out when there is none). */
export const has = (seat) => seat !== null && seat !== undefined;

/** ``seat`` is this phone's own seat. */
export const isMe = (seat, ctx) => ctx.mode === "phone" && seat === ctx.seat;

/** The move a Movement card really says: negative for back. */
export const cardMove = (card) => card.count * (card.direction === "back" ? -1 : 1);

/** "Ann", or "you" on Ann's own phone. */
export function nameOf(seat, ctx, you = "you") {
  return isMe(seat, ctx) ? you : ctx.name(seat);
}

/** Game words with "seat N" as the player's name (never used on what a player typed). */
export function named(text, ctx) {
  return String(text ?? "").replace(/\bseat (\d+)\b/gi, (whole, n) => (ctx.room?.seats?.[Number(n)] ? ctx.name(Number(n)) : whole));
}

/** "Bob answered C: right!" from the verdict "C (right)". */
export function answered(who, verdict) {
  return `${capitalise(who)} answered ${verdict[0]}: ${/right/.test(verdict) ? "right!" : "wrong!"}`;
}

/** The seat a card asks ("left", "right", "anyone"), as the rules count it; null: anyone. */
export function askedSeat(ask, seat, players) {
  if (ask === "left") return (seat + 1) % players;
  if (ask === "right") return (seat - 1 + players) % players;
  return players === 2 ? (seat + 1) % players : null;
}

/** "C" from "right answer: C. Cubes". */
export function letterOf(correct) {
  const m = /:\s*([ABCD])\./.exec(String(correct || ""));
  return m ? m[1] : "";
}

export const spaceAt = (view, position) => view.board.spaces.find((s) => s.index === position);

export function placeName(view, position) {
  const space = spaceAt(view, position);
  if (!space) return `space ${position}`;
  if (space.kind === "start") return "START";
  if (space.kind === "won") return WON;
  if (space.kind === "shortcut") return "a shortcut";
  return `space ${position}`;
}

/** How far along each pawn is (a shortcut space sits just past its entry), as board.progress. */
export function progress(view, position) {
  const space = spaceAt(view, position);
  return space && space.kind === "shortcut" ? space.entry + 0.5 : position;
}

export function ordinal(n) {
  const suffix = n % 100 >= 11 && n % 100 <= 13 ? "th" : ({ 1: "st", 2: "nd", 3: "rd" }[n % 10] || "th");
  return `${n}${suffix}`;
}

/** 1 for the pawn furthest along (ties share a place). */
export function rankOf(view, seat) {
  const mine = progress(view, view.pawns[seat]);
  return 1 + view.pawns.filter((p) => progress(view, p) > mine).length;
}
