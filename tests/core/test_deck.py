"""The deck helper: drawing, dealing, discarding and reshuffling, all from a state's RNG."""

from __future__ import annotations

import msgspec
import pytest

from talltales.core import rng
from talltales.core.deck import Deck, WhenEmpty

CARDS = [f"c{i}" for i in range(6)]


def test_a_shuffled_deck_holds_every_card_once_and_depends_on_the_seed() -> None:
    orders = set()
    for seed in range(6):
        _, deck = Deck.shuffled(CARDS, rng.seed_state(seed))
        assert sorted(deck.pile) == CARDS
        orders.add(tuple(deck.pile))
    assert len(orders) > 1
    again = Deck.shuffled(CARDS, rng.seed_state(3))
    assert again == Deck.shuffled(CARDS, rng.seed_state(3))


def test_drawing_takes_the_top_card_and_a_spent_deck_gives_none() -> None:
    deck = Deck(["a", "b"])
    state, card = deck.draw(7, WhenEmpty.SPENT)
    assert (state, card, deck.pile) == (7, "b", ["a"])  # no reshuffle: the RNG is untouched
    deck.discard("b")
    _, card = deck.draw(state, WhenEmpty.SPENT)
    assert card == "a"
    assert deck.draw(state, WhenEmpty.SPENT) == (state, None)
    assert deck.discards == ["b"]  # spent means spent: the discards stay where they are


def test_an_empty_pile_is_refilled_from_the_shuffled_discards_when_the_game_says_so() -> None:
    deck = Deck([], ["x", "y", "z"])
    state, card = deck.draw(rng.seed_state(1), WhenEmpty.RESHUFFLE)
    assert card in {"x", "y", "z"}
    assert sorted([*deck.pile, card]) == ["x", "y", "z"]
    assert deck.discards == [] and deck.reshuffles == 1
    assert state != rng.seed_state(1)
    empty = Deck([])
    assert empty.draw(5, WhenEmpty.RESHUFFLE) == (5, None)
    assert empty.reshuffles == 0


def test_reshuffled_discards_go_under_what_is_left() -> None:
    deck = Deck(["top"], ["old1", "old2"])
    deck.reshuffle(rng.seed_state(2))
    assert deck.pile[-1] == "top"
    assert sorted(deck.pile[:-1]) == ["old1", "old2"]


@pytest.mark.parametrize(("when", "dealt"), [(WhenEmpty.SPENT, 2), (WhenEmpty.RESHUFFLE, 3)])
def test_dealing_stops_when_the_deck_is_spent(when: WhenEmpty, dealt: int) -> None:
    deck = Deck(["a", "b"], ["c"])
    _, hand = deck.deal(rng.seed_state(4), 5, when)
    assert len(hand) == dealt


def test_a_copy_is_independent_and_the_deck_round_trips_as_json() -> None:
    deck = Deck(["a", "b"], ["c"], 1)
    copy = deck.copy()
    copy.draw(0, WhenEmpty.SPENT)
    copy.discard("d")
    assert deck == Deck(["a", "b"], ["c"], 1)
    assert msgspec.json.decode(msgspec.json.encode(deck), type=Deck) == deck
    assert deck.size == 2
