// Believe It or Not!: the renderer the shell loads, with its words for the options form, the event log and the turn banner.
//
// The table screen (believe-it-or-not/table.js) shows the board with its special spaces and pawns, the card in
// play as far as the public may see it, the piles and the players; the phone (believe-it-or-not/phone.js) shows
// the seat's hand as big cards, its prompt and its pawn's place. Both read the JSON view from
// src/talltales/games/believe_it_or_not/view.py; the phone's prompts are drawn by the generic renderer
// (generic.js), given a few words more. Names and typed text reach the page as text only.
//
// Lifecycle renderer (games/README.md): mounted once, updated in place on every message. The styles
// (believe-it-or-not/styles.js) are a constructed style sheet adopted while the game is on screen.

import { has, moveWords } from "./believe-it-or-not/words.js";
import { PhoneScreen } from "./believe-it-or-not/phone.js";
import { TableScreen } from "./believe-it-or-not/table.js";

export const optionLabels = {
  first: {
    label: "Who plays first",
    hint: "The printed rule is the shortest player: the host names them when the game starts.",
    values: { random: "Drawn at random", host: "The seat the host picks", shortest: "The shortest player (printed rule)" },
  },
  first_seat: {
    label: "First seat, when the host picks",
    hint: "0 is the first seat in the list of players, 1 the second, and so on.",
  },
  dispute_seconds: {
    label: "Seconds to dispute a claim",
    hint: "How long the others have to say “I do not believe it!” to a movement claim.",
  },
};

export function mount(container, ctx) {
  return ctx.mode === "table" ? new TableScreen(container, ctx) : new PhoneScreen(container, ctx);
}

// --- words for the shell: events and the turn banner ------------------------------------------------
export function describeEvent(event, ctx) {
  const d = event.data || {};
  const who = (seat) => (has(seat) ? ctx.name(Number(seat)) : "Someone");
  switch (event.kind) {
    case "play": return /Movement/.test(event.text || "")
      ? `${who(d.seat)} plays a Movement card face down.` : `${who(d.seat)} plays a card.`;
    case "ask": return `${who(d.seat)} asks ${who(d.answerer)}: ${event.text}`;
    case "say": return `${who(d.seat)} tells ${who(d.answerer)}: “${event.text}”`;
    case "answer": return !d.choice ? null : `${who(d.seat)} answers ${d.choice}: ${d.right ? "right!" : "wrong."} The ${d.answer}.`;
    case "dispute": return d.count === undefined ? null : `${who(d.seat)} disputes! The card says move ${d.count} ${d.direction}: ${d.honest ? "the claim was true" : "a bluff"}.`;
    case "claim": return `${who(d.seat)} claims: “this card moves me ${d.count} ${d.direction}.”`;
    case "space": return `${who(d.seat)} lands on a move space: ${String(event.text || "").replace(/^a move space:\s*/, "")}.`;
    case "tern": return `The tern token passes to ${who(d.seat)}: their turn next.`;
    case "won": return `${who(d.seat)} has won the game!`;
    default: return null;
  }
}

/** "Your turn!" with ``detail`` on the phone asked now; ``other`` on every other screen. */
const yours = (t, detail, other) => (t.mine ? { title: "Your turn!", detail } : other);

/** The asker's banner: what to ask (or claim), as the asker's own card says. */
function askTurn({ play, mine, name, to, challenge }) {
  if (mine) {
    const kind = play.card?.kind || play.shown_as;
    const what = kind === "movement" ? "Claim a move: the truth, or not."
      : kind === "multiple-choice" ? `Pick a question to ask ${to}.`
        : kind === "bluff" ? `Make up a bluff to tell ${to}.` : `Pick a true statement to tell ${to}.`;
    return { title: `${challenge}Your turn!`, detail: what };
  }
  const what = play.shown_as === "movement" ? "Deciding what to claim…"
    : play.shown_as === "multiple-choice" ? `Choosing a question for ${to}…` : `Choosing what to tell ${to}…`;
  return { title: `${challenge}${name(play.asker)}'s turn`, detail: what };
}

/** A claim's banner while the others may dispute it. */
function disputeTurn({ play, mine, name, to, ctx }) {
  const claim = `${moveWords(play.claim)}`;
  if (mine) return { title: "Believe it or not?", detail: `${name(play.asker)} claims: ${claim}. Dispute it, or let it stand.` };
  if (ctx.mode === "phone" && ctx.seat === play.asker) return { title: "Will anyone dispute?", detail: `You claimed: ${claim}.` };
  if (ctx.mode === "phone") {
    const passed = (play.passed || []).includes(ctx.seat);
    const detail = passed ? "You let it stand. Waiting for the others…"
      : play.challenge ? `A challenge: only ${to} may dispute it.` : "Waiting for the others…";
    return { title: `${name(play.asker)} claims: ${claim}`, detail };
  }
  return { title: `${name(play.asker)} claims: ${claim}`, detail: "Think it's a lie? Tap “I do not believe it!” on your phone." };
}

/** The turn banner, by the game's phase. */
const TURNS = {
  over: ({ view, name, ctx }) => (!has(view.winner) ? null
    : { title: ctx.mode === "phone" && view.winner === ctx.seat ? "You win!" : `${name(view.winner)} wins!`, detail: "" }),
  first: (t) => yours(t, "Name the shortest player: they play first.",
    { title: "Who is the shortest?", detail: `${t.name(0)} names the shortest player, who plays first.` }),
  "choose-card": (t) => yours(t, "Pick a card to play from your hand.",
    { title: `${t.name(t.view.tern)}'s turn`, detail: "Choosing a card to play…" }),
  target: (t) => yours(t, "Choose whom to ask.", { title: `${t.name(t.play.asker)}'s turn`, detail: "Choosing whom to ask…" }),
  ask: askTurn,
  answer: ({ play, mine, name, to }) => (mine
    ? { title: "Your turn!", detail: play.question ? "Pick A, B, C or D." : "Believe it or not?" }
    : { title: `${to}'s turn`, detail: play.question ? `Answering ${name(play.asker)}'s question…` : `Believe ${name(play.asker)}, or not?` }),
  dispute: disputeTurn,
  bonus: ({ play, mine, name }) => (mine ? { title: "You won the dispute!", detail: "Pick your bonus." }
    : { title: `${name(play.bonus_to)} won the dispute`, detail: "Picking a bonus…" }),
  shortcut: ({ view, mine, name }) => (mine ? { title: "A shortcut!", detail: "Take it, or stay on the path?" }
    : { title: `${name(view.shortcut)} reached a shortcut`, detail: "Deciding whether to take it…" }),
};

export function turnText(state, room, ctx) {
  const view = state.view;
  if (!view || !view.board || !Object.hasOwn(TURNS, view.phase)) return null;
  const play = view.play;
  return TURNS[view.phase]({
    view, play, ctx,
    name: (s) => ctx.name(s),
    mine: ctx.mode === "phone" && ctx.seat !== null && (state.pending || []).includes(ctx.seat),
    to: play && has(play.answerer) ? ctx.name(play.answerer) : "",
    challenge: play && play.challenge ? "Challenge! " : "",
  });
}
