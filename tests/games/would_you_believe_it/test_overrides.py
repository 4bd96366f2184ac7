"""Scenario set-ups of Would You Believe It!: only positions that play can reach."""

from __future__ import annotations

import random
from typing import Any

import msgspec
import pytest

from talltales.core.errors import IllegalAction
from talltales.core.match import Match
from talltales.games.would_you_believe_it import GAME, board
from talltales.games.would_you_believe_it.state import MoveFigure, Roll, State

# The fixed layout, by position: 1 -1, 2 -2, 3 +3, 4 -4, 5 F, 6 -3, 7 -5, 8 +1, 9 -2, 10 F,
# 11 -6, 12 -4, 13 +8, 14 -3, 15 -1, 16 F, 17 -7, 18 +5, 19 -2, 20 -5, 21 F, 22 +2, 23 -4,
# 24 -6, 25 +7, 26 -3, 27 F, 28 -5, 29 +4, 30 -7, 31 F, 32 +6. Guards 0-5 start on the
# fortune cards (5, 10, 16, 21, 27, 31), guard 6 on the +8 (13) and guard 7 on the +7 (25).
FIXED_LABELS = [board.label(v) for v in board.FIXED_LAYOUT]
GUARDS = [5, 10, 16, 21, 27, 31, 13, 25]
START = [[0, 0, 0], [0, 0, 0]]


def new_match(players: int = 2, **overrides: Any) -> Match[State, Any]:
    return Match(GAME, players, {"layout": "fixed"}, overrides=overrides, auto_chance=False)


def gaps(*positions: int) -> list[bool]:
    """``present`` with the cards at ``positions`` taken."""
    return [p not in positions for p in range(1, 33)]


def guards(**moved: int) -> list[int]:
    """The setup places of the guards, with some moved: ``guards(g0=6)``."""
    places = GUARDS[:]
    for name, position in moved.items():
        places[int(name[1:])] = position
    return places


SHAPES = [
    ({"colour": "red"}, "unknown overrides: ['colour']"),
    ({"turn": 2}, "override turn: 2 is not a seat (0 to 1)"),
    ({"turn": -1}, "override turn: -1 is not a seat"),
    ({"turn": "1"}, "override turn: Expected `int`, got `str`"),
    ({"present": [True] * 31}, "override present: 31 given, expected 32"),
    ({"present": [1] * 32}, "override present: Expected `bool`, got `int`"),
    ({"figures": [[0, 0, 0]]}, "override figures: 1 given, expected 2 (one list per seat)"),
    ({"figures": [[0, 0, 0], [5, 34, 0]]}, "seat 1's figure 1 is at 34, not 0 to 33"),
    ({"figures": [[-1, 0, 0], START[1]]}, "seat 0's figure 0 is at -1, not 0 to 33"),
    ({"figures": 5}, "override figures: Expected `array`, got `int`"),
    ({"guards": [5] * 7}, "override guards: 7 given, expected 8 (one per guard)"),
    ({"guards": [0] + [5] * 7}, "guard 0 is at 0, not 1 to 33"),  # no guard on Start
    ({"guards": [5] * 7 + [34]}, "guard 7 is at 34, not 1 to 33"),
    ({"collected": [[]]}, "override collected: 1 given, expected 2"),
    ({"collected": [["+8"], ["-4", "0"]]}, "seat 1's card 1 is '0', not a card"),
    ({"collected": [["+9"], []]}, "seat 0's card 0 is '+9', not a card"),
    ({"collected": [["x"], []]}, "seat 0's card 0 is 'x', not a card"),
    ({"collected": [["+8"], ["+8"]]}, "override collected: 2 '+8' cards, the deck has 1"),
    ({"collected": "F"}, "override collected: Expected `array`, got `str`"),
    ({"route": FIXED_LABELS[:31]}, "override route: 31 given, expected 32"),
    ({"route": ["0", *FIXED_LABELS[1:]]}, "position 1 is '0', not a card"),
    ({"route": ["+8", *FIXED_LABELS[1:]]}, "override route: 2 '+8' cards, the deck has 1"),
]

UNREACHABLE = [
    # every seat plays with the figures setup gave it
    ({"figures": [[0, 0], [0, 0, 0]]}, "seat 0 has 2 figures, but every seat plays with 3"),
    ({"figures": [[0, 0, 0], [0, 0, 0, 0]]}, "seat 1 has 4 figures, but every seat plays with 3"),
    ({"figures": [[0], [0]]}, "the `figures` option sets another count"),
    # pieces stand only on cards still on the route
    (
        {"present": gaps(4), "collected": [["-4"], []], "figures": [[4, 6, 0], START[1]]},
        "seat 0's figure 0 stands on 4, a card already taken (a gap)",
    ),
    (
        {"present": gaps(25), "collected": [["+7"], []], "figures": [[26, 0, 0], START[1]]},
        "override guards: guard 7 stands on 25, a card already taken (a gap)",
    ),
    # guards only move forward, and only off a card a figure shares
    ({"guards": guards(g0=4)}, "guard 0 is at 4, behind 5, the card it starts on"),
    ({"guards": guards(g6=12), "figures": [[13, 0, 0], START[1]]}, "guard 6 is at 12, behind 13"),
    (
        {"guards": guards(g0=10, g1=5), "figures": [[5, 0, 0], START[1]]},
        "guard 1 is at 5, behind 10",  # guards are numbered: swapping two is not a position
    ),
    (
        {"guards": guards(g0=6)},
        "guard 0 has left 5, the card it starts on, but no figure stands there or beyond",
    ),
    (
        {"guards": guards(g0=6), "figures": [[7, 0, 0], START[1]]},
        "guard 0 has left 5, the card it starts on, and nothing stands there now, yet the card "
        "is still on the route",
    ),
    # the cards held are exactly the cards missing from the route
    (
        {"collected": [["+8"], []], "figures": [[14, 0, 0], START[1]]},
        "the seats hold 1 '+8' card, but none is missing",
    ),
    (
        {"present": gaps(4), "collected": [["-4"], ["-4"]], "figures": [[6, 0, 0], [6, 0, 0]]},
        "the seats hold 2 '-4' cards, but only 1 is missing from the route",
    ),
    (
        {"present": gaps(4), "figures": [[6, 0, 0], START[1]]},
        "1 '-4' card taken from the route (positions 4), but the seats hold 0",
    ),
    (
        {"present": gaps(1, 2), "collected": [["-1"], []], "figures": [[6, 0, 0], START[1]]},
        "1 '-2' card taken from the route (positions 2), but the seats hold 0",
    ),
    # each card was taken by a figure that has moved on past it
    (
        {"present": gaps(2), "collected": [["-2"], []]},
        "seat 0 holds 1 '-2' card, but only 0 of the '-2' gaps (2) lie behind its furthest figure",
    ),
    (
        {"present": gaps(4), "collected": [[], ["-4"]], "figures": [[6, 0, 0], [2, 0, 0]]},
        "seat 1 holds 1 '-4' card, but only 0 of the '-4' gaps (4) lie behind",
    ),
    (
        {
            "present": gaps(4, 23),
            "collected": [["-4"], ["-4"]],
            "figures": [[6, 0, 0], [5, 0, 0]],
        },
        "seats [1, 0] hold 2 '-4' cards, but only 1 of the '-4' gaps (4, 23) lie behind their "
        "furthest figures",
    ),
    # the seat to move still has a figure to play
    ({"figures": [[33, 33, 33], START[1]]}, "override turn: every figure of seat 0 is at Finish"),
    ({"figures": [START[0], [33, 33, 33]], "turn": 1}, "every figure of seat 1 is at Finish"),
]


@pytest.mark.parametrize(("overrides", "problem"), SHAPES + UNREACHABLE)
def test_bad_overrides_are_refused_and_named(overrides: dict[str, Any], problem: str) -> None:
    state = new_match().state
    before = msgspec.json.encode(state)
    with pytest.raises(IllegalAction) as refused:
        GAME.override(state, overrides)
    assert problem in refused.value.reason
    assert msgspec.json.encode(state) == before  # nothing applied


@pytest.mark.parametrize(
    "overrides",
    [
        {"guards": guards(g0=10, g1=10), "figures": [[5, 0, 0], START[1]]},  # guards share a card
        {"guards": guards(g0=6), "figures": [[5, 0, 0], START[1]]},  # a figure stayed on 5
        {  # the last figure to leave 5 took it
            "guards": guards(g0=6),
            "present": gaps(5),
            "collected": [[], ["F"]],
            "figures": [[0, 0, 0], [7, 0, 0]],
        },
        {  # the cards of one value are shared out by how far each seat's figures went
            "present": gaps(4, 23),
            "collected": [["-4"], ["-4"]],
            "figures": [[24, 0, 0], [5, 0, 0]],
        },
        {"figures": [[33, 33, 33], START[1]], "turn": 1},  # a finished seat no longer plays
    ],
)
def test_reachable_positions_are_accepted(overrides: dict[str, Any]) -> None:
    state = new_match(**overrides).state
    assert GAME.facts(state)["figures"] == overrides.get("figures", START)


def test_good_overrides_are_applied() -> None:
    route = list(reversed(FIXED_LABELS))  # 1 +6, 2 F, 3 -7, 4 +4, 5 -5, 6 F, ...
    state = new_match(
        3,
        route=route,
        present=gaps(1, 2, 3),
        figures=[[0, 5, 33], [4, 4, 7], [33, 33, 9]],
        guards=[4, 6, 12, 17, 23, 28, 8, 20],  # guard 0 went from the F at 2 to 4
        collected=[["F", "-7"], [], ["+6"]],
        turn=1,
    ).state
    assert [board.label(v) for v in state.route] == route
    assert state.present == gaps(1, 2, 3)
    assert state.figures == [[0, 5, 33], [4, 4, 7], [33, 33, 9]]
    assert state.guards == [4, 6, 12, 17, 23, 28, 8, 20]
    assert state.collected == [[board.FORTUNE, -7], [], [6]]
    assert state.turn == 1


def test_a_new_route_places_the_guards_again() -> None:
    route = list(reversed(FIXED_LABELS))
    state = new_match(route=route).state
    assert state.guards == board.guard_places(state.route) == [2, 6, 12, 17, 23, 28, 8, 20]


def as_overrides(state: State) -> dict[str, Any]:
    """A played position written as a scenario's ``setup``."""
    return {
        "route": [board.label(v) for v in state.route],
        "present": state.present,
        "figures": state.figures,
        "guards": state.guards,
        "collected": [[board.label(v) for v in cards] for cards in state.collected],
        "turn": state.turn,
    }


@pytest.mark.parametrize("seed", range(12))
def test_every_position_reached_in_play_is_accepted(seed: int) -> None:
    """The refusals rule out only what play never produces: random games, set up again."""
    chooser = random.Random(seed)
    players = 2 + seed % 5
    match = Match(GAME, players, seed=seed)
    while not match.is_over():
        seat = match.state.turn
        if GAME.outcome(match.state) is None and match.state.phase == "roll":
            position = as_overrides(match.state)
            again = Match(GAME, players, seed=seed, overrides=position).state
            assert as_overrides(again) == position
        match.submit(seat, Roll())
        # mostly figures, sometimes a guard, so guards wander too
        actions = match.legal_actions(seat)
        figures = [a for a in actions if isinstance(a, MoveFigure)]
        pick = figures if figures and chooser.random() < 0.7 else actions
        match.submit(seat, chooser.choice(pick))
