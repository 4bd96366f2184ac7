"""The generic renderer (web/games/generic.js) in a real browser.

Most screens are driven by a fake room behind the page's socket (``fake.py``), so each
prompt kind, refusal and reconnect comes exactly when the test wants it; the last test
plays the fixture game fib-off to the end on the real server, phones and a bot at a table.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page, expect
from server.harness import LiveServer, running, settings_for

from .fake import FakeRoom, open_fake, seats
from .flows import (
    PHONE_WIDTH,
    Opener,
    add_bot,
    create_room,
    join_room,
    no_trouble,
    open_table,
    start,
)

TITLE = "Fib-off (test fixture)"
PLAYERS = seats("Ann", "Bob", "Bot 1", bots=(2,))


def wait_for(page: Page, ready: Callable[[], bool], what: str, timeout: float = 10.0) -> None:
    """Let the page run until ``ready()`` (the fake's handlers run while Playwright waits)."""
    deadline = time.monotonic() + timeout
    while not ready():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        page.wait_for_timeout(25)


def view(seat: int | None, **changes: Any) -> dict[str, Any]:
    """A fib-off-like view: scores per seat, a reader, a hand, answers."""
    base: dict[str, Any] = {
        "game": "fib-off",
        "seat": seat,
        "phase": "write",
        "round": 1,
        "rounds": 3,
        "reader": 0,
        "stake": 4,
        "question": "How many hearts does an octopus have?",
        "disputer": None,
        "deadline": None,
        "hand": [{"id": "fib:spider-legs", "question": "How many legs does a spider have?"}]
        if seat is not None
        else [],
        "answers": [],
        "struck": [],
        "scores": [2, 0, -1],
        "hand_sizes": [2, 2, 2],
        "steals": [0, 1, 0],
        "done": [],
    }
    return {**base, **changes}


WRITE = {
    "kind": "write",
    "question": "How many hearts does an octopus have?",
    "purpose": "a fake answer",
    "action": {"type": "bluff"},
    "field": "text",
    "max_length": 80,
    "examples": ["a well-kept secret", "more than you would think"],
    "options": [{"label": "Steal a point from seat 0", "action": {"type": "steal", "target": 0}}],
}


def phone_room(prompt: dict[str, Any] | None, pending: list[int], **view_changes: Any) -> FakeRoom:
    """Bob's phone (seat 1) in a fib-off room with Ann and a bot."""
    state = {
        "version": 7,
        "view": view(1, **view_changes),
        "events": [],
        "pending": pending,
        "legal": [],
        "prompt": prompt,
    }
    return FakeRoom("fib-off", TITLE, PLAYERS, 1, state)


def min_height(page: Page, selector: str) -> float:
    boxes = [loc.bounding_box() for loc in page.locator(selector).all()]
    assert boxes and all(boxes), selector
    return min(box["height"] for box in boxes if box)


def fits_the_phone(page: Page) -> None:
    assert page.evaluate("document.scrollingElement.scrollWidth") <= PHONE_WIDTH


# --- one prompt of each kind --------------------------------------------------------------------
RACE = {
    "kind": "race",
    "question": "Seat 0 claims the die shows 4. Fib?",
    "claim": {"label": "Dispute it!", "action": {"type": "dispute"}},
    "decline": {"label": "Let it stand", "action": {"type": "pass"}},
}
VERDICT = {
    "kind": "verdict",
    "question": "Is any fake too close to the truth?",
    "subject": "Three hearts",
    "accept": {"label": "Keep every answer", "action": {"type": "accept"}},
    "overrule": [
        {"label": "Strike “Two hearts”", "action": {"type": "strike", "answer": "B"}},
        {"label": "Strike “A big one”", "action": {"type": "strike", "answer": "C"}},
    ],
}
VOTE = {
    "kind": "vote",
    "question": "How many hearts does an octopus have?",
    "options": [
        {"label": "Three hearts", "action": {"type": "vote", "answer": "A"}},
        {"label": "Just one, but a big one", "action": {"type": "vote", "answer": "C"}},
    ],
}
PICK = {
    "kind": "pick",
    "question": "Read a card and claim a stake",
    "options": [
        {"label": f"Read the spider card, claim {k}", "action": {"type": "claim", "stake": k}}
        for k in (1, 2)
    ],
}
CLAIMED = "Ann claims the die shows 4. Fib?"  # "seat 0" in the question, named
CASES = {
    # case: (prompt, question shown, control, its text, the action it sends)
    "race-claim": (RACE, CLAIMED, "claim", "Dispute it!", {"type": "dispute"}),
    "race-decline": (RACE, CLAIMED, "decline", "Let it stand", {"type": "pass"}),
    "verdict-accept": (
        VERDICT,
        VERDICT["question"],
        "accept",
        "Keep every answer",
        {"type": "accept"},
    ),
    "verdict-overrule": (
        VERDICT,
        VERDICT["question"],
        "overrule-1",
        "Strike “A big one”",
        {"type": "strike", "answer": "C"},
    ),
    "vote": (
        VOTE,
        VOTE["question"],
        "choice-1",
        "Just one, but a big one",
        {"type": "vote", "answer": "C"},
    ),
    "pick": (
        PICK,
        PICK["question"],
        "choice-0",
        "Read the spider card, claim 1",
        {"type": "claim", "stake": 1},
    ),
}


@pytest.mark.parametrize("case", list(CASES))
def test_each_prompt_kind_offers_big_buttons_that_send_its_action(
    case: str, base: str, open_page: Opener
) -> None:
    prompt, question, testid, text, action = CASES[case]
    page, seen = open_page("phone")
    room = phone_room(prompt, [1, 2])
    open_fake(page, base, room)

    expect(page.get_by_test_id("prompt-question")).to_have_text(question)
    expect(page.get_by_test_id("turn-banner")).to_contain_text("Your turn!")
    if prompt["kind"] == "verdict":
        expect(page.get_by_test_id("verdict-subject")).to_have_text("Three hearts")
    if prompt["kind"] == "vote":  # the answers themselves are the buttons
        buttons = page.locator("[data-testid=prompt] button")
        expect(buttons).to_have_text(["Three hearts", "Just one, but a big one"])
        expect(buttons.nth(0)).to_have_attribute("aria-label", "Vote for: Three hearts")
    control = page.get_by_test_id(testid)
    expect(control).to_have_text(text)
    assert min_height(page, "[data-testid=prompt] button") >= 48
    if prompt["kind"] == "race":
        assert min_height(page, "[data-testid=claim]") >= 96  # one huge button to slap first
    fits_the_phone(page)

    control.click()
    wait_for(page, lambda: len(room.acts) == 1, "the act")
    assert room.acts == [action]

    # Taken: the seat waits for the others and sees what it sent.
    room.push(prompt=None, pending=[2], legal=[])
    expect(page.get_by_test_id("waiting")).to_have_text("Waiting for Bot 1…")
    expect(page.get_by_test_id("sent")).to_contain_text(text)
    expect(page.locator("[data-testid=prompt] button")).to_have_count(0)
    no_trouble(seen)


def test_actions_without_words_are_put_into_words(base: str, open_page: Opener) -> None:
    """A label that is raw JSON, or no prompt at all (an older server): still words."""
    claim = {"type": "claim", "card": "fib:spider-legs", "stake": 3}
    page, seen = open_page("phone")
    room = phone_room(None, [1, 2])
    room.state["legal"] = [claim, {"type": "pass"}]
    open_fake(page, base, room)
    expect(page.get_by_test_id("choice-0")).to_have_text("Claim · card fib:spider-legs · stake 3")
    expect(page.get_by_test_id("choice-1")).to_have_text("Pass")

    raw = {
        "kind": "pick",
        "question": "Your move",
        "options": [{"label": '{"type":"pass"}', "action": {"type": "pass"}}],
    }
    room.push(prompt=raw)
    expect(page.get_by_test_id("choice-0")).to_have_text("Pass")
    page.get_by_test_id("choice-0").click()
    wait_for(page, lambda: len(room.acts) == 1, "the act")
    assert room.acts == [{"type": "pass"}]
    assert "{" not in page.get_by_test_id("prompt").inner_text()
    no_trouble(seen)


def error_after(page: Page, testid: str) -> str:
    """The error shown right after the control's row."""
    box = page.locator(
        f"[data-error-slot]:has([data-testid={testid}]) + [data-testid=error], "
        f"[data-testid={testid}] + [data-testid=error]"
    )
    expect(box).to_be_visible()
    expect(page.get_by_test_id("error")).to_have_count(1)
    return box.inner_text().strip()


def test_a_write_prompt_counts_suggests_refuses_and_sends(base: str, open_page: Opener) -> None:
    page, seen = open_page("phone")
    room = phone_room(WRITE, [1, 2])
    open_fake(page, base, room)
    box = page.get_by_test_id("write-text")
    counter = page.get_by_test_id("write-count")
    send = page.get_by_test_id("write-send")

    expect(page.get_by_test_id("prompt-question")).to_have_text(WRITE["question"])
    expect(page.get_by_label("A fake answer")).to_be_visible()  # the box is labelled by its purpose
    expect(counter).to_have_text("0 / 80")
    box.press_sequentially("Six")
    expect(counter).to_have_text("3 / 80")

    # An idea fills the box, ready to edit; the cursor waits at its end.
    page.get_by_test_id("idea-1").click()
    expect(box).to_have_value("more than you would think")
    expect(box).to_be_focused()
    assert box.evaluate("b => b.selectionStart === b.value.length")
    expect(counter).to_have_text("25 / 80")

    # Too long, or empty: said next to Send, and nothing is sent.
    box.fill("x" * 85)
    expect(counter).to_have_text("85 / 80")
    expect(counter).to_have_class("write-count over")
    send.click()
    assert "5 characters too long" in error_after(page, "write-send")
    box.fill("   ")
    send.click()
    assert error_after(page, "write-send") == "Write a fake answer first."
    assert room.acts == []

    # The server refuses a word: the reason shows by Send and the text stays to be mended.
    room.refusals.append({"code": "filtered", "reason": "that word is not allowed"})
    box.fill("a rude word")
    send.click()
    assert "family-friendly" in error_after(page, "write-send")
    expect(box).to_have_value("a rude word")
    wait_for(page, lambda: len(room.acts) == 1, "the refused act")
    too_long = "a fake answer is at most 80 characters; yours has 81"
    room.refusals.append({"code": "text-too-long", "reason": too_long})
    send.click()
    assert "at most 80 characters" in error_after(page, "write-send")

    # Enter sends (Shift+Enter would start a new line).
    box.fill("Two, and a spare")
    box.press("Enter")
    wait_for(page, lambda: len(room.acts) == 3, "the bluff")
    assert room.acts[-1] == {"type": "bluff", "text": "Two, and a spare"}
    assert min_height(page, "[data-testid=prompt] button") >= 48
    fits_the_phone(page)
    no_trouble(seen)


def test_a_write_prompt_offers_its_other_options(base: str, open_page: Opener) -> None:
    page, seen = open_page("phone")
    room = phone_room(WRITE, [1, 2])
    open_fake(page, base, room)
    steal = page.get_by_test_id("option-0")
    expect(steal).to_have_text("Steal a point from Ann")  # "seat 0" named as the player
    steal.click()
    wait_for(page, lambda: len(room.acts) == 1, "the steal")
    assert room.acts == [{"type": "steal", "target": 0}]
    no_trouble(seen)


def textarea_state(page: Page) -> dict[str, Any]:
    result: dict[str, Any] = page.evaluate(
        """() => {
        const box = document.querySelector('[data-testid=write-text]');
        return {value: box.value, focused: document.activeElement === box,
                start: box.selectionStart, end: box.selectionEnd, scroll: box.scrollTop,
                same: box.dataset.mark === 'first'};
    }"""
    )
    return result


def test_half_typed_text_survives_an_update_and_a_reconnect(base: str, open_page: Opener) -> None:
    page, seen = open_page("phone")
    room = phone_room(WRITE, [1, 2])
    open_fake(page, base, room)
    box = page.get_by_test_id("write-text")
    box.click()
    lines = ["Two, I think,", "or maybe", "four on", "Tuesdays", "and one", "on"]
    for i, line in enumerate(lines):  # Shift+Enter starts a line (Enter would send)
        if i:
            page.keyboard.press("Shift+Enter")
        page.keyboard.type(line)
    half = "\n".join(lines)  # tall enough to scroll the box
    expect(box).to_have_value(half)
    box.evaluate("b => { b.dataset.mark = 'first'; b.setSelectionRange(5, 12); b.scrollTop = 7; }")
    before = textarea_state(page)
    assert before["scroll"] == 7 and before["focused"] and before["same"]

    # Another seat writes: a new state, the same prompt (with new ideas and a new count).
    new_ideas = {**WRITE, "examples": ["nobody agrees on it"]}
    room.push(pending=[1], view=view(1, done=[2]), prompt=new_ideas)
    expect(page.get_by_test_id("idea-0")).to_have_text("nobody agrees on it")
    expect(page.locator("[data-testid=player-2] .badge.turn")).to_have_count(0)
    assert textarea_state(page) == before

    # The connection drops; the page reconnects by itself and is sent everything again.
    room.drop()
    wait_for(page, lambda: len(room.hellos) == 2, "the reconnect")
    assert room.hellos[1]["last_version"] == 8
    expect(page.locator("header[data-connection=open]")).to_have_count(1)
    expect(page.get_by_test_id("reconnecting")).to_be_hidden()
    assert textarea_state(page) == before
    expect(page.get_by_test_id("write-count")).to_have_text(f"{len(half)} / 80")

    # Even a reload of the tab keeps the draft (in this tab's session storage).
    page.reload()
    expect(page.get_by_test_id("write-text")).to_have_value(half)
    no_trouble(seen)


# --- the table screen ---------------------------------------------------------------------------
def test_the_table_shows_title_players_turns_and_the_public_view(
    base: str, open_page: Opener
) -> None:
    table, seen = open_page("table")
    answers = [
        {"id": "A", "text": "Three hearts"},
        {"id": "B", "text": "Two, and a spare"},
        {"id": "C", "text": "Just one, but a big one"},
    ]
    state = {
        "version": 9,
        "view": view(None, phase="vote", answers=answers, done=[2]),
        "events": [],
        "pending": [1],
        "legal": [],
    }
    room = FakeRoom("fib-off", TITLE, PLAYERS, None, state)
    open_fake(table, base, room)

    expect(table.get_by_test_id("game-title")).to_have_text(TITLE)
    expect(table.get_by_test_id("turn-banner")).to_contain_text("Bob's turn")
    players = table.get_by_test_id("players")
    expect(players.locator("thead th")).to_have_text(["Player", "Scores", "Hand sizes", "Steals"])
    expect(table.get_by_test_id("player-0")).to_contain_text("Ann")
    expect(table.get_by_test_id("player-0").locator("td.score")).to_have_text("2")
    expect(table.get_by_test_id("player-2").locator("td.score")).to_have_text("-1")
    expect(table.locator("[data-testid=player-1] .badge.turn")).to_have_text("to play")
    expect(table.locator("[data-testid=player-0] .badge.turn")).to_have_count(0)

    shown = table.get_by_test_id("view")
    expect(shown.locator("[data-key=reader] dd")).to_contain_text("Ann")  # a seat, by name
    expect(shown.locator("[data-key=done] dd")).to_contain_text("Bot 1")
    texts = [a["text"] for a in answers]
    expect(shown.locator("[data-key=answers] li .kv-text")).to_have_text(texts)
    expect(shown.locator("[data-key=phase] dd")).to_have_text("vote")
    text = table.locator("#stage").inner_text()
    assert "{" not in text and '"' not in text, text  # no JSON on the screen
    expect(table.locator("#stage pre, #stage button, #stage textarea")).to_have_count(0)

    # The end: the winner and the ranking, with names and points.
    outcome = {"scores": [2, 5, -1], "ranking": [[1], [0], [2]]}
    room.push(pending=[], outcome=outcome, view=view(None, phase="over"))
    room.push_room(status="finished")
    expect(table.get_by_test_id("winner")).to_contain_text("Bob wins!")
    expect(table.get_by_test_id("turn-banner")).to_contain_text("Game over")
    ranks = table.locator("[data-testid=winner] .ranking li")
    expect(ranks).to_have_count(3)
    for row, (place, name, points) in enumerate(
        [("1st", "Bob", "5 points"), ("2nd", "Ann", "2 points"), ("3rd", "Bot 1", "-1 points")]
    ):
        for part in (place, name, points):
            expect(ranks.nth(row)).to_contain_text(part)
    no_trouble(seen)


def test_the_generic_screens_pass_axe(base: str, open_page: Opener) -> None:
    axe = Axe()
    for prompt in (WRITE, VERDICT, RACE, VOTE):
        page, seen = open_page("phone")
        open_fake(page, base, phone_room(prompt, [1, 2]))
        expect(page.get_by_test_id("prompt-question")).to_be_visible()
        results = axe.run(page)
        assert results.violations_count == 0, results.generate_report()
        no_trouble(seen)
    table, seen = open_page("table")
    state = {"version": 3, "view": view(None), "events": [], "pending": [1, 2], "legal": []}
    open_fake(table, base, FakeRoom("fib-off", TITLE, PLAYERS, None, state))
    expect(table.get_by_test_id("players")).to_be_visible()
    results = axe.run(table)
    assert results.violations_count == 0, results.generate_report()
    no_trouble(seen)


# --- the fixture game, played to the end on the real server ---------------------------------------
@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """The real app, as in conftest.py, with a grace period longer than any reconnect here:
    a phone that drops for a moment keeps its seat, no stand-in bot plays for it."""
    settings = settings_for(
        tmp_path_factory.mktemp("generic"),
        bot_delay=0.2,
        grace_seconds=30.0,
        message_rate=200.0,
        message_burst=400,
    )
    with running(settings) as live:
        yield live


def take_prompt(page: Page, name: str, turn: int, tapped: list[str]) -> bool:
    """Answer the phone's prompt, if it shows one, as a person would; whether it did."""
    prompt = page.get_by_test_id("prompt")
    try:
        kind = prompt.get_attribute("data-kind", timeout=1000)
        if kind == "write":
            page.get_by_test_id("write-text").fill(f"{name}'s tall tale {turn}", timeout=1000)
            page.get_by_test_id("write-send").click(timeout=1000)
        elif kind == "race":  # dispute the first claim this phone sees, let the others stand
            page.get_by_test_id("decline" if "race" in tapped else "claim").click(timeout=1000)
        elif kind == "verdict":
            page.get_by_test_id("accept").click(timeout=1000)
        elif kind in ("vote", "pick"):
            page.locator("[data-testid=prompt] [data-testid=choice-0]:enabled").click(timeout=1000)
        else:
            return False
    except PlaywrightError:
        return False  # redrawn or taken meanwhile: look again
    tapped.append(kind)
    return True


def test_the_fixture_game_plays_to_the_end_through_the_generic_renderer(
    fib_off: None, base: str, open_page: Opener
) -> None:
    table, table_seen = open_page("table")
    ann, ann_seen = open_page("phone")
    bob, bob_seen = open_page("phone")
    code = create_room(ann, base, "Ann", game="fib-off")
    join_room(bob, base, code, "Bob")
    open_table(table, base, code)
    add_bot(ann, 2)
    start(ann)
    expect(table.get_by_test_id("game-title")).to_have_text(TITLE)
    expect(table.get_by_test_id("player-2")).to_contain_text("Bot 1")

    phones = {"Ann": ann, "Bob": bob}
    tapped: dict[str, list[str]] = {name: [] for name in phones}
    winner = table.get_by_test_id("winner")
    answers_checked = False
    deadline = time.monotonic() + 120
    turn = 0
    while winner.count() == 0:
        assert time.monotonic() < deadline, f"the game did not end: {tapped}"
        acted = False
        for name, page in phones.items():
            if not answers_checked and page.locator("[data-testid=prompt][data-kind=vote]").count():
                # While a vote is on, the table shows the anonymous answers the phone votes on.
                labels = page.locator("[data-testid=prompt] button .answer-text").all_inner_texts()
                for label in labels:
                    expect(table.locator("[data-key=answers]")).to_contain_text(label)
                answers_checked = bool(labels)
            turn += 1
            acted = take_prompt(page, name, turn, tapped[name]) or acted
        if not acted:
            ann.wait_for_timeout(50)

    assert answers_checked
    for name, kinds in tapped.items():  # every kind of prompt was answered on each phone
        assert {"pick", "race", "write", "verdict", "vote"} <= set(kinds), (name, kinds)
    title = table.locator("[data-testid=winner] .winner-title").inner_text().strip()
    assert title.endswith(("wins!", "share the win!")), title
    for page in (table, ann, bob):
        expect(page.get_by_test_id("turn-banner")).to_contain_text("Game over")
        expect(page.get_by_test_id("winner")).to_be_visible()
        controls = page.locator("[data-testid=prompt] button, [data-testid=write-text]")
        expect(controls).to_have_count(0)
    no_trouble(table_seen, ann_seen, bob_seen)


SOCKETS = """(() => {
  const Native = window.WebSocket;
  const all = [];
  window.__sockets = all;
  window.WebSocket = class extends Native {
    constructor(...args) { super(...args); all.push(this); }
  };
})();"""


def test_a_half_written_answer_survives_another_seats_move_and_a_reconnect(
    fib_off: None, base: str, open_page: Opener
) -> None:
    ann, ann_seen = open_page("phone")
    bob, bob_seen = open_page("phone")
    cy, cy_seen = open_page("phone")
    bob.add_init_script(SOCKETS)  # lets the test drop Bob's connection from his page
    code = create_room(ann, base, "Ann", game="fib-off")
    join_room(bob, base, code, "Bob")
    join_room(cy, base, code, "Cy")
    start(ann)

    # Round 1: Ann reads and claims; Bob and Cy let the claim stand; both are to write.
    ann.locator("[data-testid=prompt][data-kind=pick] [data-testid=choice-0]").click()
    for page in (bob, cy):
        page.get_by_test_id("decline").click()
    box = bob.get_by_test_id("write-text")
    expect(box).to_be_visible()
    expect(cy.get_by_test_id("write-text")).to_be_visible()

    box.click()
    half = "Three, unless it is"
    bob.keyboard.type(half)
    box.evaluate("b => { b.dataset.mark = 'first'; b.setSelectionRange(7, 13); }")
    before = textarea_state(bob)
    assert before["value"] == half and before["focused"] and before["same"], before

    # Cy sends hers: Bob's page gets a new state while his prompt is still the same.
    cy.get_by_test_id("write-text").fill("Eight, one per arm")
    cy.get_by_test_id("write-send").click()
    expect(bob.locator("[data-testid=player-2] .badge.turn")).to_have_count(0)
    expect(bob.locator("[data-testid=player-1] .badge.turn")).to_have_count(1)
    assert textarea_state(bob) == before

    # Bob's connection drops; his page reconnects and hears the room and the state again.
    assert bob.evaluate("window.__sockets.length") == 1
    bob.evaluate("window.__sockets[0].close()")
    expect(bob.locator("header[data-connection=open]")).to_have_count(1)
    assert bob.evaluate("window.__sockets.length") == 2
    expect(bob.get_by_test_id("reconnecting")).to_be_hidden()
    assert textarea_state(bob) == before

    # And he finishes his sentence where he left off, and sends it.
    bob.keyboard.press("End")
    bob.keyboard.type(" Tuesday")
    bob.get_by_test_id("write-send").click()
    expect(bob.get_by_test_id("sent")).to_contain_text("Three, unless it is Tuesday")
    expect(ann.locator("[data-testid=prompt][data-kind=verdict]")).to_be_visible()
    expect(ann.locator("[data-testid=prompt]")).to_contain_text("Three, unless it is Tuesday")
    no_trouble(ann_seen, bob_seen, cy_seen)


def test_the_fixture_game_s_timers_run_out_in_the_browser_while_a_phone_waits(
    fib_off: None, base: str, open_page: Opener
) -> None:
    """Short windows, set in the lobby: Bob lets the dispute and the writing run out."""
    table, table_seen = open_page("table")
    ann, ann_seen = open_page("phone")
    bob, bob_seen = open_page("phone")
    code = create_room(ann, base, "Ann", game="fib-off")
    join_room(bob, base, code, "Bob")
    open_table(table, base, code)
    for key, value in (("rounds", "1"), ("dispute_ms", "1500"), ("write_ms", "2500")):
        ann.get_by_test_id(f"option-{key}").fill(value)
        ann.get_by_test_id(f"option-{key}").press("Tab")  # a number is sent once it is left
        expect(bob.get_by_test_id(f"option-{key}")).to_have_value(value)
    add_bot(ann, 2)
    start(ann)

    log = table.get_by_test_id("event-log")
    tapped: dict[str, list[str]] = {"Ann": [], "Bob": []}
    saw_countdown = False
    deadline = time.monotonic() + 60
    turn = 0
    while table.get_by_test_id("winner").count() == 0:
        assert time.monotonic() < deadline, f"the game did not end: {tapped}"
        turn += 1
        take_prompt(ann, "Ann", turn, tapped["Ann"])
        kind = (
            bob.get_by_test_id("prompt").get_attribute("data-kind", timeout=200)
            if (bob.get_by_test_id("prompt").count())
            else None
        )
        if kind == "write":
            saw_countdown = saw_countdown or bob.get_by_test_id("countdown").is_visible()
        if kind == "vote":  # Bob answers only the vote: the other windows run out on him
            take_prompt(bob, "Bob", turn, tapped["Bob"])
        ann.wait_for_timeout(100)

    expect(log).to_contain_text(re.compile("time to stop writing", re.IGNORECASE))
    assert saw_countdown
    assert tapped["Bob"] == ["vote"]
    no_trouble(table_seen, ann_seen, bob_seen)
