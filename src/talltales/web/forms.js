// The forms that take a seat: joining a room (home page, the QR code's link, a room this
// device has no seat in) and creating one (home page).

import {
  append, clear, clearErrors, el, friendlyError, isCode, lastName, normCode, rememberName,
  saveSeat, showError,
} from "./dom.js";
import { field, optionControls } from "./options-form.js";
import { loadGameModule, navigate, request } from "./shell.js";

// --- forms shared by home, join and "no seat" pages ------------------------------------------------
function nameInput(id, testid) {
  return el("input", {
    id, testid, type: "text", name: "name", required: true, maxLength: 24, minLength: 1,
    autocomplete: "nickname", value: lastName(), placeholder: "Your name", spellcheck: "false",
    enterkeyhint: "go",
  });
}

function codeInput(id, testid, code) {
  return el("input", {
    id, testid, type: "text", name: "code", required: true, maxLength: 4, minLength: 4,
    pattern: "[A-Za-z]{4}", autocomplete: "off", value: code || "", placeholder: "ABCD",
    autocapitalize: "characters", spellcheck: "false", class: "code-input",
    on: { input: (e) => { e.target.value = e.target.value.toUpperCase().replace(/[^A-Z]/g, ""); } },
  });
}

/** The join form: a code (editable or fixed) and a name; takes a seat and opens it. */
export function joinForm({ code = "", fixedCode = false, heading = "Join a room" } = {}) {
  const codeEl = codeInput("join-code", "join-code", code);
  const nameEl = nameInput("join-name", "join-name");
  const submit = el("button", { type: "submit", class: "primary big", testid: "join-submit" }, "Join");
  const watch = el("button", { type: "button", class: "secondary", testid: "join-watch" }, "Watch on this screen (table)");
  const form = el("form", { class: "card-panel join-form", testid: "join-form", "aria-labelledby": "join-title", novalidate: "" },
    el("h2", { id: "join-title" }, heading),
    fixedCode ? el("p", { class: "big-code", "aria-label": `Room ${code.split("").join(" ")}` }, code) : null,
    fixedCode ? null : field("Room code", codeEl, "Four letters, shown on the host's screen."),
    field("Your name", nameEl, "1 to 24 characters. Everyone at the table will see it."),
    el("div", { class: "row", "data-error-slot": "" }, submit, watch),
  );
  if (fixedCode) { codeEl.type = "hidden"; form.append(codeEl); }
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    clearErrors();
    const room = normCode(codeEl.value);
    const name = nameEl.value.trim();
    if (!isCode(room)) return showError("A room code is four letters.", fixedCode ? submit : codeEl);
    if (!name) { nameEl.focus(); return showError("Type your name first.", nameEl); }
    await takeSeat(submit, name, `/api/rooms/${room}/seats`, { name });
  });
  watch.addEventListener("click", () => {
    const room = normCode(codeEl.value);
    if (!isCode(room)) return showError("A room code is four letters.", watch);
    navigate(`/#/table/${room}`);
  });
  return form;
}

// --- creating a room ----------------------------------------------------------------------------
export function createForm(gameList) {
  const gameSelect = el("select", { id: "create-game", testid: "create-game" },
    gameList.map((g) => el("option", { value: g.id }, `${g.title} · ${g.min_players}–${g.max_players}`)));
  const summary = el("p", { class: "hint", id: "create-game-summary", "aria-live": "polite" });
  const optionsBox = el("fieldset", { class: "options", testid: "create-options" });
  const family = el("input", { id: "create-family", testid: "create-family", type: "checkbox", checked: true });
  const nameEl = nameInput("create-name", "create-name");
  const submit = el("button", { type: "submit", class: "primary big", testid: "create-submit" }, "Create room");
  let controls = null;

  async function showGame() {
    const game = gameList.find((g) => g.id === gameSelect.value) || gameList[0];
    summary.textContent = game.summary || "";
    const mod = await loadGameModule(game.id);
    if (game.id !== gameSelect.value) return;
    controls = optionControls(game, game.options || {}, { prefix: "create-option-", labels: mod.optionLabels || {} });
    clear(optionsBox);
    append(optionsBox, [el("legend", {}, "House rules"),
      controls.fields.length ? controls.fields : el("p", { class: "hint" }, "This game has no options.")]);
  }
  gameSelect.addEventListener("change", showGame);
  gameSelect.setAttribute("aria-describedby", summary.id);

  const form = el("form", { class: "card-panel create-form", testid: "create-form", "aria-labelledby": "create-title", novalidate: "" },
    el("h2", { id: "create-title" }, "Create a room"),
    el("div", { class: "field" }, el("label", { htmlFor: "create-game" }, "Game"), gameSelect, summary),
    optionsBox,
    el("div", { class: "field check" }, family, el("label", { htmlFor: "create-family" }, "Family-friendly filter"),
      el("p", { class: "hint", id: "create-family-hint" }, "Refuses rude words in names and answers.")),
    field("Your name", nameEl, "You will be the host."),
    el("div", { class: "row", "data-error-slot": "" }, submit),
  );
  family.setAttribute("aria-describedby", "create-family-hint");
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    clearErrors();
    const name = nameEl.value.trim();
    if (!name) { nameEl.focus(); return showError("Type your name first.", nameEl); }
    const options = controls ? controls.read() : {};
    if (options === null) return;
    await takeSeat(submit, name, "/api/rooms", {
      game: gameSelect.value, name, options, family_filter: family.checked,
    });
  });
  showGame();
  return form;
}

/** POST for a seat (creating or joining a room), keep its token, and go to the room. */
async function takeSeat(submit, name, url, body) {
  submit.disabled = true;
  try {
    const seat = await request("POST", url, body);
    rememberName(name);
    saveSeat(seat.room, { token: seat.token, seat: seat.seat, name });
    navigate(`/#/room/${seat.room}`);
  } catch (err) {
    submit.disabled = false;
    showError(friendlyError(err), submit);
  }
}
