"""What plays without a person: the server's clock (deadlines) and bots (seats and stand-ins)."""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Any

import msgspec

from talltales.bots import Bot, make_bot
from talltales.core.errors import ActionRefused
from talltales.core.game import Seat
from talltales.server.rooms import Room, Status

if TYPE_CHECKING:
    from talltales.server.hub import Hub

log = logging.getLogger("talltales.server")


class Autoplay:
    """Arms each room's next deadline and lets bots move, through the hub like anyone else."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub
        self.timers: dict[str, asyncio.TimerHandle] = {}
        self.bots: dict[tuple[str, int, Seat], Bot] = {}
        self.busy: set[tuple[str, Seat]] = set()
        self.stopping = False

    def after_change(self, room: Room) -> None:
        """Re-arm the room's clock and start any bot whose decision is pending."""
        if self.stopping:
            return
        self.arm_clock(room)
        for seat in room.bot_seats():
            key = (room.code, seat)
            if key not in self.busy:
                self.busy.add(key)
                self.hub.spawn(self._bot_turn(room.code, seat))

    def arm_clock(self, room: Room) -> None:
        """Schedule a tick for the room's next deadline, if it has one."""
        handle = self.timers.pop(room.code, None)
        if handle:
            handle.cancel()
        due = room.match.deadline() if room.match and room.status is Status.PLAYING else None
        if due is None or self.stopping:
            return
        delay = max(0.0, (due - self.hub.clock()) / 1000)
        loop = asyncio.get_running_loop()
        self.timers[room.code] = loop.call_later(
            delay, lambda: self.hub.spawn(self._tick(room.code))
        )

    async def catch_up(self, room: Room) -> None:
        """Apply a deadline that has passed before anything else (the room's lock is held)."""
        events, entries = room.tick(self.hub.clock())
        if entries:
            await self.hub.commit(room, events, entries)

    async def _tick(self, code: str) -> None:
        room = self.hub.rooms.get(code)
        if room is None:
            return
        async with self.hub.locks[code]:
            events, entries = room.tick(self.hub.clock())
            if entries:
                await self.hub.commit(room, events, entries)
            else:
                self.arm_clock(room)

    async def _bot_turn(self, code: str, seat: Seat) -> None:
        try:
            if self.hub.settings.bot_delay:
                await asyncio.sleep(self.hub.settings.bot_delay)
            room = self.hub.rooms.get(code)
            if room is None or room.match is None or seat not in room.bot_seats():
                return
            spec = room.seats[seat].bot or self.hub.settings.stand_in_bot
            key = (code, room.game_number, seat)
            bot = self.bots.get(key)
            if bot is None:
                bot = self.bots[key] = make_bot(spec, room.seed + seat)
            async with self.hub.locks[code]:
                await self.catch_up(room)  # a deadline that passed comes first, as for people
                if seat not in room.bot_seats() or room.match is None:
                    return
                action = bot.choose(room.game, room.game.clone(room.match.state), seat)
                result = room.act(seat, f"bot-{room.version}", _builtins(action), self.hub.clock())
                if result is not None:
                    await self.hub.commit(room, *result)
        except ActionRefused:
            log.exception("a bot's move was refused in room %s", code)
        finally:
            self.busy.discard((code, seat))
            room = self.hub.rooms.get(code)
            if room is not None and seat in room.bot_seats():
                self.after_change(room)

    def forget(self, code: str) -> None:
        """Drop an expired room's timer and bots."""
        handle = self.timers.pop(code, None)
        if handle:
            handle.cancel()
        for key in [k for k in self.bots if k[0] == code]:
            del self.bots[key]

    def stop(self) -> None:
        """No more ticks or bot moves (shutting down)."""
        self.stopping = True
        for handle in self.timers.values():
            handle.cancel()
        self.timers.clear()


def _builtins(action: Any) -> dict[str, Any]:
    result = msgspec.to_builtins(action)
    assert isinstance(result, dict)
    return result
