"""What plays without a person: the server's clock (deadlines) and bots (seats and stand-ins).

Both go through ``core.driver.Driver``, as at every other table: the driver says when a
deadline has passed, and gives a bot only what its seat may know (a fresh sample of the
hidden part), never the true state. A bot thinks in a worker thread, within the settings'
time budget, so no room waits for another room's bot. Its move is then applied under the
room's lock like a person's, unless the room moved on meanwhile: then it is asked again.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from typing import TYPE_CHECKING, Any

import msgspec

from talltales.bots import Bot, make_bot
from talltales.core.driver import Driver
from talltales.core.errors import ActionRefused
from talltales.core.game import Game, Seat
from talltales.server.rooms import Room, Status

if TYPE_CHECKING:
    from talltales.server.hub import Hub

log = logging.getLogger("talltales.server")
Asked = tuple[Room, int, Bot, Any]  # the room, its version, the bot and its seat's sample


class HubClock:
    """The hub's clock, as a driver reads it."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub

    def now(self) -> int:
        """Milliseconds on the server's clock."""
        return self.hub.clock()


class Autoplay:
    """Arms each room's next deadline and lets bots move, through the hub like anyone else."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub
        self.timers: dict[str, asyncio.TimerHandle] = {}
        self.drivers: dict[str, Driver[Any, Any]] = {}
        self.bots: dict[tuple[str, int, Seat], Bot] = {}
        self.busy: set[tuple[str, Seat]] = set()
        # one bot of a room thinks at a time: bots deciding at once would otherwise
        # outdate each other's answers and all think again
        self.thinking: dict[str, asyncio.Lock] = {}
        self.make_bot: Callable[[str, int], Bot] = make_bot  # tests seat bots of their own
        threads = max(1, hub.settings.bot_threads)
        self.pool = ThreadPoolExecutor(threads, thread_name_prefix="talltales-bot")
        self.stopping = False

    # --- the driver ------------------------------------------------------------------------
    def playing(self, room: Room) -> Driver[Any, Any] | None:
        """The room's driver while its game is played (a new one for each match)."""
        if room.status is not Status.PLAYING or room.match is None:
            return None
        driver = self.drivers.get(room.code)
        if driver is None or driver.match is not room.match:  # a rematch, or a reload
            driver = Driver(
                room.match,
                partial(self.bot_for, room),
                HubClock(self.hub),
                seed=room.seed,
                budget=self.hub.settings.bot_budget,
            )
            self.drivers[room.code] = driver
            for key in [k for k in self.bots if k[0] == room.code and k[1] != room.game_number]:
                del self.bots[key]  # the bots of an earlier game
        return driver

    def bot_for(self, room: Room, seat: Seat) -> Bot | None:
        """The bot playing ``seat`` now (its own, or a stand-in), built once per game."""
        if not room.played_by_bot(seat):
            return None
        key = (room.code, room.game_number, seat)
        bot = self.bots.get(key)
        if bot is None:
            spec = room.seats[seat].bot or self.hub.settings.stand_in_bot
            bot = self.bots[key] = self.make_bot(spec, room.seed + seat)
        return bot

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
        """Ask the seat's bot until its move is applied or it has none to make; False only
        when neither its move nor a legal stand-by was accepted."""
        while True:
            asked = await self._ask(code, seat)
            if asked is None:
                return True
            room, version, bot, sample = asked
            action = await self._think(bot, room.game, sample, seat)
            lock = self.hub.locks.get(code)
            if lock is None:
                return True
            async with lock:
                if self.hub.rooms.get(code) is not room:
                    continue  # the room was reloaded from storage meanwhile
                await self.catch_up(room)
                if room.version != version or not room.played_by_bot(seat):
                    continue  # someone acted, the clock ticked or the person came back
                return await self._move(room, seat, action)

    async def _ask(self, code: str, seat: Seat) -> Asked | None:
        """Under the room's lock: the seat's bot and its sample, if it has a decision."""
        lock = self.hub.locks.get(code)
        if lock is None:
            return None
        async with lock:
            room = self.hub.rooms.get(code)
            if room is None:
                return None
            await self.catch_up(room)  # a deadline that passed comes first, as for people
            driver = self.playing(room)
            bot = self.bot_for(room, seat)
            if driver is None or bot is None or seat not in driver.bot_seats():
                return None
            return room, room.version, bot, driver.observe(seat)

    async def _think(self, bot: Bot, game: Game[Any, Any], sample: Any, seat: Seat) -> Any:
        """The bot's choice, made in a worker thread while the event loop serves the rest."""
        budget = self.hub.settings.bot_budget
        decide = partial(bot.choose, game, sample, seat, budget=budget)
        return await asyncio.get_running_loop().run_in_executor(self.pool, decide)

    async def _move(self, room: Room, seat: Seat, action: Any) -> bool:
        """Apply the bot's move like a person's; a refused one gives way to a legal one."""
        assert room.match is not None
        now = self.hub.clock()
        try:
            result = room.bot_act(seat, _builtins(action), now)
        except ActionRefused as exc:
            log.warning("a bot's move was refused in room %s: %s", room.code, exc.reason)
            legal = room.match.legal_actions(seat)
            try:  # so a bot that errs never holds up the table
                result = room.bot_act(seat, _builtins(legal[0]), now)
            except (ActionRefused, IndexError):
                log.exception("no move of seat %s was accepted in room %s", seat, room.code)
                return False
        await self.hub.commit(room, *result)
        return True

    # --- the end ---------------------------------------------------------------------------
    def forget(self, code: str) -> None:
        """Drop an expired room's timer, driver and bots."""
        handle = self.timers.pop(code, None)
        if handle:
            handle.cancel()
        self.drivers.pop(code, None)
        self.thinking.pop(code, None)
        for key in [k for k in self.bots if k[0] == code]:
            del self.bots[key]

    def stop(self) -> None:
        """No more ticks or bot moves (shutting down); bots thinking finish their budget."""
        self.stopping = True
        for handle in self.timers.values():
            handle.cancel()
        self.timers.clear()
        self.pool.shutdown(wait=False, cancel_futures=True)


def _builtins(action: Any) -> dict[str, Any]:
    result = msgspec.to_builtins(action)
    assert isinstance(result, dict)
    return result
