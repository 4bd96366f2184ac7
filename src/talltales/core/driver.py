"""One driver for every table: it lets the clock tick, draws chance and asks bots.

The server, the terminal, ``simulate`` and scenario runs all move a game the same way:
a deadline that has passed is ticked first, even while seats could still act (a clue on a
timer must change while players think); chance is drawn by the Match; a bot seat with a
decision is asked, from what its seat may know. Only the clock differs: the wall clock at
a real table, virtual time where nobody waits.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable, Mapping
from typing import Any, Generic, Protocol, TypeVar

from talltales.core.errors import TallTalesError
from talltales.core.game import Event, Seat
from talltales.core.match import Match
from talltales.core.rng import Rng

S = TypeVar("S")
A = TypeVar("A")

BOT_THINK_MS = 1_000  # virtual time a bot's decision takes, so timers run in simulations
ORDER_SALT = 0x0DE5  # the draw of who moves first among bots asked at once


class Clock(Protocol):
    """Milliseconds on the driver's clock."""

    def now(self) -> int:
        """The time now."""
        ...


class WallClock:
    """The real clock, for tables where people wait."""

    def now(self) -> int:
        """Milliseconds since the epoch."""
        return int(time.time() * 1000)


class VirtualClock:
    """Time that moves only when told: simulations and scenarios never wait."""

    def __init__(self, start: int = 0) -> None:
        self.time = start

    def now(self) -> int:
        """The virtual time."""
        return self.time

    def advance_to(self, moment: int) -> None:
        """Move forward to ``moment`` (never back)."""
        self.time = max(self.time, moment)


class Chooser(Protocol):
    """What the driver needs of a bot (bots/ implements it)."""

    def choose(self, game: Any, state: Any, seat: Seat, *, budget: float | None = None) -> Any:
        """One legal action for ``seat``, decided from ``state`` (a sample the seat allows)."""
        ...


class Stuck(TallTalesError):
    """Nobody can act and no deadline will ever pass."""

    code = "stuck"


class Driver(Generic[S, A]):
    """Moves one match: ticks when a deadline has passed, asks bots, leaves people be."""

    def __init__(
        self,
        match: Match[S, A],
        bots: Mapping[Seat, Chooser] | Callable[[Seat], Chooser | None],
        clock: Clock,
        *,
        seed: int = 0,
        think_ms: int = 0,
        budget: float | None = None,
    ) -> None:
        self.match = match
        self._bots = bots
        self.clock = clock
        self.think_ms = think_ms  # virtual time a bot decision takes (0 on a wall clock)
        self.budget = budget  # seconds a bot may think at a real table
        self.samplers: dict[Seat, Rng] = {}
        self.seed = seed
        self.since: dict[Seat, int] = {}  # when each pending seat was first asked
        self.order = Rng(seed ^ ORDER_SALT)

    def bot(self, seat: Seat) -> Chooser | None:
        """The bot playing ``seat`` now, if any."""
        if callable(self._bots):
            return self._bots(seat)
        return self._bots.get(seat)

    # --- the clock -----------------------------------------------------------------------
    def due(self) -> bool:
        """Whether a deadline has passed and its tick is waiting."""
        deadline = self.match.deadline()
        return deadline is not None and self.clock.now() >= deadline

    def wait_ms(self) -> int | None:
        """How long until the next deadline (None: no timer runs)."""
        deadline = self.match.deadline()
        return None if deadline is None else max(0, deadline - self.clock.now())

    def wait(self, ms: int) -> list[Event]:
        """Let ``ms`` of virtual time pass, ticking at each deadline reached on the way."""
        clock = self.clock
        if not isinstance(clock, VirtualClock):
            raise TallTalesError("only virtual time can be made to pass")
        until, events = clock.now() + ms, []
        while (deadline := self.match.deadline()) is not None and deadline <= until:
            clock.advance_to(deadline)
            events += self.tick_if_due()
        clock.advance_to(until)
        return events

    def tick_if_due(self) -> list[Event]:
        """Apply the clock if a deadline has passed (nothing otherwise)."""
        return self.match.tick(self.clock.now()) if self.due() else []

    # --- bots ----------------------------------------------------------------------------
    def bot_seats(self) -> list[Seat]:
        """Pending seats a bot plays, in seat order."""
        return [s for s in sorted(self.match.pending()) if self.bot(s) is not None]

    def _note_pending(self) -> None:
        """Remember when each pending seat was first asked (its thinking starts then)."""
        pending = self.match.pending()
        now = self.clock.now()
        self.since = {s: self.since.get(s, now) for s in pending}

    def observe(self, seat: Seat) -> S:
        """What a bot at ``seat`` decides from: the state with everything the seat cannot
        see drawn afresh (determinisation), never the true state."""
        sampler = self.samplers.get(seat)
        if sampler is None:  # one-way from the driver's seed: a bot cannot work back to it
            digest = hashlib.sha256(f"talltales-sampler:{self.seed}:{seat}".encode()).digest()
            sampler = self.samplers[seat] = Rng(int.from_bytes(digest[:8], "big"))
        sample_seed = sampler.below(1 << 62)
        return self.match.game.resample_hidden(self.match.state, seat, sample_seed)

    def decide(self, seat: Seat) -> Any:
        """Ask the seat's bot for an action (on a sample of what it may know)."""
        bot = self.bot(seat)
        if bot is None:
            raise TallTalesError(f"seat {seat} is not played by a bot")
        return bot.choose(self.match.game, self.observe(seat), seat, budget=self.budget)

    def bot_move(self, seat: Seat) -> list[Event]:
        """Let the seat's bot decide and act, unless a deadline passed while it thought.

        On virtual time a decision takes ``think_ms`` from when the seat was first asked,
        so bots asked at once think at once (no seat is slowed by its neighbours')."""
        self._note_pending()
        action = self.decide(seat)
        if self.think_ms and isinstance(self.clock, VirtualClock):
            self.clock.advance_to(self.since.get(seat, self.clock.now()) + self.think_ms)
        if self.due():  # the timer ran out while the bot thought: the tick comes first
            return self.tick_if_due()
        self.since.pop(seat, None)
        return self.match.submit(seat, action, self.clock.now())

    # --- stepping ------------------------------------------------------------------------
    def step(self) -> list[Event] | None:
        """Do the next thing that needs no person: a due tick, else one bot's move.

        Returns its events, or None when only people can act now (or it is over)."""
        if self.match.is_over():
            return None
        if self.due():
            return self.tick_if_due()
        seats = self.bot_seats()
        if not seats:
            return None
        self._note_pending()
        # who moves first among bots asked at once is drawn, never the lowest seat: a race
        # or a closing window must not favour a seat by its number
        first = min(self.since.get(s, 0) for s in seats)
        ready = [s for s in seats if self.since.get(s, 0) == first]
        return self.bot_move(ready[self.order.below(len(ready))] if len(ready) > 1 else ready[0])

    def run(self, limit: int = 100_000) -> None:
        """Play a game with no people to the end (virtual time jumps to each deadline)."""
        while not self.match.is_over():
            if self.match.version > limit:
                raise Stuck(f"{self.match.game.id}: no end after {limit} actions")
            if self.step() is not None:
                continue
            deadline = self.match.deadline()
            if self.match.pending() or deadline is None or not isinstance(self.clock, VirtualClock):
                raise Stuck(f"{self.match.game.id}: nobody to move and no bot to ask")
            self.wait(max(0, deadline - self.clock.now()))
