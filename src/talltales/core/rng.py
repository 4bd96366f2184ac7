"""A seeded generator whose whole state is one integer: states clone and serialise cheaply."""

from __future__ import annotations

from collections.abc import MutableSequence
from typing import TypeVar

T = TypeVar("T")

_MASK = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15
_LIMITS = {n: (1 << 64) - ((1 << 64) % n) for n in range(1, 65)}  # rejection bounds, small n


def _mix(z: int) -> int:
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return z ^ (z >> 31)


def seed_state(seed: int) -> int:
    """The generator state for a seed (any integer, negative too)."""
    return _mix(seed & _MASK)


def next_u64(state: int) -> tuple[int, int]:
    """Advance SplitMix64: return (new state, 64 random bits)."""
    state = (state + _GOLDEN) & _MASK
    return state, _mix(state)


def below(state: int, n: int) -> tuple[int, int]:
    """Return (new state, a uniform integer in [0, n)) without modulo bias."""
    if n <= 0:
        raise ValueError("n must be positive")
    limit = _LIMITS.get(n) or (1 << 64) - ((1 << 64) % n)
    while True:  # next_u64 and _mix inlined: dice are rolled in every playout
        state = (state + _GOLDEN) & _MASK
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        bits = z ^ (z >> 31)
        if bits < limit:
            return state, bits % n


def shuffle(state: int, items: MutableSequence[T]) -> int:
    """Fisher-Yates shuffle in place; return the new state."""
    for i in range(len(items) - 1, 0, -1):
        state, j = below(state, i + 1)
        items[i], items[j] = items[j], items[i]
    return state


class Rng:
    """A mutable wrapper for drivers and bots that are not part of a game state."""

    __slots__ = ("state",)

    def __init__(self, seed: int) -> None:
        self.state = seed_state(seed)

    def below(self, n: int) -> int:
        """A uniform integer in [0, n)."""
        self.state, value = below(self.state, n)
        return value

    def choice(self, items: list[T]) -> T:
        """A uniform choice from a non-empty list."""
        return items[self.below(len(items))]

    def random(self) -> float:
        """A float in [0, 1)."""
        self.state, bits = next_u64(self.state)
        return (bits >> 11) / float(1 << 53)
