// Believe It or Not!'s cards in a phone's hand: each card's face, its "Read" box, and the hand as a list.

import { capitalise, el } from "../../dom.js";
import { askedSeat, KIND_CLASS, KIND_NAMES, LETTERS, spaces } from "./words.js";

/** Keep ``id`` in ``openIds`` while ``details`` is open, so a redraw opens it again. */
export function rememberOpen(details, id, openIds) {
  details.addEventListener("toggle", () => { if (details.open) openIds.add(id); else openIds.delete(id); });
  return details;
}

/** A card's kind, its line (whom it asks, how far), a line more, and a glimpse of its text. */
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

/** What the "Read" box of a card says, under which summary; null for a Movement card. */
function cardText(card) {
  if (card.kind === "multiple-choice") {
    return ["Read the questions", el("ol", {}, card.questions.map((q) => el("li", {},
      el("span", { class: "boin-q" }, q.text),
      el("div", { class: "boin-qa" }, q.answers.map((a, k) => `${LETTERS[k]}. ${a}`).join(" · ")),
      q.correct ? el("div", { class: "boin-qa" }, el("strong", {}, `\u2713 ${capitalise(q.correct)}`)) : null)))];
  }
  if (card.kind === "statement") return ["Read the statements", el("ol", {}, card.statements.map((s) => el("li", {}, s)))];
  if (card.kind === "bluff") {
    return ["Read the hints", el("ul", {},
      el("li", {}, el("strong", {}, "HINT #1: "), card.hint1),
      el("li", {}, el("strong", {}, "HINT #2: "), (card.hint2 || []).join(" · ")))];
  }
  return null;
}

function cardDetails(card, id, openIds) {
  const text = cardText(card);
  if (!text) return null;
  const [summary, body] = text;
  return rememberOpen(el("details", { class: "boin-read", id, open: openIds.has(id) }, el("summary", {}, summary), body), id, openIds);
}

/** A card of the hand: a button that plays it while ``choosing`` (``option`` is the prompt's). */
function handCard(card, i, { ctx, players, choosing, option, openIds }) {
  const face = cardFace(card, ctx, players);
  const inner = [
    el("span", { class: `boin-card-kind ${KIND_CLASS[card.kind] || ""}` }, face.kind),
    el("span", { class: "boin-card-text" },
      el("span", { class: "boin-card-line" }, face.line),
      el("span", { class: "boin-card-sub" }, face.sub),
      face.preview ? el("span", { class: "boin-card-preview" }, face.preview) : null,
      choosing ? el("span", { class: "boin-play-it", "aria-hidden": "true" }, "Tap to play this card") : null),
  ];
  const front = choosing
    ? el("button", {
      class: "boin-card-face", testid: `card-${i}`, dataset: { card: card.id },
      "aria-label": `Play this card: ${face.kind}. ${face.line}. ${face.sub}.`,
      on: { click: (e) => ctx.send(option ? option.action : { type: "play", card: card.id }, e.currentTarget) },
    }, inner)
    : el("div", { class: "boin-card-face", dataset: { card: card.id } }, inner);
  return el("li", { class: `boin-card${choosing ? " choosing" : ""}`, testid: `hand-card-${i}`, "data-error-slot": "" },
    front, cardDetails(card, `boin-card-${card.id}`, openIds));
}

/** The seat's hand as big cards, playable while ``choosing``; ``openIds`` keeps the open "Read" boxes. */
export function handList(view, state, ctx, choosing, openIds) {
  const options = state.prompt?.options || [];
  const playing = (card) => options.find((o) => o.action?.type === "play" && o.action.card === card.id);
  const items = (view.hand || []).map((card, i) => handCard(card, i, { ctx, players: view.players, choosing, option: playing(card), openIds }));
  return el("ol", { class: "boin-hand", testid: "hand", "aria-labelledby": choosing ? "boin-choose-title" : "boin-hand-title" }, items);
}
