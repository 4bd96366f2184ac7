"""Play: random games end, advised actions are accepted, pure methods stay pure, clones are
independent, the same seed plays the same game, and chance nodes are well formed."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import msgspec

from talltales.core.errors import IllegalAction
from talltales.core.game import CHANCE, CLOCK, Event, Game, Outcome
from talltales.core.match import Match, decode_action
from talltales.core.record import encode_record

from ..support import (
    Snapshot,
    advised,
    chance_pending,
    encode,
    encode_state,
    fork,
    play,
    sampled,
    seats,
    walk,
)


def check_random_games_end(game: Game[Any, Any], players: int, seeds: Sequence[int]) -> None:
    """Random play through Match always ends, with a full ranking and a score per seat."""
    for seed in seeds:
        match = play(game, players, seed)
        where = f"{game.id}-{players}p seed {seed}"
        outcome = match.outcome()
        assert outcome is not None, where
        assert isinstance(outcome, Outcome), where
        assert len(outcome.scores) == players, where
        assert all(isinstance(s, int) for s in outcome.scores), where
        ranked = [seat for group in outcome.ranking for seat in group]
        assert sorted(ranked) == list(range(players)), f"{where}: ranking {outcome.ranking}"
        assert all(outcome.ranking), f"{where}: empty place in ranking {outcome.ranking}"
        assert set(outcome.winners) == set(outcome.ranking[0]), where
        assert match.is_over() and match.pending() == frozenset(), where
        assert all(match.legal_actions(s) == [] for s in range(players)), where
        assert match.deadline() is None, where
        assert match.version == len(match.record.entries) > 0, where
        assert game.players(match.state) == players, where
        assert msgspec.json.decode(encode(outcome), type=Outcome) == outcome, where


def check_advised_actions_are_accepted(
    game: Game[Any, Any], players: int, seeds: Sequence[int]
) -> None:
    """Every action legal_actions advises, for every pending seat, is accepted by a fork."""
    checked = 0
    for seed in seeds:
        for moment in sampled(walk(game, players, seed), 0.3, seed):
            match = moment.match
            before = Snapshot.of(match)
            for seat, action in advised(match):
                wire = decode_action(game, encode(action))
                assert wire == action, (
                    f"{game.id}-{players}p: advised {action!r} reads back as {wire!r}"
                )
                game.validate(game.clone(match.state), seat, action)
                other = fork(match)
                events = other.submit(seat, encode(action))
                assert all(isinstance(e, Event) for e in events)
                assert other.version > match.version
                assert other.version == len(other.record.entries)
                assert other.record.entries[match.version].seat == seat
                clone = game.clone(match.state)
                game.validate(clone, seat, action)
                assert all(isinstance(e, Event) for e in game.apply(clone, seat, action))
                checked += 1
            assert Snapshot.of(match) == before, (
                f"{game.id}-{players}p: trying advised actions changed it"
            )
    assert checked > 0


def _pure_answers(game: Any, players: int, state: Any) -> list[bytes]:
    """What the pure methods say about ``state``, as bytes."""
    out = [encode(sorted(game.pending(state)))]
    for seat in sorted(game.pending(state)):
        actions = game.legal_actions(state, seat)
        out.append(encode(actions))
        for action in actions:
            game.validate(state, seat, action)
            text = game.describe(state, action)
            assert isinstance(text, str) and text
            out.append(text.encode())
    out += [encode(game.view(state, seat)) for seat in seats(players)]
    out.append(encode(game.secrets(state)))
    for seat in seats(players):
        out.append(encode_state(game.resample_hidden(state, seat, 7)))
    out.append(encode(game.outcome(state)))
    heuristic = game.heuristic(state)
    assert len(heuristic) == players and all(math.isfinite(h) for h in heuristic)
    out.append(encode(heuristic))
    assert game.players(state) == players
    facts = game.facts(state)
    assert isinstance(facts, dict)
    out.append(encode(facts))
    out.append(encode(game.chance_outcomes(state)))
    out.append(encode(game.deadline(state)))
    out.append(encode_state(game.clone(state)))
    return out


def check_pure_methods_do_not_mutate(
    game: Game[Any, Any], players: int, seeds: Sequence[int]
) -> None:
    """Everything but apply and tick leaves the state alone and answers the same twice."""
    for seed in seeds:
        for moment in sampled(walk(game, players, seed), 0.3, seed):
            state = moment.state
            before = encode_state(state)

            first = _pure_answers(game, players, state)
            assert encode_state(state) == before, (
                f"{game.id}-{players}p: a pure method mutated the state"
            )
            again = _pure_answers(game, players, state)
            assert again == first, f"{game.id}-{players}p: pure methods answered differently twice"


def check_clone_independence(game: Game[Any, Any], players: int, seeds: Sequence[int]) -> None:
    """Mutating a clone leaves the original alone, and the other way round."""
    checked = 0
    for seed in seeds:
        kept: list[tuple[Any, bytes]] = []
        for moment in sampled(walk(game, players, seed), 0.3, seed):
            state = moment.state
            original = encode_state(state)
            assert encode_state(game.clone(state)) == original
            for seat, action in advised(moment.match)[:4]:
                mutated, bystander = game.clone(state), game.clone(state)
                game.validate(mutated, seat, action)
                game.apply(mutated, seat, action)
                assert encode_state(state) == original, (
                    f"{game.id}-{players}p: applying to a clone leaked"
                )
                assert encode_state(bystander) == original, (
                    f"{game.id}-{players}p: clones share data"
                )
                checked += 1
            kept.append((game.clone(state), original))
        # The match has played on since each clone was taken: the clones must not have moved.
        for clone, encoded in kept:
            assert encode_state(clone) == encoded, (
                f"{game.id}-{players}p: playing on changed an old clone"
            )
    assert checked > 0


def check_determinism(game: Game[Any, Any], players: int, seeds: Sequence[int]) -> None:
    """The same seed and the same actions give the same record and final state."""
    for seed in seeds:
        first = play(game, players, seed)
        second = play(game, players, seed)
        where = f"{game.id}-{players}p seed {seed}"
        assert encode_record(first.record) == encode_record(second.record), f"{where}: records"
        assert encode_state(first.state) == encode_state(second.state), f"{where}: states"
        # Resubmit only the players' actions and the clock: chance must fall the same way.
        again: Match[Any, Any] = Match(game, players, seed=seed)
        for entry in first.record.entries[again.version :]:
            if entry.seat == CLOCK:
                again.tick(entry.time)
            elif entry.seat != CHANCE:
                again.submit(entry.seat, entry.action, entry.time)
        assert encode_record(again.record) == encode_record(first.record), f"{where}: resubmitted"
        assert encode_state(again.state) == encode_state(first.state), f"{where}: resubmitted"


def check_chance_nodes(game: Game[Any, Any], players: int, seeds: Sequence[int]) -> None:
    """At chance nodes: outcomes with positive probabilities summing to 1, each valid for
    CHANCE; sample_chance draws one of them and, being pure, leaves the state alone."""
    impure: list[str] = []
    for seed in seeds:
        for moment in walk(game, players, seed, auto_chance=False):
            match, state = moment.match, moment.state
            if not chance_pending(match):
                assert game.chance_outcomes(state) == [], (
                    f"{game.id}-{players}p: outcomes but no chance"
                )
                refused_draw = False
                try:
                    game.sample_chance(game.clone(state))
                except IllegalAction:
                    refused_draw = True
                assert refused_draw, (
                    f"{game.id}-{players}p: sample_chance drew with no chance pending"
                )
                continue
            outcomes = game.chance_outcomes(state)
            assert outcomes, f"{game.id}-{players}p: chance pending but no chance outcomes"
            assert all(p > 0 for _, p in outcomes), outcomes
            assert math.isclose(sum(p for _, p in outcomes), 1.0, abs_tol=1e-9), outcomes
            encoded = {encode(a) for a, _ in outcomes}
            assert len(encoded) == len(outcomes), f"{game.id}-{players}p: repeated chance outcomes"
            for action, _ in outcomes:
                assert decode_action(game, encode(action)) == action
                game.validate(game.clone(state), CHANCE, action)
            clone = game.clone(state)
            before = encode_state(clone)
            drawn = game.sample_chance(clone)
            assert encode(drawn) in encoded, (
                f"{game.id}-{players}p: sampled {drawn!r} is no outcome"
            )
            if encode_state(clone) != before:
                impure.append(f"seed {seed} step {moment.step}")
    assert not impure, f"{game.id}-{players}p: sample_chance mutated the state at {impure[:3]}"
