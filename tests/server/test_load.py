"""Many rooms at once on a slow store: every seat a real client, nothing acknowledged lost.

Twelve rooms play to the end concurrently (Would You Believe It! and the fixture game, whose
bluffs and votes are written by several seats at once) while every write to storage waits a
random moment. Afterwards each acknowledged action is in the stored log with its version,
no simultaneous submission was refused, and each room's final state is exactly what a replay
of its stored log gives.

The ``Player`` driver and its policies are reused by test_secrets.py, and ``Socket`` and
``on_server`` by test_abuse.py as well.
"""

from __future__ import annotations

import asyncio
import random
import secrets
from collections.abc import Awaitable, Callable, Iterator, Sequence
from pathlib import Path
from typing import Any, TypeVar

import httpx
import msgspec
import pytest
import websockets
from fixture_game import FIB_OFF

from talltales.core.registry import register, unregister
from talltales.server.rooms import Room
from talltales.server.storage import EntryRow, RoomRow, SqliteStorage

from .harness import Client, LiveServer, create_room, join_room, running, settings_for

T = TypeVar("T")
WYBI = "would-you-believe-it"
NAMES = ("Ann", "Bob", "Cid", "Dee", "Eve", "Fay")

# state message -> the action to send now, or None to wait for a later state
Policy = Callable[[dict[str, Any], int, random.Random], dict[str, Any] | None]


@pytest.fixture(autouse=True)
def fixture_game() -> Iterator[None]:
    """The fixture game is playable on the in-process server during each test."""
    register(FIB_OFF)
    try:
        yield
    finally:
        unregister(FIB_OFF.id)


async def on_server(server: LiveServer, work: Callable[[], Awaitable[T]]) -> T:
    """Run ``work`` on the server's own event loop (where rooms, locks and storage live)."""
    assert server.hub.sweeper is not None
    loop = server.hub.sweeper.get_loop()
    return await asyncio.wrap_future(asyncio.run_coroutine_threadsafe(work(), loop))


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


# --- policies ----------------------------------------------------------------------------
def any_legal(state: dict[str, Any], seat: int, rng: random.Random) -> dict[str, Any] | None:
    """Would You Believe It!: a random legal action."""
    choice: dict[str, Any] = rng.choice(state["legal"])
    return choice


def bluff_text(nonce: str, seat: int, round_: int) -> str:
    """A bluff no other seat, round or room writes (a findable marker)."""
    return f"tale {nonce} s{seat} r{round_}"


def fib_off_policy(nonce: str) -> Policy:
    """The fixture game, played so that no submission can be refused by another's.

    Round 0: the first seat after the reader disputes and the others wait; later rounds all
    pass at once. Everyone writes a marked bluff at once (after playing a steal card they
    hold); in round 1 the reader strikes one bluff; everyone votes at once.
    """

    def choose(state: dict[str, Any], seat: int, rng: random.Random) -> dict[str, Any] | None:
        view, legal = state["view"], state["legal"]
        first = {a["type"]: a for a in reversed(legal)}  # the first action of each type
        round_ = view["round"]
        match view["phase"]:
            case "dispute":
                if round_ == 0:
                    disputer = (view["reader"] + 1) % len(view["scores"])
                    return {"type": "dispute"} if seat == disputer else None
                return {"type": "pass"}
            case "write":
                if "steal" in first:
                    return dict(first["steal"])
                return {"type": "bluff", "text": bluff_text(nonce, seat, round_)}
            case "judge":
                if round_ == 1 and not view["struck"] and "strike" in first:
                    return dict(first["strike"])
                return {"type": "accept"}
            case _:  # claim a card with a stake, or vote
                choice: dict[str, Any] = rng.choice(legal)
                return choice

    return choose


# --- the driver ----------------------------------------------------------------------------
class Socket(Client):
    """The harness's client with no limit on unread messages.

    By default a websockets client stops reading its socket while 16 messages wait unread;
    a client that falls behind then misses the server's answer to its close and waits 10 s.
    """

    async def __aenter__(self) -> Socket:
        self.ws = await websockets.connect(
            self.url, additional_headers=self.headers or None, max_size=None, max_queue=None
        )
        return self


class Player:
    """One seat played by a real client to the end of the game.

    It acts only on states that already include its previous action (their version is at
    least that action's ack), so it never submits the same decision twice; every refusal
    fails the test at once. ``reconnect`` (a test on a state) makes it drop its socket once
    and come back with an older ``last_version``, so the server replays missed events.
    """

    def __init__(
        self,
        server: LiveServer,
        code: str,
        seat: int,
        token: str,
        policy: Policy,
        seed: int,
        reconnect: Callable[[dict[str, Any]], bool] | None = None,
    ) -> None:
        self.server, self.code, self.seat, self.token = server, code, seat, token
        self.policy, self.rng, self.reconnect = policy, random.Random(seed), reconnect
        self.clients: list[Socket] = []
        self.acks: list[dict[str, Any]] = []
        self.sent: dict[str, dict[str, Any]] = {}  # client id -> action
        self.based: dict[str, int] = {}  # client id -> version of the state it answered
        self.final: dict[str, Any] | None = None
        self.reconnected = False

    @property
    def frames(self) -> list[str]:
        """Every frame this seat received, over all its sockets, in order."""
        return [frame for client in self.clients for frame in client.frames]

    async def _connect(self, last_version: int = -1) -> Socket:
        client = Socket(self.server.ws)
        await client.__aenter__()
        self.clients.append(client)
        await client.hello(self.code, self.token, last_version)
        return client

    async def play(self) -> None:
        """Play until the outcome arrives and every action sent is acknowledged."""
        client = await self._connect()
        try:
            await self._loop(client)
        finally:
            for each in self.clients:
                await each.__aexit__()

    async def _loop(self, client: Socket) -> None:
        latest: dict[str, Any] | None = None
        waiting: str | None = None  # the client id of the action awaiting its ack
        floor = 0  # only states at least this new include our last action
        while True:
            message = await client.recv(30)
            match message["type"]:
                case "state":
                    latest = message
                case "ack":
                    assert message["client_id"] == waiting, (self.seat, message)
                    assert not message.get("duplicate"), message
                    self.acks.append(message)
                    waiting, floor = None, message["version"]
                case "error":
                    raise AssertionError(f"room {self.code} seat {self.seat} refused: {message}")
            if latest is None or waiting is not None or latest["version"] < floor:
                continue
            if latest.get("outcome"):
                self.final = latest
                return
            if self.reconnect and not self.reconnected and self.reconnect(latest):
                self.reconnected = True
                await client.__aexit__()
                client = await self._connect(max(0, latest["version"] - 3))
                latest = None
                continue
            if self.seat not in latest["pending"] or not latest["legal"]:
                continue
            action = self.policy(latest, self.seat, self.rng)
            if action is None:
                continue
            waiting = f"s{self.seat}-{len(self.sent) + 1}"
            self.sent[waiting], self.based[waiting] = action, latest["version"]
            await client.send({"type": "act", "client_id": waiting, "action": action})


class Table:
    """A room whose seats were all taken over HTTP, ready for a ``Player`` per seat."""

    def __init__(self, server: LiveServer, game: str, seats: int, options: dict[str, Any]):
        self.game, self.options, self.nonce = game, options, secrets.token_hex(4)
        host = create_room(server, game, NAMES[0], options)
        self.code: str = host["room"]
        self.tokens = [host["token"]] + [
            join_room(server, self.code, NAMES[seat])["token"] for seat in range(1, seats)
        ]

    def policy(self) -> Policy:
        return fib_off_policy(self.nonce) if self.game == FIB_OFF.id else any_legal


async def start(server: LiveServer, code: str, host_token: str) -> None:
    """The host starts the game from a socket of its own."""
    async with Socket(server.ws) as host:
        await host.hello(code, host_token)
        await host.send({"type": "start"})
        await host.until("state")


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


async def stored(database: str, code: str) -> tuple[RoomRow, list[EntryRow]]:
    """A room's row and log as a fresh reader of the database finds them."""
    storage = SqliteStorage(database)
    try:
        loaded = await storage.load(code)
    finally:
        await storage.close()
    assert loaded is not None, code
    return loaded


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
            Player(server, t.code, seat, token, t.policy(), seed=1000 * n + seat)
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
    # changed when they arrived: they were kept all the same (a refusal fails the Player)
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
