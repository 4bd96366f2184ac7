"""Every conformance check (checks/) on every registered game and every fixture game: per
player count, and once per game for the checks about the game as a whole."""

from __future__ import annotations

from typing import Any

from .checks import Check
from .conftest import Case


def test_check(case: Case, check: Check) -> None:
    check(case.game, case.players)


def test_game_check(game: Any, check: Check) -> None:
    check(game, game.min_players)
