"""Take the README's screenshots of the web client: the lobby, the table and a phone.

Starts a real server (as tests/server/harness.py does) and a headless Chromium (Debian's, at
/usr/bin/chromium), then plays with the same browser flows as tests/web: Ann creates a room
on her phone, Bob joins with the code, Ann adds a bot and starts, and both phones play until
a few cards are collected and Ann is choosing a move.

Then the generic renderer (web/games/generic.js), which plays any game from its prompts, on
the test fixture game fib-off: Bob's phone half-way through writing a fake answer
(generic-phone.png), and the table while everyone votes on the anonymous answers
(generic-table.png).

Last, Believe It or Not! with its own renderer: Ann and Bob on phones and two bots play until
a phone is asked a multiple-choice question in mid-game, when the table shows the question,
its four answers and the board (believe-it-or-not-table.png); then until Ann picks a card
from a hand of four or five (believe-it-or-not-phone.png).

    uv run python tools/screenshots.py                  # writes docs/screenshots/*.png
    uv run python tools/screenshots.py --out /tmp/shots
"""

from __future__ import annotations

import argparse
import contextlib
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from playwright.sync_api import Browser, Page, expect, sync_playwright
from playwright.sync_api import Error as PlaywrightError

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from fixture_game import FIB_OFF  # noqa: E402
from server.harness import running, settings_for  # noqa: E402
from web.flows import (  # noqa: E402
    ROOM_CODE,
    add_bot,
    create_room,
    join_room,
    launch,
    open_table,
    phone_context,
    play,
    start,
    table_context,
)

from talltales.core.registry import register  # noqa: E402

TABLE_SIZE = {"width": 1440, "height": 900}
CARDS_BEFORE_THE_SHOT = 4
SOFA_TABLE = {"width": 1280, "height": 800}  # Believe It or Not!'s table, as read from a sofa
DISCARDS_BEFORE_THE_SHOT = 10


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "screenshots")
    args = parser.parse_args()
    out: Path = args.out
    out.mkdir(parents=True, exist_ok=True)

    with tempfile.TemporaryDirectory() as tmp:
        settings = settings_for(Path(tmp), bot_delay=0.2, message_rate=200.0, message_burst=400)
        with running(settings) as server, sync_playwright() as playwright:
            browser = launch(playwright)
            base = server.http
            still = {"reduced_motion": "reduce"}  # no animation caught half-way
            ann = phone_context(browser, device_scale_factor=2, **still).new_page()
            bob = phone_context(browser, **still).new_page()
            table = table_context(browser, viewport=TABLE_SIZE, **still).new_page()

            code = create_room(ann, base, "Ann")
            join_room(bob, base, code, "Bob")
            open_table(table, base, code)
            add_bot(ann, 2)
            expect(table.get_by_test_id("seat-2")).to_contain_text("Bot")
            table.screenshot(path=out / "lobby.png")

            start(ann)
            cards = table.locator("[data-testid=scoreboard] .card-chip")
            play([ann, bob], lambda: cards.count() >= CARDS_BEFORE_THE_SHOT)
            roll = ann.locator("[data-testid=roll]:enabled")
            play([bob], lambda: roll.count() > 0)
            roll.click()
            expect(ann.get_by_test_id("choice-0")).to_be_enabled()
            expect(table.get_by_test_id("turn-banner")).to_contain_text("choosing a move")
            ann.wait_for_timeout(300)  # the die's short settle, even with reduced motion
            table.screenshot(path=out / "table.png")
            ann.screenshot(path=out / "phone.png")  # what the phone shows, no scrolling
            generic(browser, base, out, still)
            believe_it_or_not(browser, base, out, still)
            browser.close()
    names = ("lobby", "table", "phone", "generic-phone", "generic-table")
    for name in (*names, "believe-it-or-not-table", "believe-it-or-not-phone"):
        print(out / f"{name}.png")


def generic(browser: Browser, base: str, out: Path, still: dict[str, str]) -> None:
    """The generic renderer on fib-off: a phone writing, then the table during the vote."""
    register(FIB_OFF)
    ann = phone_context(browser, **still).new_page()
    bob = phone_context(browser, device_scale_factor=2, **still).new_page()
    table = table_context(browser, viewport=TABLE_SIZE, **still).new_page()
    code = create_room(ann, base, "Ann", game=FIB_OFF.id)
    join_room(bob, base, code, "Bob")
    open_table(table, base, code)
    add_bot(ann, 2)
    start(ann)
    ann.locator("[data-testid=prompt][data-kind=pick] [data-testid=choice-0]").click()
    box = bob.get_by_test_id("write-text")
    decline = bob.get_by_test_id("decline")
    expect(decline.or_(box)).to_be_visible()  # the bot may dispute first: either way, all write
    if decline.is_visible():
        with contextlib.suppress(PlaywrightError):  # the bot was quicker
            decline.click(timeout=2000)
    expect(box).to_be_visible()
    box.click()
    bob.keyboard.type("Three, and one of them")
    bob.screenshot(path=out / "generic-phone.png")
    bob.keyboard.type(" is spare")
    bob.get_by_test_id("write-send").click()
    ann.get_by_test_id("accept").click()  # the reader keeps every answer
    expect(bob.locator("[data-testid=prompt][data-kind=vote]")).to_be_visible()
    expect(table.locator("[data-key=answers]")).to_be_visible()
    table.wait_for_timeout(300)
    table.screenshot(path=out / "generic-table.png")


def believe_it_or_not(browser: Browser, base: str, out: Path, still: dict[str, str]) -> None:
    """Believe It or Not!: the table while a phone answers a question, then a phone's hand."""
    ann = phone_context(browser, device_scale_factor=2, **still).new_page()
    bob = phone_context(browser, **still).new_page()
    table = table_context(browser, viewport=SOFA_TABLE, **still).new_page()
    ann.goto(f"{base}/")
    ann.get_by_test_id("create-game").select_option("believe-it-or-not")
    ann.get_by_test_id("create-option-dispute_seconds").fill("3")
    ann.get_by_test_id("create-name").fill("Ann")
    ann.get_by_test_id("create-submit").click()
    expect(ann.get_by_test_id("room-code")).to_have_text(ROOM_CODE)
    code = ann.get_by_test_id("room-code").inner_text().strip()
    join_room(bob, base, code, "Bob")
    open_table(table, base, code)
    add_bot(ann, 2)
    add_bot(ann, 3)
    start(ann)
    discards = table.get_by_test_id("discards")

    def asked_a_question(page: Page) -> bool:
        question = page.locator(".boin-prompt-host:visible [data-testid=prompt-question]")
        return question.count() > 0 and "Pick A, B, C or D" in (question.first.text_content() or "")

    def mid_game() -> bool:
        return int((discards.text_content() or "0").split()[0]) >= DISCARDS_BEFORE_THE_SHOT

    answering = play_believe([ann, bob], lambda p: mid_game() and asked_a_question(p))
    expect(table.get_by_test_id("question")).to_be_visible()
    table.wait_for_timeout(300)
    table.screenshot(path=out / "believe-it-or-not-table.png")
    answering.locator("[data-testid=prompt] [data-testid=choice-0]").click()
    choosing = ann.locator("[data-primary] [data-testid=hand] button:enabled")
    play_believe([bob, ann], lambda p: p is ann and choosing.count() >= 4)  # a hand to show
    ann.mouse.move(0, 0)  # a phone has no pointer hovering over a card
    ann.wait_for_timeout(300)
    ann.screenshot(path=out / "believe-it-or-not-phone.png")


def play_believe(phones: list[Page], stop: Callable[[Page], bool], timeout: float = 180) -> Page:
    """Phones answer what they are asked (the first choice, a tall tale, "let it stand")
    until ``stop(phone)`` holds for one of them; that phone."""
    deadline = time.monotonic() + timeout
    turn = 0
    while True:
        if time.monotonic() > deadline:
            raise AssertionError("the game never reached the moment for the screenshot")
        for page in phones:
            if stop(page):
                return page
            turn += 1
            with contextlib.suppress(PlaywrightError):
                card = page.locator("[data-primary] [data-testid=hand] button:enabled").first
                prompt = page.locator(".boin-prompt-host:visible [data-testid=prompt]")
                if card.count():
                    card.click(timeout=1000)
                elif prompt.count():
                    kind = prompt.get_attribute("data-kind", timeout=500)
                    if kind == "write":
                        tale = f"A tall tale number {turn}, believe it or not"
                        page.get_by_test_id("write-text").fill(tale, timeout=1000)
                        page.get_by_test_id("write-send").click(timeout=1000)
                    elif kind in ("race", "verdict"):
                        page.get_by_test_id("decline" if kind == "race" else "accept").click(
                            timeout=1000
                        )
                    elif kind == "pick":
                        prompt.locator("[data-testid=choice-0]:enabled").click(timeout=1000)
        phones[0].wait_for_timeout(40)


if __name__ == "__main__":
    main()
