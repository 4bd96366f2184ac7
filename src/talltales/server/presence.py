"""Who is at the table: connections per seat, grace periods, stand-ins, leaving, the host role."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import TYPE_CHECKING

from talltales.core.errors import ActionRefused
from talltales.core.game import Seat
from talltales.server.connection import Connection
from talltales.server.protocol import ErrorOut, Welcome
from talltales.server.rooms import Room, Status

if TYPE_CHECKING:
    from talltales.server.hub import Hub


def next_host(room: Room, leaving: Seat, *, or_absent: bool = False) -> Seat:
    """The next connected person after ``leaving``; with ``or_absent``, failing that, the
    next person even if away; ``leaving`` if there is nobody."""
    count = len(room.seats)
    people = [
        seat
        for seat in ((leaving + step) % count for step in range(1, count))
        if not room.seats[seat].is_bot
    ]
    connected = [seat for seat in people if room.seats[seat].connections]
    if connected:
        return connected[0]
    if or_absent and people:  # a host who leaves must not take the role away with them
        return people[0]
    return leaving


class Presence:
    """Keeps seats for people who drop, and lets a bot stand in once their grace runs out."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub
        self.grace: dict[tuple[str, Seat], asyncio.TimerHandle] = {}

    def connected(self, room: Room, seat: Seat) -> None:
        """A socket holds the seat again: cancel its grace, end any stand-in."""
        state = room.seats[seat]
        state.connections += 1
        handle = self.grace.pop((room.code, seat), None)
        if handle:
            handle.cancel()
        state.stand_in = False

    def disconnected(self, room: Room, seat: Seat) -> None:
        """A socket of the seat went away."""
        if seat >= len(room.seats):
            return
        state = room.seats[seat]
        state.connections = max(0, state.connections - 1)
        if state.connections == 0:
            self.start_grace(room, seat)

    def start_grace(self, room: Room, seat: Seat) -> None:
        """Keep the seat for the grace period; then a bot stands in and the host role moves."""
        if room.seats[seat].is_bot or room.seats[seat].connections:
            return
        key = (room.code, seat)
        if key in self.grace:
            self.grace[key].cancel()
        name = room.seats[seat].name  # seats may be renumbered before the grace runs out
        self.grace[key] = asyncio.get_running_loop().call_later(
            self.hub.settings.grace_seconds,
            lambda: self.hub.spawn(self._grace_over(room.code, name)),
        )

    async def _grace_over(self, code: str, name: str) -> None:
        room = self.hub.rooms.get(code)
        if room is None:
            return
        async with self.hub.locks[code]:
            seat = next((i for i, s in enumerate(room.seats) if s.name == name), None)
            if seat is None:
                return
            self.grace.pop((code, seat), None)
            if room.seats[seat].connections:
                return
            stand_in = room.status is Status.PLAYING and not room.seats[seat].stand_in
            host = next_host(room, seat) if room.host == seat else room.host
            if not stand_in and host == room.host:
                return  # nothing changes (a guest away from the lobby): no new version
            room.seats[seat].stand_in = room.seats[seat].stand_in or stand_in
            room.host = host
            room.changed(self.hub.clock())
            try:
                await self.hub.save_lobby(room)
            except ActionRefused:
                return  # the room was reloaded as stored; the grace simply did not happen
        self.hub.broadcast_info(room)
        self.hub.autoplay.after_change(room)

    def leave(self, room: Room, conn: Connection, now: int) -> Callable[[], None]:
        """The sender gives up its seat: removed in the lobby, played by a bot in a game.

        Changes the room only; returns what tells the seat's sockets, to be run once the
        change is stored (a change that cannot be stored is undone, and nobody is told).
        """
        seat = conn.seat
        if seat is None:
            raise ActionRefused("spectators hold no seat to leave")
        if room.host == seat:
            room.host = next_host(room, seat, or_absent=True)
        if room.status is Status.LOBBY:
            if room.host == seat:  # no other person is seated: the room closes with its host
                room.host = None
            room.remove_seat(room.host, seat, now, by_host=False)
            return lambda: self.renumber(room, seat, "you left the room")
        state = room.seats[seat]
        state.token_hash, state.bot, state.stand_in = None, self.hub.settings.stand_in_bot, False
        room.changed(now)
        return lambda: self._detach(room, seat)

    def _detach(self, room: Room, seat: Seat) -> None:
        for other in self.hub.clients.get(room.code, ()):
            if other.seat == seat:  # every socket of the seat, not only the sender
                other.send(ErrorOut("removed", "you left the game; a bot plays your seat"))
                other.seat = None

    def renumber(self, room: Room, removed: Seat, why: str) -> None:
        """A lobby seat went: tell its sockets, move later seats up and re-welcome them."""
        now = self.hub.clock()
        for conn in list(self.hub.clients.get(room.code, ())):
            if conn.seat == removed:
                conn.send(ErrorOut("removed", why))
                conn.seat = None
            elif conn.seat is not None and conn.seat > removed:
                conn.seat -= 1
                conn.send(Welcome(room.code, conn.seat, room.version, now))
        moved = {k: v for k, v in self.grace.items() if k[0] == room.code and k[1] > removed}
        for key, handle in moved.items():
            del self.grace[key]
            self.grace[(room.code, key[1] - 1)] = handle
        dropped = self.grace.pop((room.code, removed), None)
        if dropped:
            dropped.cancel()

    def forget(self, code: str) -> None:
        """Drop an expired room's grace timers."""
        for key in [k for k in self.grace if k[0] == code]:
            self.grace.pop(key).cancel()

    def stop(self) -> None:
        """Cancel every grace timer (shutting down)."""
        for handle in self.grace.values():
            handle.cancel()
        self.grace.clear()
