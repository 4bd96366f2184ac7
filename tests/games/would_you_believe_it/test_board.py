"""The route deck, layouts, guard places, figure counts and scoring, as tables."""

from __future__ import annotations

from collections import Counter

import pytest

from talltales.games.would_you_believe_it import board
from talltales.games.would_you_believe_it.board import FORTUNE


def test_components_match_the_rulebook() -> None:
    kinds = Counter("plus" if v > 0 else "minus" if v < 0 else "fortune" for v in board.ROUTE_DECK)
    assert kinds == {"plus": 8, "minus": 18, "fortune": 6}
    assert {8, 7} <= set(board.ROUTE_DECK)  # printed values
    assert {-2, -4, -5, -7} <= set(board.ROUTE_DECK)
    assert board.FINISH == 33


def test_fixed_layout_is_the_same_deck() -> None:
    assert sorted(board.FIXED_LAYOUT) == sorted(board.ROUTE_DECK)


def test_shuffled_layout_depends_on_the_seed_only() -> None:
    first, _ = board.shuffled_layout(board.rng.seed_state(1))
    again, _ = board.shuffled_layout(board.rng.seed_state(1))
    other, _ = board.shuffled_layout(board.rng.seed_state(2))
    assert first == again
    assert first != other
    assert sorted(first) == sorted(board.ROUTE_DECK)


def test_guards_start_on_fortune_cards_and_the_two_best_plus_cards() -> None:
    route = list(board.FIXED_LAYOUT)
    places = board.guard_places(route)
    assert len(places) == 8
    assert sorted(route[p - 1] for p in places) == [FORTUNE] * 6 + [7, 8]


@pytest.mark.parametrize(("players", "each"), [(2, 3), (3, 3), (4, 3), (5, 2), (6, 2)])
def test_figures_each(players: int, each: int) -> None:
    assert board.figures_each(players) == each


@pytest.mark.parametrize(
    ("cards", "points"),
    [
        ([], 0),
        ([8, 7], 15),  # plus cards score their value
        ([-4, -2], -6),  # minus cards cost theirs
        ([-4, -2, FORTUNE], 2),  # the fortune converts the highest minus: +4 -2
        ([-7, -5, -1, FORTUNE, FORTUNE], 11),  # two fortunes, the two highest minus cards
        ([-3, FORTUNE, FORTUNE, FORTUNE], 3),  # surplus fortunes score nothing
        ([FORTUNE], 0),
        ([5, -6, -6, FORTUNE], 5),  # equal minus cards: one converted, one subtracted
    ],
)
def test_scoring(cards: list[int], points: int) -> None:
    assert board.score(cards) == points


@pytest.mark.parametrize(("text", "value"), [("+8", 8), ("-4", -4), ("F", FORTUNE), ("f", 0)])
def test_labels_round_trip(text: str, value: int) -> None:
    assert board.parse_label(text) == value
    assert board.label(value) == text.upper()


def test_zero_is_not_a_card() -> None:
    with pytest.raises(ValueError, match="write F"):
        board.parse_label("0")
