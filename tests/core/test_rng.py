"""The seeded generator: SplitMix64 whose whole state is one integer."""

from __future__ import annotations

import itertools
from collections import Counter

import pytest

from talltales.core import rng
from talltales.core.rng import Rng, below, next_u64, seed_state, shuffle

MASK = (1 << 64) - 1


def draws(seed: int, n: int, count: int) -> list[int]:
    state = seed_state(seed)
    out = []
    for _ in range(count):
        state, value = below(state, n)
        out.append(value)
    return out


def test_known_answers_pin_the_algorithm() -> None:
    # SplitMix64 from state 0 (published reference outputs); records replay only if these hold.
    state = seed_state(0)
    assert state == 0
    outputs = []
    for _ in range(4):
        state, value = next_u64(state)
        outputs.append(value)
    assert outputs == [
        0xE220A8397B1DCDAF,
        0x6E789E6AA1B965F4,
        0x06C45D188009454F,
        0xF88BB8A8724C81EC,
    ]


def test_same_seed_same_sequence_other_seed_other_sequence() -> None:
    assert draws(42, 1000, 50) == draws(42, 1000, 50)
    assert draws(42, 1000, 50) != draws(43, 1000, 50)
    a, b = Rng(7), Rng(7)
    assert [a.below(10**9) for _ in range(20)] == [b.below(10**9) for _ in range(20)]
    assert seed_state(1) != seed_state(2)


def test_functions_are_pure_and_the_wrapper_agrees_with_them() -> None:
    state = seed_state(99)
    assert next_u64(state) == next_u64(state)
    assert below(state, 6) == below(state, 6)
    wrapper = Rng(99)
    assert wrapper.state == state
    assert [wrapper.below(6) for _ in range(30)] == draws(99, 6, 30)


def test_outputs_are_64_bit() -> None:
    state = seed_state(3)
    for _ in range(1000):
        state, value = next_u64(state)
        assert 0 <= value <= MASK
        assert 0 <= state <= MASK


@pytest.mark.parametrize("n", [1, 2, 3, 6, 7, 10, 1000, (1 << 63) + 1, 1 << 64])
def test_below_stays_in_range(n: int) -> None:
    values = draws(n, n, 500)
    assert all(0 <= v < n for v in values)
    if n == 1:
        assert set(values) == {0}


@pytest.mark.parametrize("n", [0, -1])
def test_below_needs_a_positive_bound(n: int) -> None:
    with pytest.raises(ValueError):
        below(seed_state(0), n)
    with pytest.raises(ValueError):
        Rng(0).below(n)


def test_below_is_roughly_uniform() -> None:
    n, count = 6, 60_000
    tally = Counter(draws(2024, n, count))
    assert set(tally) == set(range(n))
    for value in range(n):
        assert abs(tally[value] - count / n) < 0.05 * count / n, tally
    # a bound that is not a power of two, with rejection sampling near 2**64
    big = (1 << 63) + (1 << 62)
    halves = Counter(v < big // 2 for v in draws(5, big, 20_000))
    assert abs(halves[True] - 10_000) < 500


def test_shuffle_is_a_permutation_and_deterministic() -> None:
    items = list(range(50))
    state = shuffle(seed_state(8), items)
    assert sorted(items) == list(range(50))
    assert items != list(range(50))
    again = list(range(50))
    assert shuffle(seed_state(8), again) == state
    assert again == items
    assert state != seed_state(8)


def test_shuffle_of_short_lists() -> None:
    state = seed_state(1)
    empty: list[int] = []
    assert shuffle(state, empty) == state
    assert empty == []
    one = ["only"]
    assert shuffle(state, one) == state
    assert one == ["only"]


def test_shuffle_reaches_every_order_about_equally() -> None:
    orders: Counter[tuple[int, ...]] = Counter()
    state = seed_state(77)
    for _ in range(6000):
        items = [0, 1, 2, 3]
        state = shuffle(state, items)
        orders[tuple(items)] += 1
    assert set(orders) == set(itertools.permutations(range(4)))
    assert all(150 < c < 350 for c in orders.values()), orders  # 250 expected each


def test_negative_seeds() -> None:
    assert 0 <= seed_state(-1) <= MASK
    assert seed_state(-1) != seed_state(1)
    assert seed_state(-1) == seed_state(MASK)  # seeds are taken modulo 2**64
    assert draws(-12345, 100, 20) == draws(-12345, 100, 20)
    assert draws(-12345, 100, 20) != draws(12345, 100, 20)
    assert Rng(-5).below(1000) == Rng(-5).below(1000)


def test_random_and_choice() -> None:
    wrapper = Rng(11)
    values = [wrapper.random() for _ in range(10_000)]
    assert all(0.0 <= v < 1.0 for v in values)
    assert 0.45 < sum(values) / len(values) < 0.55
    picks = Counter(wrapper.choice(["a", "b", "c"]) for _ in range(3000))
    assert set(picks) == {"a", "b", "c"}
    assert all(800 < c < 1200 for c in picks.values())
    with pytest.raises(ValueError):
        wrapper.choice([])


def test_the_module_exposes_the_functional_api() -> None:
    assert rng.seed_state is seed_state
    assert rng.shuffle is shuffle
