"""The hub: rooms in memory, their sockets and storage.

Actions in one room are applied one at a time under the room's lock, written to storage,
and only then told to the room's clients, each receiving its own seat's view. Clocks and
bots live in autoplay.py; seats, grace periods and the host role in presence.py.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections.abc import Callable, Coroutine
from functools import partial
from typing import Any

from talltales.core.errors import ActionRefused
from talltales.core.game import Event, Seat
from talltales.core.registry import get_game
from talltales.server.archive import FinishedRooms
from talltales.server.autoplay import Autoplay
from talltales.server.connection import Connection
from talltales.server.presence import Presence
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
    encode,
)
from talltales.server.rooms import Room, Status
from talltales.server.seats import new_code, token_hash
from talltales.server.settings import Settings
from talltales.server.storage import EntryRow, Storage

log = logging.getLogger("talltales.server")
CODE_TRIES = 200  # fresh codes tried before the server says it is full


def wall_ms() -> int:
    """The server's clock in milliseconds."""
    return int(time.time() * 1000)


class RoomNotFound(ActionRefused):
    """No room has that code."""

    code = "no-room"


class BadToken(ActionRefused):
    """The token holds no seat in that room."""

    code = "bad-token"


class GameEnded(ActionRefused):
    """The token held a seat in a room that has since finished or expired."""

    code = "game-ended"


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
        self.tasks: set[asyncio.Task[None]] = set()
        self.sweeper: asyncio.Task[None] | None = None
        self.autoplay = Autoplay(self)
        self.presence = Presence(self)
        self.finished = FinishedRooms()  # finished rooms read back from storage

    # --- life cycle ------------------------------------------------------------------------
    async def start(self) -> None:
        """Restore every unfinished room by replaying its log; re-arm clocks and bots."""
        self.autoplay.start()  # bots' workers first: forked before any socket is open
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
                self.presence.start_grace(room, seat)
            self.autoplay.after_change(room)
        self.sweeper = asyncio.create_task(self._sweep())

    async def stop(self, restarting: bool = True) -> None:
        """Tell clients the server restarts, then close everything."""
        if self.sweeper:
            self.sweeper.cancel()
        self.autoplay.stop()
        self.presence.stop()
        for task in list(self.tasks):
            task.cancel()
        await self.close_clients(restarting)
        await self.storage.close()

    async def close_clients(self, restarting: bool = True) -> None:
        """Close every socket with 1012 once it has sent what is queued (and 'restarting').

        The server calls this before its sockets are torn down, so the message gets out.
        """
        self.autoplay.stopping = True
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
        closes = [asyncio.create_task(conn.close_within(1012)) for conn in conns]
        if closes:  # each close aborts its socket past its own timeout; all run at once
            await asyncio.wait(closes, timeout=2.0)
        for conn, closing in zip(conns, closes, strict=True):
            if not closing.done():
                closing.cancel()
                conn.drop()

    def _add(self, room: Room) -> None:
        self.rooms[room.code] = room
        self.clients.setdefault(room.code, set())
        self.locks.setdefault(room.code, asyncio.Lock())

    def spawn(self, coro: Coroutine[Any, Any, None]) -> None:
        """Run a background task the hub cancels when it stops."""
        task = asyncio.create_task(coro)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    # --- rooms over HTTP -------------------------------------------------------------------
    async def create_room(
        self,
        game_id: str,
        name: str,
        options: dict[str, Any],
        family_filter: bool = True,
        join_base: str = "",
    ) -> tuple[Room, Seat, str]:
        """A new room with its creator in seat 0 as host."""
        game = get_game(game_id)
        now = self.clock()
        for _ in range(CODE_TRIES):
            code = new_code()
            if code not in self.rooms and await self.storage.load(code) is None:
                break
        else:
            raise ActionRefused("the server has no free room codes; try again later")
        room = Room(code, game, options, now)
        room.family_filter = family_filter
        base = self.settings.public_url or join_base
        room.join_url = f"{base.rstrip('/')}/?join={code}" if base else ""
        seat, token = room.join(name, now)
        await self.storage.save_room(room.row())
        self._add(room)
        return room, seat, token

    async def room(self, code: str) -> Room:
        """A live room, or a finished one read back from storage (replayed once, then kept
        in ``finished`` while it is among the most recently read: see archive.py)."""
        code = code.upper()
        if code in self.rooms:
            return self.rooms[code]
        kept = self.finished.get(code)
        if kept is not None:
            return kept
        loaded = await self.storage.load(code)
        if loaded is None or loaded[0].status != "finished":
            raise RoomNotFound(f"there is no room {code}")
        room = Room.restore(*loaded)
        if room.status is Status.FINISHED:  # as stored; never a game that replays unfinished
            self.finished.keep(room)
        return room

    async def join(self, code: str, name: str) -> tuple[Room, Seat, str]:
        """Take a seat in a lobby by name."""
        room = self.rooms.get(code.upper())
        if room is None:
            raise RoomNotFound(f"there is no room {code.upper()}")
        async with self.locks[room.code]:
            seat, token = room.join(name, self.clock())
            await self.save_lobby(room)
        self.broadcast_info(room)
        return room, seat, token

    # --- sockets ---------------------------------------------------------------------------
    async def hello(self, conn: Connection, hello: Hello) -> None:
        """Attach a socket to a room, as a seat (by token) or as a spectator."""
        room = self.rooms.get(hello.room.upper())
        if room is None:
            await self._gone(hello)
            raise RoomNotFound(f"there is no open room {hello.room.upper()}")
        seat = None
        if hello.token is not None:
            seat = room.seat_for_token(hello.token)
            if seat is None:
                raise BadToken("that seat token does not belong to this room")
        conn.room, conn.seat = room.code, seat
        if seat is not None:  # before the room message, so it shows the seat connected
            self.presence.connected(room, seat)
            self.broadcast_info(room)
        self.clients[room.code].add(conn)
        now = self.clock()
        conn.send(Welcome(room.code, seat, room.version, now))
        conn.send(room.info())
        missed = room.missed(hello.last_version) if hello.last_version >= 0 else []
        state = room.state_for(seat, missed or [], now)
        if state is not None:
            conn.send(state)

    async def _gone(self, hello: Hello) -> None:
        """Raise GameEnded for a token that held a seat in a room now finished or expired."""
        if hello.token is None:
            return
        loaded = await self.storage.load(hello.room.upper())
        if loaded is None or loaded[0].status not in ("finished", "expired"):
            return
        hashed = token_hash(hello.token)
        if any(
            seat.token_hash is not None and secrets.compare_digest(seat.token_hash, hashed)
            for seat in loaded[0].seats
        ):
            raise GameEnded(f"the game in room {loaded[0].code} has ended")

    async def disconnect(self, conn: Connection) -> None:
        """A socket went away; its seat keeps a grace period before a bot stands in."""
        room = self.rooms.get(conn.room or "")
        if room is None:
            return
        self.clients[room.code].discard(conn)
        if conn.seat is not None:
            self.presence.disconnected(room, conn.seat)
            self.broadcast_info(room)

    async def handle(self, conn: Connection, message: ClientMessage) -> None:
        """One message from an attached socket; refusals go to the sender alone."""
        if isinstance(message, Ping):
            conn.send(Pong(self.clock()))
            return
        room = self.rooms.get(conn.room or "")
        if room is None:
            conn.send(ErrorOut("no-room", "say hello with a room code first"))
            return
        client_id = getattr(message, "client_id", None)
        try:
            async with self.locks[room.code]:
                await self._apply(room, conn, message)
        except ActionRefused as exc:
            conn.send(ErrorOut(exc.code, exc.reason, client_id))

    async def _apply(self, room: Room, conn: Connection, message: ClientMessage) -> None:
        now, seat = self.clock(), conn.seat
        first: list[EntryRow] = []
        tell: Callable[[], None] | None = None  # sockets are told once the change is stored
        match message:
            case Act(client_id=client_id, action=action):
                if seat is None:
                    raise ActionRefused("spectators watch; they do not play")
                await self.autoplay.catch_up(room)  # a deadline that passed comes first
                result = room.act(seat, client_id, action, now)
                if result is None:
                    conn.send(Ack(client_id, room.applied[(seat, client_id)], duplicate=True))
                    return
                await self.commit(room, *result)
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
                tell = partial(self.presence.renumber, room, target, "the host removed this seat")
            case SetOptions(options=options, family_filter=family, packs=packs):
                room.set_options(seat, options, family, now, packs)
            case Leave():
                tell = self.presence.leave(room, conn, now)
            case Hello():
                raise ActionRefused("this socket has already said hello")
        await self.save_lobby(room, first)
        if tell is not None:
            tell()
        self.broadcast_info(room)
        self.broadcast_state(room, [])
        self.autoplay.after_change(room)

    async def save_lobby(self, room: Room, first: list[EntryRow] | None = None) -> None:
        """Store a lobby change (and a new game's first entries) or undo it and refuse."""
        try:
            await self.storage.save_room(room.row(), first or [])
        except Exception:
            log.exception("storage failed in room %s; reloading it", room.code)
            await self._reload(room.code)
            raise ActionRefused("the server could not save that; please try again") from None

    async def commit(self, room: Room, events: list[Event], entries: list[EntryRow]) -> None:
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
        self.broadcast_state(room, events)
        if room.status is Status.FINISHED:
            self.broadcast_info(room)
        self.autoplay.after_change(room)

    async def _reload(self, code: str) -> None:
        loaded = await self.storage.load(code)
        if loaded is not None:
            stand_ins = {seat.name for seat in self.rooms[code].seats if seat.stand_in}
            room = Room.restore(*loaded)
            for seat in room.seats:  # by name: an undone removal puts its seat back
                seat.stand_in = seat.name in stand_ins
            for conn in self.clients.get(code, ()):  # sockets were not re-pointed: recount
                if conn.seat is not None and conn.seat < len(room.seats):
                    room.seats[conn.seat].connections += 1
            self.rooms[code] = room

    # --- telling ---------------------------------------------------------------------------
    def broadcast_info(self, room: Room) -> None:
        """Send the room message to everyone in it (encoded once)."""
        data = encode(room.info())
        for conn in self.clients.get(room.code, ()):
            conn.send_encoded(data)

    def broadcast_state(self, room: Room, events: list[Event]) -> None:
        """Send each socket its own seat's view, encoding once per seat."""
        conns = self.clients.get(room.code, ())
        states = room.states_for({conn.seat for conn in conns}, events, self.clock())
        encoded = {seat: encode(state) for seat, state in states.items()}
        for conn in conns:
            data = encoded.get(conn.seat)
            if data is not None:
                conn.send_encoded(data)

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
                self.autoplay.forget(code)
                self.presence.forget(code)
                del self.rooms[code]
                self.clients.pop(code, None)
                self.locks.pop(code, None)
                gone.append(code)
        return gone
