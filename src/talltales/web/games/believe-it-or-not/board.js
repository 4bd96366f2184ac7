// Believe It or Not!'s board: the grid of spaces with their pawns (full size or compact) and its legend.

import { el } from "../../dom.js";
import { isMe, MINUS, signed, WON } from "./words.js";

const arrowOf = (dx, dy) => (dy > 0 ? "\u2193" : dy < 0 ? "\u2191" : dx < 0 ? "\u2190" : "\u2192");

function moveFace(space, i) {
  return space.move > 0
    ? { cls: "ahead", big: signed(space.move), small: "ahead", words: `Space ${i}: move ${space.move} ahead` }
    : { cls: "back", big: signed(space.move), small: "back", words: `Space ${i}: move ${-space.move} back` };
}

/** A slide's arrow points along the path, to the next space (or its end). */
function slideFace(space, i, byIndex) {
  const next = byIndex.get(i + 1) || byIndex.get(space.end);
  const arrow = arrowOf(next ? next.x - space.x : 1, next ? next.y - space.y : 0);
  return { cls: "slide", big: arrow, small: `slide to ${space.end}`, words: `Space ${i}: slide to space ${space.end}` };
}

/** A shortcut's arrow points up or down, from its entry to its exit (or right). */
function shortcutFace(space, byIndex) {
  const entry = byIndex.get(space.entry);
  const exit = byIndex.get(space.exit);
  const arrow = entry && exit && exit.y > entry.y ? "\u2193" : entry && exit && exit.y < entry.y ? "\u2191" : "\u2192";
  return {
    cls: "shortcut", big: `${arrow}`, small: "shortcut", extra: `${space.entry}\u2192${space.exit}`,
    words: `Shortcut from space ${space.entry} to space ${space.exit}`,
  };
}

/** What a space shows: a big label, a line of words, a class, and its words for screen readers. */
function spaceFace(space, byIndex) {
  const i = space.index;
  switch (space.kind) {
    case "start": return { cls: "start", big: "START", small: "", words: "START" };
    case "won": return { cls: "won", big: "", small: WON, words: `Space ${i}: ${WON}` };
    case "move": return moveFace(space, i);
    case "trade": return { cls: "trade", big: "\u21c4", small: "trade places", words: `Space ${i}: trade places with the nearest pawn` };
    case "speed-up": return { cls: "speed", big: "\u00bb", small: "speed up", words: `Space ${i}: speed up, you and every pawn behind move two` };
    case "slide": return slideFace(space, i, byIndex);
    case "shortcut": return shortcutFace(space, byIndex);
    default: return { cls: "plain", big: "", small: "", words: `Space ${i}` };
  }
}

/** The grid's rows: rows of the path take the height; rows that only join them (and hold a shortcut) less. */
function rowHeights(board, compact) {
  const perRow = new Array(board.rows).fill(0);
  for (const s of board.spaces) perRow[s.y] += 1;
  return perRow.map((n) => (compact ? (n > 2 ? "2.6em" : "1.5em") : n > 2 ? "minmax(0, 1fr)" : "minmax(0, .62fr)")).join(" ");
}

/** The seats whose pawns stand on each space, by the space's index. */
function pawnsBySpace(view) {
  const here = new Map();
  view.pawns.forEach((pos, seat) => here.set(pos, [...(here.get(pos) || []), seat]));
  return here;
}

/** The pawns on a space as tokens, with their names where no more than two share it. */
function pawnsOn(seats, view, ctx, compact) {
  const over = view.phase === "over";
  return el("span", { class: `boin-pawns n${Math.min(seats.length, 4)}`, "aria-hidden": "true" },
    seats.map((seat) => el("span", {
      class: `boin-pawn${!over && seat === view.tern ? " tern" : ""}${isMe(seat, ctx) ? " mine" : ""}`,
      testid: compact ? null : `pawn-${seat}`,
    }, ctx.token(seat), seats.length <= 2 && !compact ? el("span", { class: "boin-pawn-name" }, ctx.name(seat)) : null)));
}

/** The number, sign and words on a space (hidden from screen readers: its label says them). */
function spaceLabels(space, face, compact) {
  const hidden = (cls, text) => el("span", { class: cls, "aria-hidden": "true" }, text);
  const numbered = space.kind !== "start" && space.kind !== "won" && space.kind !== "shortcut";
  return [
    numbered ? hidden("boin-num", String(space.index)) : null,
    face.big ? hidden("boin-big", face.big) : null,
    face.small && !compact ? hidden("boin-small", face.small) : null,
    face.extra && !compact ? hidden("boin-small boin-extra", face.extra) : null,
    face.small && compact && space.kind === "won" ? hidden("boin-small", "WON") : null,
  ];
}

function spaceItem(space, face, seats, view, ctx, { compact, landed }) {
  const words = [face.words, ...seats.map((seat) => (isMe(seat, ctx) ? "your pawn" : `${ctx.name(seat)}'s pawn`))];
  const classes = ["boin-space", face.cls];
  if (landed.has(space.index)) classes.push("landed");
  if (seats.length) classes.push("occupied");
  return el("li", {
    class: classes.join(" "),
    testid: compact ? null : `space-${space.index}`,
    "aria-label": words.join(", "),
    dataset: { index: String(space.index), kind: space.kind },
    style: { gridColumn: String(space.x + 1), gridRow: String(space.y + 1) },
  }, spaceLabels(space, face, compact), pawnsOn(seats, view, ctx, compact));
}

/** The board with every pawn; ``landed`` spaces are ringed, ``compact`` is the phone's small copy. */
export function boardGrid(view, ctx, { compact = false, landed = new Set() } = {}) {
  const board = view.board;
  const byIndex = new Map(board.spaces.map((s) => [s.index, s]));
  const here = pawnsBySpace(view);
  const grid = el("ol", {
    class: `boin-board${compact ? " compact" : ""}`,
    testid: compact ? "mini-board" : "board",
    "aria-label": `The board: START, then spaces 1 to ${board.won - 1}, then ${WON}`,
    style: { gridTemplateColumns: `repeat(${board.columns}, minmax(0, 1fr))`, gridTemplateRows: rowHeights(board, compact) },
  });
  for (const space of [...board.spaces].sort((a, b) => a.index - b.index)) {
    const seats = here.get(space.index) || [];
    grid.append(spaceItem(space, spaceFace(space, byIndex), seats, view, ctx, { compact, landed }));
  }
  return grid;
}

export function legend() {
  const item = (cls, big, words) => el("li", {}, el("span", { class: `boin-swatch ${cls}`, "aria-hidden": "true" }, big), words);
  return el("ul", { class: "boin-legend", "aria-label": "What the spaces do" },
    item("ahead", "+2", "move ahead"),
    item("back", `${MINUS}3`, "move back"),
    item("trade", "\u21c4", "trade places with the nearest pawn"),
    item("speed", "\u00bb", "you and all behind move 2"),
    item("slide", "\u2192", "slide on (moving ahead)"),
    item("shortcut", "\u2193", "shortcut, if 2+ pawns are ahead"));
}
