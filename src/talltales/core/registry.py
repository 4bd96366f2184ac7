"""The registry of games: those installed under the ``talltales.games`` entry points.

Any installed package can add a game by declaring, in its pyproject.toml::

    [project.entry-points."talltales.games"]
    my-game = "my_package.my_game:GAME"

where ``GAME`` is a Game instance whose id is ``my-game``. Tests add fixture games with
``register`` and take them away with ``unregister``.
"""

from __future__ import annotations

from importlib.metadata import EntryPoint, entry_points
from typing import Any

from talltales.core.errors import GamePluginError, OptionsError
from talltales.core.game import Game

GROUP = "talltales.games"

_GAMES: dict[str, Game[Any, Any]] = {}
_BROKEN: dict[str, GamePluginError] = {}  # entry point name -> why it gives no game
_loaded = False  # the entry points are read once, on first use


def register(game: Game[Any, Any]) -> Game[Any, Any]:
    """Add a game; its id must be new."""
    _load_entry_points()  # so a clash with an installed game is caught whatever the order
    if game.id in _GAMES and _GAMES[game.id] is not game:
        raise ValueError(f"a game with id {game.id!r} is already registered")
    _GAMES[game.id] = game
    return game


def unregister(game_id: str) -> None:
    """Remove a game (tests register fixture games and take them away again)."""
    _GAMES.pop(game_id, None)


def games() -> list[Game[Any, Any]]:
    """Every registered game, by id (a broken plugin is left out: see ``broken``)."""
    _load_entry_points()
    return [_GAMES[k] for k in sorted(_GAMES)]


def broken() -> list[GamePluginError]:
    """Why each installed entry point that gives no usable game gives none."""
    _load_entry_points()
    return [_BROKEN[k] for k in sorted(_BROKEN)]


def get_game(game_id: str) -> Game[Any, Any]:
    """The game with this id, or a clear error listing the ones there are."""
    _load_entry_points()
    if game_id in _BROKEN and game_id not in _GAMES:
        raise _BROKEN[game_id]
    try:
        return _GAMES[game_id]
    except KeyError:
        known = ", ".join(sorted(_GAMES)) or "none"
        raise OptionsError(f"no game called {game_id!r}; there are: {known}") from None


def _describe(point: EntryPoint) -> str:
    """How errors name an entry point: its line and the distribution declaring it."""
    dist = point.dist.name if point.dist is not None else "an unknown distribution"
    return f"entry point {point.name} = {point.value!r} (group {GROUP!r}, from {dist})"


def load_game(point: EntryPoint) -> Game[Any, Any]:
    """The Game an entry point names, or a GamePluginError saying what is wrong with it."""
    try:
        game = point.load()
    except Exception as exc:  # any import failure of a third-party package is its fault
        raise GamePluginError(
            f"{_describe(point)} cannot be loaded: {type(exc).__name__}: {exc}"
        ) from exc
    if not isinstance(game, Game):
        # naming the class itself is the likely slip: GAME = MyGame instead of MyGame()
        what = f"the class {game.__name__}" if isinstance(game, type) else type(game).__name__
        raise GamePluginError(f"{_describe(point)} gives {what}, not a Game instance")
    if game.id != point.name:
        raise GamePluginError(
            f"{_describe(point)} gives the game {game.id!r}: the entry point's name must be "
            "the game's id"
        )
    return game


def _load_entry_points() -> None:
    """Register every game installed under the entry-point group, once."""
    global _loaded
    if _loaded:
        return
    # One broken plugin must not take the others down: it is set aside with its reason.
    found: dict[str, tuple[Game[Any, Any], EntryPoint]] = {}
    for point in entry_points(group=GROUP):
        try:
            game = load_game(point)
        except GamePluginError as exc:
            _BROKEN[point.name] = exc
            continue
        if game.id in found and found[game.id][0] is not game:
            _BROKEN[game.id] = GamePluginError(
                f"two installed games have the id {game.id!r}: "
                f"{_describe(found[game.id][1])} and {_describe(point)}"
            )
            continue
        found[game.id] = (game, point)
    for game_id in _BROKEN:
        found.pop(game_id, None)
    # set before registering, since register() itself asks for the entry points
    _loaded = True
    for game, _ in found.values():
        _GAMES.setdefault(game.id, game)
