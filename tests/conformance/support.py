"""Drivers and checks shared by the conformance tests: random play, snapshots, action pools."""

from __future__ import annotations

import copy
import functools
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import msgspec
import pytest

from talltales.core.errors import ActionRefused
from talltales.core.game import CHANCE, Event, Game, Seat
from talltales.core.match import Match
from talltales.core.record import decode_record, encode_record
from talltales.core.rng import Rng

STEP_CAP = 10_000  # actions (chance and clock included) a random game may take before we fail
GAMES_PER_COUNT = 20  # random games to completion per game and player count
TICK_RATE = 0.05  # how often the random driver lets a pending deadline pass instead of acting


def encode_state(state: Any) -> bytes:
    """A state's JSON, with sets and dict keys sorted so equal states encode equally."""
    return msgspec.json.encode(msgspec.to_builtins(state, str_keys=True, order="deterministic"))


def encode(value: Any) -> bytes:
    """Plain msgspec JSON (views and events: byte-identical means byte-identical)."""
    return msgspec.json.encode(value)


def seats(players: int) -> list[Seat | None]:
    """The public view (None) and every seat."""
    return [None, *range(players)]


# --- random play ---------------------------------------------------------------------------
@dataclass
class Moment:
    """A state reached during a random game, with the events of the step that reached it."""

    match: Match[Any, Any]
    events: list[Event]
    step: int

    @property
    def game(self) -> Game[Any, Any]:
        return self.match.game

    @property
    def state(self) -> Any:
        return self.match.state


def chance_pending(match: Match[Any, Any]) -> bool:
    return not match.is_over() and CHANCE in match.game.pending(match.state)


def walk(
    game: Game[Any, Any],
    players: int,
    seed: int,
    *,
    auto_chance: bool = True,
    tick_rate: float = TICK_RATE,
) -> Iterator[Moment]:
    """Play one seeded random game through Match, yielding every state, the final one too.

    A random pending seat picks a random advised action; with ``auto_chance=False`` chance
    is resolved one entry at a time, exactly as Match.resolve_chance would; deadlines pass
    when nobody can act (and now and then at random). Fails loudly past STEP_CAP.
    """
    rng = Rng(seed)
    match = Match(game, players, seed=seed, auto_chance=auto_chance)
    where = f"{game.id} with {players} players, seed {seed}"
    now = 0
    events: list[Event] = []
    for step in range(STEP_CAP + 1):
        yield Moment(match, events, step)
        if match.is_over():
            return
        assert match.version == len(match.record.entries), where
        if not auto_chance and chance_pending(match):
            events = match.submit_chance(game.sample_chance(match.state), now)
            continue
        pending = sorted(match.pending())
        for seat in pending:
            assert match.legal_actions(seat), f"{where}: pending seat {seat} has no legal action"
        due = match.deadline()
        if due is not None and (not pending or rng.random() < tick_rate):
            now = max(now, due)
            before = match.version
            events = match.tick(now)
            assert match.version > before, f"{where}: a due tick was not recorded"
            continue
        if not pending:
            pytest.fail(f"{where}: stuck at step {step}: nobody may act and no deadline is set")
        seat = rng.choice(pending)
        events = match.submit(seat, rng.choice(match.legal_actions(seat)), now)
    pytest.fail(f"{where}: the game did not end within {STEP_CAP} steps")


def play(game: Game[Any, Any], players: int, seed: int, **kwargs: Any) -> Match[Any, Any]:
    """A finished random game."""
    moments = list(walk(game, players, seed, **kwargs))
    return moments[-1].match


def sampled(moments: Iterator[Moment], rate: float, seed: int) -> Iterator[Moment]:
    """Some of the moments (about ``rate`` of them), always the first and the final one."""
    rng = Rng(seed ^ 0x5EED)
    for moment in moments:
        if moment.step == 0 or moment.match.is_over() or rng.random() < rate:
            yield moment


def case_seeds(players: int, salt: int, count: int = GAMES_PER_COUNT) -> range:
    """Distinct seeds per test (salt) and player count."""
    base = salt * 1_000_000 + players * 10_000
    return range(base, base + count)


# --- forks and snapshots -------------------------------------------------------------------
def fork(match: Match[Any, Any]) -> Match[Any, Any]:
    """An independent Match at the same point: cloned state, copied record, same version."""
    other = copy.copy(match)
    other.state = match.game.clone(match.state)
    other.record = decode_record(encode_record(match.record))
    return other


@dataclass(frozen=True)
class Snapshot:
    version: int
    entries: int
    state: bytes
    pending: frozenset[Seat]

    @classmethod
    def of(cls, match: Match[Any, Any]) -> Snapshot:
        return cls(
            match.version, len(match.record.entries), encode_state(match.state), match.pending()
        )


def refused(
    match: Match[Any, Any], error: type[ActionRefused], seat: Seat, raw: object, what: str = ""
) -> ActionRefused:
    """Submit ``raw`` as ``seat``; assert ``error`` (or a subclass) and that nothing changed."""
    what = what or f"{raw!r} from seat {seat}"
    before = Snapshot.of(match)
    with pytest.raises(error) as caught:
        match.submit(seat, raw)
    after = Snapshot.of(match)
    assert after == before, f"refusing {what} changed the match"
    assert isinstance(caught.value.reason, str) and caught.value.reason, what
    return caught.value


# --- actions of a game ---------------------------------------------------------------------
def action_classes(game: Game[Any, Any]) -> list[msgspec.inspect.StructType]:
    """The struct types of the game's action union (or its single action struct)."""
    info = msgspec.inspect.type_info(game.action_type)
    while isinstance(info, msgspec.inspect.Metadata):
        info = info.type
    members = list(info.types) if isinstance(info, msgspec.inspect.UnionType) else [info]
    assert members and all(isinstance(m, msgspec.inspect.StructType) for m in members), (
        f"{game.id}: action_type must be a msgspec Struct or a tagged union of them"
    )
    return members  # type: ignore[return-value]


def tag_field(game: Game[Any, Any]) -> str:
    fields = {m.tag_field for m in action_classes(game) if m.tag_field}
    return fields.pop() if len(fields) == 1 else "type"


@functools.cache
def action_pool(game: Game[Any, Any]) -> tuple[Any, ...]:
    """Well-formed actions this game produces: every advised and chance action seen in a few
    random games at every player count, one of each (by JSON), sorted by JSON."""
    pool: dict[bytes, Any] = {}
    for players in range(game.min_players, game.max_players + 1):
        for seed in case_seeds(players, salt=99, count=3):
            for moment in walk(game, players, seed, auto_chance=False):
                match, state = moment.match, moment.state
                if match.is_over():
                    continue
                if chance_pending(match):
                    for action, _ in game.chance_outcomes(state):
                        pool.setdefault(encode(action), action)
                for seat in match.pending():
                    for action in match.legal_actions(seat):
                        pool.setdefault(encode(action), action)
    return tuple(pool[k] for k in sorted(pool))


def pool_by_class(game: Game[Any, Any]) -> dict[type, list[Any]]:
    found: dict[type, list[Any]] = {m.cls: [] for m in action_classes(game)}
    for action in action_pool(game):
        found.setdefault(type(action), []).append(action)
    return found


def advised(match: Match[Any, Any]) -> list[tuple[Seat, Any]]:
    """Every (pending seat, advised action) pair now."""
    return [(s, a) for s in sorted(match.pending()) for a in match.legal_actions(s)]


def any_action(match: Match[Any, Any]) -> Any:
    """Some well-formed action: advised now if possible, else the first of the pool."""
    pairs = advised(match)
    return pairs[0][1] if pairs else action_pool(match.game)[0]
