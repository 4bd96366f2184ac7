"""The suite itself: it covers every registered game and every fixture game."""

from __future__ import annotations

from talltales.core.registry import games

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
