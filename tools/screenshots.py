"""Take the README's screenshots of the web client: the lobby, the table and a phone.

Starts a real server (as tests/server/harness.py does) and a headless Chromium (Debian's, at
/usr/bin/chromium), then plays with the same browser flows as tests/web: Ann creates a room
on her phone, Bob joins with the code, Ann adds a bot and starts, and both phones play until
a few cards are collected and Ann is choosing a move.

Then the generic renderer (web/games/generic.js), which plays any game from its prompts, on
the test fixture game fib-off: Bob's phone half-way through writing a fake answer
(generic-phone.png), and the table while everyone votes on the anonymous answers
(generic-table.png).

    uv run python tools/screenshots.py                  # writes docs/screenshots/*.png
    uv run python tools/screenshots.py --out /tmp/shots
"""

from __future__ import annotations

import argparse
import contextlib
import sys
import tempfile
from pathlib import Path

from playwright.sync_api import Browser, expect, sync_playwright
from playwright.sync_api import Error as PlaywrightError

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from fixture_game import FIB_OFF  # noqa: E402
from server.harness import running, settings_for  # noqa: E402
from web.flows import (  # noqa: E402
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
            browser.close()
    for name in ("lobby", "table", "phone", "generic-phone", "generic-table"):
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


if __name__ == "__main__":
    main()
