// The generic renderer: plays ANY game from its typed prompts alone, so a new game is
// playable before it has a renderer of its own. The shell uses it for every game without a
// games/<id>.js (see ../shell.js, loadGameModule).
//
// The phone shows the seat's prompt (state.prompt, from src/talltales/core/prompt.py): the
// question in large type, then by kind: pick and vote as big buttons, a verdict's subject
// with Accept and the overrule options, a race's huge claim button, a write's text box with
// a live character counter, "need an idea?" chips and the other options. The table screen
// shows the game's title, the players (whose turn it is, and every per-player number of the
// view, such as scores), the rest of the public view as tidy keys and values; lists of
// answers ({id, text} and the like) in large type, which is how the anonymous answers of a
// vote reach the table (and a vote prompt, should the table ever be sent one).
//
// It uses the renderer lifecycle (games/README.md): mount once, update on every message. A
// write prompt's text box is kept while the same prompt is pending, so half-typed text,
// focus, selection and scroll survive state updates and reconnects; a draft also survives a
// reload of the tab (sessionStorage). Everything from the server reaches the page as text.

import { capitalise, clearErrors, el, listNames, showError } from "../dom.js";

export function mount(container, ctx) {
  return ctx.mode === "table" ? new TableScreen(container, ctx) : new PhoneScreen(container, ctx);
}

// --- reading the view ------------------------------------------------------------------------------
/** Keys the shell already shows elsewhere (the countdown, the header), or that mean nothing to people. */
const SKIP = new Set(["game", "deadline", "version", "server_time"]);

/** Keys whose whole numbers are seats (shown as players' names). */
const SEAT_KEY = /(^|_)(seats?|players?|turn|reader|dealer|judge|disputer|winners?|leader|target|voters?|authors?|owner|done|passed|struck|voted|ready|waiting|pending|current|host)($|_)/i;

/** Keys that score (their column comes first). */
const SCORE_KEY = /score|points/i;

const isScalar = (v) => v === null || ["string", "number", "boolean"].includes(typeof v);
const isObject = (v) => v !== null && typeof v === "object" && !Array.isArray(v);
const isSeat = (v, n) => Number.isInteger(v) && v >= 0 && v < n;
const seatKeyed = (obj, n) => {
  const keys = Object.keys(obj);
  return keys.length > 0 && keys.every((k) => /^\d+$/.test(k) && Number(k) < n);
};

/** "hand_sizes" -> "Hand sizes", "myVote" -> "My vote". */
export function humanise(key) {
  return capitalise(String(key).replace(/([a-z])([A-Z])/g, "$1 $2").replace(/[_-]+/g, " ").toLowerCase().trim());
}

/**
 * Game-written words with "seat N" as the player's name, as the shell does for events
 * ("Seat 0 claims 3" -> "Ann claims 3"). Never used on text a player typed.
 */
function named(text, ctx) {
  return String(text ?? "").replace(/\bseat (\d+)\b/gi, (whole, n) => (ctx.room?.seats?.[Number(n)] ? ctx.name(Number(n)) : whole));
}

/** An option's words: its label, or, when a game labelled it with raw JSON, the action in words. */
function optionWords(option, ctx) {
  const label = String(option?.label ?? "");
  if (/^\s*\{/.test(label)) {
    try {
      const parsed = JSON.parse(label);
      if (isObject(parsed)) return describeAction(parsed);
    } catch { /* not JSON after all: shown as it is */ }
  }
  return named(label, ctx);
}

/** A name for a seat: "Ann", or "Ann (you)" on Ann's phone. */
function who(seat, ctx) {
  const name = ctx.name(seat);
  return ctx.mode === "phone" && seat === ctx.seat ? `${name} (you)` : name;
}

function person(seat, ctx) {
  return el("span", { class: "kv-person" }, ctx.token(seat), who(seat, ctx));
}

/** Split a view into per-player columns (arrays with one value per seat) and everything else. */
export function splitView(view, room, ctx) {
  const n = room?.seats?.length || 0;
  const columns = []; // [label, values by seat]
  const rest = []; // [key, value]
  if (!isObject(view)) return { columns, rest: view === null || view === undefined ? [] : [["view", view]] };
  for (const [key, value] of Object.entries(view)) {
    if (SKIP.has(key) || value === null || value === undefined) continue;
    if (typeof value === "object" && !Object.keys(value).length) continue; // nothing in it yet
    if (key === "seat" && (ctx.mode === "table" || value === ctx.seat)) continue;
    if (n > 1 && Array.isArray(value) && value.length === n) {
      if (value.every((v) => typeof v === "number" || typeof v === "boolean")) {
        columns.push([key, value]);
        continue;
      }
      if (/^players?$/i.test(key) && value.every(isObject)) {
        const fields = [...new Set(value.flatMap((p) => Object.keys(p)))].filter((f) => f !== "seat" && f !== "name");
        for (const f of fields) columns.push([f, value.map((p) => p[f])]);
        continue;
      }
    }
    rest.push([key, value]);
  }
  columns.sort((a, b) => Number(SCORE_KEY.test(b[0])) - Number(SCORE_KEY.test(a[0])));
  return { columns, rest };
}

function cellText(value) {
  if (value === null || value === undefined) return "—";
  if (typeof value === "boolean") return value ? "yes" : "no";
  if (Array.isArray(value)) return value.length ? value.map(cellText).join(", ") : "—";
  if (isObject(value)) return Object.entries(value).map(([k, v]) => `${humanise(k)}: ${cellText(v)}`).join("; ") || "—";
  return String(value);
}

/** The players as a table: name, whose turn, and one column per per-player value of the view. */
function playersTable(columns, state, room, ctx) {
  const pending = new Set(state.pending || []);
  const over = Boolean(state.outcome) || room.status === "finished";
  const rows = room.seats.map((s) => {
    const current = !over && pending.has(s.seat);
    return el("tr", { class: current ? "current" : null, testid: `player-${s.seat}`, "aria-current": current ? "true" : null },
      el("th", { scope: "row" },
        el("span", { class: "player-cell" },
          ctx.token(s.seat),
          el("span", { class: "name" }, s.name),
          el("span", { class: "badges" }, ctx.badges(s.seat),
            current ? el("span", { class: "badge turn" }, "to play") : null))),
      columns.map(([key, values]) => el("td", { class: SCORE_KEY.test(key) ? "num score" : typeof values[s.seat] === "number" ? "num" : null },
        cellText(values[s.seat]))));
  });
  return el("table", { class: "players-table", testid: "players" },
    el("caption", { class: "sr-only" }, "Players"),
    el("thead", {}, el("tr", {},
      el("th", { scope: "col" }, "Player"),
      columns.map(([key]) => el("th", { scope: "col", class: SCORE_KEY.test(key) ? "num score" : "num" }, humanise(key))))),
    el("tbody", {}, rows));
}

/** One value of the view, readably: names for seats, chips for short lists, quotes for texts. */
function valueNode(key, value, room, ctx, depth = 0) {
  const n = room?.seats?.length || 0;
  const seatish = SEAT_KEY.test(key);
  if (value === null || value === undefined) return el("span", { class: "muted" }, "—");
  if (typeof value === "boolean") return el("span", {}, value ? "yes" : "no");
  if (typeof value === "number") return seatish && isSeat(value, n) ? person(value, ctx) : el("span", { class: "num" }, String(value));
  if (typeof value === "string") return el("span", { class: value.length > 24 ? "kv-text long" : "kv-text" }, value);
  if (Array.isArray(value)) {
    if (!value.length) return el("span", { class: "muted" }, "none");
    if (seatish && value.every((v) => isSeat(v, n))) {
      return el("span", { class: "kv-people" }, value.map((s) => person(s, ctx)));
    }
    if (value.every((v) => typeof v === "string") && value.some((v) => v.length > 24 || /\s/.test(v))) {
      return el("ol", { class: "kv-quotes" }, value.map((v) => el("li", {}, v)));
    }
    if (value.every((v) => isScalar(v))) {
      return el("ul", { class: "kv-chips" }, value.map((v) => el("li", {}, cellText(v))));
    }
    if (value.every((v) => isObject(v) && typeof v.text === "string")) {
      // answers and the like: the text first, in large type; its id (or other fields) small
      return el("ol", { class: "kv-quotes answers-like" }, value.map((v) => {
        const others = Object.entries(v).filter(([k, x]) => k !== "text" && isScalar(x) && x !== null);
        return el("li", {}, others.length ? el("span", { class: "kv-tag" }, others.map(([, x]) => cellText(x)).join(" · ")) : null,
          el("span", { class: "kv-text" }, v.text));
      }));
    }
    const keys = value.every(isObject) ? [...new Set(value.flatMap((v) => Object.keys(v)))] : [];
    if (keys.length && keys.length <= 6 && value.every((v) => Object.values(v).every(isScalar))) {
      return el("div", { class: "kv-scroll" }, el("table", { class: "kv-table" },
        el("thead", {}, el("tr", {}, keys.map((k) => el("th", { scope: "col" }, humanise(k))))),
        el("tbody", {}, value.map((v) => el("tr", {}, keys.map((k) => el("td", {},
          SEAT_KEY.test(k) && isSeat(v[k], n) ? person(v[k], ctx) : cellText(v[k]))))))));
    }
    return el("ol", { class: "kv-list" }, value.map((v) => el("li", {}, valueNode(key, v, room, ctx, depth + 1))));
  }
  if (isObject(value)) {
    const entries = Object.entries(value);
    if (!entries.length) return el("span", { class: "muted" }, "none");
    if (depth > 3) return el("span", { class: "kv-text" }, cellText(value));
    const bySeat = seatKeyed(value, n);
    return el("dl", { class: "kv nested" }, entries.map(([k, v]) => el("div", { class: "kv-row" },
      el("dt", {}, bySeat ? person(Number(k), ctx) : humanise(k)),
      el("dd", {}, valueNode(bySeat || seatish ? key : k, v, room, ctx, depth + 1)))));
  }
  return el("span", {}, String(value));
}

function restList(rest, room, ctx) {
  if (!rest.length) return null;
  return el("dl", { class: "kv", testid: "view" }, rest.map(([key, value]) => el("div", { class: "kv-row", dataset: { key } },
    el("dt", {}, humanise(key)),
    el("dd", {}, valueNode(key, value, room, ctx)))));
}

// --- the end ---------------------------------------------------------------------------------------
function ordinal(n) {
  const suffix = n % 100 >= 11 && n % 100 <= 13 ? "th" : ({ 1: "st", 2: "nd", 3: "rd" }[n % 10] || "th");
  return `${n}${suffix}`;
}

function resultsBox(state, ctx) {
  const outcome = state.outcome;
  if (!outcome || !Array.isArray(outcome.ranking)) return null;
  const scores = outcome.scores || [];
  const winners = outcome.ranking[0] || [];
  const mine = ctx.mode === "phone" && winners.includes(ctx.seat);
  const names = winners.map((s) => (ctx.mode === "phone" && s === ctx.seat ? "You" : ctx.name(s)));
  const title = winners.length > 1 ? `${listNames(names)} share the win!` : mine ? "You win!" : `${names[0] ?? "Nobody"} wins!`;
  let place = 1;
  const rows = outcome.ranking.map((group) => {
    const row = el("li", {},
      el("span", { class: "place" }, ordinal(place)),
      group.map((s) => el("span", { class: "ranked" }, ctx.token(s), ctx.name(s))),
      scores[group[0]] !== undefined ? el("span", { class: "points" }, `${scores[group[0]]} points`) : null);
    place += group.length;
    return row;
  });
  return el("section", { class: "winner", testid: "winner", role: "status", "aria-label": title },
    el("p", { class: "winner-title" }, title),
    el("ol", { class: "ranking" }, rows));
}

// --- prompts -----------------------------------------------------------------------------------------
/** A readable label for a bare action (a server that sends no prompt): "Claim · card Q01 · stake 3". */
function describeAction(action) {
  if (!isObject(action)) return cellText(action);
  const { type, ...rest } = action;
  const parts = Object.entries(rest).map(([k, v]) => `${humanise(k).toLowerCase()} ${cellText(v)}`);
  return [humanise(type ?? "do it"), ...parts].join(" · ");
}

/** The seat's prompt; without one (an older server), a pick among its legal actions. */
function promptOf(state, ctx) {
  if (ctx.mode !== "phone" || !state || state.outcome) return null;
  if (state.prompt && typeof state.prompt === "object" && state.prompt.kind) return state.prompt;
  const legal = state.legal || [];
  if (!legal.length) return null;
  return { kind: "pick", question: "Your move", options: legal.map((a) => ({ label: describeAction(a), action: a })) };
}

/** Same key, same prompt: a write is the same while its question and purpose are. */
function promptKey(prompt) {
  if (!prompt) return "none";
  if (prompt.kind === "write") {
    return JSON.stringify(["write", prompt.question, prompt.purpose, prompt.action?.type ?? null, prompt.field || "text"]);
  }
  return JSON.stringify(prompt);
}

const count = (text) => Array.from(text).length; // as the server counts: code points

// --- the phone -------------------------------------------------------------------------------------
class PhoneScreen {
  constructor(container, ctx) {
    this.ctx = ctx;
    this.key = null;
    this.write = null;
    this.sent = null; // what this seat last sent, shown while it waits: {label, text}
    this.results = el("div", { class: "results-slot" });
    this.promptBox = el("section", { class: "prompt-box", testid: "prompt", "data-primary": "", "aria-label": "Your move" });
    this.viewBody = el("div", { class: "view-body" });
    this.details = el("details", { class: "card-panel view-box", open: true },
      el("summary", {}, "The game so far"), this.viewBody);
    this.root = el("div", { class: "generic generic-phone" }, this.results, this.promptBox, this.details);
    container.append(this.root);
  }

  update(state, room, ctx) {
    this.ctx = ctx;
    this.results.replaceChildren(...[resultsBox(state, ctx)].filter(Boolean));
    const prompt = promptOf(state, ctx);
    const key = promptKey(prompt);
    if (key !== this.key) {
      if (this.write) saveDraft(ctx, this.write.key, ""); // that text was sent, or its time is up
      this.key = key;
      this.write = null;
      if (prompt) this.sent = null;
      this.promptBox.replaceChildren(...this.drawPrompt(prompt, state, room));
    } else if (this.write) {
      this.write.refresh(prompt, ctx); // the text box stays; its counter, ideas and options follow
    } else if (!prompt) {
      this.promptBox.replaceChildren(...this.drawPrompt(null, state, room)); // who we wait for changes
    }
    const { columns, rest } = splitView(state.view, room, ctx);
    this.viewBody.replaceChildren(...[playersTableBox(columns, state, room, ctx), restList(rest, room, ctx)].filter(Boolean));
  }

  unmount() {
    this.root.remove();
  }

  drawPrompt(prompt, state, room) {
    const ctx = this.ctx;
    this.promptBox.dataset.kind = prompt ? prompt.kind : "none";
    if (!prompt) return this.drawWaiting(state, room);
    const question = el("h2", { class: "prompt-question", id: "prompt-question", testid: "prompt-question" }, named(prompt.question, ctx) || "Your move");
    this.promptBox.setAttribute("aria-labelledby", "prompt-question");
    this.promptBox.removeAttribute("aria-label");
    const say = (option) => optionWords(option, ctx); // game words: "seat 1" is a name
    const choose = (option, label) => (e) => {
      this.sent = { label: label ?? say(option) };
      ctx.send(option.action, e.currentTarget);
    };
    switch (prompt.kind) {
      case "write": {
        this.write = new WriteBox(prompt, this, ctx);
        return [question, this.write.root];
      }
      case "vote":
        return [question, el("p", { class: "hint prompt-hint" }, "Tap the answer you choose."), el("ul", { class: "options vote", "aria-labelledby": "prompt-question" },
          (prompt.options || []).map((o, i) => el("li", { "data-error-slot": "" },
            el("button", {
              class: "option answer", testid: `choice-${i}`, "aria-label": `Vote for: ${o.label}`,
              on: { click: choose(o, `your vote for “${o.label}”`) },
            }, el("span", { class: "answer-text" }, o.label)))))];
      case "verdict":
        return [question,
          el("blockquote", { class: "verdict-subject", testid: "verdict-subject" }, prompt.subject ?? ""),
          el("div", { class: "verdict-accept", "data-error-slot": "" },
            el("button", { class: "primary huge", testid: "accept", on: { click: choose(prompt.accept) } }, say(prompt.accept) || "Accept")),
          (prompt.overrule || []).length ? el("section", { class: "more-options", "aria-labelledby": "overrule-title" },
            el("h3", { id: "overrule-title" }, "Or overrule it:"),
            el("ul", { class: "options" }, prompt.overrule.map((o, i) => el("li", { "data-error-slot": "" },
              el("button", { class: "option overrule", testid: `overrule-${i}`, on: { click: choose(o) } }, o.label))))) : null];
      case "race":
        return [question,
          el("div", { class: "race", "data-error-slot": "" },
            el("button", { class: "primary huge claim", testid: "claim", on: { click: choose(prompt.claim) } }, say(prompt.claim) || "Claim")),
          el("p", { class: "hint race-hint" }, "The first to tap wins it."),
          prompt.decline ? el("div", { class: "race-decline", "data-error-slot": "" },
            el("button", { class: "secondary big", testid: "decline", on: { click: choose(prompt.decline) } }, say(prompt.decline))) : null];
      case "pick":
      default:
        return [question, el("ul", { class: "options", "aria-labelledby": "prompt-question" },
          (prompt.options || []).map((o, i) => el("li", { "data-error-slot": "" },
            el("button", { class: "option", testid: `choice-${i}`, on: { click: choose(o) } }, say(o)))))];
    }
  }

  drawWaiting(state, room) {
    const ctx = this.ctx;
    this.promptBox.setAttribute("aria-label", "Your move");
    this.promptBox.removeAttribute("aria-labelledby");
    if (state.outcome || room.status === "finished") return [];
    const others = (state.pending || []).filter((s) => s >= 0 && s !== ctx.seat);
    const sent = this.sent
      ? el("p", { class: "sent", testid: "sent" }, "You sent: ",
        this.sent.text !== undefined ? el("q", {}, this.sent.text) : this.sent.label)
      : null;
    const waiting = others.length
      ? el("p", { class: "waiting", testid: "waiting" }, "Waiting for ",
        others.map((s, i) => [i ? (i === others.length - 1 ? " and " : ", ") : "", el("strong", {}, ctx.name(s))]), "…")
      : el("p", { class: "waiting", testid: "waiting" }, "Waiting for the game…");
    return [sent, waiting].filter(Boolean);  // nothing sent yet: no empty entry (it would print "null")
  }
}

function playersTableBox(columns, state, room, ctx) {
  return el("div", { class: "kv-scroll", role: "region", "aria-label": "Players", tabindex: "0" },
    playersTable(columns, state, room, ctx));
}

// --- write: the text box that survives updates --------------------------------------------------------
function draftKey(ctx) {
  return `talltales:draft:${ctx.code}:${ctx.seat}`;
}

function loadDraft(ctx, key) {
  try {
    const saved = JSON.parse(sessionStorage.getItem(draftKey(ctx)) || "null");
    return saved && saved.key === key && typeof saved.text === "string" ? saved.text : "";
  } catch { return ""; }
}

function saveDraft(ctx, key, text) {
  try {
    if (text) sessionStorage.setItem(draftKey(ctx), JSON.stringify({ key, text }));
    else sessionStorage.removeItem(draftKey(ctx));
  } catch { /* no storage: the draft lasts as long as the page */ }
}

class WriteBox {
  constructor(prompt, screen, ctx) {
    this.screen = screen;
    this.ctx = ctx;
    this.prompt = prompt;
    this.key = promptKey(prompt);
    this.area = el("textarea", {
      id: "write-text", testid: "write-text", rows: "3", spellcheck: "true",
      autocomplete: "off", autocapitalize: "sentences", enterkeyhint: "send",
      placeholder: "Type here…", "aria-describedby": "write-count",
      on: {
        input: () => this.typed(),
        keydown: (e) => {
          if (e.key === "Enter" && !e.shiftKey && !e.isComposing) {
            e.preventDefault();
            this.send();
          }
        },
      },
    });
    this.area.value = loadDraft(ctx, this.key);
    this.counter = el("span", { class: "write-count", id: "write-count", testid: "write-count" });
    this.sendButton = el("button", { class: "primary big send", testid: "write-send", on: { click: () => this.send() } }, "Send");
    this.ideas = el("div", { class: "ideas-slot" });
    this.options = el("div", { class: "options-slot" });
    this.root = el("div", { class: "write-box" },
      el("label", { htmlFor: "write-text", class: "write-label" }, capitalise(prompt.purpose || "Your answer")),
      this.area,
      el("div", { class: "write-row", "data-error-slot": "" }, this.counter, this.sendButton),
      this.ideas,
      this.options);
    this.shownIdeas = null;
    this.shownOptions = null;
    this.refresh(prompt, ctx);
  }

  get max() {
    return Number(this.prompt.max_length) || Infinity;
  }

  /** The same prompt came again: keep the text box, update everything around it. */
  refresh(prompt, ctx) {
    this.prompt = prompt;
    this.ctx = ctx;
    this.count();
    const examples = (prompt.examples || []).filter((t) => typeof t === "string" && t.trim());
    if (JSON.stringify(examples) !== this.shownIdeas) {
      this.shownIdeas = JSON.stringify(examples);
      this.ideas.replaceChildren(...(examples.length ? [el("section", { class: "ideas", "aria-labelledby": "ideas-title" },
        el("h3", { id: "ideas-title" }, "Need an idea?"),
        el("ul", { class: "idea-chips" }, examples.map((text, i) => el("li", {},
          el("button", {
            class: "idea", testid: `idea-${i}`, "aria-label": `Use this idea: ${text}`,
            on: { click: () => this.use(text) },
          }, text)))))] : []));
    }
    const options = prompt.options || [];
    if (JSON.stringify(options) !== this.shownOptions) {
      this.shownOptions = JSON.stringify(options);
      this.options.replaceChildren(...(options.length ? [el("section", { class: "more-options", "aria-labelledby": "instead-title" },
        el("h3", { id: "instead-title" }, "Or instead:"),
        el("ul", { class: "options" }, options.map((o, i) => el("li", { "data-error-slot": "" },
          el("button", {
            class: "option", testid: `option-${i}`,
            on: { click: (e) => { this.screen.sent = { label: optionWords(o, ctx) }; this.ctx.send(o.action, e.currentTarget); } },
          }, optionWords(o, ctx))))))] : []));
    }
  }

  count() {
    const n = count(this.area.value);
    const max = this.max;
    const text = Number.isFinite(max) ? `${n} / ${max}` : `${n}`;
    if (this.counter.textContent !== text) this.counter.textContent = text;
    this.counter.classList.toggle("near", Number.isFinite(max) && n > max * 0.9 && n <= max);
    this.counter.classList.toggle("over", n > max);
    this.area.setAttribute("aria-invalid", n > max ? "true" : "false");
    this.counter.setAttribute("aria-label", n > max
      ? `${n} characters: ${n - max} too many (at most ${max})`
      : Number.isFinite(max) ? `${n} of at most ${max} characters` : `${n} characters`);
  }

  typed() {
    this.count();
    saveDraft(this.ctx, this.key, this.area.value);
  }

  /** An idea chip: put its text in the box, ready to edit or send. */
  use(text) {
    this.area.value = text;
    this.typed();
    this.area.focus();
    this.area.setSelectionRange(this.area.value.length, this.area.value.length);
  }

  send() {
    const text = this.area.value;
    const n = count(text);
    clearErrors();
    if (!text.trim()) {
      showError(`Write ${this.prompt.purpose || "something"} first.`, this.sendButton);
      this.area.focus();
      return;
    }
    if (n > this.max) {
      showError(`That is ${n - this.max} characters too long: at most ${this.max}.`, this.sendButton);
      this.area.focus();
      return;
    }
    const action = { ...(this.prompt.action || {}), [this.prompt.field || "text"]: text };
    this.screen.sent = { text };
    const key = this.key;
    this.ctx.send(action, this.sendButton).then((ack) => {
      if (ack) saveDraft(this.ctx, key, ""); // taken: the draft is done
    });
  }
}

// --- the table screen -----------------------------------------------------------------------------------
class TableScreen {
  constructor(container, ctx) {
    this.title = el("h2", { class: "generic-title", testid: "game-title" });
    this.results = el("div", { class: "results-slot" });
    this.answers = el("div", { class: "answers-slot" });
    this.view = el("div", { class: "view-slot" });
    this.players = el("section", { class: "generic-players", "aria-label": "Players" });
    this.root = el("div", { class: "generic generic-table" }, this.title, this.results, this.answers, this.view);
    container.append(this.root);
    (ctx.side || this.root).append(this.players);
  }

  update(state, room, ctx) {
    if (this.title.textContent !== room.title) this.title.textContent = room.title;
    this.results.replaceChildren(...[resultsBox(state, ctx)].filter(Boolean));
    const vote = state.prompt?.kind === "vote" && !state.outcome ? state.prompt : null;
    this.answers.replaceChildren(...(vote ? [el("section", { class: "answers", testid: "answers", "aria-labelledby": "answers-title" },
      el("h3", { id: "answers-title" }, vote.question || "The answers"),
      el("ol", { class: "answer-list" }, (vote.options || []).map((o) => el("li", {}, o.label))))] : []));
    const { columns, rest } = splitView(state.view, room, ctx);
    this.players.replaceChildren(playersTable(columns, state, room, ctx));
    this.view.replaceChildren(...[restList(rest, room, ctx)].filter(Boolean));
  }

  unmount() {
    this.root.remove();
    this.players.remove();
  }
}
