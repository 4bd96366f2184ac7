"""Which games the conformance suite runs on, and how its tests are parametrized.

Every test taking a ``case`` argument runs once per game and player count (ids such as
``would-you-believe-it-3p``); every test taking a ``game`` argument runs once per game.
A test also taking a ``check`` runs every check (checks/) of that kind on each of them,
with ids such as ``secrets_do_not_leak-fib-off-3p``.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
from pathlib import Path
from types import ModuleType
from typing import Any, NamedTuple

import pytest

from talltales.core.game import Game
from talltales.core.registry import games

from .checks import CHECKS

FIXTURE_PATH = Path(__file__).resolve().parent.parent / "fixture_game.py"
FIXTURE_NAMES = ("tests.fixture_game", "fixture_game")


class Case(NamedTuple):
    """One game at one player count."""

    game: Game[Any, Any]
    players: int

    @property
    def id(self) -> str:
        return f"{self.game.id}-{self.players}p"


# Conformance failures caused by known bugs in src/ (reported, not fixed here: src/ is owned
# by others). Each entry is a strict xfail limited to the exception the bug produces, so the
# test turns red again (XPASS) the moment the bug is fixed: then delete the entry.
# (check name, game id) -> (reason, exception types the bug raises)
KNOWN_SRC_BUGS: dict[tuple[str, str], tuple[str, tuple[type[BaseException], ...]]] = {}


def _fixture_module() -> ModuleType | None:
    """tests/fixture_game.py, however the test run can import it; None while it is absent."""
    for name in FIXTURE_NAMES:
        if name in sys.modules:
            return sys.modules[name]
    for name in FIXTURE_NAMES:
        try:
            spec = importlib.util.find_spec(name)
        except (ImportError, ValueError):
            spec = None
        if spec is not None and spec.origin and Path(spec.origin).resolve() == FIXTURE_PATH:
            return importlib.import_module(name)
    if not FIXTURE_PATH.exists():
        return None
    # Not importable under either name: load it by path, under the name pytest would use.
    name = FIXTURE_NAMES[0] if (FIXTURE_PATH.parent / "__init__.py").exists() else FIXTURE_NAMES[1]
    spec = importlib.util.spec_from_file_location(name, FIXTURE_PATH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        del sys.modules[name]
        raise
    return module


def conformance_games() -> list[Game[Any, Any]]:
    """Every registered game, then the fixture games of tests/fixture_game.py (if present)."""
    found: dict[str, Game[Any, Any]] = {}
    module = _fixture_module()
    fixtures: list[Game[Any, Any]] = []
    if module is not None:
        if not hasattr(module, "FIXTURE_GAMES"):
            raise AttributeError(f"{FIXTURE_PATH} must define FIXTURE_GAMES (a list of games)")
        fixtures = list(module.FIXTURE_GAMES)
    for game in [*games(), *fixtures]:
        other = found.setdefault(game.id, game)
        if other is not game and type(other) is not type(game):
            raise ValueError(f"two different conformance games share the id {game.id!r}")
    return list(found.values())


def conformance_cases() -> list[Case]:
    """Every game at every player count it allows."""
    return [
        Case(game, n)
        for game in conformance_games()
        for n in range(game.min_players, game.max_players + 1)
    ]


def _marks(check_name: str, game_id: str) -> list[pytest.MarkDecorator]:
    known = KNOWN_SRC_BUGS.get((check_name, game_id))
    if known is None:
        return []
    reason, raises = known
    return [pytest.mark.xfail(reason=reason, raises=raises, strict=True)]


def _check_params(per_game: bool) -> list[Any]:
    """(case or game, check) pairs, grouped by check."""
    targets = conformance_games() if per_game else conformance_cases()
    return [
        pytest.param(
            target,
            check,
            id=f"{check.name}-{target.id}",
            marks=_marks(check.name, target.id if per_game else target.game.id),
        )
        for check in CHECKS
        if check.per_game == per_game
        for target in targets
    ]


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    names = metafunc.fixturenames
    if "check" in names:
        per_game = "game" in names
        metafunc.parametrize(("game" if per_game else "case", "check"), _check_params(per_game))
    elif "case" in names:
        metafunc.parametrize("case", [pytest.param(c, id=c.id) for c in conformance_cases()])
    elif "game" in names:
        metafunc.parametrize("game", [pytest.param(g, id=g.id) for g in conformance_games()])
