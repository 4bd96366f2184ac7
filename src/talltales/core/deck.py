"""A deck of cards held in a game state: a face-down draw pile and a face-up discard pile.

Cards are ids (strings); the game keeps the cards themselves. What happens when the draw
pile runs out is each rulebook's business, so ``draw`` takes it as an argument: reshuffle
the discards, or say the deck is spent (and let the game end or skip).
"""

from __future__ import annotations

import enum

import msgspec

from talltales.core import rng


class WhenEmpty(enum.StrEnum):
    """What drawing from an empty pile does."""

    RESHUFFLE = "reshuffle"  # the discards, shuffled, become the new draw pile
    SPENT = "spent"  # nothing is drawn: the game decides what that means


class Deck(msgspec.Struct):
    """The draw pile (top card last, so drawing pops) and the discards, oldest first."""

    pile: list[str]
    discards: list[str] = []
    reshuffles: int = 0  # how many times the discards went back in

    @classmethod
    def shuffled(cls, cards: list[str], state: int) -> tuple[int, Deck]:
        """A new deck of ``cards`` in an order drawn from the generator ``state``."""
        pile = list(cards)
        return rng.shuffle(state, pile), cls(pile)

    def draw(self, state: int, when_empty: WhenEmpty) -> tuple[int, str | None]:
        """Take the top card; on an empty pile reshuffle first or return None."""
        if not self.pile and when_empty is WhenEmpty.RESHUFFLE:
            state = self.reshuffle(state)
        if not self.pile:
            return state, None
        return state, self.pile.pop()

    def deal(self, state: int, count: int, when_empty: WhenEmpty) -> tuple[int, list[str]]:
        """Draw up to ``count`` cards (fewer when the deck is spent)."""
        hand: list[str] = []
        for _ in range(count):
            state, card = self.draw(state, when_empty)
            if card is None:
                break
            hand.append(card)
        return state, hand

    def discard(self, *cards: str) -> None:
        """Put cards face up on the discard pile."""
        self.discards.extend(cards)

    def reshuffle(self, state: int) -> int:
        """Shuffle the discards under what is left of the draw pile."""
        if not self.discards:
            return state
        returned, self.discards = self.discards, []
        state = rng.shuffle(state, returned)
        self.pile[:0] = returned
        self.reshuffles += 1
        return state

    def copy(self) -> Deck:
        """An independent copy (for clones)."""
        return Deck(self.pile[:], self.discards[:], self.reshuffles)

    @property
    def size(self) -> int:
        """Cards left to draw."""
        return len(self.pile)
