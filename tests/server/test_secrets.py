"""No frame and no HTTP body carries another seat's secret before it is revealed.

A storage wrapper records ``game.secrets(state)`` at every version of every room (the hub
writes to storage right after each change and before telling anyone). Full games of the
fixture game (hidden hands, a secret die, simultaneous bluffs and votes) and of Would You
Believe It! (whose only secret is its generator) are played by several clients, one of
which drops and comes back mid-game to be sent the events it missed, while a spectator
watches and fetches GET /api/rooms/{code} after every state. Then every frame each of them
received is searched for the secrets it was not allowed to see at the version it was sent.
"""

from __future__ import annotations

import asyncio
import bisect
import json
from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import httpx
import pytest
from fixture_game import FIB_OFF

from talltales.server.hub import Hub
from talltales.server.rooms import Status
from talltales.server.storage import EntryRow, RoomRow, SqliteStorage

from .harness import LiveServer, running, settings_for
from .players import SeatPlayer, Table, start
from .support import WYBI, Socket

Needles = list[tuple[str, frozenset[int]]]  # (text to search for, seats allowed to see it)


pytestmark = pytest.mark.usefixtures("fib_off")  # the fixture game is playable here


class SecretLog(SqliteStorage):
    """SQLite that notes every room's secrets whenever the hub writes the room."""

    def __init__(self, path: str) -> None:
        super().__init__(path)
        self.hub: Hub | None = None
        self.versions: dict[str, list[int]] = defaultdict(list)
        self.needles: dict[str, list[Needles]] = defaultdict(list)

    def note(self, code: str) -> None:
        room = self.hub.rooms.get(code) if self.hub else None
        if room is None:
            return
        found: Needles = []
        if room.match is not None:
            for secret in room.game.secrets(room.match.state):
                # a generator state would leak as its bare number, not as "rng:<number>"
                value = secret.value.removeprefix("rng:")
                found.append((value, frozenset(secret.seats)))
            if room.status is Status.PLAYING:  # the seed decides everything still to come
                found.append((str(room.seed), frozenset()))
        self.versions[code].append(room.version)
        self.needles[code].append(found)

    def at(self, code: str, version: int) -> Needles:
        """The secrets of the room at ``version`` (the last noted at or before it)."""
        place = bisect.bisect_right(self.versions[code], version)
        return self.needles[code][place - 1] if place else []

    async def save_room(self, room: RoomRow, entries: Sequence[EntryRow] = ()) -> None:
        self.note(room.code)
        await super().save_room(room, entries)

    async def append(self, code: str, game_number: int, entries: list[EntryRow]) -> None:
        self.note(code)
        await super().append(code, game_number, entries)


class Spectator:
    """Watches without a token, and fetches the room over HTTP after every state."""

    def __init__(self, server: LiveServer, code: str) -> None:
        self.server, self.code = server, code
        self.client = Socket(server.ws)
        self.bodies: list[str] = []

    async def watch(self) -> None:
        async with self.client, httpx.AsyncClient(base_url=self.server.http) as http:
            await self.client.hello(self.code)
            while True:
                message = await self.client.until("state", timeout=30)
                response = await http.get(f"/api/rooms/{self.code}")
                assert response.status_code == 200
                self.bodies.append(response.text)
                if message.get("outcome"):
                    break
        assert len(self.bodies) > 10


def leaks(log: SecretLog, code: str, seat: int | None, frames: list[str]) -> list[str]:
    """Secrets found in ``frames`` that ``seat`` (None: anybody) was not allowed to see."""
    found, version, checked = [], -1, 0
    for frame in frames:
        message = json.loads(frame)
        if message.get("type") is None and "room" in message:  # an HTTP body
            message = message["state"]
        version = message.get("version", version)
        for value, seats in log.at(code, version):
            if seat not in seats:
                checked += 1
                if value in frame:
                    found.append(f"version {version}: {value!r} in {frame[:200]}")
    assert checked, "nothing was secret from this seat: the search proves nothing"
    return found


def play(server: LiveServer, log: SecretLog, table: Table, dropper: int) -> tuple[Any, ...]:
    """The seats play to the end (``dropper`` reconnecting mid-game) while a spectator looks."""
    players = [
        SeatPlayer(
            server,
            table.code,
            seat,
            token,
            table.policy(),
            seed=seat,
            reconnect=(lambda s: s["version"] >= 12) if seat == dropper else None,
        )
        for seat, token in enumerate(table.tokens)
    ]
    spectator = Spectator(server, table.code)

    async def everyone() -> None:
        await start(server, table.code, table.tokens[0])
        await asyncio.gather(spectator.watch(), *(p.play() for p in players))

    asyncio.run(everyone())
    assert players[dropper].reconnected and len(players[dropper].clients) == 2
    for player in players:
        assert player.final is not None
        assert leaks(log, table.code, player.seat, player.frames) == []
    assert leaks(log, table.code, None, spectator.client.frames) == []
    assert leaks(log, table.code, None, spectator.bodies) == []
    return tuple(players)


def test_hidden_hands_dice_bluffs_and_votes_stay_hidden(tmp_path: Path) -> None:
    settings = settings_for(tmp_path, grace_seconds=600.0)
    log = SecretLog(settings.database)
    with running(settings, storage=log) as server:
        log.hub = server.hub
        table = Table(server, FIB_OFF.id, 4, {"rounds": 3})
        players = play(server, log, table, dropper=2)

    # the search is real: each seat was shown its own secrets (hand, die, bluff) meanwhile
    dealt = next(needles for needles in log.needles[table.code] if needles)
    for player in players:
        mine = [v for v, seats in dealt if seats == {player.seat} and v.startswith("fib:")]
        assert len(mine) == 2
        assert all(any(card in frame for frame in player.frames) for card in mine)
    reader = players[0]  # reads round 0 and so sees the die before anyone disputes
    assert any('"roll":"die:' in frame for frame in reader.frames)
    dice = {v for needles in log.needles[table.code] for v, _ in needles if v.startswith("die:")}
    assert dice
    assert any(f"tale {table.nonce} s1 r0" in frame for frame in players[1].frames)


def test_the_generator_of_would_you_believe_it_stays_hidden(tmp_path: Path) -> None:
    settings = settings_for(tmp_path, grace_seconds=600.0)
    log = SecretLog(settings.database)
    with running(settings, storage=log) as server:
        log.hub = server.hub
        table = Table(server, WYBI, 3, {})
        play(server, log, table, dropper=1)

    generators = {v for needles in log.needles[table.code] for v, _ in needles}
    assert len(generators) > 10  # the generator moved on with every roll, all of it hidden
