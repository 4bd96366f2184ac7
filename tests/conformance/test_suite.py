"""The suite itself: it covers every registered game and every fixture game, and runs
every check there is."""

from __future__ import annotations

import inspect

from talltales.core.registry import games

from . import checks
from .checks import CHECKS, hidden, play, refusals, replay, stateful, wire
from .conftest import FIXTURE_PATH, _fixture_module, conformance_cases, conformance_games


def test_covers_registry_and_fixture_games() -> None:
    ids = [g.id for g in conformance_games()]
    assert len(ids) == len(set(ids))
    assert {g.id for g in games()} <= set(ids)
    module = _fixture_module()
    assert (module is None) == (not FIXTURE_PATH.exists())
    if module is not None:
        assert {g.id for g in module.FIXTURE_GAMES} <= set(ids)
    cases = conformance_cases()
    for game in conformance_games():
        counts = [c.players for c in cases if c.game is game]
        assert counts == list(range(game.min_players, game.max_players + 1))


def test_every_check_function_is_registered_once() -> None:
    """A check written but not listed in CHECKS would never run."""
    written = {
        fn
        for module in (hidden, play, refusals, replay, stateful, wire)
        for name, fn in inspect.getmembers(module, inspect.isfunction)
        if name.startswith("check_") and fn.__module__ == module.__name__
    }
    registered = [check.run for check in CHECKS]
    assert len(registered) == len(set(registered))
    assert set(registered) == written
    assert len({check.salt for check in CHECKS}) == len(CHECKS), "checks share their games"
    assert checks.BY_NAME.keys() == {check.name for check in CHECKS}
