"""Every conformance check (checks/) on every registered game and every fixture game: per
player count, and once per game for the checks about the game as a whole."""

from __future__ import annotations

from typing import Any

from .checks import Check
from .conftest import Case

# Games whose random games cost the most to check play fewer of them per check; each
# still runs some 300 actions, and the checks together still see hundreds of games.
FEWER_GAMES = {"believe-it-or-not": 2}  # game id -> divisor of each check's game count


def games_for(game: Any, check: Check) -> int:
    """How many random games ``check`` plays on ``game`` at each player count."""
    return max(2, check.games // FEWER_GAMES.get(game.id, 1))


def test_check(case: Case, check: Check) -> None:
    check(case.game, case.players, games_for(case.game, check))


def test_game_check(game: Any, check: Check) -> None:
    check(game, game.min_players, games_for(game, check))
