"""The web client in a real browser: phones, a table screen and a bot at one table."""

from __future__ import annotations

import json

from playwright.sync_api import Page, expect

from .flows import (
    PHONE_WIDTH,
    Opener,
    add_bot,
    create_room,
    join_room,
    no_trouble,
    open_table,
    play,
    start,
    tap,
)


def winner_title(page: Page) -> str:
    """The headline of the winner box, once it is shown."""
    box = page.get_by_test_id("winner")
    expect(box).to_be_visible()
    return box.locator(".winner-title").inner_text().strip()


def test_two_phones_a_table_and_a_bot_play_a_full_game(base: str, open_page: Opener) -> None:
    table, table_watch = open_page("table")
    ann, ann_watch = open_page("phone")
    bob, bob_watch = open_page("phone")

    create_room(ann, base, "Ann")
    code = ann.get_by_test_id("room-code").inner_text().strip()
    join_room(bob, base, code, "Bob")
    open_table(table, base, code)
    expect(table.get_by_test_id("seat-1")).to_contain_text("Bob")

    add_bot(ann, 2)
    expect(table.get_by_test_id("seat-2")).to_contain_text("Bot")
    expect(bob.get_by_test_id("seat-2")).to_contain_text("Bot")
    start(ann)
    expect(table.get_by_test_id("table-board")).to_be_visible()
    expect(table.get_by_test_id("scoreboard")).to_contain_text("Bot")

    winner = table.get_by_test_id("winner")
    taps = play([ann, bob], lambda: winner.count() > 0, timeout=60)
    for tapped in taps.values():  # both phones rolled and chose moves themselves
        assert "roll" in tapped and "choice-0" in tapped, taps

    title = winner_title(table)
    assert title.endswith(("wins!", "share the win!")), title
    assert any(name in title for name in ("Ann", "Bob", "Bot 1")), title
    for page, name in ((ann, "Ann"), (bob, "Bob")):
        shown = winner_title(page)
        if title == f"{name} wins!":
            assert shown == "You win!"
        elif "share" in title:
            assert "share the win" in shown
        else:
            assert shown == title
        expect(page.get_by_test_id("turn-banner")).to_contain_text("Game over")
        expect(page.locator("[data-testid=roll], [data-testid^=choice-]")).to_have_count(0)
    expect(table.get_by_test_id("turn-banner")).to_contain_text("Game over")
    expect(ann.get_by_test_id("rematch")).to_be_visible()  # only the host offers a rematch
    expect(bob.get_by_test_id("rematch")).to_have_count(0)
    no_trouble(table_watch, ann_watch, bob_watch)


def test_a_reload_mid_game_returns_to_the_same_seat(base: str, open_page: Opener) -> None:
    ann, ann_watch = open_page("phone")
    bob, bob_watch = open_page("phone")
    code = create_room(ann, base, "Ann")
    join_room(bob, base, code, "Bob", by_link=True)
    add_bot(ann, 2)
    start(ann)

    # Mid-game: every seat has had a turn (the bot moved last) and Ann is to play.
    bot_moved = ann.get_by_test_id("event-log").get_by_text("Bot 1 moves")
    play([ann, bob], lambda: bot_moved.count() > 0)
    expect(bob.get_by_test_id("me")).to_contain_text("Bob")

    bob.reload()
    expect(bob.get_by_test_id("me")).to_contain_text("Bob")
    expect(bob.locator("[data-testid=score-1] .badge.you")).to_be_visible()
    expect(bob.locator("[data-testid=score-0] .badge.you")).to_have_count(0)

    # Bob can still act: wait for Bob's roll (Ann keeps playing meanwhile), tap it, choose.
    roll = bob.locator("[data-testid=roll]:enabled")
    play([ann], lambda: roll.count() > 0, timeout=30)
    roll.click()
    expect(bob.get_by_test_id("choice-0")).to_be_enabled()
    expect(ann.get_by_test_id("turn-banner")).to_contain_text("Bob")
    tap(bob, "choice-0")
    expect(bob.get_by_test_id("waiting")).to_be_visible()
    no_trouble(ann_watch, bob_watch)


def scroll_width(page: Page) -> int:
    return int(page.evaluate("document.scrollingElement.scrollWidth"))


def height(page: Page, selector: str) -> list[float]:
    boxes = [loc.bounding_box() for loc in page.locator(selector).all()]
    assert boxes and all(boxes), selector
    return [box["height"] for box in boxes if box]


def test_the_phone_view_fits_360_pixels(base: str, open_page: Opener) -> None:
    phone, phone_watch = open_page("phone")
    # The longest name allowed, with no space to break at.
    long_name = "Maximilian-Wolfgang-Xavi"
    assert len(long_name) == 24
    phone.goto(f"{base}/")
    expect(phone.get_by_test_id("create-submit")).to_be_visible()
    assert scroll_width(phone) <= PHONE_WIDTH
    create_room(phone, base, long_name)
    add_bot(phone, 1)
    assert scroll_width(phone) <= PHONE_WIDTH

    start(phone)
    roll = phone.get_by_test_id("roll")
    expect(roll).to_be_enabled()  # the host sits in seat 0 and plays first
    assert scroll_width(phone) <= PHONE_WIDTH
    assert min(height(phone, "[data-testid=roll]")) >= 48

    roll.click()
    expect(phone.get_by_test_id("choice-0")).to_be_enabled()
    assert scroll_width(phone) <= PHONE_WIDTH
    assert min(height(phone, "[data-testid^=choice-]")) >= 48
    no_trouble(phone_watch)


HOSTILE = ("<img src=x onerror=a()>", "<b>bold</b>")


def test_hostile_names_are_shown_as_text(base: str, open_page: Opener) -> None:
    host, host_watch = open_page("phone")
    guest, guest_watch = open_page("phone")
    table, table_watch = open_page("table")
    for page in (host, guest, table):  # what the markup would call, if it ever ran
        page.add_init_script("window.a = () => { window.pwned = true; alert('pwned'); };")
    assert all(len(name) <= 24 for name in HOSTILE)

    code = create_room(host, base, HOSTILE[0])
    join_room(guest, base, code, HOSTILE[1], by_link=True)
    open_table(table, base, code)
    add_bot(host, 2)

    def shown_as_text(page: Page) -> None:
        names = page.locator("[data-testid=seat-list] .seat-name")
        expect(names.nth(0)).to_have_text(HOSTILE[0])
        expect(names.nth(1)).to_have_text(HOSTILE[1])
        assert page.locator("img:not([data-testid=qr])").count() == 0
        assert page.locator("#app b").count() == 0
        assert page.evaluate("window.pwned") is None

    for page in (host, guest, table):
        shown_as_text(page)
    expect(host.get_by_test_id("me")).to_contain_text(HOSTILE[0])

    start(host)
    for page in (host, guest, table):
        expect(page.get_by_test_id("score-0")).to_contain_text(HOSTILE[0])
        expect(page.get_by_test_id("score-1")).to_contain_text(HOSTILE[1])
        assert page.locator("img:not([data-testid=qr])").count() == 0
        assert page.locator("#app b").count() == 0
        assert page.evaluate("window.pwned") is None
    expect(guest.get_by_test_id("turn-banner")).to_contain_text(f"{HOSTILE[0]}'s turn")
    no_trouble(host_watch, guest_watch, table_watch)


def test_the_table_screen_shows_only_public_information(base: str, open_page: Opener) -> None:
    table, table_watch = open_page("table")
    sent: list[dict[str, object]] = []
    received: list[dict[str, object]] = []
    table.on(
        "websocket",
        lambda ws: (
            ws.on("framesent", lambda payload: sent.append(json.loads(payload))),
            ws.on("framereceived", lambda payload: received.append(json.loads(payload))),
        ),
    )
    host, host_watch = open_page("phone")
    code = create_room(host, base, "Ann")
    open_table(table, base, code)
    hello = next(m for m in sent if m["type"] == "hello")
    assert hello == {"type": "hello", "room": code, "last_version": -1}  # no token
    welcome = next(m for m in received if m["type"] == "welcome")
    assert welcome.get("seat") is None

    # The table's lobby shows the code and the players, but no host controls.
    expect(table.get_by_test_id("seat-0")).to_contain_text("Ann")
    for testid in ("start", "add-bot", "options-form", "me", "leave"):
        expect(table.get_by_test_id(testid)).to_have_count(0)

    add_bot(host, 1)
    start(host)
    expect(table.get_by_test_id("table-board")).to_be_visible()
    controls = "[data-testid=roll], [data-testid^=choice-], #stage button"
    for _ in range(3):  # Ann rolls and moves, then the bot plays: the table never has controls
        tap(host, "roll")
        tap(host, "choice-0")
        expect(host.get_by_test_id("waiting")).to_be_visible()
        expect(table.locator(controls)).to_have_count(0)
    assert all(m["type"] != "act" for m in sent)
    states = [m for m in received if m["type"] == "state"]
    assert len(states) >= 4
    assert all(m["legal"] == [] for m in states)
    assert all(not m["view"].get("choices") for m in states)  # type: ignore[attr-defined]
    no_trouble(table_watch, host_watch)


def error_after(page: Page, testid: str) -> str:
    """The error message placed right after the control (or its [data-error-slot] row)."""
    anchor = page.get_by_test_id(testid)
    box = page.locator(
        f"[data-error-slot]:has([data-testid={testid}]) + [data-testid=error], "
        f"[data-testid={testid}] + [data-testid=error]"
    )
    expect(anchor).to_be_visible()
    expect(box).to_be_visible()
    expect(page.get_by_test_id("error")).to_have_count(1)
    return box.inner_text().strip()


def test_errors_appear_in_words_next_to_the_control(base: str, open_page: Opener) -> None:
    page, page_watch = open_page("phone")
    host, host_watch = open_page("phone")
    code = create_room(host, base, "Ann")

    # Home page: no name, then a room that does not exist, then a name already taken.
    page.goto(f"{base}/")
    page.get_by_test_id("join-code").fill(code)
    page.get_by_test_id("join-name").fill("")
    page.get_by_test_id("join-submit").click()
    assert error_after(page, "join-name") == "Type your name first."

    missing = "ZZZZ" if code != "ZZZZ" else "YYYY"
    page.get_by_test_id("join-code").fill(missing)
    page.get_by_test_id("join-name").fill("Bob")
    page.get_by_test_id("join-submit").click()
    assert "no open room with that code" in error_after(page, "join-submit")

    page.get_by_test_id("join-code").fill(code)
    page.get_by_test_id("join-name").fill("ann")
    page.get_by_test_id("join-submit").click()
    assert "already here" in error_after(page, "join-submit")

    # The lobby: Start waits for a second player; forced anyway, the refusal shows beside it.
    start_button = host.get_by_test_id("start")
    expect(start_button).to_be_disabled()
    expect(host.locator("#start-hint")).to_contain_text("at least 2 players")
    start_button.evaluate("button => { button.disabled = false; button.click(); }")
    assert "needs at least 2 players" in error_after(host, "start")
    expect(host.get_by_test_id("room-code")).to_have_text(code)  # still the lobby
    no_trouble(page_watch, host_watch)
