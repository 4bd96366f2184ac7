"""Many rooms at once on a slow store: every seat a real client, nothing acknowledged lost.

Twelve rooms play to the end concurrently (Would You Believe It! and the fixture game, whose
bluffs and votes are written by several seats at once) while every write to storage waits a
random moment. Afterwards each acknowledged action is in the stored log with its version,
no simultaneous submission was refused, and each room's final state is exactly what a replay
of its stored log gives.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Sequence
from pathlib import Path

import httpx
import msgspec
import pytest
from fixture_game import FIB_OFF

from talltales.server.rooms import Room
from talltales.server.storage import EntryRow, RoomRow, SqliteStorage

from .harness import LiveServer, running, settings_for
from .players import SeatPlayer, Table, bluff_text, start
from .support import WYBI, on_server, stored

pytestmark = pytest.mark.usefixtures("fib_off")  # the fixture game is playable here


class SlowStorage(SqliteStorage):
    """SQLite whose every write first waits a random few milliseconds."""

    def __init__(self, path: str, seed: int, most: float = 0.004) -> None:
        super().__init__(path)
        self.random = random.Random(seed)
        self.most = most
        self.writes = 0

    async def _pause(self) -> None:
        self.writes += 1
        await asyncio.sleep(self.random.uniform(0, self.most))

    async def save_room(self, room: RoomRow, entries: Sequence[EntryRow] = ()) -> None:
        await self._pause()
        await super().save_room(room, entries)

    async def append(self, code: str, game_number: int, entries: list[EntryRow]) -> None:
        await self._pause()
        await super().append(code, game_number, entries)


async def final_states(server: LiveServer, codes: list[str]) -> dict[str, tuple[int, bytes]]:
    """Each room's version and encoded game state in the live hub, read under its lock."""

    async def read() -> dict[str, tuple[int, bytes]]:
        found = {}
        for code in codes:
            async with server.hub.locks[code]:
                room = server.hub.rooms[code]
                assert room.match is not None
                found[code] = (room.version, msgspec.json.encode(room.match.state))
        return found

    return await on_server(server, read)


LAYOUT = [  # (game, seats, options) for twelve rooms
    *[(WYBI, 3 + k % 2, {}) for k in range(4)],
    *[(WYBI, 3 + k % 2, {"figures": 1}) for k in range(4)],
    *[(FIB_OFF.id, 3 + k % 2, {}) for k in range(4)],
]


def test_twelve_rooms_at_once_on_a_slow_store_lose_nothing(tmp_path: Path) -> None:
    settings = settings_for(tmp_path, grace_seconds=600.0, max_connections_per_address=200)
    storage = SlowStorage(settings.database, seed=20261129)
    with running(settings, storage=storage) as server:
        tables = [Table(server, game, seats, options) for game, seats, options in LAYOUT]
        players = [
            SeatPlayer(server, t.code, seat, token, t.policy(), seed=1000 * n + seat)
            for n, t in enumerate(tables)
            for seat, token in enumerate(t.tokens)
        ]

        async def everyone() -> dict[str, tuple[int, bytes]]:
            await asyncio.gather(*(start(server, t.code, t.tokens[0]) for t in tables))
            await asyncio.gather(*(p.play() for p in players))
            return await final_states(server, [t.code for t in tables])

        live = asyncio.run(everyone())
        records = {t.code: httpx.get(f"{server.http}/api/rooms/{t.code}/record") for t in tables}
    assert storage.writes > 0
    # some simultaneous submissions answered a state that others' submissions had already
    # changed when they arrived: they were kept all the same (a refusal fails the SeatPlayer)
    overtaken = [
        a
        for p in players
        for a in p.acks
        if p.sent[a["client_id"]]["type"] in ("pass", "bluff", "vote")
        and a["version"] > p.based[a["client_id"]] + 1
    ]
    assert overtaken

    for table in tables:
        row, entries = asyncio.run(stored(settings.database, table.code))
        seated = [p for p in players if p.code == table.code]
        assert row.status == "finished"
        assert all(p.final is not None for p in seated)
        assert len({msgspec.json.encode(p.final["outcome"]) for p in seated if p.final}) == 1

        # every acknowledged action is in the log, at the version its ack gave
        logged = {(e.seat, e.client_id): e for e in entries if e.client_id is not None}
        acked = {(p.seat, a["client_id"]): a["version"] for p in seated for a in p.acks}
        assert set(logged) == set(acked), table.code
        for key, version in acked.items():
            player = next(p for p in seated if p.seat == key[0])
            assert logged[key].version == version
            assert logged[key].action == player.sent[key[1]]

        # the final state is exactly the replay of the stored log
        restored = Room.restore(row, entries)
        assert restored.match is not None
        assert (restored.version, msgspec.json.encode(restored.match.state)) == live[table.code]
        assert records[table.code].status_code == 200
        assert len(records[table.code].json()["entries"]) == len(entries)

        if table.game == FIB_OFF.id:  # every simultaneous bluff was kept, none by the clock
            seats = len(table.tokens)
            bluffs = {e.action["text"] for e in entries if e.action.get("type") == "bluff"}
            expected = {
                bluff_text(table.nonce, seat, round_)
                for round_ in range(3)
                for seat in range(seats)
                if seat != round_ % seats
            }
            assert bluffs == expected
            assert not any(e.seat == -2 for e in entries)  # no deadline ever passed
