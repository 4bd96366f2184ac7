"""What plays without a person: the server's clock (deadlines) and bots (seats and stand-ins).

Both go through ``core.driver.Driver``, as at every other table: the driver says when a
deadline has passed, and gives a bot only what its seat may know (a fresh sample of the
hidden part), never the true state. A bot thinks in a worker process (thinking.py), within
the settings' time budget, so a bot's search never holds up another room's messages. Its
answer is then applied under the room's lock like a person's if it is still legal for the
seat, even if the room moved on meanwhile; a stale answer that is refused is asked for
again, at most ``MAX_ASKS`` times in all, and then the seat plays a random legal move.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections.abc import AsyncIterator
from functools import partial
from typing import TYPE_CHECKING, Any

import msgspec

from talltales.bots import make_bot
from talltales.core.driver import Driver
from talltales.core.errors import ActionRefused
from talltales.core.game import Game, Seat
from talltales.server.rooms import Room, Status
from talltales.server.thinking import BotPool, Job

if TYPE_CHECKING:
    from talltales.server.hub import Hub

log = logging.getLogger("talltales.server")
MAX_ASKS = 3  # questions to a bot for one decision before it plays a random legal move


class HubClock:
    """The hub's clock, as a driver reads it."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub

    def now(self) -> int:
        """Milliseconds on the server's clock."""
        return self.hub.clock()


class SeatBot:
    """A seat the server's bots play, as its driver sees it: the bot's spec only (the bot is
    built afresh, with a fresh seed, wherever it thinks)."""

    name = "seat"

    def __init__(self, spec: str) -> None:
        self.spec = spec

    def choose(
        self, game: Game[Any, Any], state: Any, seat: Seat, *, budget: float | None = None
    ) -> Any:
        """Think here and now (the server sends its questions to the bot pool instead)."""
        bot = make_bot(self.spec, secrets.randbits(63))
        return bot.choose(game, state, seat, budget=budget)


class Autoplay:
    """Arms each room's next deadline and lets bots move, through the hub like anyone else."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub
        self.timers: dict[str, asyncio.TimerHandle] = {}
        self.drivers: dict[str, Driver[Any, Any]] = {}
        self.busy: set[tuple[str, Seat]] = set()
        # one bot of a room thinks at a time: bots deciding at once would otherwise
        # outdate each other's answers and all think again
        self.thinking: dict[str, asyncio.Lock] = {}
        settings = hub.settings
        self.pool = BotPool(settings.bot_pool, settings.bot_workers)
        self.stopping = False

    def start(self) -> None:
        """Start the bots' workers (before the server opens any socket)."""
        self.pool.start()

    # --- the driver ------------------------------------------------------------------------
    def playing(self, room: Room) -> Driver[Any, Any] | None:
        """The room's driver while its game is played (a new one for each match)."""
        if room.status is not Status.PLAYING or room.match is None:
            return None
        driver = self.drivers.get(room.code)
        if driver is None or driver.match is not room.match:  # a rematch, or a reload
            # the samplers' seed is fresh, never the game's: a bot sees samples drawn
            # from it, and must not be able to work back to the game's dice and decks
            driver = Driver(
                room.match,
                partial(self.bot_for, room),
                HubClock(self.hub),
                seed=secrets.randbits(63),
                budget=self.hub.settings.bot_budget,
            )
            self.drivers[room.code] = driver
        return driver

    def bot_for(self, room: Room, seat: Seat) -> SeatBot | None:
        """The bot playing ``seat`` now (its own, or a stand-in), if any."""
        if not room.played_by_bot(seat):
            return None
        return SeatBot(room.seats[seat].bot or self.hub.settings.stand_in_bot)

    def after_change(self, room: Room) -> None:
        """Re-arm the room's clock and start any bot whose decision is pending."""
        if self.stopping:
            return
        self.arm_clock(room)
        driver = self.playing(room)
        for seat in driver.bot_seats() if driver is not None else []:
            key = (room.code, seat)
            if key not in self.busy:
                self.busy.add(key)
                self.hub.spawn(self._bot_turn(room.code, seat))

    # --- the clock -------------------------------------------------------------------------
    def arm_clock(self, room: Room) -> None:
        """Schedule a tick for the room's next deadline, if it has one."""
        handle = self.timers.pop(room.code, None)
        if handle:
            handle.cancel()
        driver = self.playing(room)
        wait = driver.wait_ms() if driver is not None and not self.stopping else None
        if wait is None:
            return
        self.timers[room.code] = asyncio.get_running_loop().call_later(
            wait / 1000, lambda: self.hub.spawn(self._tick(room.code))
        )

    async def catch_up(self, room: Room) -> bool:
        """Apply a deadline that has passed before anything else (the room's lock is held)."""
        driver = self.playing(room)
        if driver is None or not driver.due():
            return False
        events, entries = room.advance(driver.tick_if_due, self.hub.clock())
        if entries:
            await self.hub.commit(room, events, entries)
        return bool(entries)

    async def _tick(self, code: str) -> None:
        lock = self.hub.locks.get(code)
        if lock is None:
            return
        async with lock:
            room = self.hub.rooms.get(code)
            if room is not None and not await self.catch_up(room):
                self.arm_clock(room)  # woken a moment early: wait for the rest

    # --- bots ------------------------------------------------------------------------------
    async def _bot_turn(self, code: str, seat: Seat) -> None:
        stalled = False
        try:
            if self.hub.settings.bot_delay:
                await asyncio.sleep(self.hub.settings.bot_delay)
            async with self.thinking.setdefault(code, asyncio.Lock()):
                stalled = not await self._play(code, seat)
        except ActionRefused:  # the move could not be stored: the room was reloaded
            log.exception("a bot's move was not stored in room %s", code)
        finally:
            self.busy.discard((code, seat))
            room = self.hub.rooms.get(code)
            if room is not None and not stalled:
                self.after_change(room)  # the seat may already have its next decision

    async def _play(self, code: str, seat: Seat) -> bool:
        """Ask the seat's bot until a move of the seat is applied or it has none to make;
        False only when not even a random legal move was accepted."""
        for asked in range(1, MAX_ASKS + 1):
            async with self.pool.slot():
                question = await self._ask(code, seat)
                if question is None:
                    return True
                version, job = question
                answer = await self.pool.answer(job)
            played = await self._answer(code, seat, version, answer, asked == MAX_ASKS)
            if played is not None:
                return played
        return True  # not reached: the last question is always answered by a move

    async def _ask(self, code: str, seat: Seat) -> tuple[int, Job] | None:
        """Under the room's lock: the question for the seat's bot, if it has a decision."""
        async with self._room_lock(code) as room:
            driver = await self._deciding(room, seat)
            if room is None or driver is None:
                return None
            spec = room.seats[seat].bot or self.hub.settings.stand_in_bot
            sample = msgspec.json.encode(driver.observe(seat))
            settings = self.hub.settings
            job = Job(
                room.game.id,
                spec,
                secrets.randbits(63),  # fresh: moves are logged, so replays need no seed
                seat,
                settings.bot_budget,
                settings.bot_grace,
                sample,
            )
            return room.version, job

    async def _answer(
        self, code: str, seat: Seat, version: int, answer: dict[str, Any] | None, last: bool
    ) -> bool | None:
        """Under the room's lock: play the answer if the seat may; None: ask again."""
        async with self._room_lock(code) as room:
            driver = await self._deciding(room, seat)
            if room is None or driver is None:
                return True  # the person came back, or the decision was taken away
            if answer is not None:
                try:
                    result = room.bot_act(seat, answer, self.hub.clock())
                except ActionRefused as exc:
                    if room.version != version and not last:
                        return None  # outdated by the room moving on: think again
                    log.warning("a bot's move was refused in room %s: %s", code, exc.reason)
                else:
                    await self.hub.commit(room, *result)
                    return True
            return await self._random_move(room, seat)

    async def _random_move(self, room: Room, seat: Seat) -> bool:
        """A random legal move of the seat, so a bot that errs never holds up the table."""
        assert room.match is not None
        legal = room.match.legal_actions(seat)
        try:
            action = msgspec.to_builtins(secrets.choice(legal))
            result = room.bot_act(seat, action, self.hub.clock())
        except (ActionRefused, IndexError):
            log.exception("no move of seat %s was accepted in room %s", seat, room.code)
            return False
        await self.hub.commit(room, *result)
        return True

    @contextlib.asynccontextmanager
    async def _room_lock(self, code: str) -> AsyncIterator[Room | None]:
        """The room's lock held, yielding the live room (None: it is gone)."""
        lock = self.hub.locks.get(code)
        if lock is None:
            yield None
            return
        async with lock:
            yield self.hub.rooms.get(code)

    async def _deciding(self, room: Room | None, seat: Seat) -> Driver[Any, Any] | None:
        """The room's driver if a bot plays the seat and it has a decision, once any deadline
        that passed has been applied (as for people)."""
        if room is None:
            return None
        await self.catch_up(room)
        driver = self.playing(room)
        return driver if driver is not None and seat in driver.bot_seats() else None

    # --- the end ---------------------------------------------------------------------------
    def forget(self, code: str) -> None:
        """Drop an expired room's timer and driver."""
        handle = self.timers.pop(code, None)
        if handle:
            handle.cancel()
        self.drivers.pop(code, None)
        self.thinking.pop(code, None)

    def stop(self) -> None:
        """No more ticks or bot moves (shutting down); bots thinking are stopped."""
        self.stopping = True
        for handle in self.timers.values():
            handle.cancel()
        self.timers.clear()
        self.pool.stop()
