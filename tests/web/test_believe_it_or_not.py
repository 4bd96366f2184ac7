"""Believe It or Not!'s renderer (web/games/believe-it-or-not.js) in a real browser.

The first tests show the screens states built by the real game engine (a ``Match`` with its
hands and pawns set up), through a fake room behind the page's socket (``fake.py``), so each
kind of card and prompt comes exactly when the test wants it: the phone's hand, the bluff box
with its hints, a question and its answers on the table, a movement claim and its dispute
window, and axe on every one of them. The last test plays a whole game on the real server: a
table screen, two phones and two bots, until the winner banner shows.
"""

from __future__ import annotations

import re
import time
from typing import Any

import msgspec
import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page, expect

from talltales.core.match import Match
from talltales.core.registry import get_game

from .fake import FakeRoom, open_fake, seats
from .flows import ROOM_CODE, Opener, add_bot, join_room, no_trouble, open_table, start

GAME_ID = "believe-it-or-not"
TITLE = "Believe It or Not!"
PLAYERS = seats("Ann", "Bob", "Bot 1", "Bot 2", bots=(2, 3))
HANDS = [
    ["mc-01", "st-01", "bl-01", "mv-01", "mc-02"],
    ["mc-03", "st-02", "bl-02", "mv-02", "mc-04"],
    ["mc-05", "st-03", "bl-03", "mv-03", "mc-06"],
    ["mc-07", "st-04", "bl-04", "mv-04", "mc-08"],
]
GAME_SECONDS = 300  # a whole game takes about a minute; this is the limit, not the pace


# --- states from the real engine, shown through a fake room ---------------------------------------
def new_match(tern: int = 0, pawns: list[int] | None = None) -> Match[Any, Any]:
    """Four seats, the hands above, the tern token with ``tern``, a 3-second dispute window."""
    overrides: dict[str, Any] = {"hands": HANDS, "tern": tern}
    if pawns is not None:
        overrides["pawns"] = pawns
    return Match(get_game(GAME_ID), 4, {"dispute_seconds": 3}, seed=7, overrides=overrides)


def now_ms() -> int:
    return int(time.time() * 1000)


def message(match: Match[Any, Any], seat: int | None) -> dict[str, Any]:
    """The state message the server would send ``seat`` (None: the table) now."""
    pending = sorted(match.pending())
    mine = seat is not None and seat in pending
    prompt = match.prompt(seat) if mine and seat is not None else None
    legal = match.legal_actions(seat) if mine and seat is not None else []
    return {
        "version": match.version,
        "view": msgspec.to_builtins(match.view(seat)),
        "events": [],
        "pending": pending,
        "legal": msgspec.to_builtins(legal),
        "prompt": msgspec.to_builtins(prompt) if prompt is not None else None,
        "deadline": match.deadline(),
        "outcome": None,
    }


def play_card(match: Match[Any, Any], seat: int, card: str, target: int = 1) -> None:
    """``seat`` plays ``card``; an "Ask Anyone" card is aimed at ``target``."""
    match.submit(seat, {"type": "play", "card": card}, now_ms())
    if match.view(None).phase == "target":  # type: ignore[attr-defined]
        match.submit(seat, {"type": "target", "seat": target}, now_ms())


def show(
    open_page: Opener, base: str, match: Match[Any, Any], seat: int | None
) -> tuple[Page, Any]:
    """Open ``seat``'s phone (None: the table) on the match as it stands."""
    page, seen = open_page("table" if seat is None else "phone")
    open_fake(page, base, FakeRoom(GAME_ID, TITLE, PLAYERS, seat, message(match, seat)))
    return page, seen


def axe_passes(page: Page) -> None:
    results = Axe().run(page)
    assert results.violations_count == 0, results.generate_report()


def sent(page: Page, room: FakeRoom, acts: list[dict[str, Any]]) -> None:
    """Wait until the page has sent exactly ``acts`` (the fake answers while the page runs)."""
    deadline = time.monotonic() + 10
    while room.acts != acts:
        assert time.monotonic() < deadline, f"sent {room.acts}, not {acts}"
        page.wait_for_timeout(25)


def held_texts(match: Match[Any, Any], seat: int) -> list[str]:
    """Words on the cards ``seat`` holds that no one else may see: questions, statements, hints."""
    texts = []
    for card in match.view(seat).hand:  # type: ignore[attr-defined]
        texts += [q.text for q in card.questions] + list(card.statements)
        texts += [card.hint1] if card.hint1 else []
    return texts


def table_shows_no_hand(table: Page, hidden: list[str]) -> None:
    """No hand on the table screen, and none of the words on cards held by somebody."""
    expect(table.locator("[data-testid=hand], .boin-card, [data-testid^=card-]")).to_have_count(0)
    shown = table.locator("#app").inner_text()
    for text in hidden:
        assert text not in shown, f"the table shows a held card: {text}"


def test_the_phone_shows_its_hand_as_big_cards_and_plays_the_one_tapped(
    base: str, open_page: Opener
) -> None:
    match = new_match(tern=1)
    bob, seen = show(open_page, base, match, 1)
    expect(bob.get_by_test_id("turn-banner")).to_contain_text("Your turn!")
    choose = bob.locator("[data-primary] [data-testid=hand]")
    expect(choose.locator("button")).to_have_count(5)
    expect(bob.get_by_role("heading", name=re.compile("pick a card to play"))).to_be_visible()
    cards = match.view(1).hand  # type: ignore[attr-defined]
    for i, card in enumerate(cards):
        button = bob.get_by_test_id(f"card-{i}")
        box = button.bounding_box()
        assert box is not None and box["height"] >= 48 and box["width"] >= 300, box
        kind = {"multiple-choice": "Multiple Choice", "movement": "Movement"}.get(
            card.kind, card.kind.capitalize()
        )
        expect(button).to_contain_text(kind)
        if card.kind == "movement":
            expect(button).to_contain_text(f"Move {card.count} {card.direction}")
        else:
            spaces = "space" if card.advance == 1 else "spaces"
            expect(button).to_contain_text(f"{card.advance} {spaces}")
    # Questions and statements are there to read, a tap away.
    first_question = cards[0].questions[0].text
    read = bob.get_by_test_id("hand-card-0").locator("details")
    expect(read.get_by_text(first_question)).to_be_hidden()
    read.locator("summary").click()
    expect(read.get_by_text(first_question)).to_be_visible()
    expect(bob.get_by_test_id("my-place")).to_contain_text("Your pawn: START")
    expect(bob.get_by_test_id("how-to-play")).to_have_attribute("open", "")
    axe_passes(bob)

    room = FakeRoom(GAME_ID, TITLE, PLAYERS, 1, message(match, 1))
    again, seen_again = open_page("phone")
    open_fake(again, base, room)
    again.get_by_test_id("card-2").click()
    sent(again, room, [{"type": "play", "card": cards[2].id}])
    no_trouble(seen, seen_again)


def test_a_bluff_box_shows_both_hints_and_ideas_and_sends_the_bluff(
    base: str, open_page: Opener
) -> None:
    match = new_match(tern=1)
    play_card(match, 1, "bl-02", target=2)
    card = match.view(1).play.card  # type: ignore[attr-defined]
    room = FakeRoom(GAME_ID, TITLE, PLAYERS, 1, message(match, 1))
    bob, seen = open_page("phone")
    open_fake(bob, base, room)
    expect(bob.locator("[data-testid=prompt][data-kind=write]")).to_be_visible()
    question = bob.get_by_test_id("prompt-question")
    expect(question).to_contain_text("Make up a false statement")
    expect(question).not_to_contain_text("HINT")  # the hints have a box of their own
    expect(bob.get_by_test_id("hint-1")).to_contain_text("HINT #1")
    expect(bob.get_by_test_id("hint-1")).to_contain_text(card.hint1)
    for word in card.hint2:
        expect(bob.get_by_test_id("hint-2")).to_contain_text(word)
    expect(bob.get_by_test_id("idea-0")).to_be_visible()
    # The hints come between the question and the text box, above the fold of a phone.
    hints = bob.get_by_test_id("hints").bounding_box()
    box = bob.get_by_test_id("write-text").bounding_box()
    assert hints and box and hints["y"] < box["y"], (hints, box)
    axe_passes(bob)
    bob.get_by_test_id("write-text").fill("Believe it or not, owls can count to twelve")
    bob.get_by_test_id("write-send").click()
    sent(bob, room, [{"type": "bluff", "text": "Believe it or not, owls can count to twelve"}])
    no_trouble(seen)


def test_the_table_shows_a_question_with_its_four_answers_but_no_hand(
    base: str, open_page: Opener
) -> None:
    match = new_match(tern=0)
    table, seen = show(open_page, base, match, None)
    expect(table.get_by_test_id("how-to-play")).to_be_visible()  # before the first card
    expect(table.get_by_test_id("board").locator("li")).to_have_count(66)
    for index, words in ((0, "START"), (1, "move 3 ahead"), (5, "trade places")):
        expect(table.get_by_test_id(f"space-{index}")).to_have_attribute(
            "aria-label", re.compile(words)
        )
    expect(table.get_by_test_id("space-63")).to_contain_text("YOU HAVE WON THE GAME")
    expect(table.get_by_test_id("space-9")).to_contain_text("slide to 11")
    expect(table.get_by_test_id("space-64")).to_contain_text("18\u219232")  # a shortcut
    expect(table.get_by_test_id("space-0").locator(".token")).to_have_count(4)
    expect(table.get_by_test_id("player-0")).to_contain_text("tern token")
    expect(table.get_by_test_id("draw-pile")).to_contain_text(str(61 - 20))
    table_shows_no_hand(table, held_texts(match, 0) + held_texts(match, 1))
    axe_passes(table)

    play_card(match, 0, "mc-01")
    match.submit(0, {"type": "ask", "question": 1}, now_ms())
    question = match.view(None).play.question  # type: ignore[attr-defined]
    assert question.correct == ""  # the table is not told the right answer
    table, seen_now = show(open_page, base, match, None)
    expect(table.get_by_test_id("question")).to_have_text(question.text)
    answers = table.locator("[data-testid=in-play] [data-testid=answers] li")
    expect(answers).to_have_count(4)
    for k, answer in enumerate(question.answers):
        expect(answers.nth(k)).to_contain_text("ABCD"[k])
        expect(answers.nth(k)).to_contain_text(answer)
    expect(table.get_by_test_id("how-to-play")).to_have_count(0)
    expect(table.get_by_test_id("turn-banner")).to_contain_text("Bob's turn")
    table_shows_no_hand(table, held_texts(match, 0) + held_texts(match, 1))
    axe_passes(table)

    # Bob's phone asks him to pick A to D, in words.
    bob, seen_bob = show(open_page, base, match, 1)
    expect(bob.get_by_test_id("prompt-question")).to_contain_text("Pick A, B, C or D")
    expect(bob.locator("[data-testid=prompt] [data-testid^=choice-]")).to_have_count(4)
    axe_passes(bob)
    no_trouble(seen, seen_now, seen_bob)


def test_a_movement_claim_shows_its_dispute_window_on_table_and_phones(
    base: str, open_page: Opener
) -> None:
    match = new_match(tern=0, pawns=[20, 12, 4, 0])
    play_card(match, 0, "mv-01")
    ann, seen_ann = show(open_page, base, match, 0)
    expect(ann.locator("[data-testid=prompt][data-kind=pick]")).to_be_visible()
    expect(ann.locator("[data-testid=prompt] [data-testid^=choice-]")).to_have_count(10)
    expect(ann.locator("[data-testid=prompt]")).to_contain_text("\u2713 true")  # which is true
    expect(ann.get_by_test_id("claim-hint")).to_be_visible()
    axe_passes(ann)

    match.submit(0, {"type": "claim", "direction": "ahead", "count": 5}, now_ms())
    table, seen = show(open_page, base, match, None)
    expect(table.get_by_test_id("claim")).to_contain_text("moves me 5 ahead")
    expect(table.get_by_test_id("dispute-seconds")).to_contain_text(re.compile(r"within \d s"))
    expect(table.get_by_test_id("turn-banner")).to_contain_text("Ann claims: move 5 ahead")
    expect(table.get_by_test_id("place-0")).to_have_text("space 20")
    axe_passes(table)

    bob, seen_bob = show(open_page, base, match, 1)
    expect(bob.locator("[data-testid=prompt][data-kind=race]")).to_be_visible()
    expect(bob.get_by_test_id("claim")).to_have_text("I do not believe it!")
    expect(bob.get_by_test_id("decline")).to_have_text("Let it stand")
    axe_passes(bob)

    # A statement told to Bob: the table shows it, Bob's phone asks believe it or not.
    match = new_match(tern=0)
    play_card(match, 0, "st-01")
    match.submit(0, {"type": "say", "statement": 0}, now_ms())
    said = match.view(None).play.said  # type: ignore[attr-defined]
    table, seen_said = show(open_page, base, match, None)
    expect(table.get_by_test_id("said")).to_have_text(said)
    bob, seen_verdict = show(open_page, base, match, 1)
    expect(bob.get_by_test_id("verdict-subject")).to_have_text(said)
    expect(bob.get_by_test_id("accept")).to_have_text("I believe it")
    axe_passes(bob)
    no_trouble(seen_ann, seen, seen_bob, seen_said, seen_verdict)


def public_events(events: list[Any]) -> list[dict[str, Any]]:
    """The events the table is sent, as the server shapes them."""
    return [{"kind": e.kind, "text": e.text, "data": dict(e.data)} for e in events if e.public]


def right_choice(match: Match[Any, Any]) -> int:
    """The index of the right answer of the question in play (as its asker's phone knows it)."""
    play = match.view(match.view(None).play.asker).play  # type: ignore[attr-defined]
    return "ABCD".index(play.question.correct.split(": ")[1][0])


def reload(page: Page, room: FakeRoom) -> None:
    """Reload the page: as the server does for a fresh page, its hello gets the state and no
    events (those went to the page before)."""
    room.state = {**room.state, "events": []}
    page.reload()


def test_the_last_card_survives_a_reload_of_the_table_and_a_bluff_shows_its_real_fact(
    base: str, open_page: Opener
) -> None:
    match = new_match(tern=0, pawns=[0, 6, 0, 0])
    play_card(match, 0, "mc-01")  # asks Bob, on Ann's left
    match.submit(0, {"type": "ask", "question": 1}, now_ms())
    room = FakeRoom(GAME_ID, TITLE, PLAYERS, None, message(match, None))
    table, seen = open_page("table")
    open_fake(table, base, room)
    expect(table.get_by_test_id("question")).to_be_visible()

    # Bob answers right: the table turns the card over, and keeps it after a reload.
    choice = right_choice(match)
    events = match.submit(1, {"type": "answer", "choice": choice}, now_ms())
    room.push(**{**message(match, None), "events": public_events(events)})
    last = table.get_by_test_id("last-result")
    letter = "ABCD"[choice]
    correct = match.view(None).last.question  # type: ignore[attr-defined]
    right_answer = correct.answers[choice]
    expect(last.get_by_test_id("reveal")).to_have_text(f"Bob answered {letter}: right!")
    # Where to, as the move and slide events told it: space 9 slides on to 11.
    expect(last).to_contain_text("Bob moves 3 ahead to space 9 and slides on to space 11.")
    expect(last.locator("[data-testid=answers] li.right")).to_contain_text(right_answer)
    expect(table.get_by_test_id("event-log")).to_contain_text(f"Bob answers {letter}: right!")
    reload(table, room)
    expect(last.get_by_test_id("reveal")).to_have_text(f"Bob answered {letter}: right!")
    expect(last.locator("[data-testid=answers] li.right")).to_contain_text(right_answer)
    expect(last.locator("[data-testid=answers] li.right")).to_contain_text("right answer")
    expect(last).to_contain_text("Bob moves 3 ahead.")
    expect(table.get_by_test_id("how-to-play")).to_have_count(0)
    axe_passes(table)

    # Bob tells Ann a bluff and she believes it: the table shows the real fact behind it.
    play_card(match, 1, "bl-02")  # asks Ann, on Bob's right
    room.push(**message(match, None))
    bluff = "Believe it or not, owls can count to twelve"
    match.submit(1, {"type": "bluff", "text": bluff}, now_ms())
    room.push(**message(match, None))
    expect(table.get_by_test_id("said")).to_contain_text("owls can count to twelve")
    expect(table.get_by_test_id("real-fact")).to_have_count(0)  # a bluff is secret until judged
    events = match.submit(0, {"type": "believe", "believe": True}, now_ms())
    room.push(**{**message(match, None), "events": public_events(events)})
    truth = match.view(None).last.card.truth  # type: ignore[attr-defined]
    assert truth and "Zanzibar" in truth
    expect(last.get_by_test_id("reveal")).to_have_text("It was a bluff!")
    expect(last.get_by_test_id("real-fact")).to_have_text(f"The real fact: {truth}")
    expect(last).to_contain_text("Ann said “I believe it”. Bob moves 3 ahead to space 14.")
    reload(table, room)
    expect(last.get_by_test_id("reveal")).to_have_text("It was a bluff!")
    expect(last.get_by_test_id("real-fact")).to_have_text(f"The real fact: {truth}")
    axe_passes(table)

    # Ann's phone, waiting for Bot 1 to play, shows the same last card and whom it waits for.
    ann, seen_ann = show(open_page, base, match, 0)
    expect(ann.get_by_test_id("real-fact")).to_have_text(f"The real fact: {truth}")
    expect(ann.get_by_test_id("waiting")).to_have_text("Waiting for Bot 1…")
    axe_passes(ann)

    # The next card in play takes the top; the last one, fact and all, waits beside it.
    play_card(match, 2, "mc-05")
    match.submit(2, {"type": "ask", "question": 0}, now_ms())
    room.push(**message(match, None))
    expect(table.get_by_test_id("question")).to_be_visible()
    side = table.locator(".boin-side [data-testid=last-result]")
    expect(side.get_by_test_id("real-fact")).to_contain_text(truth)
    axe_passes(table)
    no_trouble(seen, seen_ann)


# --- a whole game on the real server ------------------------------------------------------------
def create_room(page: Page, base: str, name: str) -> str:
    """Create a Believe It or Not! room with a 3-second dispute window; returns its code."""
    page.goto(f"{base}/")
    page.get_by_test_id("create-game").select_option(GAME_ID)
    page.get_by_test_id("create-option-dispute_seconds").fill("3")
    page.get_by_test_id("create-name").fill(name)
    page.get_by_test_id("create-submit").click()
    code = page.get_by_test_id("room-code")
    expect(code).to_have_text(ROOM_CODE)
    return code.inner_text().strip()


def take_turn(page: Page, name: str, turn: int, taken: list[str]) -> str | None:
    """Answer whatever this phone is asked, as a person would; what it answered."""
    try:
        card = page.locator("[data-primary] [data-testid=hand] button:enabled").first
        if card.count():
            card.click(timeout=1000)
            taken.append("card")
            return "card"
        prompt = page.locator(".boin-prompt-host:visible [data-testid=prompt]")
        if not prompt.count():
            return None
        kind = prompt.get_attribute("data-kind", timeout=500)
        if kind == "write":
            text = f"{name}'s tall tale number {turn}, believe it or not"
            page.get_by_test_id("write-text").fill(text, timeout=1000)
            page.get_by_test_id("write-send").click(timeout=1000)
        elif kind == "race":  # dispute the first claim this phone sees, let the others stand
            page.get_by_test_id("decline" if "race" in taken else "claim").click(timeout=1000)
        elif kind == "verdict":  # believe it, then not, then believe it...
            verdicts = taken.count("verdict")
            page.get_by_test_id("accept" if verdicts % 2 == 0 else "overrule-0").click(timeout=1000)
        elif kind == "pick":
            prompt.locator("[data-testid=choice-0]:enabled").click(timeout=1000)
        else:
            return None
    except PlaywrightError:
        return None  # redrawn or taken meanwhile: look again
    taken.append(kind)
    return kind


def test_a_whole_game_with_a_table_two_phones_and_two_bots(base: str, open_page: Opener) -> None:
    table, table_seen = open_page("table")
    ann, ann_seen = open_page("phone")
    bob, bob_seen = open_page("phone")
    code = create_room(ann, base, "Ann")
    join_room(bob, base, code, "Bob")
    open_table(table, base, code)
    add_bot(ann, 2)
    add_bot(ann, 3)
    start(ann)
    expect(table.get_by_test_id("board")).to_be_visible()
    expect(table.get_by_test_id("player-3")).to_contain_text("Bot 2")

    phones = {"Ann": ann, "Bob": bob}
    taken: dict[str, list[str]] = {name: [] for name in phones}
    seen_on_table = {"question": False, "claim": False}
    winner = table.get_by_test_id("winner")
    began = time.monotonic()
    turn = 0
    while winner.count() == 0:
        assert time.monotonic() - began < GAME_SECONDS, f"the game did not end: {taken}"
        expect(table.locator("[data-testid=hand], .boin-card")).to_have_count(0)
        acted = False
        for name, page in phones.items():
            asked = page.locator(".boin-prompt-host:visible [data-testid=prompt-question]")
            if not seen_on_table["question"] and "Pick A, B, C or D" in (
                asked.first.text_content(timeout=200) if asked.count() else ""
            ):
                # Asked a question: the table shows it, with its four answers, to everyone.
                expect(table.get_by_test_id("question")).to_be_visible()
                answers = table.locator("[data-testid=in-play] [data-testid=answers] li")
                expect(answers).to_have_count(4)
                question = table.get_by_test_id("question").inner_text()
                assert question in asked.first.inner_text(), (question, asked.first.inner_text())
                seen_on_table["question"] = True
            if not seen_on_table["claim"] and page.locator("[data-kind=race]:visible").count():
                expect(table.get_by_test_id("claim")).to_be_visible()
                seen_on_table["claim"] = True
            turn += 1
            acted = bool(take_turn(page, name, turn, taken[name])) or acted
        if not acted:
            ann.wait_for_timeout(40)
    took = time.monotonic() - began
    print(f"\na whole game took {took:.0f} s: {taken}")
    assert seen_on_table["question"] and seen_on_table["claim"], seen_on_table

    for name, kinds in taken.items():  # each phone played cards and answered what came
        assert {"card", "pick"} <= set(kinds), (name, kinds)
    assert {"verdict", "race", "write"} <= set(taken["Ann"] + taken["Bob"]), taken
    title = table.locator("[data-testid=winner] .winner-title").inner_text().strip()
    assert title.endswith("wins!"), title
    expect(table.locator("[data-testid=board] [data-kind=won] .token")).not_to_have_count(0)
    for page in (table, ann, bob):
        expect(page.get_by_test_id("turn-banner")).to_contain_text("Game over")
        expect(page.get_by_test_id("winner")).to_be_visible()
    for page in (ann, bob):
        controls = page.locator("[data-testid=prompt] button:visible, [data-testid=hand] button")
        expect(controls).to_have_count(0)
    table_shows_no_hand(table, [])
    axe_passes(table)
    axe_passes(ann)
    no_trouble(table_seen, ann_seen, bob_seen)


@pytest.fixture(autouse=True)
def _registered() -> None:
    """The game is a shipped entry point: the server and this test find it by id."""
    assert get_game(GAME_ID).title == TITLE
