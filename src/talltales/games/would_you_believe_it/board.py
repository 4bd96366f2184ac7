"""The route of Would You Believe It!: cards, their values, layouts and scoring."""

from __future__ import annotations

from talltales.core import rng

FORTUNE = 0  # a fortune card's value slot; no plus or minus card is worth 0

# Components: 8 plus, 18 minus, 6 fortune. The rulebook names +8, +7, -2, -4, -5 and -7;
# the other values are our choice (docs/rules/would-you-believe-it.md).
PLUS_CARDS = (8, 7, 6, 5, 4, 3, 2, 1)
MINUS_CARDS = (-1, -1, -2, -2, -2, -3, -3, -3, -4, -4, -4, -5, -5, -5, -6, -6, -7, -7)
FORTUNE_CARDS = (FORTUNE,) * 6
ROUTE_DECK = PLUS_CARDS + MINUS_CARDS + FORTUNE_CARDS
ROUTE_LENGTH = len(ROUTE_DECK)  # 32
START = 0
FINISH = ROUTE_LENGTH + 1  # positions 1..32 are route cards

# Setup: guards on the six fortune cards and on +8 and +7.
GUARDED_PLUS = (8, 7)

# A fixed layout for learning games: minus stretches broken by plus and fortune cards.
FIXED_LAYOUT = (
    -1, -2, 3, -4, FORTUNE, -3, -5, 1, -2, FORTUNE, -6, -4, 8, -3, -1, FORTUNE,
    -7, 5, -2, -5, FORTUNE, 2, -4, -6, 7, -3, FORTUNE, -5, 4, -7, FORTUNE, 6,
)  # fmt: skip


def label(value: int) -> str:
    """How a route card is written: '+8', '-4' or 'F'."""
    found = _LABELS.get(value)
    return found if found is not None else f"{value:+d}"


_LABELS = {v: "F" if v == FORTUNE else f"{v:+d}" for v in range(-9, 10)}  # every view needs them


def parse_label(text: str) -> int:
    """The value of a card label ('+8', '-4', 'F')."""
    if text.upper() == "F":
        return FORTUNE
    value = int(text)
    if value == 0:
        raise ValueError("no route card is worth 0; write F for a fortune card")
    return value


def shuffled_layout(state: int) -> tuple[list[int], int]:
    """The 32 route cards in an order drawn from the RNG; returns (layout, new rng state)."""
    layout = list(ROUTE_DECK)
    state = rng.shuffle(state, layout)
    return layout, state


def guard_places(route: list[int]) -> list[int]:
    """Positions of the eight guards at setup: every fortune card, then +8 and +7."""
    places = [i + 1 for i, v in enumerate(route) if v == FORTUNE]
    places += [i + 1 for i, v in enumerate(route) if v in GUARDED_PLUS]
    return places


def figures_each(players: int) -> int:
    """Three figures each for 2-4 players, two for 5-6 (Setup)."""
    return 3 if players <= 4 else 2


def score(cards: list[int]) -> int:
    """Plus cards add; each fortune turns the highest remaining minus card into plus;
    spare fortunes score nothing; other minus cards subtract (The Values of the Route Cards)."""
    plus = sum(v for v in cards if v > 0)
    minus = sorted((-v for v in cards if v < 0), reverse=True)
    fortunes = sum(1 for v in cards if v == FORTUNE)
    return plus + sum(minus[:fortunes]) - sum(minus[fortunes:])
