"""The lobby lists a game's card packs; the host picks them, everyone sees the choice."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fixture_game import FIB_OFF, PACKS
from playwright.sync_api import Browser, expect
from server.harness import LiveServer

from .flows import create_room, join_room, phone_context, start, watch

FACTS = PACKS / "fib-off-facts.toml"


@pytest.fixture
def second_pack(fib_off: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The fixture game ships a second pack, "fib-off-alt", during the test."""
    text = FACTS.read_text(encoding="utf-8")
    text = text.replace('id = "fib-off-facts"', 'id = "fib-off-alt"')
    text = text.replace('title = "Fib-off: plain facts"', 'title = "Fib-off: more facts"')
    text = text.replace('id = "fib:', 'id = "alt:')
    path = tmp_path / "fib-off-alt.toml"
    path.write_text(text, encoding="utf-8")
    monkeypatch.setattr(FIB_OFF, "pack_files", lambda: [path, FACTS])
    yield


@pytest.mark.usefixtures("second_pack")
def test_the_host_picks_the_packs_and_the_game_is_dealt_from_them(
    browser: Browser, server: LiveServer
) -> None:
    host_context, guest_context = phone_context(browser), phone_context(browser)
    host, guest = host_context.new_page(), guest_context.new_page()
    seen = [watch(host), watch(guest)]
    code = create_room(host, server.http, "Ann", game="fib-off")
    join_room(guest, server.http, code, "Bob")

    facts, alt = host.get_by_test_id("pack-fib-off-facts"), host.get_by_test_id("pack-fib-off-alt")
    expect(facts).to_be_checked()  # the default, before anyone chooses
    expect(alt).not_to_be_checked()
    expect(host.get_by_label("Fib-off: more facts")).to_be_enabled()
    expect(host.get_by_test_id("packs")).to_contain_text("12 cards")
    expect(guest.get_by_test_id("pack-fib-off-alt")).to_be_disabled()  # only the host picks

    alt.check()
    expect(guest.get_by_test_id("pack-fib-off-alt")).to_be_checked()
    facts.uncheck()
    expect(guest.get_by_test_id("pack-fib-off-facts")).not_to_be_checked()
    alt.click()  # the last pack cannot go: a game is dealt from at least one
    expect(host.get_by_test_id("error")).to_contain_text("at least one pack")
    expect(alt).to_be_checked()

    host.get_by_test_id("add-bot").click()
    expect(host.get_by_test_id("seat-2")).to_contain_text("Bot")
    start(host)
    match = server.hub.rooms[code].match
    assert match is not None
    assert [ref.id for ref in match.record.content] == ["fib-off-alt"]
    dealt = {card for hand in match.state.hands for card in hand}
    assert dealt and all(card.startswith("alt:") for card in dealt)
    for page_seen in seen:
        assert page_seen.errors == [], page_seen.errors
    host_context.close()
    guest_context.close()
