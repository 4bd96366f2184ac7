"""The registry of games: installed through entry points, fixtures registered by tests."""

from __future__ import annotations

from importlib.metadata import EntryPoint

import pytest
from fixture_game import FIB_OFF, FibOff

from talltales.core import registry
from talltales.core.errors import OptionsError
from talltales.core.registry import (
    GROUP,
    GamePluginError,
    broken,
    games,
    get_game,
    register,
    unregister,
)
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


# --- entry points --------------------------------------------------------------------------

ANOTHER_FIB_OFF = FibOff()  # a second game with the id 'fib-off'
NOT_A_GAME = ("fib", "off")


class Fine(FibOff):
    """A well-made plugin game beside a broken one."""

    id = "fine"


FINE = Fine()


def fresh_registry(monkeypatch: pytest.MonkeyPatch, *points: EntryPoint) -> list[str]:
    """An empty registry that has not read its entry points, which are ``points``; returns
    the groups it asks for."""
    asked: list[str] = []

    def entry_points(group: str) -> tuple[EntryPoint, ...]:
        asked.append(group)
        return points

    monkeypatch.setattr(registry, "_GAMES", {})
    monkeypatch.setattr(registry, "_BROKEN", {})
    monkeypatch.setattr(registry, "_loaded", False)
    monkeypatch.setattr(registry, "entry_points", entry_points)
    return asked


def test_the_shipped_game_is_installed_as_an_entry_point() -> None:
    from importlib.metadata import entry_points

    (point,) = [p for p in entry_points(group=GROUP) if p.name == "would-you-believe-it"]
    assert point.value == "talltales.games.would_you_believe_it:GAME"
    assert point.load() is WYBI


def test_games_come_from_the_entry_points_read_once(monkeypatch: pytest.MonkeyPatch) -> None:
    asked = fresh_registry(
        monkeypatch,
        EntryPoint("fib-off", "fixture_game:FIB_OFF", GROUP),
        EntryPoint("would-you-believe-it", "talltales.games.would_you_believe_it:GAME", GROUP),
    )
    assert [g.id for g in games()] == ["fib-off", "would-you-believe-it"]
    assert get_game("fib-off") is FIB_OFF
    assert asked == [GROUP]  # read lazily, and only once


def test_without_entry_points_there_are_no_games(monkeypatch: pytest.MonkeyPatch) -> None:
    fresh_registry(monkeypatch)
    assert games() == []
    with pytest.raises(OptionsError, match="there are: none"):
        get_game("would-you-believe-it")


@pytest.mark.parametrize(
    ("point", "problem"),
    [
        (
            EntryPoint("fib-off", "fixture_game:FibOff", GROUP),
            "entry point fib-off = 'fixture_game:FibOff' (group 'talltales.games', from an "
            "unknown distribution) gives the class FibOff, not a Game instance",
        ),
        (
            EntryPoint("fib-off", f"{__name__}:NOT_A_GAME", GROUP),
            f"entry point fib-off = '{__name__}:NOT_A_GAME' (group 'talltales.games', from an "
            "unknown distribution) gives tuple, not a Game instance",
        ),
        (
            EntryPoint("fibber", "fixture_game:FIB_OFF", GROUP),
            "entry point fibber = 'fixture_game:FIB_OFF' (group 'talltales.games', from an "
            "unknown distribution) gives the game 'fib-off': the entry point's name must be "
            "the game's id",
        ),
        (
            EntryPoint("fib-off", "no_such_module_anywhere:GAME", GROUP),
            "entry point fib-off = 'no_such_module_anywhere:GAME' (group 'talltales.games', "
            "from an unknown distribution) cannot be loaded: ModuleNotFoundError",
        ),
        (
            EntryPoint("fib-off", "fixture_game:NO_SUCH_NAME", GROUP),
            "cannot be loaded: AttributeError",
        ),
    ],
)
def test_a_bad_entry_point_is_a_clear_error(
    monkeypatch: pytest.MonkeyPatch, point: EntryPoint, problem: str
) -> None:
    fresh_registry(monkeypatch, point, EntryPoint("fine", f"{__name__}:FINE", GROUP))
    with pytest.raises(GamePluginError) as caught:
        get_game(point.name)
    assert problem in caught.value.reason
    assert caught.value.code == "game-plugin"
    with pytest.raises(GamePluginError):
        get_game(point.name)  # still refused: a broken plugin is not forgotten
    assert [g.id for g in games()] == ["fine"]  # and it takes no other game down with it
    assert [e.reason for e in broken()] == [caught.value.reason]


def test_two_installed_games_with_one_id_are_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    fresh_registry(
        monkeypatch,
        EntryPoint("fib-off", "fixture_game:FIB_OFF", GROUP),
        EntryPoint("fib-off", f"{__name__}:ANOTHER_FIB_OFF", GROUP),
    )
    with pytest.raises(GamePluginError, match="two installed games have the id 'fib-off'"):
        get_game("fib-off")
    assert games() == []


def test_a_fixture_may_not_take_an_installed_games_id(monkeypatch: pytest.MonkeyPatch) -> None:
    fresh_registry(monkeypatch, EntryPoint("fib-off", "fixture_game:FIB_OFF", GROUP))
    with pytest.raises(ValueError, match="'fib-off' is already registered"):
        register(ANOTHER_FIB_OFF)  # even before anything asked for the installed games
