"""Durable rooms: every accepted action is in the log before anyone is told of it.

Storage sits behind a small async interface; SQLite (WAL) is the embedded default and an
in-memory store serves tests. A committed SQLite transaction in WAL mode survives SIGKILL
of the process (synchronous=NORMAL only risks the last commits on power loss).
"""

from __future__ import annotations

import sqlite3
from abc import ABC, abstractmethod
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import msgspec

from talltales.core.record import PackRef


class SeatRow(msgspec.Struct):
    """A seat as stored: its holder's name, the hash of its token, or the bot in it."""

    name: str
    token_hash: str | None = None
    bot: str | None = None


class RoomRow(msgspec.Struct):
    """A room as stored (the game itself is its setup plus the entries of its log).

    The row is kept as JSON, so a field added later is simply missing from older rows and
    read as its default: that is how databases written before packs stay readable.
    """

    code: str
    game: str
    options: dict[str, Any]
    seats: list[SeatRow]
    host: int | None
    status: str  # lobby, playing, finished, expired
    version: int
    created: int
    updated: int
    family_filter: bool = True
    seed: int = 0
    game_number: int = 0  # bumped by each rematch
    join_url: str = ""
    packs: list[str] = []  # the pack ids the host chose (none: the game's defaults)
    # the current game's packs, pinned by digest; None in rows written before packs were
    # pinned, whose games were dealt the game's default packs
    content: list[PackRef] | None = None


class EntryRow(msgspec.Struct, array_like=True):
    """One entry of a game's log: the match entry plus the room version it produced."""

    index: int
    seat: int
    action: dict[str, Any]
    time: int
    version: int
    client_id: str | None = None


class Storage(ABC):
    """Where rooms and their logs live."""

    @abstractmethod
    async def save_room(self, room: RoomRow, entries: Sequence[EntryRow] = ()) -> None:
        """Insert or replace the room's row, with its current game's first entries if any,
        in one transaction (a game that draws at setup must not lose its draw)."""

    @abstractmethod
    async def append(self, code: str, game_number: int, entries: list[EntryRow]) -> None:
        """Append entries of a room's current game in one transaction."""

    @abstractmethod
    async def load(self, code: str) -> tuple[RoomRow, list[EntryRow]] | None:
        """A room and the log of its current game."""

    @abstractmethod
    async def unfinished(self) -> list[str]:
        """Codes of rooms still in the lobby or playing."""

    async def close(self) -> None:  # noqa: B027 (most stores have nothing to release)
        """Release resources."""


class MemoryStorage(Storage):
    """Keeps everything in dicts: for tests and throwaway servers."""

    def __init__(self) -> None:
        self.rooms: dict[str, RoomRow] = {}
        self.logs: dict[tuple[str, int], list[EntryRow]] = {}

    async def save_room(self, room: RoomRow, entries: Sequence[EntryRow] = ()) -> None:
        """Store a copy of the row (and the first entries)."""
        self.rooms[room.code] = msgspec.structs.replace(room, seats=list(room.seats))
        if entries:
            await self.append(room.code, room.game_number, list(entries))

    async def append(self, code: str, game_number: int, entries: list[EntryRow]) -> None:
        """Extend the game's log."""
        self.logs.setdefault((code, game_number), []).extend(entries)

    async def load(self, code: str) -> tuple[RoomRow, list[EntryRow]] | None:
        """The row and the log of the current game."""
        room = self.rooms.get(code)
        if room is None:
            return None
        return room, list(self.logs.get((code, room.game_number), []))

    async def unfinished(self) -> list[str]:
        """Rooms in the lobby or playing."""
        return [c for c, r in self.rooms.items() if r.status in ("lobby", "playing")]


_SCHEMA = """
CREATE TABLE IF NOT EXISTS rooms (
    code TEXT PRIMARY KEY,
    status TEXT NOT NULL,
    updated INTEGER NOT NULL,
    row BLOB NOT NULL
);
CREATE TABLE IF NOT EXISTS entries (
    code TEXT NOT NULL,
    game_number INTEGER NOT NULL,
    idx INTEGER NOT NULL,
    entry BLOB NOT NULL,
    PRIMARY KEY (code, game_number, idx)
);
"""


class SqliteStorage(Storage):
    """One SQLite file in WAL mode; each call is one short transaction."""

    def __init__(self, path: Path | str) -> None:
        self.path = str(path)
        if self.path != ":memory:":
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        self.db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=NORMAL")
        self.db.executescript(_SCHEMA)
        self._room_encoder = msgspec.json.Encoder()
        self._room_decoder = msgspec.json.Decoder(RoomRow)
        self._entry_decoder = msgspec.json.Decoder(EntryRow)

    async def save_room(self, room: RoomRow, entries: Sequence[EntryRow] = ()) -> None:
        """Upsert the room row, and insert the first entries, in one transaction."""
        encode = self._room_encoder.encode
        with self.db:
            self.db.execute("BEGIN")
            self.db.execute(
                "INSERT OR REPLACE INTO rooms (code, status, updated, row) VALUES (?, ?, ?, ?)",
                (room.code, room.status, room.updated, encode(room)),
            )
            self.db.executemany(
                "INSERT INTO entries (code, game_number, idx, entry) VALUES (?, ?, ?, ?)",
                [(room.code, room.game_number, e.index, encode(e)) for e in entries],
            )

    async def append(self, code: str, game_number: int, entries: list[EntryRow]) -> None:
        """Insert the entries in one transaction (the primary key refuses a reused index)."""
        encode = self._room_encoder.encode
        with self.db:
            self.db.execute("BEGIN")
            self.db.executemany(
                "INSERT INTO entries (code, game_number, idx, entry) VALUES (?, ?, ?, ?)",
                [(code, game_number, e.index, encode(e)) for e in entries],
            )

    async def load(self, code: str) -> tuple[RoomRow, list[EntryRow]] | None:
        """The room and its current game's log in order."""
        found = self.db.execute("SELECT row FROM rooms WHERE code = ?", (code,)).fetchone()
        if found is None:
            return None
        room = self._room_decoder.decode(found[0])
        rows = self.db.execute(
            "SELECT entry FROM entries WHERE code = ? AND game_number = ? ORDER BY idx",
            (code, room.game_number),
        ).fetchall()
        return room, [self._entry_decoder.decode(r[0]) for r in rows]

    async def unfinished(self) -> list[str]:
        """Rooms in the lobby or playing."""
        rows = self.db.execute(
            "SELECT code FROM rooms WHERE status IN ('lobby', 'playing') ORDER BY updated"
        ).fetchall()
        return [r[0] for r in rows]

    async def close(self) -> None:
        """Close the connection."""
        self.db.close()
