"""The one driver: clocks tick while seats think, bots see only their seat's sample."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest
from fixture_game import FIB_OFF, Phase

from talltales.bots import make_bot
from talltales.core.driver import Driver, Stuck, VirtualClock, WallClock
from talltales.core.errors import TallTalesError
from talltales.core.game import CLOCK, Game, Seat
from talltales.core.match import Match
from talltales.games.would_you_believe_it import GAME as WYBI


class Spy:
    """A bot that remembers every state it was given, and plays the first legal action."""

    def __init__(self) -> None:
        self.seen: list[tuple[Seat, Any]] = []

    def choose(
        self, game: Game[Any, Any], state: Any, seat: Seat, *, budget: float | None = None
    ) -> Any:
        self.seen.append((seat, game.clone(state)))
        return game.legal_actions(state, seat)[0]


def fib_match(**options: int) -> Match[Any, Any]:
    return Match(FIB_OFF, 4, {"rounds": 2, **options}, seed=3)


def test_a_deadline_passing_while_bots_think_is_ticked_though_seats_could_act() -> None:
    match = fib_match(dispute_ms=800, write_ms=2_500)  # a bot thinks for 1 s
    bots = {s: make_bot("random", s) for s in range(4)}
    driver = Driver(match, bots, VirtualClock(), think_ms=1_000)
    ticked_while_pending = 0
    while not match.is_over():
        waiting = match.pending()
        before = len(match.record.entries)
        assert driver.step() is not None
        ticks = [e for e in match.record.entries[before:] if e.seat == CLOCK]
        ticked_while_pending += bool(ticks and waiting)
    assert ticked_while_pending > 0


def test_without_think_time_virtual_time_jumps_only_when_nobody_can_act() -> None:
    match = fib_match()
    driver = Driver(match, {s: make_bot("random", s) for s in range(4)}, VirtualClock())
    driver.run()
    assert match.is_over()
    assert driver.clock.now() == 0  # random bots always act: no timer needed to run out


def test_bots_decide_from_a_sample_of_their_seat_never_from_the_true_state() -> None:
    match = fib_match()
    spy = Spy()
    driver = Driver(match, {s: spy for s in range(4)}, VirtualClock(), seed=8)
    for _ in range(12):
        before = match.state
        pending = driver.bot_seats()
        true_hands = [h[:] for h in before.hands]
        views = {s: msgspec.json.encode(FIB_OFF.view(before, s)) for s in pending}
        driver.step()
        seat, got = spy.seen[-1]
        assert seat in pending
        view = views[seat]
        assert got is not before
        assert msgspec.json.encode(FIB_OFF.view(got, seat)) == view
        others = [s for s in range(4) if s != seat]
        assert got.hands[seat] == true_hands[seat]
        assert any(got.hands[s] != true_hands[s] for s in others)


@pytest.mark.parametrize("kind", ["random", "greedy", "search:depth=2"])
def test_a_bot_decides_the_same_whatever_the_secrets_it_cannot_see(kind: str) -> None:
    for seed in range(4):
        match = fib_match()
        driver = Driver(match, {s: make_bot(kind, 1) for s in range(4)}, VirtualClock())
        for _ in range(seed * 3):
            driver.step()
        seat = driver.bot_seats()[0]
        planted = Match(FIB_OFF, 4, {"rounds": 2}, seed=3)
        planted.state = FIB_OFF.resample_hidden(match.state, seat, 1_000 + seed)
        assert planted.state.hands != match.state.hands or seat == 0
        same_view = msgspec.json.encode(FIB_OFF.view(planted.state, seat))
        assert same_view == msgspec.json.encode(FIB_OFF.view(match.state, seat))
        one = Driver(match, {seat: make_bot(kind, 42)}, VirtualClock(), seed=5).decide(seat)
        two = Driver(planted, {seat: make_bot(kind, 42)}, VirtualClock(), seed=5).decide(seat)
        assert msgspec.to_builtins(one) == msgspec.to_builtins(two)


def test_people_are_left_to_decide_and_a_bot_less_table_does_not_invent_moves() -> None:
    match = Match(WYBI, 2, seed=1)
    driver = Driver(match, {1: make_bot("random", 1)}, WallClock())
    assert 0 in match.pending()
    assert driver.step() is None  # seat 0 is a person: nothing to do for the driver
    assert driver.wait_ms() is None  # no timer runs in this game
    with pytest.raises(Stuck):
        driver.run()


def test_wait_ms_counts_down_to_the_deadline_on_the_driver_s_clock() -> None:
    match = fib_match(dispute_ms=4_000)
    clock = VirtualClock()
    driver = Driver(match, {}, clock)
    reader = match.state.reader
    match.submit(reader, match.legal_actions(reader)[0], clock.now())
    assert match.state.phase is Phase.DISPUTE
    assert driver.wait_ms() == 4_000
    clock.advance_to(3_000)
    assert driver.wait_ms() == 1_000
    assert driver.tick_if_due() == []
    clock.advance_to(4_000)
    assert driver.due()
    assert [e.kind for e in driver.tick_if_due()] == ["timeout", "write"]
    assert match.state.phase is Phase.WRITE


class SlowClock:
    """A wall-like clock that a slow bot moves on while it thinks."""

    def __init__(self) -> None:
        self.time = 0

    def now(self) -> int:
        return self.time


class Dawdler(Spy):
    """Thinks for 5 s of the clock's time before it answers."""

    def __init__(self, clock: SlowClock) -> None:
        super().__init__()
        self.clock = clock

    def choose(
        self, game: Game[Any, Any], state: Any, seat: Seat, *, budget: float | None = None
    ) -> Any:
        self.clock.time += 5_000
        return super().choose(game, state, seat, budget=budget)


def test_a_bot_that_thinks_past_a_deadline_finds_the_tick_applied_first() -> None:
    match = fib_match(dispute_ms=1_000)
    reader = match.state.reader
    match.submit(reader, match.legal_actions(reader)[0])
    clock = SlowClock()
    driver = Driver(match, {s: Dawdler(clock) for s in range(4)}, clock)
    events = driver.step()
    assert events is not None and events[0].kind == "timeout"
    assert match.record.entries[-1].seat == CLOCK  # no late dispute slipped in before it
    assert match.state.disputer is None


def test_who_moves_first_among_bots_asked_at_once_is_drawn_not_the_lowest_seat() -> None:
    winners = set()
    for seed in range(10):
        match = fib_match()
        reader = match.state.reader
        match.submit(reader, match.legal_actions(reader)[0])
        disputers = {s: make_bot("random", s) for s in range(4) if s != reader}
        driver = Driver(match, disputers, VirtualClock(), seed=seed, think_ms=100)
        driver.step()
        winners.add(match.record.entries[-1].seat)
    assert len(winners) > 1 and reader not in winners


def test_waiting_ticks_each_deadline_on_the_way_and_only_virtual_time_can_wait() -> None:
    match = fib_match(dispute_ms=1_000, write_ms=2_000)
    reader = match.state.reader
    match.submit(reader, match.legal_actions(reader)[0])
    driver = Driver(match, {}, VirtualClock())
    kinds = [e.kind for e in driver.wait(5_000)]
    assert kinds.count("timeout") == 2  # the dispute window, then the writing
    assert driver.clock.now() == 5_000 and match.state.phase is Phase.JUDGE
    with pytest.raises(TallTalesError, match="virtual time"):
        Driver(match, {}, WallClock()).wait(10)
