// Believe It or Not!: the table screen (the board with its special spaces and pawns, the card in
// play as far as the public may see it, the piles and the players) and the phone controller
// (the seat's hand as big cards, its prompt, its pawn's place). Everything here reads the JSON
// view from src/talltales/games/believe_it_or_not/view.py; the phone's prompts are drawn by the
// generic renderer (generic.js), given a few words more (hints for a bluff, the right answer
// beside each question the asker may pick). Names and typed text reach the page as text only.
//
// Lifecycle renderer (games/README.md): mounted once, updated in place on every message.
// The styles live here, in a constructed style sheet adopted by the document while the game
// is on screen (the server's Content-Security-Policy allows no inline <style>).

import { capitalise, el, listNames } from "../dom.js";
import { mount as mountGeneric } from "./generic.js";

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

const KIND_NAMES = { "multiple-choice": "Multiple Choice", statement: "Statement", bluff: "Bluff", movement: "Movement" };
const KIND_CLASS = { "multiple-choice": "k-mc", statement: "k-st", bluff: "k-bl", movement: "k-mv" };
const LETTERS = "ABCD";
const MINUS = "\u2212";

const HOW_TO_PLAY = [
  "On your turn, play a card from your hand (your phone shows it) at another player.",
  "Questions: answer right and you move ahead; answer wrong and the asker does.",
  "Statements: true, or a bluff? Judge right and you move; judge wrong and the teller moves.",
  "Movement cards go face down: claim a move, true or not. Anyone may tap “I do not believe it!” to turn the card over.",
  "Land on another pawn to challenge it. First pawn to YOU HAVE WON THE GAME wins!",
];

// --- small words ------------------------------------------------------------------------------------
/** "Ann moves" / "You move". */
const moves = (who) => `${capitalise(who)} ${who === "you" ? "move" : "moves"}`;
const spaces = (n) => `${n} ${Math.abs(n) === 1 ? "space" : "spaces"}`;
const moveWords = (n) => `move ${Math.abs(n)} ${n < 0 ? "back" : "ahead"}`;
const signed = (n) => (n < 0 ? `${MINUS}${-n}` : `+${n}`);

/** "Ann", or "you" on Ann's own phone. */
function nameOf(seat, ctx, you = "you") {
  return ctx.mode === "phone" && seat === ctx.seat ? you : ctx.name(seat);
}

/** Game words with "seat N" as the player's name (never used on what a player typed). */
function named(text, ctx) {
  return String(text ?? "").replace(/\bseat (\d+)\b/gi, (whole, n) => (ctx.room?.seats?.[Number(n)] ? ctx.name(Number(n)) : whole));
}

/** The seat a card asks ("left", "right", "anyone"), as the rules count it; null: anyone. */
function askedSeat(ask, seat, players) {
  if (ask === "left") return (seat + 1) % players;
  if (ask === "right") return (seat - 1 + players) % players;
  return players === 2 ? (seat + 1) % players : null;
}

/** "C" from "right answer: C. Cubes". */
function letterOf(correct) {
  const m = /:\s*([ABCD])\./.exec(String(correct || ""));
  return m ? m[1] : "";
}

function placeName(view, position) {
  const space = view.board.spaces.find((s) => s.index === position);
  if (!space) return `space ${position}`;
  if (space.kind === "start") return "START";
  if (space.kind === "won") return "YOU HAVE WON THE GAME";
  if (space.kind === "shortcut") return "a shortcut";
  return `space ${position}`;
}

/** How far along each pawn is (a shortcut space sits just past its entry), as board.progress. */
function progress(view, position) {
  const space = view.board.spaces.find((s) => s.index === position);
  return space && space.kind === "shortcut" ? space.entry + 0.5 : position;
}

function ordinal(n) {
  const suffix = n % 100 >= 11 && n % 100 <= 13 ? "th" : ({ 1: "st", 2: "nd", 3: "rd" }[n % 10] || "th");
  return `${n}${suffix}`;
}

/** 1 for the pawn furthest along (ties share a place). */
function rankOf(view, seat) {
  const mine = progress(view, view.pawns[seat]);
  return 1 + view.pawns.filter((p) => progress(view, p) > mine).length;
}

// --- the board --------------------------------------------------------------------------------------
/** What a space shows: a big label, a line of words, a class, and its words for screen readers. */
function spaceFace(space, byIndex) {
  const i = space.index;
  switch (space.kind) {
    case "start": return { cls: "start", big: "START", small: "", words: "START" };
    case "won": return { cls: "won", big: "", small: "YOU HAVE WON THE GAME", words: `Space ${i}: YOU HAVE WON THE GAME` };
    case "move": return space.move > 0
      ? { cls: "ahead", big: signed(space.move), small: "ahead", words: `Space ${i}: move ${space.move} ahead` }
      : { cls: "back", big: signed(space.move), small: "back", words: `Space ${i}: move ${-space.move} back` };
    case "trade": return { cls: "trade", big: "\u21c4", small: "trade places", words: `Space ${i}: trade places with the nearest pawn` };
    case "speed-up": return { cls: "speed", big: "\u00bb", small: "speed up", words: `Space ${i}: speed up, you and every pawn behind move two` };
    case "slide": {
      const next = byIndex.get(i + 1) || byIndex.get(space.end);
      const dx = next ? next.x - space.x : 1;
      const dy = next ? next.y - space.y : 0;
      const arrow = dy > 0 ? "\u2193" : dy < 0 ? "\u2191" : dx < 0 ? "\u2190" : "\u2192";
      return { cls: "slide", big: arrow, small: `slide to ${space.end}`, words: `Space ${i}: slide to space ${space.end}` };
    }
    case "shortcut": {
      const entry = byIndex.get(space.entry);
      const exit = byIndex.get(space.exit);
      const arrow = entry && exit && exit.y > entry.y ? "\u2193" : entry && exit && exit.y < entry.y ? "\u2191" : "\u2192";
      return {
        cls: "shortcut", big: `${arrow}`, small: "shortcut", extra: `${space.entry}\u2192${space.exit}`,
        words: `Shortcut from space ${space.entry} to space ${space.exit}`,
      };
    }
    default: return { cls: "plain", big: "", small: "", words: `Space ${i}` };
  }
}

function boardGrid(view, ctx, { compact = false, landed = new Set() } = {}) {
  const board = view.board;
  const byIndex = new Map(board.spaces.map((s) => [s.index, s]));
  const perRow = new Array(board.rows).fill(0);
  for (const s of board.spaces) perRow[s.y] += 1;
  // Rows of the path take the height; rows that only join them (and hold a shortcut) less.
  const rows = perRow.map((n) => (compact ? (n > 2 ? "2.6em" : "1.5em") : n > 2 ? "minmax(0, 1fr)" : "minmax(0, .62fr)")).join(" ");
  const here = new Map();
  view.pawns.forEach((pos, seat) => here.set(pos, [...(here.get(pos) || []), seat]));
  const over = view.phase === "over";
  const grid = el("ol", {
    class: `boin-board${compact ? " compact" : ""}`,
    testid: compact ? "mini-board" : "board",
    "aria-label": `The board: START, then spaces 1 to ${board.won - 1}, then YOU HAVE WON THE GAME`,
    style: { gridTemplateColumns: `repeat(${board.columns}, minmax(0, 1fr))`, gridTemplateRows: rows },
  });
  const spacesInOrder = [...board.spaces].sort((a, b) => a.index - b.index);
  for (const space of spacesInOrder) {
    const face = spaceFace(space, byIndex);
    const seats = here.get(space.index) || [];
    const words = [face.words];
    for (const seat of seats) words.push(ctx.mode === "phone" && seat === ctx.seat ? "your pawn" : `${ctx.name(seat)}'s pawn`);
    const pawns = el("span", { class: `boin-pawns n${Math.min(seats.length, 4)}`, "aria-hidden": "true" },
      seats.map((seat) => el("span", {
        class: `boin-pawn${!over && seat === view.tern ? " tern" : ""}${ctx.mode === "phone" && seat === ctx.seat ? " mine" : ""}`,
        testid: compact ? null : `pawn-${seat}`,
      }, ctx.token(seat), seats.length <= 2 && !compact ? el("span", { class: "boin-pawn-name" }, ctx.name(seat)) : null)));
    const classes = ["boin-space", face.cls];
    if (landed.has(space.index)) classes.push("landed");
    if (seats.length) classes.push("occupied");
    grid.append(el("li", {
      class: classes.join(" "),
      testid: compact ? null : `space-${space.index}`,
      "aria-label": words.join(", "),
      dataset: { index: String(space.index), kind: space.kind },
      style: { gridColumn: String(space.x + 1), gridRow: String(space.y + 1) },
    },
      space.kind === "start" || space.kind === "won" || space.kind === "shortcut"
        ? null : el("span", { class: "boin-num", "aria-hidden": "true" }, String(space.index)),
      face.big ? el("span", { class: "boin-big", "aria-hidden": "true" }, face.big) : null,
      face.small && !compact ? el("span", { class: "boin-small", "aria-hidden": "true" }, face.small) : null,
      face.extra && !compact ? el("span", { class: "boin-small boin-extra", "aria-hidden": "true" }, face.extra) : null,
      face.small && compact && space.kind === "won" ? el("span", { class: "boin-small", "aria-hidden": "true" }, "WON") : null,
      pawns));
  }
  return grid;
}

function legend() {
  const item = (cls, big, words) => el("li", {}, el("span", { class: `boin-swatch ${cls}`, "aria-hidden": "true" }, big), words);
  return el("ul", { class: "boin-legend", "aria-label": "What the spaces do" },
    item("ahead", "+2", "move ahead"),
    item("back", `${MINUS}3`, "move back"),
    item("trade", "\u21c4", "trade places with the nearest pawn"),
    item("speed", "\u00bb", "you and all behind move 2"),
    item("slide", "\u2192", "slide on (moving ahead)"),
    item("shortcut", "\u2193", "shortcut, if 2+ pawns are ahead"));
}

// --- the card in play -----------------------------------------------------------------------------
/** "Ann → Bob · Multiple Choice · 3 spaces", as a line of tokens and words. */
function playHeader(view, play, ctx) {
  const kind = play.card ? KIND_NAMES[play.card.kind] : play.shown_as === "movement" ? "Movement"
    : play.shown_as === "multiple-choice" ? "Multiple Choice" : "Statement or Bluff";
  const parts = [
    el("span", { class: "boin-who" }, ctx.token(play.asker), nameOf(play.asker, ctx, "You")),
  ];
  if (play.shown_as !== "movement") {
    parts.push(el("span", { class: "boin-arrow", "aria-hidden": "true" }, "\u2192"),
      el("span", { class: "sr-only" }, " asks "),
      play.answerer !== null && play.answerer !== undefined
        ? el("span", { class: "boin-who" }, ctx.token(play.answerer), nameOf(play.answerer, ctx))
        : el("span", { class: "boin-who muted" }, "anyone (not chosen yet)"));
  }
  const kindCls = play.card ? KIND_CLASS[play.card.kind] : play.shown_as === "movement" ? "k-mv" : play.shown_as === "multiple-choice" ? "k-mc" : "k-st";
  parts.push(el("span", { class: `boin-kind-tag ${kindCls}` }, kind));
  if (play.shown_as !== "movement" && play.advance) parts.push(el("span", { class: "boin-stake" }, `for ${spaces(play.advance)}`));
  return el("p", { class: "boin-play-head" }, parts);
}

function answersList(question, { chosen = "", compact = false } = {}) {
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

/** The card in play, live: what the public (or this seat) may see of it now. */
function livePlay(view, ctx, now, compact) {
  const play = view.play;
  const asker = nameOf(play.asker, ctx, "You");
  const answerer = play.answerer !== null && play.answerer !== undefined ? nameOf(play.answerer, ctx) : null;
  const box = el("section", {
    class: `boin-play${play.challenge ? " challenge" : ""}`, testid: "in-play", "aria-labelledby": "boin-play-title",
  });
  box.append(el("h2", { class: "boin-section-title", id: "boin-play-title" }, "The card in play"));
  if (play.challenge) {
    box.append(el("p", { class: "boin-challenge", testid: "challenge" },
      el("strong", {}, "CHALLENGE! "),
      `${asker} landed on ${answerer === "you" ? "your" : `${answerer}'s`} space and plays the top card of the pile at ${answerer}.`));
  }
  box.append(playHeader(view, play, ctx));
  const said = (text) => el("blockquote", { class: "boin-said", testid: "said" }, text);
  const note = (...children) => el("p", { class: "boin-note" }, ...children);

  if (view.phase === "target") {
    box.append(note(`${asker} will ask anyone: whom will ${asker === "You" ? "you" : "they"} pick?`));
    return box;
  }
  if (play.shown_as === "multiple-choice") {
    if (!play.question) {
      box.append(note(`${asker} is choosing one of the card's questions to ask ${answerer}…`));
    } else {
      box.append(el("p", { class: "boin-question", testid: "question" }, play.question.text));
      box.append(answersList(play.question, { chosen: play.verdict ? play.verdict[0] : "", compact }));
      if (play.verdict) {
        const right = /right/.test(play.verdict);
        box.append(el("p", { class: `boin-reveal ${right ? "good" : "bad"}`, testid: "reveal" },
          `${capitalise(answerer)} answered ${play.verdict[0]}: ${right ? "right!" : "wrong!"}`));
      } else {
        box.append(note(`${capitalise(answerer)}: pick A, B, C or D.`));
      }
    }
    return box;
  }
  if (play.shown_as === "statement") {
    if (!play.said) {
      box.append(note(`${asker} is choosing a true statement, or making one up, to tell ${answerer}…`));
    } else {
      box.append(said(play.said));
      if (play.verdict && play.card) {
        const bluff = play.card.kind === "bluff";
        box.append(el("p", { class: `boin-reveal ${bluff ? "bad" : "good"}`, testid: "reveal" },
          `${capitalise(answerer)}: “${play.verdict}”. ${bluff ? "It was a bluff!" : "It was true!"}`));
        if (bluff && play.card.truth) box.append(note("The real fact: ", play.card.truth));
      } else {
        box.append(note(`${capitalise(answerer)}: is it true, or a bluff? Believe it or not?`));
      }
    }
    return box;
  }
  // movement
  if (!play.claim) {
    box.append(note(`${asker} played a Movement card face down and is deciding what to claim…`));
    return box;
  }
  box.append(el("p", { class: "boin-claim", testid: "claim" }, `“Believe it or not, this card moves me ${Math.abs(play.claim)} ${play.claim < 0 ? "back" : "ahead"}.”`));
  if (play.disputer !== null && play.disputer !== undefined && play.card) {
    const honest = play.card.count * (play.card.direction === "back" ? -1 : 1) === play.claim;
    box.append(el("p", { class: `boin-reveal ${honest ? "good" : "bad"}`, testid: "reveal" },
      `${capitalise(nameOf(play.disputer, ctx))} disputed! The card says ${moveWords(play.card.direction === "back" ? -play.card.count : play.card.count)}: `,
      honest ? "it was the truth." : "it was a bluff!"));
    if (play.bonus_to !== null && play.bonus_to !== undefined) {
      box.append(note(`${capitalise(nameOf(play.bonus_to, ctx))} won the dispute and picks a bonus.`));
    }
    return box;
  }
  if (view.phase === "dispute") {
    const left = view.deadline ? Math.max(0, Math.ceil((view.deadline - now) / 1000)) : null;
    const waiting = (play.disputers || []).filter((s) => !(play.passed || []).includes(s));
    box.append(el("p", { class: "boin-dispute", testid: "dispute" },
      el("strong", {}, "Think it's a lie? "),
      ctx.mode === "phone" && play.asker === ctx.seat ? "The others may dispute your claim " : "Tap “I do not believe it!” on your phone ",
      left !== null ? el("span", { class: "boin-secs", testid: "dispute-seconds" }, `within ${left} s`) : null, "."));
    if (left !== null) {
      const total = Math.max(1, Number(ctx.room?.options?.dispute_seconds) || 10);
      box.append(el("div", { class: "boin-bar", "aria-hidden": "true" },
        el("span", { style: { width: `${Math.min(100, (100 * left) / total)}%` } })));
    }
    if ((play.passed || []).length) box.append(note("Let it stand: ", listNames(play.passed.map((s) => nameOf(s, ctx)))));
    if (waiting.length && ctx.mode === "table") box.append(note("Still deciding: ", listNames(waiting.map((s) => ctx.name(s)))));
  }
  return box;
}

/** The card played before, from view.last (so a reload shows it too): what became of it, and
 * who moved how far (and where to, when this page saw the move). */
function lastResult(view, story, ctx) {
  const last = view.last;
  if (!last) return null;
  const has = (seat) => seat !== null && seat !== undefined;
  const asker = nameOf(last.asker, ctx, "you");
  const answerer = has(last.answerer) ? nameOf(last.answerer, ctx) : "";
  const moved = (seat, steps) => {
    const who = nameOf(seat, ctx, "you");
    const landed = story.landing(view, seat);
    const slid = landed && landed.slid !== null ? ` and ${who === "you" ? "slide" : "slides"} on to ${placeName(view, landed.slid)}` : "";
    const to = landed ? ` to ${placeName(view, landed.end)}${slid}` : "";
    return `${moves(who)} ${Math.abs(steps)} ${steps < 0 ? "back" : "ahead"}${to}.`;
  };
  const card = last.card;
  if (last.question && last.verdict) {
    const right = /right/.test(last.verdict);
    return {
      tone: right ? "good" : "bad",
      title: `${capitalise(answerer)} answered ${last.verdict[0]}: ${right ? "right!" : "wrong!"}`,
      question: last.question,
      chosen: last.verdict[0],
      correct: last.question.correct ? capitalise(last.question.correct) : "",
      line: moved(right ? last.answerer : last.asker, last.advance),
    };
  }
  if (last.shown_as === "statement" && last.verdict && card) {
    const truth = card.kind === "statement";
    const believed = last.verdict === "I believe it";
    const judgedRight = believed === truth;
    return {
      tone: truth ? "good" : "bad",
      title: truth ? "It was true!" : "It was a bluff!",
      said: last.said,
      fact: truth ? "" : card.truth,
      line: `${capitalise(answerer)} said “${last.verdict}”. ${moved(judgedRight ? last.answerer : last.asker, last.advance)}`,
    };
  }
  if (has(last.disputer) && card) {
    const says = card.count * (card.direction === "back" ? -1 : 1);
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
  if (last.claim) {
    const mine = ctx.mode === "phone" && last.asker === ctx.seat && card && card.count;
    const says = mine ? card.count * (card.direction === "back" ? -1 : 1) : 0;
    return {
      tone: "plain",
      title: "Nobody disputed",
      claim: last.claim,
      line: `The claim stands: ${moved(last.asker, last.claim)} `
        + (mine ? `Your card said ${moveWords(says)}, and nobody else will know.` : "The card stays secret."),
    };
  }
  return null;
}

function resultBox(result, ctx, compact) {
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

function howToPlay() {
  return el("section", { class: "boin-how", testid: "how-to-play", "aria-labelledby": "boin-how-title" },
    el("h2", { class: "boin-section-title", id: "boin-how-title" }, "How to play"),
    el("ol", {}, HOW_TO_PLAY.map((line) => el("li", {}, line))));
}

// --- the players ---------------------------------------------------------------------------------
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
        el("span", { class: "boin-pname" }, ctx.name(seat), ctx.mode === "phone" && seat === ctx.seat ? el("span", { class: "badge you" }, "you") : null,
          ctx.seatInfo(seat)?.kind === "bot" ? el("span", { class: "badge bot" }, "bot") : null,
          ctx.seatInfo(seat)?.stand_in ? el("span", { class: "badge standin" }, "bot playing") : null),
        el("span", { class: "boin-place", testid: `place-${seat}` }, place === "YOU HAVE WON THE GAME" ? "WON" : place),
        el("span", { class: "boin-hand-size" }, `${view.hand_sizes[seat]} ${view.hand_sizes[seat] === 1 ? "card" : "cards"}`),
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

function winnerBox(view, state, ctx) {
  if (view.winner === null || view.winner === undefined) return null;
  const mine = ctx.mode === "phone" && view.winner === ctx.seat;
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

// --- words for the shell: events and the turn banner ------------------------------------------------
export function describeEvent(event, ctx) {
  const d = event.data || {};
  const who = (seat) => (seat !== undefined && seat !== null ? ctx.name(Number(seat)) : "Someone");
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

export function turnText(state, room, ctx) {
  const view = state.view;
  if (!view || !view.board) return null;
  const name = (s) => ctx.name(s);
  const mine = ctx.mode === "phone" && ctx.seat !== null && (state.pending || []).includes(ctx.seat);
  const play = view.play;
  if (view.phase === "over") {
    return view.winner === null || view.winner === undefined ? null
      : { title: ctx.mode === "phone" && view.winner === ctx.seat ? "You win!" : `${name(view.winner)} wins!`, detail: "" };
  }
  const to = play && play.answerer !== null && play.answerer !== undefined ? name(play.answerer) : "";
  const challenge = play && play.challenge ? "Challenge! " : "";
  switch (view.phase) {
    case "first":
      return mine ? { title: "Your turn!", detail: "Name the shortest player: they play first." }
        : { title: "Who is the shortest?", detail: `${name(0)} names the shortest player, who plays first.` };
    case "choose-card":
      return mine ? { title: "Your turn!", detail: "Pick a card to play from your hand." }
        : { title: `${name(view.tern)}'s turn`, detail: "Choosing a card to play…" };
    case "target":
      return mine ? { title: "Your turn!", detail: "Choose whom to ask." }
        : { title: `${name(play.asker)}'s turn`, detail: "Choosing whom to ask…" };
    case "ask": {
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
    case "answer":
      if (mine) return { title: "Your turn!", detail: play.question ? "Pick A, B, C or D." : "Believe it or not?" };
      return { title: `${to}'s turn`, detail: play.question ? `Answering ${name(play.asker)}'s question…` : `Believe ${name(play.asker)}, or not?` };
    case "dispute": {
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
    case "bonus":
      return mine ? { title: "You won the dispute!", detail: "Pick your bonus." }
        : { title: `${name(play.bonus_to)} won the dispute`, detail: "Picking a bonus…" };
    case "shortcut":
      return mine ? { title: "A shortcut!", detail: "Take it, or stay on the path?" }
        : { title: `${name(view.shortcut)} reached a shortcut`, detail: "Deciding whether to take it…" };
    default:
      return null;
  }
}

// --- styles ------------------------------------------------------------------------------------------
const CSS = `
.boin { display: grid; gap: .8rem; }
.boin .boin-section-title { font-size: .85em; color: var(--muted); text-transform: uppercase; letter-spacing: .06em; margin: 0 0 .3em; }
.boin-note { margin: .35em 0 0; color: var(--text); }

/* table: fill the screen below the banner */
.room-table .table-body:has(.boin-table) { align-items: stretch; }
.room-table .table-main:has(.boin-table) { display: flex; flex-direction: column; overflow: auto; }
.room-table .table-main:has(.boin-table) > .stage { flex: 1 1 auto; min-height: 0; display: flex; flex-direction: column; }
.room-table .table-main:has(.boin-table) > .stage > .game-box { flex: 1 1 auto; min-height: 0; display: flex; flex-direction: column; }
.boin-table { flex: 1 1 auto; min-height: 0; display: flex; flex-direction: column; gap: .6em; }
.boin-table .boin-top { flex: none; }
.boin-table .boin-board { flex: 1 1 auto; min-height: 21em; }
.boin-table .boin-answers { grid-template-columns: repeat(4, minmax(0, 1fr)); }
.boin-side-last:empty { display: none; }
.boin-side .boin-result { font-size: .95em; }
.boin-table .boin-legend { flex: none; }

/* the board */
.boin-board { list-style: none; margin: 0; padding: 0; display: grid; gap: .28em; }
.boin-space {
  position: relative; display: flex; flex-direction: column; align-items: center; justify-content: center;
  border-radius: .45em; border: 2px solid rgba(0,0,0,.35); background: #2f3442; color: #fff;
  min-width: 0; min-height: 0; overflow: hidden; padding: .1em; text-align: center; line-height: 1.05;
  container-type: size;
}
@container (max-height: 2.9em) { /* a short space keeps its number, its sign and its pawns */
  .boin-space:not(.won):not(.shortcut) .boin-small, .boin-pawn-name, .boin-small.boin-extra { display: none; }
  .boin-space.occupied:not(.start) .boin-big { display: none; }
  .boin-space.start.occupied .boin-big { font-size: .62em; }
}
.boin-space.shortcut { flex-flow: row wrap; align-content: center; gap: 0 .3em; }
.boin-space.shortcut .boin-big { font-size: 1.1em; }
.boin-space.shortcut .boin-extra { flex-basis: 100%; }
.boin-space.plain { background: #2f3442; color: #e6e8ee; }
.boin-space.start { background: #1f5fd1; }
.boin-space.won { background: #f5c518; color: #1a1400; }
.boin-space.ahead { background: #1c7a3b; }
.boin-space.back { background: #b3261e; }
.boin-space.trade { background: #6a3fb0; }
.boin-space.speed { background: #0e6670; }
.boin-space.slide { background: #8a4b0f; }
.boin-space.shortcut { background: #141720; border: 2px dashed #ffd166; color: #ffd166; }
.boin-space.landed { box-shadow: 0 0 0 3px var(--bg), 0 0 0 6px var(--accent); }
.boin-num { position: absolute; top: .1em; left: .3em; font-size: .72em; font-weight: 800; opacity: .95; }
.boin-big { font-size: 1.45em; font-weight: 900; }
.boin-space.start .boin-big { font-size: .95em; letter-spacing: .02em; }
.boin-small { font-size: .62em; font-weight: 800; text-transform: uppercase; letter-spacing: .02em; }
.boin-space.won .boin-small { font-size: .6em; font-weight: 900; }
.boin-space.occupied .boin-big { font-size: 1em; }
.boin-space.occupied .boin-small { display: none; }
.boin-pawns { display: flex; flex-wrap: wrap; justify-content: center; gap: .1em; }
.boin-pawns:empty { display: none; }
.boin-pawn { display: inline-flex; flex-direction: column; align-items: center; min-width: 0; }
.boin-pawn .token { font-size: .72em; }
.boin-pawns.n3 .token, .boin-pawns.n4 .token { font-size: .5em; border-width: 1px; }
.boin-pawns.n3, .boin-pawns.n4 { gap: .05em; }
.boin-pawn-name { font-size: .6em; font-weight: 800; max-width: 5.5em; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; background: rgba(0,0,0,.55); color: #fff; border-radius: 4px; padding: 0 .25em; }
.boin-pawn.tern .token { box-shadow: 0 0 0 2px #fff, 0 0 0 4px var(--accent); }
.boin-pawn.mine .token { box-shadow: 0 0 0 2px #fff, 0 0 0 4px var(--focus); }
.boin-legend { list-style: none; margin: 0; padding: 0; display: flex; flex-wrap: wrap; gap: .2em .9em; color: var(--muted); font-size: .8em; }
.boin-legend li { display: inline-flex; align-items: center; gap: .35em; }
.boin-swatch { display: inline-grid; place-items: center; min-width: 1.8em; height: 1.4em; border-radius: .3em; color: #fff; font-weight: 900; font-size: .9em; }
.boin-swatch.ahead { background: #1c7a3b; } .boin-swatch.back { background: #b3261e; }
.boin-swatch.trade { background: #6a3fb0; } .boin-swatch.speed { background: #0e6670; }
.boin-swatch.slide { background: #8a4b0f; } .boin-swatch.shortcut { background: #141720; border: 2px dashed #ffd166; color: #ffd166; }

/* the card in play, the last card, how to play */
.boin-play, .boin-result, .boin-how { background: var(--panel); border: 2px solid var(--line); border-radius: 16px; padding: .55em .9em .6em; }
.boin-play { border-color: var(--accent); }
.boin-play.challenge { border-color: #ff7aa8; box-shadow: inset 0 0 0 2px #ff7aa8; }
.boin-challenge { margin: 0 0 .3em; font-size: 1.1em; font-weight: 800; color: #ffd0e0; }
.boin-play-head { display: flex; flex-wrap: wrap; align-items: center; gap: .3em .6em; margin: 0 0 .3em; font-weight: 800; }
.boin-who { display: inline-flex; align-items: center; gap: .3em; }
.boin-arrow { color: var(--muted); }
.boin-kind-tag { padding: .05em .6em; border-radius: 999px; font-size: .85em; font-weight: 850; color: #fff; }
.k-mc { background: #1f5fd1; } .k-st { background: #1c7a3b; } .k-bl { background: #b3261e; } .k-mv { background: #6a3fb0; }
.boin-stake { color: var(--accent); }
.boin-question { font-size: 1.45em; font-weight: 800; line-height: 1.2; margin: .1em 0 .35em; }
.boin-question.small { font-size: 1.05em; margin: 0 0 .3em; }
.boin-answers { list-style: none; margin: 0; padding: 0; display: grid; grid-template-columns: 1fr 1fr; gap: .3em .6em; font-size: 1.2em; }
.boin-answers.compact { font-size: .95em; }
.boin-answers li { display: grid; grid-template-columns: auto minmax(0, 1fr); align-items: center; gap: .1em .5em; padding: .2em .5em; border-radius: 10px; background: var(--panel-2); border: 2px solid var(--line); font-weight: 700; line-height: 1.2; }
.boin-answers li > .boin-mark { grid-column: 2; }
.boin-answers li.right { border-color: #7ee2a8; background: #143d27; }
.boin-answers li.chosen:not(.right) { border-color: #ff8a80; background: #3b1614; }
.boin-letter { display: inline-grid; place-items: center; width: 1.6em; height: 1.6em; border-radius: 50%; background: var(--accent); color: var(--accent-ink); font-weight: 900; flex: none; }
.boin-mark { font-size: .8em; font-weight: 850; }
.boin-said { margin: .1em 0 .3em; padding: .35em .7em; font-size: 1.45em; font-weight: 800; line-height: 1.2; border-left: 6px solid var(--accent); background: var(--panel-2); border-radius: 0 12px 12px 0; overflow-wrap: anywhere; }
.boin-said.small { font-size: 1.05em; }
.boin-claim { font-size: 1.6em; font-weight: 900; margin: .1em 0 .2em; color: var(--accent); }
.boin-claim.small { font-size: 1.05em; }
.boin-claim-hint { margin: 0; font-size: .95rem; }
.boin-dispute { font-size: 1.15em; margin: .2em 0; }
.boin-secs { font-weight: 900; color: var(--accent); font-variant-numeric: tabular-nums; }
.boin-bar { height: .5em; border-radius: 999px; background: var(--panel-2); overflow: hidden; }
.boin-bar span { display: block; height: 100%; background: var(--accent); transition: width .25s linear; }
.boin-reveal { font-size: 1.35em; font-weight: 900; margin: .25em 0 0; }
.boin-reveal.good, .boin-result.good .boin-result-title { color: #7ee2a8; }
.boin-reveal.bad, .boin-result.bad .boin-result-title { color: #ff9d94; }
.boin-result-title { font-size: 1.4em; font-weight: 900; margin: 0 0 .2em; }
.boin-result.compact .boin-result-title { font-size: 1.1em; }
.boin-fact { margin: .3em 0 0; padding: .25em .55em; border-radius: 10px; background: var(--panel-2); border-left: 5px solid #7ee2a8; overflow-wrap: anywhere; }
.boin-fact strong { color: #7ee2a8; }
.boin-how ol { margin: 0; padding-left: 1.3em; display: grid; gap: .2em; }
.boin-table .boin-how { font-size: 1.15em; }
.boin-top { display: grid; gap: .5em; }

/* side column: players and piles */
.boin-players ol { list-style: none; margin: 0; padding: 0; display: grid; gap: .3em; }
.boin-players li { display: grid; grid-template-columns: auto minmax(0, 1fr) auto; grid-template-areas: "tok name place" "tok hand badge"; align-items: center; gap: .1em .5em; padding: .35em .55em; border-radius: 12px; background: var(--panel); border: 1px solid var(--line); }
.boin-players li > .token { grid-area: tok; font-size: 1em; }
.boin-players li.tern { background: #3a3315; border-color: var(--accent); box-shadow: inset 5px 0 0 var(--accent); }
.boin-players li.deciding:not(.tern) { border-color: var(--accent); }
.boin-pname { grid-area: name; font-weight: 800; display: inline-flex; flex-wrap: wrap; align-items: center; gap: .3em; overflow-wrap: anywhere; }
.boin-place { grid-area: place; font-weight: 850; text-align: right; }
.boin-hand-size { grid-area: hand; color: var(--muted); font-size: .9em; }
.boin-players li > .badge { grid-area: badge; justify-self: end; }
.boin-piles { display: flex; flex-wrap: wrap; gap: .3em 1em; background: var(--panel); border: 1px solid var(--line); border-radius: 12px; padding: .35em .7em; }
.boin-piles p { margin: 0; }
.boin-pile-n { font-weight: 900; font-size: 1.25em; font-variant-numeric: tabular-nums; }
.boin-waiting-challenge { color: #ffd0e0; font-weight: 800; }
.boin-winner { margin-bottom: 0; }
.boin-table .boin-winner { display: flex; flex-wrap: wrap; align-items: center; justify-content: center; gap: .2em 1.5em; padding: .4em 1em; }
.boin-table .boin-winner .winner-title { font-size: 2.2em; }
.boin-table .boin-winner .winner-detail { margin: 0; flex-basis: 100%; text-align: center; order: 1; }
.boin-table .boin-winner .ranking { margin: 0; display: flex; flex-wrap: wrap; gap: .2em 1.2em; }
.boin-table .boin-winner .ranking li { display: inline-flex; gap: .4em; }

/* phone */
.boin-phone { font-size: 1rem; }
.boin-phone .boin-play, .boin-phone .boin-result, .boin-phone .boin-how { border-radius: 14px; }
.boin-phone .boin-question, .boin-phone .boin-said { font-size: 1.2rem; }
.boin-phone .boin-answers { grid-template-columns: 1fr; font-size: 1rem; }
.boin-phone .boin-claim { font-size: 1.3rem; }
.boin-how-toggle summary, .boin-read summary, .boin-mini summary { cursor: pointer; font-weight: 750; min-height: var(--tap); display: flex; align-items: center; }
.boin-how-toggle { background: var(--panel); border: 1px solid var(--line); border-radius: 14px; padding: 0 .8rem; }
.boin-how-toggle[open] { padding-bottom: .6rem; }
.boin-how-toggle ol { margin: 0; padding-left: 1.2em; display: grid; gap: .3em; }
.boin-me { display: flex; align-items: center; gap: .3em .6em; margin: 0; font-size: 1.1rem; background: var(--panel); border: 1px solid var(--line); border-radius: 14px; padding: .55rem .8rem; }
.boin-me strong { font-weight: 900; }
.boin-choose-title { font-size: 1.3rem; font-weight: 850; margin: 0; }
.boin-choose { display: grid; gap: .5rem; }
.boin-choose .hint { margin: 0; }
.boin-hand-title { font-size: 1.05rem; color: var(--muted); margin: 0; }
.boin-hand { list-style: none; margin: 0; padding: 0; display: grid; gap: .6rem; }
.boin-card { border-radius: 16px; background: var(--panel); border: 2px solid var(--line); overflow: hidden; }
.boin-card-face {
  width: 100%; min-height: 84px; display: flex; align-items: stretch; justify-content: flex-start; gap: .7em;
  text-align: left; padding: .6em .7em; border: 0; border-radius: 0; background: transparent; font-size: 1rem; font-weight: 400;
}
button.boin-card-face { cursor: pointer; }
button.boin-card-face:hover:not(:disabled) { background: #303545; }
.boin-card.choosing { border-color: var(--accent); border-width: 3px; }
.boin-card-kind { flex: none; width: 5.4rem; display: grid; place-items: center; border-radius: 10px; font-weight: 900; color: #fff; font-size: .72rem; text-transform: uppercase; text-align: center; padding: .3em; line-height: 1.15; }
.boin-card-text { display: flex; flex-direction: column; gap: .15em; min-width: 0; flex: 1 1 auto; }
.boin-card-line { font-weight: 800; font-size: 1.15rem; line-height: 1.2; }
.boin-card-sub { color: var(--muted); font-size: .95rem; line-height: 1.25; }
.boin-card-preview { font-size: .95rem; line-height: 1.3; display: -webkit-box; -webkit-line-clamp: 2; -webkit-box-orient: vertical; overflow: hidden; }
.boin-play-it { font-weight: 900; color: var(--accent); font-size: 1rem; }
.boin-read { border-top: 1px solid var(--line); padding: 0 .8rem; }
.boin-read[open] { padding-bottom: .6rem; }
.boin-read ol, .boin-read ul { margin: 0; padding-left: 1.2em; display: grid; gap: .5em; }
.boin-read .boin-q { font-weight: 700; }
.boin-read .boin-qa { color: var(--muted); font-size: .92rem; }
.boin-read .boin-qa strong { color: #7ee2a8; }
.boin-hints { display: grid; gap: .45rem; background: var(--panel); border: 2px solid var(--accent); border-radius: 14px; padding: .6rem .8rem; }
.boin-hints p { margin: 0; font-size: 1.05rem; overflow-wrap: anywhere; }
.boin-hint-label { display: inline-block; font-weight: 900; color: var(--accent-ink); background: var(--accent); border-radius: 6px; padding: 0 .4em; margin-right: .4em; font-size: .9rem; }
.boin-hints .hint { margin: 0; }
.boin-phone.claiming [data-testid=prompt] .options { grid-template-columns: 1fr 1fr; grid-auto-flow: column; grid-template-rows: repeat(5, auto); }
.boin-phone.claiming [data-testid=prompt] .option { min-height: 56px; font-size: 1.05rem; padding: .5em .7em; }
.boin-phone [data-testid=prompt] .option .boin-truth { font-weight: 900; }
.boin-places { list-style: none; margin: 0; padding: 0; display: grid; gap: .3rem; }
.boin-places li { display: flex; align-items: center; gap: .5em; }
.boin-places .boin-place { margin-left: auto; }
.boin-mini { background: var(--panel); border: 1px solid var(--line); border-radius: 14px; padding: 0 .6rem .2rem; }
.boin-board.compact { gap: 2px; font-size: .62rem; }
.boin-board.compact .boin-space { border-width: 1px; border-radius: .3em; }
.boin-board.compact .boin-num { font-size: .8em; top: 0; left: .15em; }
.boin-board.compact .boin-big { font-size: 1.1em; }
.boin-board.compact .boin-pawn .token { font-size: .8em; }
.boin-board.compact .boin-space.occupied .boin-num { display: none; }
`;

let sheet = null;
let sheetUsers = 0;
function adoptStyles() {
  sheetUsers += 1;
  if (!sheet) {
    sheet = new CSSStyleSheet();
    sheet.replaceSync(CSS);
  }
  if (!document.adoptedStyleSheets.includes(sheet)) document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
}
function dropStyles() {
  sheetUsers = Math.max(0, sheetUsers - 1);
  if (!sheetUsers && sheet) document.adoptedStyleSheets = document.adoptedStyleSheets.filter((s) => s !== sheet);
}

// --- shared by both screens: the story of the play -------------------------------------------------
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
    for (const event of fresh ? ctx.newEvents || [] : []) {
      if (event.kind === "play" || event.kind === "challenge") {
        this.previous = this.current;
        this.current = [];
      }
      this.current.push(event);
      const d = event.data || {};
      if (event.kind === "move" && d.end !== undefined) this.landed.add(Number(d.end));
      if ((event.kind === "slide" || event.kind === "trade") && view) {
        for (const s of [d.seat, d.other]) if (s !== undefined && s !== null) this.landed.add(view.pawns[Number(s)]);
      }
    }
    if (view && (view.play || view.last || view.discards > 0 || (view.log || []).length)) this.started = true;
  }

  /** Where ``seat``'s pawn went in view.last's play, if this page saw the move: the space it
   * moved to, and where it slid on from there (or null); null if unseen. */
  landing(view, seat) {
    const events = view.play ? this.previous : this.current; // a new card in play: view.last is the one before
    const mine = (e, kind) => e.kind === kind && Number(e.data?.seat) === seat;
    const at = events.findIndex((e) => mine(e, "move") && e.data?.end !== undefined);
    if (at < 0) return null;
    const end = Number(events[at].data.end);
    const space = view.board.spaces.find((s) => s.index === end);
    const slid = events[at + 1] && mine(events[at + 1], "slide") && space?.kind === "slide" ? space.end : null;
    return { end, slid };
  }
}

// --- the table screen -----------------------------------------------------------------------------------
class TableScreen {
  constructor(container, ctx) {
    adoptStyles();
    this.ctx = ctx;
    this.story = new Story();
    this.top = el("div", { class: "boin-top" });
    this.boardSlot = el("div", { class: "boin-board-slot" });
    this.root = el("div", { class: "boin boin-table" }, this.top, this.boardSlot, legend());
    container.append(this.root);
    this.sideLast = el("div", { class: "boin-side-last" });
    this.side = el("div", { class: "boin boin-side" });
    (ctx.side || this.root).append(this.side);
    this.timer = setInterval(() => this.tick(), 250);
    this.state = null;
  }

  update(state, room, ctx) {
    this.ctx = ctx;
    this.state = state;
    const view = state.view;
    if (!view || !view.board) return;
    this.story.follow(state, ctx);
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
    const winner = winnerBox(view, state, ctx);
    const live = view.play && !winner ? livePlay(view, ctx, ctx.now(), false) : null;
    const last = winner ? null : resultBox(lastResult(view, this.story, ctx), ctx, Boolean(live));
    let top;
    if (winner) top = winner;
    else if (live) top = live;
    else if (!this.story.started) top = howToPlay();
    else if (last) top = last;
    else {
      top = el("section", { class: "boin-play", "aria-label": "The card in play" },
        el("p", { class: "boin-note" }, `${ctx.name(view.tern)} is choosing a card to play…`));
    }
    this.top.replaceChildren(top);
    this.sideLast.replaceChildren(...(live && last ? [last] : []));
  }

  tick() {
    const view = this.state?.view;
    if (view && view.phase === "dispute" && view.deadline) this.drawTop();
  }

  unmount() {
    clearInterval(this.timer);
    this.root.remove();
    this.side.remove();
    dropStyles();
  }
}

// --- the phone -------------------------------------------------------------------------------------------
function cardFace(card, ctx, players) {
  const kind = KIND_NAMES[card.kind] || card.kind;
  if (card.kind === "movement") {
    return {
      kind,
      line: `Move ${card.count} ${card.direction}`,
      sub: "Played face down: claim any move, true or not",
      preview: "",
    };
  }
  const to = askedSeat(card.ask, ctx.seat, players);
  const ask = card.ask === "anyone" && to === null ? "Ask anyone" : `Ask ${ctx.name(to)} (${card.ask === "anyone" ? "anyone" : `on your ${card.ask}`})`;
  const line = `${ask} · ${spaces(card.advance)}`;
  if (card.kind === "multiple-choice") {
    return { kind, line, sub: `${card.questions.length} questions to choose from`, preview: card.questions[0]?.text || "" };
  }
  if (card.kind === "statement") {
    return { kind, line, sub: `${card.statements.length} true statements: read one, make it sound made up`, preview: card.statements[0] || "" };
  }
  return { kind, line, sub: "Make up a false statement, from the hints", preview: card.hint1 ? `HINT #1: ${card.hint1}` : "" };
}

function cardDetails(card, id, openIds) {
  let body;
  let summary;
  if (card.kind === "multiple-choice") {
    summary = "Read the questions";
    body = el("ol", {}, card.questions.map((q) => el("li", {},
      el("span", { class: "boin-q" }, q.text),
      el("div", { class: "boin-qa" }, q.answers.map((a, k) => `${LETTERS[k]}. ${a}`).join(" · ")),
      q.correct ? el("div", { class: "boin-qa" }, el("strong", {}, `\u2713 ${capitalise(q.correct)}`)) : null)));
  } else if (card.kind === "statement") {
    summary = "Read the statements";
    body = el("ol", {}, card.statements.map((s) => el("li", {}, s)));
  } else if (card.kind === "bluff") {
    summary = "Read the hints";
    body = el("ul", {},
      el("li", {}, el("strong", {}, "HINT #1: "), card.hint1),
      el("li", {}, el("strong", {}, "HINT #2: "), (card.hint2 || []).join(" · ")));
  } else {
    return null;
  }
  const details = el("details", { class: "boin-read", id, open: openIds.has(id) }, el("summary", {}, summary), body);
  details.addEventListener("toggle", () => { if (details.open) openIds.add(id); else openIds.delete(id); });
  return details;
}

class PhoneScreen {
  constructor(container, ctx) {
    adoptStyles();
    this.ctx = ctx;
    this.story = new Story();
    this.howOpen = null; // null: as the game stands; true/false: the player's choice
    this.winner = el("div", { class: "boin-winner-slot" });
    this.how = el("details", { class: "boin-how-toggle", testid: "how-to-play" },
      el("summary", {}, "How to play"), el("ol", {}, HOW_TO_PLAY.map((line) => el("li", {}, line))));
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
    this.timer = setInterval(() => this.tick(), 500);
    this.state = null;
  }

  update(state, room, ctx) {
    this.ctx = ctx;
    this.state = state;
    const view = state.view;
    if (!view || !view.board) return;
    this.story.follow(state, ctx);
    const me = ctx.seat;
    const pending = (state.pending || []).includes(me);
    const choosing = pending && view.phase === "choose-card";
    const over = view.phase === "over" || Boolean(state.outcome);

    this.winner.replaceChildren(...[winnerBox(view, state, ctx)].filter(Boolean));
    this.howAuto = !this.story.started && !over;
    const open = this.howOpen ?? this.howAuto;
    if (this.how.open !== open) this.how.open = open;
    this.how.hidden = over;

    // The prompt: the hand itself while choosing a card; otherwise the generic renderer's.
    this.choose.hidden = !choosing;
    // While this seat waits, the generic renderer says whom for (and what this phone sent).
    this.promptHost.hidden = choosing || over;
    // The generic renderer draws the prompt only: the view and the outcome are drawn here.
    const asked = choosing || over ? { prompt: null, legal: [] } : { prompt: this.prompt(state, view) };
    const shown = { ...state, ...asked, view: null, outcome: null };
    this.generic.update(shown, room, { ...ctx, mode: "phone" });
    this.addHints(state, view);
    this.root.classList.toggle("claiming", pending && view.phase === "ask" && view.play?.shown_as === "movement");

    this.drawContext(view, pending, over);
    const place = placeName(view, view.pawns[me]);
    this.me.replaceChildren(ctx.token(me), el("span", {}, "Your pawn: ", el("strong", {}, place),
      over ? null : el("span", { class: "muted" }, ` (${ordinal(rankOf(view, me))} of ${view.players})`)));
    this.drawHand(view, state, choosing);
    const mini = el("details", { class: "boin-mini", open: this.openIds.has("mini") }, el("summary", {}, "Everyone's pawns"),
      el("ul", { class: "boin-places", testid: "places" }, view.pawns.map((pos, seat) => el("li", {},
        ctx.token(seat), el("span", {}, seat === me ? `${ctx.name(seat)} (you)` : ctx.name(seat)),
        !over && seat === view.tern ? el("span", { class: "badge turn" }, "tern") : null,
        el("span", { class: "boin-place" }, placeName(view, pos))))),
      boardGrid(view, ctx, { compact: true, landed: this.story.landed }));
    mini.addEventListener("toggle", () => { if (mini.open) this.openIds.add("mini"); else this.openIds.delete("mini"); });
    this.places.replaceChildren(mini);
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
      return {
        ...prompt,
        options: (prompt.options || []).map((o) => {
          const a = o.action || {};
          if (a.type === "ask" && card.questions?.[a.question]?.correct) {
            return { ...o, label: `${o.label} (${capitalise(card.questions[a.question].correct)})` };
          }
          if (a.type === "claim") {
            const truth = a.direction === card.direction && a.count === card.count;
            return { ...o, label: `Move ${a.count} ${a.direction}${truth ? " \u2713 true" : ""}` };
          }
          return o;
        }),
      };
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
      this.hints = el("section", { class: "boin-hints", testid: "hints", "aria-label": "Hints from your card", dataset: { card: card.id } },
        el("p", { testid: "hint-1" }, el("span", { class: "boin-hint-label" }, "HINT #1"), card.hint1),
        el("p", { testid: "hint-2" }, el("span", { class: "boin-hint-label" }, "HINT #2"), (card.hint2 || []).join(" · ")),
        el("p", { class: "hint" }, "Fill the blanks of HINT #1, or write your own fib around the key words of HINT #2. Say it as if it were true: it ends “believe it or not”."));
    }
    if (question.nextElementSibling !== this.hints) question.after(this.hints);
  }

  drawContext(view, pending, over) {
    const ctx = this.ctx;
    const parts = [];
    const play = view.play;
    if (play && !over) {
      const mineToAsk = play.asker === ctx.seat && (view.phase === "ask" || view.phase === "target");
      if (mineToAsk && play.card) {
        if (play.card.kind === "movement") {
          parts.push(el("p", { class: "hint boin-claim-hint", testid: "claim-hint" },
            "Nobody disputes? You move as you claimed, and nobody sees the card. Somebody disputes? ",
            "The card is turned over, you move as it really says, and whoever was right gets a bonus."));
        }
      } else if (!pending) {
        parts.push(livePlay(view, ctx, ctx.now(), true));
      }
    }
    if (!over && !(pending && view.phase !== "choose-card")) parts.push(resultBox(lastResult(view, this.story, ctx), ctx, true));
    this.context.replaceChildren(...parts.filter(Boolean));
  }

  drawHand(view, state, choosing) {
    const ctx = this.ctx;
    const options = state.prompt?.options || [];
    const cards = view.hand || [];
    const items = cards.map((card, i) => {
      const face = cardFace(card, ctx, view.players);
      const inner = [
        el("span", { class: `boin-card-kind ${KIND_CLASS[card.kind] || ""}` }, face.kind),
        el("span", { class: "boin-card-text" },
          el("span", { class: "boin-card-line" }, face.line),
          el("span", { class: "boin-card-sub" }, face.sub),
          face.preview ? el("span", { class: "boin-card-preview" }, face.preview) : null,
          choosing ? el("span", { class: "boin-play-it", "aria-hidden": "true" }, "Tap to play this card") : null),
      ];
      const option = options.find((o) => o.action?.type === "play" && o.action.card === card.id);
      const face_ = choosing
        ? el("button", {
          class: "boin-card-face", testid: `card-${i}`, dataset: { card: card.id },
          "aria-label": `Play this card: ${face.kind}. ${face.line}. ${face.sub}.`,
          on: { click: (e) => ctx.send(option ? option.action : { type: "play", card: card.id }, e.currentTarget) },
        }, inner)
        : el("div", { class: "boin-card-face", dataset: { card: card.id } }, inner);
      return el("li", { class: `boin-card${choosing ? " choosing" : ""}`, testid: `hand-card-${i}`, "data-error-slot": "" },
        face_, cardDetails(card, `boin-card-${card.id}`, this.openIds));
    });
    const list = el("ol", { class: "boin-hand", testid: "hand", "aria-labelledby": choosing ? "boin-choose-title" : "boin-hand-title" }, items);
    if (choosing) {
      this.choose.replaceChildren(
        el("h2", { class: "boin-choose-title", id: "boin-choose-title" }, named(state.prompt?.question, ctx) || "Your turn: pick a card to play from your hand"),
        el("p", { class: "hint" }, "Tap a card to play it. “Read” shows what is on it."),
        list);
      this.choose.setAttribute("data-primary", "");
      this.handBox.replaceChildren();
      this.handBox.hidden = true;
    } else {
      this.choose.replaceChildren();
      this.choose.removeAttribute("data-primary");
      this.handBox.hidden = view.phase === "over";
      this.handBox.replaceChildren(el("h2", { class: "boin-hand-title", id: "boin-hand-title" }, `Your hand: ${cards.length} ${cards.length === 1 ? "card" : "cards"}`), list);
    }
  }

  tick() {
    const view = this.state?.view;
    if (view && view.phase === "dispute" && view.deadline && !(this.state.pending || []).includes(this.ctx.seat)) {
      this.drawContext(view, false, false);
    }
  }

  unmount() {
    clearInterval(this.timer);
    this.generic.unmount?.();
    this.root.remove();
    dropStyles();
  }
}

export function mount(container, ctx) {
  return ctx.mode === "table" ? new TableScreen(container, ctx) : new PhoneScreen(container, ctx);
}
