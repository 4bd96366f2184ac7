"""Search bots: expectimax over chance with max-n at decision nodes, on the game's heuristic."""

from __future__ import annotations

import time
from typing import Any

from talltales.core.game import CHANCE, Game, Seat
from talltales.core.rng import Rng

FREE_STEPS = 2  # bounds the chains of forced moves, which would otherwise multiply by the die


def advantage(values: list[float], seat: Seat) -> float:
    """A seat's value against its strongest rival."""
    rivals = [v for s, v in enumerate(values) if s != seat]
    return values[seat] - (max(rivals) if rivals else 0.0)


class OutOfTime(Exception):
    """The bot's thinking budget ran out mid-search."""


def evaluate(
    game: Game[Any, Any],
    state: Any,
    depth: int,
    free: int = FREE_STEPS,
    stop: float | None = None,
) -> list[float]:
    """Values per seat: chance nodes average, each decider maximises its own advantage.

    ``depth`` counts the player decisions still to look through; up to ``free`` forced
    single-choice steps (such as "roll") on a path cost no depth. Past ``stop`` (a
    monotonic time) the search gives up with OutOfTime.
    """
    if stop is not None and time.monotonic() > stop:
        raise OutOfTime
    result = game.outcome(state)
    if result is not None:
        return [float(s) for s in result.scores]
    pending = game.pending(state)
    if CHANCE in pending:
        total: list[float] | None = None
        for action, probability in game.chance_outcomes(state):
            child = game.clone(state)
            game.apply(child, CHANCE, action)
            values = evaluate(game, child, depth, free, stop)
            if total is None:
                total = [probability * v for v in values]
            else:
                total = [t + probability * v for t, v in zip(total, values, strict=True)]
        assert total is not None
        return total
    if depth == 0 or len(pending) != 1:
        return game.heuristic(state)
    (seat,) = pending
    actions = game.legal_actions(state, seat)
    forced = len(actions) == 1 and free > 0
    best: list[float] | None = None
    for action in actions:
        child = game.clone(state)
        game.apply(child, seat, action)
        values = evaluate(game, child, depth - (not forced), free - forced, stop)
        if best is None or advantage(values, seat) > advantage(best, seat):
            best = values
    assert best is not None
    return best


class SearchBot:
    """Looks ``depth`` decisions ahead, averaging over every die roll in between."""

    name = "search"

    def __init__(self, seed: int = 0, depth: int = 2) -> None:
        self.rng = Rng(seed)
        self.depth = max(1, depth)

    def choose(
        self, game: Game[Any, Any], state: Any, seat: Seat, *, budget: float | None = None
    ) -> Any:
        """The action with the best expected advantage; ties broken at random.

        With a ``budget`` (seconds) it deepens one decision at a time and keeps the
        deepest search finished in time (at worst, a random legal action)."""
        actions = game.legal_actions(state, seat)
        if len(actions) == 1:
            return actions[0]
        scored = [(0.0, i) for i in range(len(actions))]
        if budget is None:
            scored = self._score(game, state, seat, actions, self.depth, None)
        else:
            stop = time.monotonic() + budget
            for depth in range(1, self.depth + 1):
                try:
                    scored = self._score(game, state, seat, actions, depth, stop)
                except OutOfTime:
                    break
        best = max(score for score, _ in scored)
        return actions[self.rng.choice([i for score, i in scored if score == best])]

    @staticmethod
    def _score(
        game: Game[Any, Any],
        state: Any,
        seat: Seat,
        actions: list[Any],
        depth: int,
        stop: float | None,
    ) -> list[tuple[float, int]]:
        scored: list[tuple[float, int]] = []
        for index, action in enumerate(actions):
            child = game.clone(state)
            game.apply(child, seat, action)
            values = evaluate(game, child, depth - 1, stop=stop)
            scored.append((advantage(values, seat), index))
        return scored
