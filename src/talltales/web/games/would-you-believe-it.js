// Would You Believe It!: the table (route, pieces, die, scores) and the phone controller
// (roll, then one of view.choices). Everything here reads the JSON view from
// src/talltales/games/would_you_believe_it/view.py; names reach the page as text nodes only.

export const optionLabels = {
  layout: {
    label: "Route layout",
    hint: "Shuffled is the printed rule. Fixed is one set layout, good for learning.",
    values: { shuffled: "Shuffled (printed rules)", fixed: "Fixed learning layout" },
  },
  figures: {
    label: "Figures per player",
    hint: "0 follows the printed rule: 3 each for 2–4 players, 2 each for 5–6.",
  },
};

const PIPS = { 1: [4], 2: [0, 8], 3: [0, 4, 8], 4: [0, 2, 6, 8], 5: [0, 2, 4, 6, 8], 6: [0, 2, 3, 5, 6, 8] };

// --- cards ------------------------------------------------------------------------------------
/** "plus", "minus" or "fortune" for a card label ("+8", "-4", "F"). */
export function kindOf(label) {
  if (label === "F") return "fortune";
  if (label === "Start") return "start";
  if (label === "Finish") return "finish";
  return String(label).startsWith("-") ? "minus" : "plus";
}

/** How a label is printed: a true minus sign reads better than a hyphen. */
const shown = (label) => String(label).replace(/^-/, "\u2212");

/** How a label is read out. */
function spoken(label) {
  if (label === "F") return "fortune";
  if (label === "Start" || label === "Finish") return label;
  const text = String(label);
  return text.startsWith("-") ? `minus ${text.slice(1)}` : `plus ${text.replace(/^\+/, "")}`;
}

/** The label at a position: "Start", "Finish" or the card's label. */
function placeLabel(view, position) {
  if (position === view.start) return "Start";
  if (position === view.finish) return "Finish";
  return view.route[position - 1]?.card ?? String(position);
}

/** Scoring, as the rulebook and board.score: each fortune turns the highest minus into plus. */
export function score(labels) {
  let plus = 0;
  let fortunes = 0;
  const minus = [];
  for (const label of labels) {
    if (label === "F") fortunes += 1;
    else if (String(label).startsWith("-")) minus.push(-Number(label));
    else plus += Number(label);
  }
  minus.sort((a, b) => b - a);
  const turned = minus.slice(0, fortunes).reduce((a, b) => a + b, 0);
  const lost = minus.slice(fortunes).reduce((a, b) => a + b, 0);
  return plus + turned - lost;
}

function chip(ctx, label, extra = "") {
  return ctx.el("span", { class: `card-chip ${kindOf(label)} ${extra}`.trim(), "aria-label": spoken(label), role: "img" }, shown(label));
}

function dieFace(ctx, value, extra = "") {
  const face = ctx.el("span", {
    class: `die-face ${extra}`.trim(), role: "img",
    "aria-label": value ? `die showing ${value}` : "die not rolled yet", testid: "die",
  });
  const on = new Set(PIPS[value] || []);
  for (let i = 0; i < 9; i++) face.append(ctx.el("span", { class: on.has(i) ? "pip on" : "pip" }));
  return face;
}

// --- words for events and the turn ----------------------------------------------------------------
export function describeEvent(event, ctx) {
  const d = event.data || {};
  const who = d.seat !== undefined && d.seat !== null ? ctx.name(Number(d.seat)) : "Someone";
  const view = ctx.state?.view;
  const where = (pos) => (view ? shown(placeLabel(view, Number(pos))) : `place ${pos}`);
  switch (event.kind) {
    case "roll": return `${who} throws the die.`;
    case "die": return `The die shows ${d.value}.`;
    case "move-figure": return `${who} moves a figure from ${where(d.from)} to ${where(d.to)}.`;
    case "move-guard": return `${who} moves a guard from ${where(d.from)} to ${where(d.to)}.`;
    case "collect": return `${who} collects ${shown(d.card)}.`;
    case "game-over": return "Every figure has reached Finish: game over!";
    default: return null;
  }
}

export function turnText(state, room, ctx) {
  const view = state.view;
  if (!view || view.phase === "over") return null;
  const who = ctx.name(view.turn);
  const standIn = ctx.seatInfo(view.turn)?.stand_in ? " (a bot is playing for them)" : "";
  if (ctx.mode === "phone" && ctx.seat === view.turn) {
    return view.phase === "move"
      ? { title: "Your turn!", detail: `You rolled ${view.roll}: choose a move.` }
      : { title: "Your turn!", detail: "Roll the die." };
  }
  if (view.phase === "move") return { title: `${who}'s turn`, detail: `Rolled ${view.roll}, choosing a move${standIn}.` };
  return { title: `${who}'s turn`, detail: `Rolling the die${standIn}…` };
}

// --- pieces ----------------------------------------------------------------------------------------
function piecesAt(view) {
  const figures = new Map(); // position -> Map(seat -> count)
  for (const player of view.players) {
    for (const pos of player.figures) {
      if (!figures.has(pos)) figures.set(pos, new Map());
      const here = figures.get(pos);
      here.set(player.seat, (here.get(player.seat) || 0) + 1);
    }
  }
  const guards = new Map();
  for (const pos of view.guards) guards.set(pos, (guards.get(pos) || 0) + 1);
  return { figures, guards };
}

function recentMoves(ctx) {
  const landed = new Set();
  const taken = new Set();
  for (const e of ctx.newEvents || []) {
    if ((e.kind === "move-figure" || e.kind === "move-guard") && e.data) landed.add(Number(e.data.to));
    if (e.kind === "collect" && e.data) taken.add(Number(e.data.position));
  }
  return { landed, taken };
}

function routeBoard(view, ctx, compact) {
  const { el } = ctx;
  const { figures, guards } = piecesAt(view);
  const { landed, taken } = recentMoves(ctx);
  const over = view.phase === "over";
  const board = el("ol", {
    class: compact ? "route compact" : "route",
    testid: compact ? "mini-board" : "table-board",
    "aria-label": "The route, from Start to Finish",
  });
  for (let pos = view.start; pos <= view.finish; pos++) {
    const label = placeLabel(view, pos);
    const card = pos > view.start && pos < view.finish ? view.route[pos - 1] : null;
    const gap = card && !card.present;
    const kind = gap ? "gap" : kindOf(label);
    const guardCount = guards.get(pos) || 0;
    const here = figures.get(pos) || new Map();

    const words = [card ? `Card ${pos}: ${gap ? `gap (${spoken(label)} was taken)` : spoken(label)}` : label];
    if (guardCount) words.push(guardCount === 1 ? "1 guard" : `${guardCount} guards`);
    for (const [seat, count] of here) {
      const who = ctx.seat === seat && ctx.mode === "phone" ? "your" : `${ctx.name(seat)}'s`;
      words.push(count === 1 ? `${who} figure` : `${who} ${count} figures`);
    }

    const pieces = el("span", { class: "pieces", "aria-hidden": "true" });
    if (guardCount) {
      pieces.append(el("span", { class: "guard", title: "guard" }, "G", guardCount > 1 ? el("span", { class: "count" }, `×${guardCount}`) : null));
    }
    for (const [seat, count] of here) {
      const mine = ctx.mode === "phone" && seat === ctx.seat;
      const active = !over && seat === view.turn;
      pieces.append(el("span", { class: `piece${mine ? " mine" : ""}${active ? " active" : ""}` },
        ctx.token(seat), count > 1 ? el("span", { class: "count" }, `×${count}`) : null));
    }

    const classes = ["cell", kind];
    if (landed.has(pos)) classes.push("landed");
    if (taken.has(pos)) classes.push("taken");
    board.append(el("li", {
      class: classes.join(" "),
      testid: compact ? `mini-card-${pos}` : `route-card-${pos}`,
      "aria-label": words.join(", "),
      dataset: { position: String(pos), present: card ? String(card.present) : "true" },
    },
      card ? el("span", { class: "pos", "aria-hidden": "true" }, String(pos)) : null,
      el("span", { class: "label", "aria-hidden": "true" }, gap ? "" : shown(label)),
      !compact && kind === "fortune" ? el("span", { class: "kind", "aria-hidden": "true" }, "fortune") : null,
      gap && !compact ? el("span", { class: "kind", "aria-hidden": "true" }, "gap") : null,
      pieces));
  }
  return board;
}

function legend(ctx) {
  const { el } = ctx;
  return el("p", { class: "legend", "aria-hidden": "true" },
    chip(ctx, "+3"), " plus ", chip(ctx, "-3"), " minus ", chip(ctx, "F"), " fortune: turns your worst minus card into plus ",
    el("span", { class: "guard" }, "G"), " guard ",
    el("span", { class: "cell-gap-sample" }), " gap (skipped when moving)");
}

function lastDie(ctx) {
  const log = ctx.events || [];
  for (let i = log.length - 1; i >= 0; i--) {
    if (log[i].kind === "separator") break;
    if (log[i].kind === "die" && log[i].data?.value) return Number(log[i].data.value);
  }
  return 0;
}

function dieBox(view, ctx) {
  const { el } = ctx;
  const rolling = view.phase === "move" && view.roll > 0;
  const value = rolling ? view.roll : lastDie(ctx);
  return el("section", { class: `die-box${rolling ? " live" : ""}`, "aria-label": "The die" },
    dieFace(ctx, value),
    el("p", { class: "die-caption" },
      rolling ? `${ctx.name(view.turn)} rolled ${view.roll}` : value ? `Last roll: ${value}` : "No roll yet"));
}

function rankingOf(view, state) {
  if (state.outcome?.ranking) return { ranking: state.outcome.ranking, scores: state.outcome.scores };
  const scores = view.players.map((p) => p.score);
  const groups = new Map();
  scores.forEach((s, seat) => groups.set(s, [...(groups.get(s) || []), seat]));
  return { ranking: [...groups.keys()].sort((a, b) => b - a).map((s) => groups.get(s)), scores };
}

function ordinal(n) {
  const suffix = n % 100 >= 11 && n % 100 <= 13 ? "th" : ({ 1: "st", 2: "nd", 3: "rd" }[n % 10] || "th");
  return `${n}${suffix}`;
}

function winnerBox(view, state, ctx) {
  const { el } = ctx;
  const { ranking, scores } = rankingOf(view, state);
  const winners = ranking[0] || [];
  const names = winners.map((s) => (ctx.mode === "phone" && s === ctx.seat ? "You" : ctx.name(s)));
  const youWon = ctx.mode === "phone" && winners.includes(ctx.seat);
  const title = winners.length > 1
    ? `${ctx.listNames(names)} share the win!`
    : youWon ? "You win!" : `${names[0]} wins!`;
  let place = 1;
  const rows = ranking.map((group) => {
    const row = el("li", {},
      el("span", { class: "place" }, ordinal(place)),
      group.map((s) => el("span", { class: "ranked" }, ctx.token(s), ctx.name(s))),
      el("span", { class: "points" }, `${scores[group[0]]} points`));
    place += group.length;
    return row;
  });
  return el("section", { class: "winner", testid: "winner", role: "status", "aria-label": title },
    el("p", { class: "winner-title" }, title),
    el("p", { class: "winner-detail" }, `${scores[winners[0]]} points`),
    el("ol", { class: "ranking" }, rows));
}

function scoreboard(view, state, ctx) {
  const { el } = ctx;
  const over = view.phase === "over";
  const items = view.players.map((p) => {
    const home = p.figures.filter((f) => f === view.finish).length;
    const current = !over && p.seat === view.turn;
    const classes = ["sb-row"];
    if (current) classes.push("current");
    if (p.finished) classes.push("finished");
    return el("li", { class: classes.join(" "), "aria-current": current ? "true" : null, testid: `score-${p.seat}` },
      el("div", { class: "sb-top" },
        ctx.token(p.seat),
        el("span", { class: "name" }, ctx.name(p.seat)),
        el("span", { class: "badges" }, ctx.badges(p.seat),
          current ? el("span", { class: "badge turn" }, "to play") : null,
          p.finished && !over ? el("span", { class: "badge done" }, "all home") : null),
        el("span", { class: "score" }, String(p.score), el("span", { class: "sr-only" }, " points"))),
      el("div", { class: "sb-bottom" },
        el("span", { class: "home" }, `Home ${home}/${p.figures.length}`),
        p.collected.length
          ? el("span", { class: "chips", "aria-label": `Cards: ${p.collected.map(spoken).join(", ")}` },
            p.collected.map((c) => chip(ctx, c, "small")))
          : el("span", { class: "muted" }, "no cards yet")));
  });
  return el("section", { class: "scoreboard", testid: "scoreboard", "aria-labelledby": `sb-title-${ctx.mode}` },
    el("h2", { class: "sb-title", id: `sb-title-${ctx.mode}` }, "Scores"),
    el("ol", { class: "sb-list" }, items));
}

// --- the table screen -------------------------------------------------------------------------------
export function renderTable(container, state, room, ctx) {
  const { el } = ctx;
  const view = state.view;
  const main = el("div", { class: "wybi wybi-table" });
  if (view.phase === "over") main.append(winnerBox(view, state, ctx));
  main.append(routeBoard(view, ctx, false), legend(ctx));
  container.append(main);
  const side = ctx.side || container;
  if (view.phase !== "over") side.append(dieBox(view, ctx));
  side.append(scoreboard(view, state, ctx));
}

// --- the phone controller ----------------------------------------------------------------------------
let boardOpen = true;

function choiceButton(choice, index, view, player, ctx) {
  const { el } = ctx;
  const from = placeLabel(view, choice.start);
  const to = choice.lands_on;
  const isFigure = choice.piece === "figure";
  let collect;
  let collectWords;
  if (choice.collects) {
    const after = score([...player.collected, choice.collects]);
    const kind = kindOf(choice.collects);
    collect = el("span", { class: `collect ${kind}` }, "You collect ", chip(ctx, choice.collects),
      el("span", { class: "after" }, ` score ${player.score} → ${after}`));
    collectWords = `You collect ${spoken(choice.collects)}; your score goes from ${player.score} to ${after}.`;
  } else {
    collect = el("span", { class: "collect none" }, isFigure ? "Collects nothing" : "Guards collect nothing");
    collectWords = isFigure ? "Collects nothing." : "A guard collects nothing.";
  }
  const reaches = choice.end === view.finish ? " and reaches Finish" : "";
  const label = `${isFigure ? "Move your figure" : "Move a guard"} from ${spoken(from)} to ${spoken(to)}${reaches}. ${collectWords}`;
  const button = el("button", {
    class: `choice ${choice.collects ? kindOf(choice.collects) : "none"}`,
    testid: `choice-${index}`,
    "aria-label": label,
    on: { click: (e) => ctx.send(choice.action, e.currentTarget) },
  },
    el("span", { class: "choice-piece" },
      isFigure ? ctx.token(ctx.seat) : el("span", { class: "guard" }, "G"),
      isFigure ? "Figure" : "Guard"),
    el("span", { class: "choice-path" }, "from ", chip(ctx, from), el("span", { class: "arrow", "aria-hidden": "true" }, " → "), "to ", chip(ctx, to)),
    collect);
  return el("li", { "data-error-slot": "" }, button);
}

function meBox(view, player, ctx) {
  const { el } = ctx;
  return el("section", { class: "me-box", "aria-label": "You" },
    el("p", { class: "me-line" }, ctx.token(player.seat), el("span", { class: "me-name" }, ctx.name(player.seat)),
      el("span", { class: "me-score", testid: "my-score" }, `${player.score} points`)),
    el("p", { class: "me-figures" }, "Figures: ",
      player.figures.map((f, i) => [i ? " " : "", chip(ctx, placeLabel(view, f), "small")])),
    el("p", { class: "me-cards" }, "Cards: ",
      player.collected.length ? player.collected.map((c, i) => [i ? " " : "", chip(ctx, c, "small")]) : el("span", { class: "muted" }, "none yet")));
}

function actionBox(view, state, ctx, player) {
  const { el } = ctx;
  const me = ctx.seat;
  const box = el("section", { class: "action-box", "aria-label": "Your move", "data-primary": "" });
  if (view.phase === "over") return null;
  const mine = me !== null && view.turn === me && (state.pending || []).includes(me);
  if (mine && view.phase === "roll") {
    box.append(el("div", { "data-error-slot": "" },
      el("button", {
        class: "primary huge", testid: "roll",
        on: { click: (e) => ctx.send({ type: "roll" }, e.currentTarget) },
      }, "Roll the die")));
  } else if (mine && view.phase === "move" && player) {
    box.append(el("p", { class: "rolled" }, dieFace(ctx, view.roll, "small"), `You rolled ${view.roll}. Choose one move:`),
      el("ul", { class: "choices", "aria-label": "Your moves" },
        view.choices.map((c, i) => choiceButton(c, i, view, player, ctx))));
  } else if (player && player.finished) {
    box.append(el("p", { class: "waiting" }, "All your figures are home. ",
      el("span", {}, `${ctx.name(view.turn)} is playing.`)));
  } else {
    const doing = view.phase === "move" ? `rolled ${view.roll} and is choosing a move.` : "is rolling the die.";
    box.append(el("p", { class: "waiting", testid: "waiting" }, "Not your turn: ", ctx.token(view.turn), " ",
      el("strong", {}, ctx.name(view.turn)), ` ${doing}`));
  }
  return box;
}

export function renderPhone(container, state, room, ctx) {
  const { el } = ctx;
  const view = state.view;
  const player = ctx.seat !== null ? view.players[ctx.seat] || null : null;
  const root = el("div", { class: "wybi wybi-phone" });
  if (view.phase === "over") root.append(winnerBox(view, state, ctx));
  const action = actionBox(view, state, ctx, player);
  if (action) root.append(action);
  if (player) root.append(meBox(view, player, ctx));
  const details = el("details", { class: "card-panel mini", open: boardOpen },
    el("summary", {}, "Board"), routeBoard(view, ctx, true));
  details.addEventListener("toggle", () => { boardOpen = details.open; });
  root.append(details, scoreboard(view, state, ctx));
  container.append(root);
}
