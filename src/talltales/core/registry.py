"""The registry of games, filled by importing ``talltales.games``."""

from __future__ import annotations

from typing import Any

from talltales.core.errors import OptionsError
from talltales.core.game import Game

_GAMES: dict[str, Game[Any, Any]] = {}


def register(game: Game[Any, Any]) -> Game[Any, Any]:
    """Add a game; its id must be new."""
    if game.id in _GAMES and _GAMES[game.id] is not game:
        raise ValueError(f"a game with id {game.id!r} is already registered")
    _GAMES[game.id] = game
    return game


def unregister(game_id: str) -> None:
    """Remove a game (tests register fixture games and take them away again)."""
    _GAMES.pop(game_id, None)


def games() -> list[Game[Any, Any]]:
    """Every registered game, by id."""
    _load_builtin()
    return [_GAMES[k] for k in sorted(_GAMES)]


def get_game(game_id: str) -> Game[Any, Any]:
    """The game with this id, or a clear error listing the ones there are."""
    _load_builtin()
    try:
        return _GAMES[game_id]
    except KeyError:
        known = ", ".join(sorted(_GAMES)) or "none"
        raise OptionsError(f"no game called {game_id!r}; there are: {known}") from None


def _load_builtin() -> None:
    import talltales.games  # noqa: F401  (registers the shipped games)
