"""The hub: rooms in memory, their sockets, storage, clocks, bots and stand-ins.

Actions in one room are applied one at a time under the room's lock, written to storage,
and only then told to the room's clients, each receiving its own seat's view.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from typing import Any

import msgspec

from talltales.bots import Bot, make_bot
from talltales.core.errors import ActionRefused
from talltales.core.game import Event, Seat
from talltales.core.registry import get_game
from talltales.server.connection import Connection
from talltales.server.protocol import (
    Ack,
    Act,
    AddBot,
    ClientMessage,
    ErrorOut,
    Hello,
    Leave,
    Ping,
    Pong,
    Rematch,
    RemoveSeat,
    Restarting,
    SetOptions,
    Start,
    Welcome,
)
from talltales.server.rooms import Room, Status, new_code
from talltales.server.settings import Settings
from talltales.server.storage import EntryRow, Storage

log = logging.getLogger("talltales.server")


def wall_ms() -> int:
    """The server's clock in milliseconds."""
    return int(time.time() * 1000)


class RoomNotFound(ActionRefused):
    """No room has that code."""

    code = "no-room"


class BadToken(ActionRefused):
    """The token holds no seat in that room."""

    code = "bad-token"


class Hub:
    """Every live room of one server process."""

    def __init__(
        self, storage: Storage, settings: Settings, clock: Callable[[], int] = wall_ms
    ) -> None:
        self.storage = storage
        self.settings = settings
        self.clock = clock
        self.rooms: dict[str, Room] = {}
        self.clients: dict[str, set[Connection]] = {}
        self.locks: dict[str, asyncio.Lock] = {}
        self.timers: dict[str, asyncio.TimerHandle] = {}
        self.grace: dict[tuple[str, Seat], asyncio.TimerHandle] = {}
        self.bots: dict[tuple[str, int, Seat], Bot] = {}
        self.busy_bots: set[tuple[str, Seat]] = set()
        self.tasks: set[asyncio.Task[None]] = set()
        self.sweeper: asyncio.Task[None] | None = None

    # --- life cycle ------------------------------------------------------------------------
    async def start(self) -> None:
        """Restore every unfinished room by replaying its log; re-arm clocks and bots."""
        for code in await self.storage.unfinished():
            loaded = await self.storage.load(code)
            if loaded is None:
                continue
            try:
                room = Room.restore(*loaded)
            except Exception:  # a room that no longer replays must not stop the others
                log.exception("room %s could not be restored", code)
                continue
            self._add(room)
            for seat in range(len(room.seats)):  # nobody is connected after a restart
                self._start_grace(room, seat)
            self._after_change(room)
        self.sweeper = asyncio.create_task(self._sweep())

    async def stop(self, restarting: bool = True) -> None:
        """Tell clients the server restarts, then close everything."""
        if self.sweeper:
            self.sweeper.cancel()
        for handle in [*self.timers.values(), *self.grace.values()]:
            handle.cancel()
        for task in list(self.tasks):
            task.cancel()
        await self.close_clients(restarting)
        await self.storage.close()

    async def close_clients(self, restarting: bool = True) -> None:
        """Close every socket with 1012, after it has sent what is queued (and restarting).

        The server calls this before its sockets are torn down, so the message gets out.
        """
        conns = [conn for conns in self.clients.values() for conn in conns]
        for conn in conns:
            if restarting:
                conn.send(Restarting())
            conn.finish(1012)
        waits = [asyncio.create_task(conn.flushed.wait()) for conn in conns]
        if waits:
            await asyncio.wait(waits, timeout=1.0)
        for task in waits:
            task.cancel()
        for conn in conns:
            await conn.close(1012)

    def _add(self, room: Room) -> None:
        self.rooms[room.code] = room
        self.clients.setdefault(room.code, set())
        self.locks.setdefault(room.code, asyncio.Lock())

    def _spawn(self, coro: Any) -> None:
        task = asyncio.create_task(coro)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    # --- rooms over HTTP -------------------------------------------------------------------
    async def create_room(
        self, game_id: str, name: str, options: dict[str, Any], family_filter: bool = True
    ) -> tuple[Room, Seat, str]:
        """A new room with its creator in seat 0 as host."""
        game = get_game(game_id)
        now = self.clock()
        code = new_code()
        while code in self.rooms or await self.storage.load(code) is not None:
            code = new_code()
        room = Room(code, game, options, now)
        room.family_filter = family_filter
        seat, token = room.join(name, now)
        await self.storage.save_room(room.row())
        self._add(room)
        return room, seat, token

    async def room(self, code: str) -> Room:
        """A live room, or a finished one read back from storage."""
        code = code.upper()
        if code in self.rooms:
            return self.rooms[code]
        loaded = await self.storage.load(code)
        if loaded is None or loaded[0].status not in ("finished",):
            raise RoomNotFound(f"there is no room {code}")
        return Room.restore(*loaded)

    async def join(self, code: str, name: str) -> tuple[Room, Seat, str]:
        """Take a seat in a lobby by name."""
        room = self.rooms.get(code.upper())
        if room is None:
            raise RoomNotFound(f"there is no room {code.upper()}")
        async with self.locks[room.code]:
            seat, token = room.join(name, self.clock())
            await self.storage.save_room(room.row())
        self._broadcast_info(room)
        return room, seat, token

    # --- sockets ---------------------------------------------------------------------------
    async def hello(self, conn: Connection, hello: Hello) -> None:
        """Attach a socket to a room, as a seat (by token) or as a spectator."""
        room = self.rooms.get(hello.room.upper())
        if room is None:
            raise RoomNotFound(f"there is no open room {hello.room.upper()}")
        seat = None
        if hello.token is not None:
            seat = room.seat_for_token(hello.token)
            if seat is None:
                raise BadToken("that seat token does not belong to this room")
        conn.room, conn.seat = room.code, seat
        if seat is not None:  # the others hear of it; this socket's room message says so too
            await self._seat_connected(room, seat)
        self.clients[room.code].add(conn)
        now = self.clock()
        conn.send(Welcome(room.code, seat, room.version, now))
        conn.send(room.info())
        missed = room.missed(hello.last_version) if hello.last_version >= 0 else []
        state = room.state_for(seat, missed or [], now)
        if state is not None:
            conn.send(state)

    async def _seat_connected(self, room: Room, seat: Seat) -> None:
        state = room.seats[seat]
        state.connections += 1
        handle = self.grace.pop((room.code, seat), None)
        if handle:
            handle.cancel()
        if state.stand_in:
            state.stand_in = False
        self._broadcast_info(room)

    async def disconnect(self, conn: Connection) -> None:
        """A socket went away; its seat keeps a grace period before a bot stands in."""
        if conn.room is None or conn.room not in self.rooms:
            return
        room = self.rooms[conn.room]
        self.clients[room.code].discard(conn)
        if conn.seat is not None and conn.seat < len(room.seats):
            state = room.seats[conn.seat]
            state.connections = max(0, state.connections - 1)
            if state.connections == 0:
                self._start_grace(room, conn.seat)
            self._broadcast_info(room)

    def _start_grace(self, room: Room, seat: Seat) -> None:
        if room.seats[seat].is_bot or room.seats[seat].connections:
            return
        key = (room.code, seat)
        if key in self.grace:
            self.grace[key].cancel()
        loop = asyncio.get_running_loop()
        self.grace[key] = loop.call_later(
            self.settings.grace_seconds, lambda: self._spawn(self._grace_over(room, seat))
        )

    async def _grace_over(self, room: Room, seat: Seat) -> None:
        self.grace.pop((room.code, seat), None)
        if seat >= len(room.seats) or room.seats[seat].connections:
            return
        if room.status is Status.PLAYING:
            room.seats[seat].stand_in = True
        if room.host == seat:  # the host role passes to the next connected person
            room.host = self._next_host(room, seat)
        self._broadcast_info(room)
        self._after_change(room)

    @staticmethod
    def _next_host(room: Room, leaving: Seat) -> Seat | None:
        count = len(room.seats)
        for step in range(1, count + 1):
            seat = (leaving + step) % count
            if not room.seats[seat].is_bot and room.seats[seat].connections:
                return seat
        return leaving

    async def handle(self, conn: Connection, message: ClientMessage) -> None:
        """One message from an attached socket; refusals go to the sender alone."""
        if isinstance(message, Ping):
            conn.send(Pong(self.clock()))
            return
        if conn.room is None or conn.room not in self.rooms:
            conn.send(ErrorOut("no-room", "say hello with a room code first"))
            return
        room = self.rooms[conn.room]
        client_id = message.client_id if isinstance(message, Act) else None
        try:
            async with self.locks[room.code]:
                await self._apply(room, conn, message)
        except ActionRefused as exc:
            conn.send(ErrorOut(exc.code, exc.reason, client_id))

    async def _apply(self, room: Room, conn: Connection, message: ClientMessage) -> None:
        now, seat = self.clock(), conn.seat
        first: list[EntryRow] = []
        match message:
            case Act(client_id=client_id, action=action):
                if seat is None:
                    raise ActionRefused("spectators watch; they do not play")
                result = room.act(seat, client_id, action, now)
                if result is None:
                    conn.send(Ack(client_id, room.applied[(seat, client_id)], duplicate=True))
                    return
                await self._commit(room, *result)
                conn.send(Ack(client_id, room.version))
                return
            case Start():
                first = room.start(seat, now)
            case Rematch():
                first = room.rematch(seat, now)
            case AddBot(bot=spec):
                room.add_bot(seat, spec, now)
            case RemoveSeat(seat=target):
                room.remove_seat(seat, target, now)
                self._drop_seat_sockets(room, target)
            case SetOptions(options=options, family_filter=family):
                room.set_options(seat, options, family, now)
            case Leave():
                self._leave(room, conn, now)
            case Hello():
                raise ActionRefused("this socket has already said hello")
        await self.storage.save_room(room.row())
        if first:
            await self.storage.append(room.code, room.game_number, first)
        self._broadcast_info(room)
        self._broadcast_state(room, [])
        self._after_change(room)

    def _leave(self, room: Room, conn: Connection, now: int) -> None:
        seat = conn.seat
        if seat is None:
            raise ActionRefused("spectators hold no seat to leave")
        if room.status is Status.LOBBY and seat != room.host:
            room.remove_seat(room.host, seat, now)
            self._drop_seat_sockets(room, seat)
            return
        state = room.seats[seat]
        state.token_hash, state.bot, state.stand_in = None, self.settings.stand_in_bot, False
        if room.host == seat:
            room.host = self._next_host(room, seat)
        conn.seat = None
        room.version += 1

    def _drop_seat_sockets(self, room: Room, seat: Seat) -> None:
        for conn in list(self.clients[room.code]):
            if conn.seat == seat:
                conn.send(ErrorOut("removed", "the host removed this seat"))
                conn.seat = None
            elif conn.seat is not None and conn.seat > seat:
                conn.seat -= 1  # seats after a removed one move up

    async def _commit(self, room: Room, events: list[Event], entries: list[EntryRow]) -> None:
        """Store first, then tell: nothing acknowledged may be lost."""
        try:
            await self.storage.append(room.code, room.game_number, entries)
            if room.status is Status.FINISHED:
                await self.storage.save_room(room.row())
        except Exception:
            log.exception("storage failed in room %s; reloading it", room.code)
            await self._reload(room.code)
            raise ActionRefused("the server could not save that; please try again") from None
        room.remember(events)
        self._broadcast_state(room, events)
        if room.status is Status.FINISHED:
            self._broadcast_info(room)
        self._after_change(room)

    async def _reload(self, code: str) -> None:
        loaded = await self.storage.load(code)
        if loaded is not None:
            old = self.rooms[code]
            room = Room.restore(*loaded)
            for new, previous in zip(room.seats, old.seats, strict=False):
                new.connections, new.stand_in = previous.connections, previous.stand_in
            self.rooms[code] = room

    # --- telling ---------------------------------------------------------------------------
    def _broadcast_info(self, room: Room) -> None:
        info = room.info()
        for conn in self.clients.get(room.code, ()):
            conn.send(info)

    def _broadcast_state(self, room: Room, events: list[Event]) -> None:
        now = self.clock()
        cache: dict[Seat | None, Any] = {}
        for conn in self.clients.get(room.code, ()):
            if conn.seat not in cache:
                cache[conn.seat] = room.state_for(conn.seat, events, now)
            if cache[conn.seat] is not None:
                conn.send(cache[conn.seat])

    # --- clocks and bots -------------------------------------------------------------------
    def _after_change(self, room: Room) -> None:
        self._arm_clock(room)
        for seat in room.bot_seats():
            key = (room.code, seat)
            if key not in self.busy_bots:
                self.busy_bots.add(key)
                self._spawn(self._bot_turn(room.code, seat))

    def _arm_clock(self, room: Room) -> None:
        handle = self.timers.pop(room.code, None)
        if handle:
            handle.cancel()
        due = room.match.deadline() if room.match and room.status is Status.PLAYING else None
        if due is None:
            return
        delay = max(0.0, (due - self.clock()) / 1000)
        loop = asyncio.get_running_loop()
        self.timers[room.code] = loop.call_later(delay, lambda: self._spawn(self._tick(room.code)))

    async def _tick(self, code: str) -> None:
        room = self.rooms.get(code)
        if room is None:
            return
        async with self.locks[code]:
            events, entries = room.tick(self.clock())
            if entries:
                await self._commit(room, events, entries)
            else:
                self._arm_clock(room)

    async def _bot_turn(self, code: str, seat: Seat) -> None:
        try:
            if self.settings.bot_delay:
                await asyncio.sleep(self.settings.bot_delay)
            room = self.rooms.get(code)
            if room is None or seat not in room.bot_seats() or room.match is None:
                return
            key = (code, room.game_number, seat)
            spec = room.seats[seat].bot or self.settings.stand_in_bot
            bot = self.bots.setdefault(key, make_bot(spec, room.seed + seat))
            async with self.locks[code]:
                if seat not in room.bot_seats():
                    return
                state = room.game.clone(room.match.state)
                action = bot.choose(room.game, state, seat)
                client_id = f"bot-{room.version}"
                result = room.act(seat, client_id, _builtins(action), self.clock())
                if result is not None:
                    await self._commit(room, *result)
        except ActionRefused:
            log.exception("a bot's move was refused in room %s", code)
        finally:
            self.busy_bots.discard((code, seat))
            room = self.rooms.get(code)
            if room is not None and seat in room.bot_seats():
                self._after_change(room)

    # --- expiry ----------------------------------------------------------------------------
    async def _sweep(self) -> None:
        while True:
            await asyncio.sleep(self.settings.sweep_seconds)
            await self.expire_idle()

    async def expire_idle(self) -> list[str]:
        """Drop rooms nobody has been connected to for the idle time; finished stay readable."""
        now, gone = self.clock(), []
        for code, room in list(self.rooms.items()):
            idle = (now - room.updated) / 1000 >= self.settings.idle_room_seconds
            if idle and not self.clients.get(code):
                if room.status is not Status.FINISHED:
                    row = room.row()
                    row.status = "expired"
                    await self.storage.save_room(row)
                for handle in (self.timers.pop(code, None),):
                    if handle:
                        handle.cancel()
                del self.rooms[code]
                self.clients.pop(code, None)
                gone.append(code)
        return gone


def _builtins(action: Any) -> dict[str, Any]:
    result = msgspec.to_builtins(action)
    assert isinstance(result, dict)
    return result
