"""Browser flows for the web client, shared by tests/web and tools/screenshots.py.

Everything here drives the real pages the way a person would: the host creates a room on
the home page, others join with the room code, phones play by tapping Roll and a choice.
"""

from __future__ import annotations

import os
import re
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, BrowserContext, Page, Playwright, expect
from playwright.sync_api import Error as PlaywrightError

CHROMIUM = os.environ.get("TALLTALES_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
GAME = "would-you-believe-it"
PHONE_WIDTH = 360
PHONE = {"width": PHONE_WIDTH, "height": 780}
TABLE = {"width": 1280, "height": 800}
ACTIONABLE = "[data-testid=roll]:enabled, [data-testid=choice-0]:enabled"
ROOM_CODE = re.compile(r"^\s*[A-Z]{4}\s*$")


def launch(playwright: Playwright) -> Browser:
    """Debian's Chromium, headless; an error (never a skip) when it is not installed."""
    if not Path(CHROMIUM).exists():
        raise RuntimeError(
            f"Chromium is not installed at {CHROMIUM}: "
            "apt-get install chromium (or set TALLTALES_CHROMIUM)"
        )
    return playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)


@dataclass
class Watch:
    """What went wrong on a page: uncaught errors, console errors and dialogs."""

    errors: list[str] = field(default_factory=list)
    dialogs: list[str] = field(default_factory=list)


def watch(page: Page) -> Watch:
    """Record a page's JavaScript errors and dismiss (and record) any dialog."""
    seen = Watch()
    page.on("pageerror", lambda err: seen.errors.append(f"pageerror: {err}"))

    def on_console(message: Any) -> None:
        # A refused request (404, 409) is logged by the browser itself; the page shows it.
        if message.type == "error" and not message.text.startswith("Failed to load resource"):
            seen.errors.append(f"console: {message.text}")

    page.on("console", on_console)

    def on_dialog(dialog: Any) -> None:
        seen.dialogs.append(dialog.message)
        dialog.dismiss()

    page.on("dialog", on_dialog)
    return seen


def phone_context(browser: Browser, **options: Any) -> BrowserContext:
    """A fresh phone (its own storage, so its own seat): 360 CSS pixels wide, touch."""
    settings: dict[str, Any] = {"viewport": PHONE, "is_mobile": True, "has_touch": True}
    return browser.new_context(**{**settings, **options})


def table_context(browser: Browser, **options: Any) -> BrowserContext:
    """A fresh laptop or TV for the table screen."""
    return browser.new_context(**{"viewport": TABLE, **options})


def create_room(
    page: Page, base: str, name: str, figures: int | None = None, *, game: str = GAME
) -> str:
    """Create a room of ``game`` from the home page as ``name``; returns the lobby's code."""
    page.goto(f"{base}/")
    page.get_by_test_id("create-game").select_option(game)
    if game == GAME:
        expect(page.get_by_test_id("create-option-layout")).to_be_visible()
    if figures is not None:
        page.get_by_test_id("create-option-figures").fill(str(figures))
    page.get_by_test_id("create-name").fill(name)
    page.get_by_test_id("create-submit").click()
    code = page.get_by_test_id("room-code")
    expect(code).to_have_text(ROOM_CODE)
    return code.inner_text().strip()


def join_room(page: Page, base: str, code: str, name: str, *, by_link: bool = False) -> None:
    """Join by typing the code on the home page (or by the QR code's link); wait for the lobby."""
    if by_link:
        page.goto(f"{base}/?join={code}")
    else:
        page.goto(f"{base}/")
        page.get_by_test_id("join-code").fill(code)
    page.get_by_test_id("join-name").fill(name)
    page.get_by_test_id("join-submit").click()
    expect(page.get_by_test_id("me")).to_contain_text(name)


def open_table(page: Page, base: str, code: str) -> None:
    """Open the table screen for a room."""
    page.goto(f"{base}/#/table/{code}")
    expect(page.get_by_test_id("header-code")).to_have_text(code)


def add_bot(host: Page, seat: int) -> None:
    """The host adds a bot; waits until it sits in ``seat``."""
    host.get_by_test_id("add-bot").click()
    expect(host.get_by_test_id(f"seat-{seat}")).to_contain_text("Bot")


def start(host: Page) -> None:
    """The host starts the game; waits for the phone's controls."""
    host.get_by_test_id("start").click()
    expect(host.get_by_test_id("turn-banner")).to_be_visible()


def tap(page: Page, testid: str, attempts: int = 3) -> None:
    """Tap a game control until it goes away (the move was taken).

    The page ignores a tap while its previous act still waits for the server's ack, and the
    server sends the new state before that ack: a tap on a control drawn from that state,
    quicker than a person, can be dropped. Then this taps again.
    """
    button = page.get_by_test_id(testid)
    for _ in range(attempts):
        button.click()
        try:
            expect(button).to_have_count(0, timeout=2000)
            return
        except AssertionError:
            continue
    raise AssertionError(f"{testid} stayed on the page after {attempts} taps")


def take_turn(page: Page) -> str | None:
    """Tap Roll or the first choice when this phone has one; which one it tapped."""
    target = page.locator(ACTIONABLE).first
    if not target.count():
        return None
    try:
        testid = target.get_attribute("data-testid", timeout=1000)
        target.click(timeout=2000)
    except PlaywrightError:
        return None  # redrawn or gone meanwhile: the caller looks again
    return testid


def play(
    phones: Iterable[Page], done: Callable[[], bool], timeout: float = 60.0
) -> dict[int, list[str]]:
    """Every phone plays when it is its turn until ``done()``; what each one tapped."""
    pages = list(phones)
    taps: dict[int, list[str]] = {i: [] for i in range(len(pages))}
    deadline = time.monotonic() + timeout
    while not done():
        if time.monotonic() > deadline:
            raise AssertionError(f"the game did not get there in {timeout:.0f} s: {taps}")
        acted = False
        for i, page in enumerate(pages):
            tapped = take_turn(page)
            if tapped:
                taps[i].append(tapped)
                acted = True
        if not acted:
            pages[0].wait_for_timeout(30)
    return taps


Opener = Callable[[str], tuple[Page, Watch]]  # open_page("phone" | "table")


def no_trouble(*watches: Watch) -> None:
    """No page threw, logged an error or opened a dialog (a 404 for a missing renderer
    module is the browser's own log line, which ``watch`` leaves out)."""
    for seen in watches:
        assert seen.errors == [], seen.errors
        assert seen.dialogs == [], seen.dialogs
