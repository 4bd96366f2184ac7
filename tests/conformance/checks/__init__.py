"""Every conformance check, as a plain function: ``check(game, players, seeds)`` plays the
game at that player count with random games seeded from ``seeds`` and raises
AssertionError, with a message, where the game breaks the protocol.

Being functions, not only pytest tests, the same checks run on the real games
(test_checks.py) and on mutants, games with one planted leak (test_mutants.py), which
proves that each leak is caught.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from talltales.core.game import Game

from ..support import case_seeds
from . import hidden, play, refusals, replay, stateful, wire

CheckFn = Callable[[Game[Any, Any], int, Sequence[int]], None]


@dataclass(frozen=True)
class Check:
    """A check, with the random games it plays on a real game."""

    name: str
    run: CheckFn
    salt: int  # each check plays its own games, so together they see more
    games: int  # random games per player count on the real games
    family: str  # play, records, refusals, wire or hidden
    per_game: bool = False  # run once per game (at its smallest player count)

    def seeds(self, players: int, games: int | None = None) -> range:
        """The seeds of its random games at ``players``."""
        return case_seeds(players, self.salt, self.games if games is None else games)

    def __call__(self, game: Game[Any, Any], players: int, games: int | None = None) -> None:
        """Run it on ``game`` at ``players``, with its own number of games or ``games``."""
        self.run(game, players, self.seeds(players, games))


def _family(family: str, *rows: tuple[Any, ...]) -> tuple[Check, ...]:
    """Checks of one family from (run, salt, games[, per_game]); named after their function."""
    return tuple(
        Check(run.__name__.removeprefix("check_"), run, salt, games, family, *rest)
        for run, salt, games, *rest in rows
    )


CHECKS: tuple[Check, ...] = (
    *_family(
        "play",
        (play.check_random_games_end, 1, 20),
        (play.check_advised_actions_are_accepted, 2, 8),
        (play.check_pure_methods_do_not_mutate, 3, 6),
        (play.check_clone_independence, 4, 8),
        (play.check_determinism, 5, 5),
        (play.check_chance_nodes, 6, 6),
    ),
    *_family(
        "records",
        (replay.check_replay_reproduces_every_state, 10, 10),
        (replay.check_record_round_trip, 11, 6),
    ),
    *_family(  # in Match's order of checks
        "refusals",
        (refusals.check_out_of_turn, 20, 6),
        (refusals.check_malformed_actions, 21, 3),
        (refusals.check_known_type_with_extra_field_is_malformed, 22, 2),
        (refusals.check_game_over_refuses_everything, 23, 4),
        (refusals.check_illegal_actions_are_refused, 24, 6),
        (refusals.check_oversize_multibyte_text_is_malformed, 25, 1),
        (refusals.check_write_prompts_limit_text, 26, 4),
        (stateful.check_state_machine, 27, 12),
    ),
    *_family(
        "wire",
        (wire.check_json_round_trip, 30, 8),
        (wire.check_options_and_player_counts, 31, 1, True),
    ),
    *_family(  # docs/architecture.md, "Hidden information"
        "hidden",
        (hidden.check_secrets_do_not_leak, 40, 10),
        (hidden.check_resample_keeps_what_seat_sees, 41, 8),
        (hidden.check_resample_redraws_secrets, 42, 6),
        (hidden.check_resample_is_canonical, 43, 6),
        (hidden.check_events_follow_views, 44, 6),
        (hidden.check_bots_are_blind, 45, 4),
    ),
)
BY_NAME = {check.name: check for check in CHECKS}
