"""The single authority that accepts or refuses actions, for every client alike."""

from __future__ import annotations

import functools
from collections import deque
from collections.abc import Iterable, Iterator, Sequence
from typing import Any, Generic, TypeVar

import msgspec

from talltales.core.content import Pack
from talltales.core.errors import (
    GameOver,
    MalformedAction,
    NotYourTurn,
    RecordError,
    TallTalesError,
)
from talltales.core.game import CHANCE, CLOCK, Event, Game, Outcome, Seat, Tick
from talltales.core.packs import choose_packs, pack_refs, resolve_packs
from talltales.core.prompt import Prompt, check_text
from talltales.core.record import Entry, Record

S = TypeVar("S")
A = TypeVar("A")

MAX_ACTION_BYTES = 64 * 1024


@functools.cache
def _decoder(action_type: Any) -> msgspec.json.Decoder[Any]:
    """One JSON decoder per action type: building one for a union costs more than decoding."""
    return msgspec.json.Decoder(action_type)


def decode_action(game: Game[Any, A], raw: object) -> A:
    """Turn JSON text, bytes or builtins into the game's typed action, or refuse it."""
    try:
        if isinstance(raw, (dict, msgspec.Struct)):
            raw = msgspec.json.encode(raw)  # one path, so the size limit holds for every form
        if isinstance(raw, (bytes, str)):
            size = len(raw) if isinstance(raw, bytes) else len(raw.encode("utf-8", "replace"))
            if size > MAX_ACTION_BYTES:
                raise MalformedAction(f"action is larger than {MAX_ACTION_BYTES} bytes")
            return _decoder(game.action_type).decode(raw)  # type: ignore[no-any-return]
    except (msgspec.ValidationError, msgspec.DecodeError, TypeError) as exc:
        raise MalformedAction(f"cannot read that action: {exc}") from exc
    raise MalformedAction(f"cannot read an action from {type(raw).__name__}")


class Match(Generic[S, A]):
    """Drives one game: ordered checks, apply, record, version."""

    def __init__(
        self,
        game: Game[S, A],
        players: int,
        options: dict[str, Any] | None = None,
        seed: int = 0,
        packs: Sequence[Pack[Any]] | None = None,
        *,
        overrides: dict[str, Any] | None = None,
        auto_chance: bool = True,
    ) -> None:
        """Set a game up; a game with cards gets its default packs unless ``packs`` says."""
        game.check_players(players)
        self.game = game
        self.auto_chance = auto_chance
        typed = game.options(options)
        self.packs = list(packs) if packs is not None else choose_packs(game)
        self.state: S = game.setup(players, typed, seed, self.packs)
        if overrides:
            game.override(self.state, overrides)
        self.record = Record(
            game=game.id,
            players=players,
            seed=seed,
            options=msgspec.to_builtins(typed),
            overrides=dict(overrides or {}),
            content=pack_refs(self.packs),
        )
        self.version = 0
        self.resolve_chance()

    @classmethod
    def restore(
        cls, game: Game[S, A], record: Record, packs: Sequence[Pack[Any]] = ()
    ) -> Match[S, A]:
        """Rebuild a match from its record, checking every entry again (a server restart).

        The record's packs are found among ``packs`` or the game's shipped ones, and a
        pack whose digest changed is refused by name."""
        match = cls(
            game,
            record.players,
            record.options,
            record.seed,
            resolve_packs(game, record.content, packs),
            overrides=record.overrides,
            auto_chance=False,
        )
        for number, entry in enumerate(record.entries, start=1):
            replay_entry(game, match.state, entry, number)
            match._log(entry.seat, entry.action, entry.time)
        match.auto_chance = True
        return match

    # --- reading -------------------------------------------------------------------------
    def pending(self) -> frozenset[Seat]:
        """Seats (players only) with a decision pending."""
        return frozenset(s for s in self.game.pending(self.state) if s >= 0)

    def legal_actions(self, seat: Seat) -> list[A]:
        """What ``seat`` may do now (empty when it has nothing pending)."""
        if self.is_over() or seat not in self.game.pending(self.state):
            return []
        return self.game.legal_actions(self.state, seat)

    def is_over(self) -> bool:
        """Whether the game has ended."""
        return self.game.outcome(self.state) is not None

    def outcome(self) -> Outcome | None:
        """The result, once over."""
        return self.game.outcome(self.state)

    def prompt(self, seat: Seat) -> Prompt | None:
        """What ``seat`` is asked now (None when it has nothing pending)."""
        if self.is_over() or seat < 0 or seat not in self.game.pending(self.state):
            return None
        return self.game.prompt(self.state, seat)

    def view(self, seat: Seat | None) -> msgspec.Struct:
        """What ``seat`` may see (None: the public view)."""
        return self.game.view(self.state, seat)

    def views(self, seats: Iterable[Seat | None]) -> dict[Seat | None, msgspec.Struct]:
        """The views of several seats at once."""
        return self.game.views(self.state, seats)

    def deadline(self) -> int | None:
        """The next time a tick would change something."""
        return None if self.is_over() else self.game.deadline(self.state)

    # --- acting --------------------------------------------------------------------------
    def submit(self, seat: Seat, action: object, time: int = 0) -> list[Event]:
        """Check in order (over, turn, form, text, legality), apply, record, bump the version.

        Text typed for a Write prompt is checked here, once for every game: not empty,
        not longer than the prompt allows."""
        if self.is_over():
            raise GameOver("the game is over")
        if not isinstance(seat, int) or seat < 0 or seat not in self.game.pending(self.state):
            raise NotYourTurn(f"seat {seat} has nothing to decide right now")
        typed = decode_action(self.game, action)
        self.check_text(seat, typed)
        self.game.validate(self.state, seat, typed)
        events = self._apply(seat, typed, time)
        return events + self.resolve_chance(time)

    def check_text(self, seat: Seat, action: object) -> str | None:
        """The text an action types for the seat's Write prompt, checked (None: no text)."""
        return typed_text(self.game, self.state, seat, action)

    def tick(self, now: int) -> list[Event]:
        """Let the driver's clock reach ``now``; recorded only once a deadline has passed."""
        due = self.deadline()
        if due is None or now < due:
            return []
        events = self.game.tick(self.state, now)
        self._log(CLOCK, msgspec.to_builtins(Tick(now)), now)
        return events + self.resolve_chance(now)

    def resolve_chance(self, time: int = 0) -> list[Event]:
        """Roll the dice the game is waiting for, from the RNG held in its state."""
        events: list[Event] = []
        while self.auto_chance and not self.is_over() and CHANCE in self.game.pending(self.state):
            events += self._apply(CHANCE, self.game.sample_chance(self.state), time)
        return events

    def submit_chance(self, action: object, time: int = 0) -> list[Event]:
        """Force a chance outcome (scenarios and tests script their dice)."""
        if self.is_over():
            raise GameOver("the game is over")
        if CHANCE not in self.game.pending(self.state):
            raise NotYourTurn("no chance event is pending")
        typed = decode_action(self.game, action)
        self.game.validate(self.state, CHANCE, typed)
        return self._apply(CHANCE, typed, time)

    def _apply(self, seat: Seat, action: A, time: int) -> list[Event]:
        events = self.game.apply(self.state, seat, action, time)
        self._log(seat, msgspec.to_builtins(action), time)
        return events

    def _log(self, seat: Seat, action: dict[str, Any], time: int) -> None:
        self.record.entries.append(Entry(seat, action, time))
        self.version += 1


def typed_text(game: Game[S, A], state: S, seat: Seat, action: object) -> str | None:
    """Check the text ``action`` types for ``seat``'s Write prompt: not empty, not over
    the limit (None: the action types nothing). Live play and replays check alike."""
    raw = action if isinstance(action, dict) else msgspec.to_builtins(action)
    texts = isinstance(raw, dict) and any(isinstance(v, str) for k, v in raw.items() if k != "type")
    if game.writes is not None and isinstance(raw, dict) and raw.get("type") not in game.writes:
        return None  # the game says which actions carry typed text: not this one
    if not texts:
        return None  # nothing typed in it (the tag aside): no prompt built on the hot path
    return check_text(game.prompt(state, seat), raw)


def replay_entry(game: Game[S, A], state: S, entry: Entry, number: int) -> None:
    """Apply one recorded entry (a tick, or an action checked again); RecordError if it no
    longer replays."""
    try:
        if entry.seat == CLOCK:
            game.tick(state, msgspec.convert(entry.action, Tick).now)
        else:
            action = decode_action(game, entry.action)
            if entry.seat >= 0:
                typed_text(game, state, entry.seat, action)
            game.validate(state, entry.seat, action)
            game.apply(state, entry.seat, action, entry.time)
    except (TallTalesError, msgspec.ValidationError) as exc:
        raise RecordError(f"entry {number} of the record does not replay: {exc}") from exc


def replay_states(game: Game[S, A], record: Record, packs: Sequence[Pack[Any]] = ()) -> Iterator[S]:
    """Yield a clone of the state before the first action and after every recorded one."""
    found = resolve_packs(game, record.content, packs)
    state = game.setup(record.players, game.options(record.options), record.seed, found)
    if record.overrides:
        game.override(state, record.overrides)
    yield game.clone(state)
    for number, entry in enumerate(record.entries, start=1):
        replay_entry(game, state, entry, number)
        yield game.clone(state)


def replay(game: Game[S, A], record: Record, packs: Sequence[Pack[Any]] = ()) -> S:
    """The final state a record reaches."""
    (final,) = deque(replay_states(game, record, packs), maxlen=1)
    return final
