"""Reading finished rooms over HTTP: replayed once, then kept, and always the same answer.

A finished room that left the hub is read back from its stored log. Replaying that log takes
the event loop's CPU from every live room, so the hub keeps the rooms it replayed (bounded,
most recently read first): reading one twice replays it once, a room evicted from the cache is
replayed again, and every answer is byte for byte what a fresh replay of the log shows.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import msgspec
import pytest

from talltales.server.rooms import Room
from talltales.server.storage import EntryRow, RoomRow

from .harness import LiveServer, create_room, running, settings_for
from .players import Player
from .support import QUICK_HANDS, WYBI, connect, on_server, start_with_bots, stored

NOW = 1_700_000_000_000  # the hub's clock while reading: a state carries the server's time


@pytest.fixture
def replays(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The code of every room replayed from its log (Room.restore), in order."""
    seen: list[str] = []
    original = Room.restore

    def counting(cls: type[Room], row: RoomRow, entries: list[EntryRow]) -> Room:
        seen.append(row.code)
        return original(row, entries)

    monkeypatch.setattr(Room, "restore", classmethod(counting))
    return seen


@pytest.fixture
def server(tmp_path: Path) -> Iterator[LiveServer]:
    """A live server whose idle rooms expire at the first sweep (run by the test)."""
    with running(settings_for(tmp_path, idle_room_seconds=0.0, **QUICK_HANDS)) as live:
        yield live


def finish_rooms(server: LiveServer, count: int) -> list[str]:
    """Play ``count`` games of Ann and a bot to the end, then let the rooms leave the hub
    (nobody is connected): from then on they are read back from storage."""
    grants = [create_room(server, WYBI, "Ann") for _ in range(count)]

    async def play() -> list[str]:
        for grant in grants:
            ann = await connect(server, grant["room"], grant["token"])
            await start_with_bots(ann, "greedy")
            assert (await Player(ann, 0, seed=3).play())["outcome"] is not None
            await ann.__aexit__()
        while any(server.hub.clients.get(g["room"]) for g in grants):  # until they are gone
            await asyncio.sleep(0.005)
        gone: list[str] = await on_server(server, server.hub.expire_idle)
        return gone

    codes = [grant["room"] for grant in grants]
    assert sorted(asyncio.run(play())) == sorted(codes)
    server.hub.clock = lambda: NOW
    return codes


def today(server: LiveServer, code: str) -> tuple[bytes, bytes]:
    """What GET /api/rooms/{code} and its /record answer for a finished room, from a fresh
    replay of its stored log (as every read did before finished rooms were kept)."""
    room = Room.restore(*asyncio.run(stored(server.settings.database, code)))
    assert room.match is not None
    shown: dict[str, Any] = {"room": room.info(), "state": room.state_for(None, [], NOW)}
    return msgspec.json.encode(shown), msgspec.json.encode(room.match.record)


def read(server: LiveServer, code: str) -> tuple[bytes, bytes]:
    """The bytes of GET /api/rooms/{code} and GET /api/rooms/{code}/record."""
    shown = httpx.get(f"{server.http}/api/rooms/{code}")
    record = httpx.get(f"{server.http}/api/rooms/{code}/record")
    assert shown.status_code == 200 and record.status_code == 200, (shown.text, record.text)
    return shown.content, record.content


def test_a_finished_room_read_again_and_again_is_replayed_once(
    server: LiveServer, replays: list[str]
) -> None:
    first, second = finish_rooms(server, 2)
    expected = {code: today(server, code) for code in (first, second)}
    replays.clear()

    answers = [read(server, first) for _ in range(3)]
    assert answers == [expected[first]] * 3  # the first (replayed) and the kept alike
    assert replays == [first]
    assert read(server, second.lower()) == expected[second]  # codes are read in any case
    assert read(server, first) == expected[first]
    assert replays == [first, second]
    assert server.hub.finished.get(first) is not None
    assert first not in server.hub.rooms  # kept for reading, not live again

    missing = httpx.get(f"{server.http}/api/rooms/ZZZZ")
    assert missing.status_code == 404 and missing.json()["code"] == "no-room"
    assert len(server.hub.finished) == 2  # nothing kept for a code that holds no room


def test_a_room_evicted_from_the_cache_reads_the_same(
    server: LiveServer, replays: list[str]
) -> None:
    first, second, third = finish_rooms(server, 3)
    expected = {code: today(server, code) for code in (first, second, third)}
    server.hub.finished.capacity = 2
    replays.clear()

    for code in (first, second, first, third, second, first):
        assert read(server, code) == expected[code]
    # first and second are kept; third evicts second (first was read more recently), and
    # second's next read evicts first: each eviction costs one more replay, never a change
    assert replays == [first, second, third, second, first]
    assert len(server.hub.finished) == 2


def test_with_no_room_kept_every_read_replays_and_answers_the_same(
    server: LiveServer, replays: list[str]
) -> None:
    (code,) = finish_rooms(server, 1)
    expected = today(server, code)
    server.hub.finished.capacity = 0
    replays.clear()

    assert [read(server, code) for _ in range(2)] == [expected] * 2
    assert replays == [code] * 4  # each read is the room and its record: two replays
    assert len(server.hub.finished) == 0


def test_a_finished_room_still_in_the_hub_is_read_without_a_replay(
    tmp_path: Path, replays: list[str]
) -> None:
    with running(settings_for(tmp_path, **QUICK_HANDS)) as server:  # rooms never go idle
        grant = create_room(server, WYBI, "Ann")

        async def play() -> None:
            ann = await connect(server, grant["room"], grant["token"])
            await start_with_bots(ann, "greedy")
            assert (await Player(ann, 0, seed=5).play())["outcome"] is not None
            await ann.__aexit__()

        asyncio.run(play())
        shown, record = read(server, grant["room"])
        assert msgspec.json.decode(shown)["room"]["status"] == "finished"
        assert msgspec.json.decode(record)["game"] == WYBI
        assert replays == [] and len(server.hub.finished) == 0
