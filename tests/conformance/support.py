"""Drivers and checks shared by the conformance tests: random play, snapshots, action pools."""

from __future__ import annotations

import copy
import functools
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import msgspec

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
    when nobody can act (and now and then at random). Fails loudly past STEP_CAP, with an
    AssertionError like every check, so the checks run outside pytest too (on mutants).
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
        assert pending, f"{where}: stuck at step {step}: nobody may act and no deadline is set"
        seat = rng.choice(pending)
        events = match.submit(seat, rng.choice(match.legal_actions(seat)), now)
    raise AssertionError(f"{where}: the game did not end within {STEP_CAP} steps")


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


@dataclass(frozen=True)
class Snap:
    """A state of a random game kept for later (a clone), with the events of the step that
    reached it and the game's Match (whose own state has moved on: see ``table``)."""

    match: Match[Any, Any]
    state: Any
    events: list[Event]
    step: int

    @property
    def game(self) -> Game[Any, Any]:
        return self.match.game

    @property
    def over(self) -> bool:
        return self.game.outcome(self.state) is not None

    def table(self, state: Any = None) -> Match[Any, Any]:
        """A Match holding ``state`` (by default a clone of this one), for a Driver, which
        reads only the game and the state."""
        table = copy.copy(self.match)
        table.state = self.game.clone(self.state) if state is None else state
        return table


def snaps(game: Game[Any, Any], players: int, seed: int, **kwargs: Any) -> list[Snap]:
    """Every state of one seeded random game (``walk``, given ``kwargs``), kept as clones."""
    moments = walk(game, players, seed, **kwargs)
    return [Snap(m.match, game.clone(m.state), m.events, m.step) for m in moments]


def spread(found: list[Snap], count: int, seed: int) -> list[Snap]:
    """About ``count`` of a game's states, in order, always its first and final one: a
    budget per game, so long games (many small moves) cost no more than short ones."""
    rng = Rng(seed ^ 0x5EED)
    middle = list(range(1, len(found) - 1))
    for i in range(min(count, len(middle))):  # a partial Fisher-Yates: the first picks
        j = i + rng.below(len(middle) - i)
        middle[i], middle[j] = middle[j], middle[i]
    chosen = {0, len(found) - 1, *middle[: max(0, count - 2)]}
    return [found[i] for i in sorted(chosen)]


def picked(game: Game[Any, Any], players: int, seed: int, count: int, **kwargs: Any) -> list[Snap]:
    """About ``count`` states of one seeded random game (see ``spread`` and ``walk``)."""
    return spread(snaps(game, players, seed, **kwargs), count, seed)


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
    match: Match[Any, Any],
    error: type[ActionRefused],
    seat: Seat,
    raw: object,
    what: str = "",
    before: Snapshot | None = None,
) -> ActionRefused:
    """Submit ``raw`` as ``seat``; assert ``error`` (or a subclass) and that nothing changed
    (since ``before``, when the caller took it once for many refusals: it costs the most)."""
    what = what or f"{raw!r} from seat {seat}"
    before = before or Snapshot.of(match)
    try:
        match.submit(seat, raw)
    except error as exc:
        caught = exc
    else:
        raise AssertionError(
            f"{match.game.id}: {what} was accepted, not refused ({error.__name__})"
        )
    after = Snapshot.of(match)
    assert after == before, f"refusing {what} changed the match"
    assert isinstance(caught.reason, str) and caught.reason, what
    return caught


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
@functools.cache  # the same for every player count's check: worked out once per game
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


def differing_fields(first: Any, second: Any) -> list[str]:
    """The top-level fields where two states differ, to say what a check found."""
    one = msgspec.to_builtins(first, str_keys=True, order="deterministic")
    two = msgspec.to_builtins(second, str_keys=True, order="deterministic")
    if not isinstance(one, dict) or not isinstance(two, dict):
        return [] if one == two else ["(the whole value)"]
    return sorted(k for k in one.keys() | two.keys() if one.get(k) != two.get(k))
