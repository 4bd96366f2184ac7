"""The registry of games."""

from __future__ import annotations

import pytest
from fixture_game import FIB_OFF, FibOff

from talltales.core.errors import OptionsError
from talltales.core.registry import games, get_game, register, unregister
from talltales.games.would_you_believe_it import GAME as WYBI


def test_the_shipped_game_is_registered() -> None:
    ids = [g.id for g in games()]
    assert "would-you-believe-it" in ids
    assert ids == sorted(ids)
    assert get_game("would-you-believe-it") is WYBI
    assert "fib-off" not in ids  # fixtures are never shipped


def test_an_unknown_game_is_an_options_error_listing_the_known_ones() -> None:
    with pytest.raises(OptionsError) as caught:
        get_game("no-such-game")
    assert "'no-such-game'" in caught.value.reason
    assert "would-you-believe-it" in caught.value.reason
    assert caught.value.code == "options"


def test_register_and_unregister(fib_off: None) -> None:
    assert get_game("fib-off") is FIB_OFF
    assert FIB_OFF in games()
    assert [g.id for g in games()] == sorted(g.id for g in games())
    with pytest.raises(OptionsError, match="fib-off"):
        get_game("nothing")  # the listing names every registered game
    assert register(FIB_OFF) is FIB_OFF  # registering the same game again is harmless
    unregister("fib-off")
    assert FIB_OFF not in games()
    with pytest.raises(OptionsError):
        get_game("fib-off")
    unregister("fib-off")  # removing what is not there is harmless


def test_a_second_game_with_the_same_id_is_refused(fib_off: None) -> None:
    with pytest.raises(ValueError, match="fib-off"):
        register(FibOff())
    assert get_game("fib-off") is FIB_OFF
