"""Helpers shared by the core tests."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from talltales.core.errors import ActionRefused
from talltales.core.match import Match
from talltales.core.rng import Rng


def snapshot(match: Match[Any, Any]) -> tuple[int, list[Any], bytes]:
    """What must not change when an action is refused: version, record entries, state."""
    return match.version, list(match.record.entries), msgspec.json.encode(match.state)


def refused(
    match: Match[Any, Any], seat: int, action: object, error: type[ActionRefused]
) -> ActionRefused:
    """Submit ``action``, expect ``error`` and check that nothing changed."""
    before = snapshot(match)
    with pytest.raises(error) as caught:
        match.submit(seat, action)
    assert snapshot(match) == before
    assert caught.value.reason
    return caught.value


def play_randomly(match: Match[Any, Any], seed: int, tick_every: int = 0) -> dict[int, bytes]:
    """Play legal actions at random to the end, ticking past a deadline now and then.

    Chance is sampled from a clone when the match does not resolve it itself. Returns the
    encoded state seen after each step, keyed by the number of record entries at that point
    (the index ``replay_states`` yields the same state at).
    """
    rng = Rng(seed)
    game = match.game
    states = {len(match.record.entries): msgspec.json.encode(match.state)}
    for _ in range(10_000):
        if match.is_over():
            break
        due = match.deadline()
        if not match.pending():
            match.submit_chance(game.sample_chance(game.clone(match.state)))
        elif tick_every and due is not None and rng.below(tick_every) == 0:
            match.tick(due)
        else:
            seat = rng.choice(sorted(match.pending()))
            match.submit(seat, rng.choice(match.legal_actions(seat)))
        states[len(match.record.entries)] = msgspec.json.encode(match.state)
    assert match.is_over(), "random play did not finish"
    return states
