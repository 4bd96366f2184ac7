"""A Hypothesis state machine per game and player count, driving Match with advised
actions picked by index, clock ticks, and every sort of thing Match must refuse."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import msgspec
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
    run_state_machine_as_test,
)

from talltales.core.errors import GameOver, IllegalAction, MalformedAction, NotYourTurn
from talltales.core.game import CHANCE, CLOCK, Game
from talltales.core.match import MAX_ACTION_BYTES, Match, decode_action
from talltales.core.rng import Rng

from ..support import Snapshot, action_pool, encode, fork, refused, seats, tag_field

SETTINGS = settings(
    max_examples=12,
    stateful_step_count=25,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)

JUNK = st.one_of(
    st.binary(max_size=24),
    st.text(max_size=24),
    st.integers(),
    st.none(),
    st.lists(st.integers(), max_size=3),
    st.dictionaries(
        st.sampled_from(["type", "seat", "value", "figure", "x"]),
        st.one_of(st.none(), st.booleans(), st.integers(-3, 40), st.text(max_size=6)),
        max_size=3,
    ),
)


def machine_for(game: Game[Any, Any], players: int) -> type[RuleBasedStateMachine]:
    """A state machine class bound to one game and player count."""
    pool = action_pool(game)
    tag = tag_field(game)

    class ConformanceMachine(RuleBasedStateMachine):
        match: Match[Any, Any]

        @initialize(seed=st.integers(0, 2**32 - 1))
        def start(self, seed: int) -> None:
            self.match = Match(game, players, seed=seed)
            self.now = 0

        # --- moves that may be accepted ------------------------------------------------
        @rule(seat_pick=st.integers(0, 63), action_pick=st.integers(0, 10_000))
        def act(self, seat_pick: int, action_pick: int) -> None:
            match = self.match
            if match.is_over():
                refused(match, GameOver, 0, pool[0], "after the end")
                return
            pending = sorted(match.pending())
            if not pending:
                due = match.deadline()
                assert due is not None, "nobody may act, the game is not over, no deadline"
                self.now = max(self.now, due)
                match.tick(self.now)
                return
            seat = pending[seat_pick % len(pending)]
            actions = match.legal_actions(seat)
            before = match.version
            match.submit(seat, actions[action_pick % len(actions)], self.now)
            assert match.version > before

        @precondition(lambda self: not self.match.is_over())
        @rule(seed=st.integers(0, 2**16), steps=st.integers(1, 300))
        def play_on(self, seed: int, steps: int) -> None:
            """Many random advised moves at once, so games reach their end."""
            rng, match = Rng(seed), self.match
            for _ in range(steps):
                if match.is_over():
                    return
                pending = sorted(match.pending())
                if not pending:
                    due = match.deadline()
                    assert due is not None
                    self.now = max(self.now, due)
                    match.tick(self.now)
                    continue
                seat = rng.choice(pending)
                match.submit(seat, rng.choice(match.legal_actions(seat)), self.now)

        @rule(delta=st.integers(0, 120_000))
        def tick(self, delta: int) -> None:
            match = self.match
            before = Snapshot.of(match)
            due = match.deadline()
            self.now += delta
            events = match.tick(self.now)
            if due is None or self.now < due:
                assert events == [] and Snapshot.of(match) == before, "an early tick changed it"
            else:
                assert match.version > before.version

        @rule(action_pick=st.integers(0, 10_000), as_bytes=st.booleans())
        def pooled(self, action_pick: int, as_bytes: bool) -> None:
            """A well-formed action the game makes somewhere: accepted iff validate says so."""
            match = self.match
            action = pool[action_pick % len(pool)]
            raw = encode(action) if as_bytes else action
            pending = sorted(match.pending())
            if match.is_over() or not pending:
                error = GameOver if match.is_over() else NotYourTurn
                refused(match, error, 0, raw, "pooled action")
                return
            seat = pending[action_pick % len(pending)]
            try:
                game.validate(game.clone(match.state), seat, action)
            except IllegalAction:
                refused(match, IllegalAction, seat, raw, repr(action))
            else:
                before = match.version
                match.submit(seat, raw, self.now)
                assert match.version > before

        # --- things Match must refuse --------------------------------------------------
        @rule(seat=st.integers(-3, players + 3), pick=st.integers(0, 10_000))
        def out_of_turn(self, seat: int, pick: int) -> None:
            match = self.match
            if seat in match.pending() and not match.is_over():
                return
            error = GameOver if match.is_over() else NotYourTurn
            action = pool[pick % len(pool)]
            refused(match, error, seat, action, f"seat {seat}")

        @rule(
            kind=st.sampled_from(["bad json", "no such type", "oversize", "wrong tag type"]),
            seat_pick=st.integers(0, 63),
        )
        def malformed(self, kind: str, seat_pick: int) -> None:
            match = self.match
            raw: object = {
                "bad json": b'{"' + tag.encode(),
                "no such type": {tag: "no-such"},
                "oversize": b" " * MAX_ACTION_BYTES + encode(pool[0]),
                "wrong tag type": {tag: [1]},
            }[kind]
            pending = sorted(match.pending())
            if match.is_over():
                refused(match, GameOver, 0, raw, kind)
            elif not pending:
                refused(match, NotYourTurn, 0, raw, kind)
            else:
                seat = pending[seat_pick % len(pending)]
                refused(match, MalformedAction, seat, raw, kind)

        @rule(raw=JUNK, seat_pick=st.integers(0, 63))
        def junk(self, raw: object, seat_pick: int) -> None:
            """Arbitrary input: refused with the right error unless it is a legal action."""
            match = self.match
            pending = sorted(match.pending())
            if match.is_over() or not pending:
                error = GameOver if match.is_over() else NotYourTurn
                refused(match, error, 0, raw, repr(raw))
                return
            seat = pending[seat_pick % len(pending)]
            try:
                action = decode_action(game, raw)
            except MalformedAction:
                refused(match, MalformedAction, seat, raw, repr(raw))
                return
            try:
                game.validate(game.clone(match.state), seat, action)
            except IllegalAction:
                refused(match, IllegalAction, seat, raw, repr(raw))
                return
            other = fork(match)
            other.submit(seat, raw)
            assert other.version > match.version

        # --- invariants -----------------------------------------------------------------
        @invariant()
        def version_counts_entries(self) -> None:
            assert self.match.version == len(self.match.record.entries)

        @invariant()
        def pending_seats_can_act(self) -> None:
            match = self.match
            if match.is_over():
                assert match.pending() == frozenset() or all(
                    match.legal_actions(s) == [] for s in match.pending()
                )
                assert match.outcome() is not None
                return
            for seat in match.pending():
                assert match.legal_actions(seat), f"pending seat {seat} has no legal action"
            assert match.pending() or match.deadline() is not None, "the game is stuck"
            assert CHANCE not in match.pending() and CLOCK not in match.pending()

        @invariant()
        def views_encode(self) -> None:
            before = Snapshot.of(self.match)
            for seat in seats(players):
                decoded = msgspec.json.decode(encode(self.match.view(seat)))
                assert isinstance(decoded, dict)
            assert Snapshot.of(self.match) == before, "building views changed the match"

    ConformanceMachine.__name__ = f"Conformance_{game.id}_{players}p"
    return ConformanceMachine


def check_state_machine(game: Game[Any, Any], players: int, seeds: Sequence[int]) -> None:
    """Hypothesis drives Match at random: as many examples as ``seeds`` (it draws its own
    seeds, derandomized, so the run is the same every time)."""
    chosen = settings(SETTINGS, max_examples=len(seeds))
    run_state_machine_as_test(machine_for(game, players), settings=chosen)
