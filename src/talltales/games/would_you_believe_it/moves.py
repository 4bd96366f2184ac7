"""Where pieces go and what they take: counting and collecting, shared by rules and views."""

from __future__ import annotations

from talltales.games.would_you_believe_it.board import FINISH
from talltales.games.would_you_believe_it.state import State


def destination(state: State, position: int, steps: int) -> int:
    """Count ``steps`` cards forward, skipping gaps; reaching Finish ends the move early."""
    present = state.present
    while steps and position < FINISH:
        position += 1
        if position == FINISH or present[position - 1]:
            steps -= 1
    return position


def figure_on(state: State, position: int) -> bool:
    """Whether any player's figure stands on ``position``."""
    return any(position in figs for figs in state.figures)


def guard_may_move(state: State, guard: int) -> bool:
    """A guard moves only off a route card that some figure shares (Game Play)."""
    position = state.guards[guard]
    return 0 < position < FINISH and figure_on(state, position)


def left_empty(state: State, position: int) -> bool:
    """Whether a route card holds no figure and no guard."""
    return position not in state.guards and not figure_on(state, position)


def takes_card_on_leaving(state: State, position: int) -> bool:
    """Whether the figure on ``position`` would collect its card by leaving now: it stands
    there alone, with no guard (Taking a Route Card)."""
    return (
        0 < position < FINISH
        and position not in state.guards
        and sum(figures.count(position) for figures in state.figures) == 1
    )
