"""A server process killed mid-game comes back over the same database exactly where it was,
with the very packs its game was dealt."""

from __future__ import annotations

import asyncio
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from hashlib import sha256
from pathlib import Path
from typing import Any

import httpx
import msgspec
import pytest
import websockets
from fixture_game import FIB_OFF, PACKS

from talltales.core.match import replay
from talltales.core.record import Record

from .harness import Client, Loopback, free_port
from .players import Player
from .support import WYBI, attach, eventually, frames, open_room, shown, start_with_bots, stored

LAUNCH = Path(__file__).resolve().parent / "launch.py"
FACTS = PACKS / "fib-off-facts.toml"


class ServerProcess(Loopback):
    """``tests/server/launch.py`` in a child process, on a fresh port."""

    def __init__(self, tmp_path: Path, database: Path, grace: float = 30.0) -> None:
        self.port = free_port()
        self.database = database
        self.log = (tmp_path / f"server-{self.port}.log").open("wb")
        self.process = subprocess.Popen(
            [
                *(sys.executable, str(LAUNCH), "--port", str(self.port)),
                *("--database", str(database), "--grace", str(grace)),
            ],
            stdout=self.log,
            stderr=subprocess.STDOUT,
        )
        deadline = time.monotonic() + 20
        while True:
            assert self.process.poll() is None, "the server process exited while starting"
            assert time.monotonic() < deadline, "the server process did not start"
            try:
                if httpx.get(f"{self.http}/api/games", timeout=1).status_code == 200:
                    break
            except httpx.TransportError:
                time.sleep(0.05)

    def signal(self, number: int) -> None:
        self.process.send_signal(number)

    def wait(self) -> int:
        try:
            return self.process.wait(15)
        finally:
            self.log.close()

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
        self.wait()


@pytest.fixture
def launch(tmp_path: Path) -> Iterator[Callable[[], ServerProcess]]:
    """Starts a server process over the test's database; every one is gone when it ends."""
    started: list[ServerProcess] = []

    def start() -> ServerProcess:
        process = ServerProcess(tmp_path, tmp_path / "rooms.sqlite3")
        started.append(process)
        return process

    yield start
    for process in started:
        process.stop()


async def play_to_the_end(players: list[Player]) -> list[dict[str, Any]]:
    """Every player plays on to the end; their last states, once their sockets are closed."""
    finals = list(await asyncio.gather(*(p.play() for p in players)))
    for player in players:
        await player.client.__aexit__()
    return finals


async def drain(client: Client) -> None:
    """Read whatever the dead server had sent before the socket broke."""
    try:
        while True:
            await client.recv(2.0)
    except (websockets.ConnectionClosed, TimeoutError):
        pass
    await client.__aexit__()


def test_sigkill_in_a_quiet_moment_resumes_the_very_same_state(
    launch: Callable[[], ServerProcess],
) -> None:
    first = launch()
    code, grants = open_room(first, WYBI, "Ann", "Bob")
    tokens = [grant["token"] for grant in grants]

    async def before() -> tuple[list[Player], dict[str, Any]]:
        clients = [await attach(first, code, token) for token in tokens]
        await start_with_bots(clients[0], "greedy")
        ann, bob = Player(clients[0], 0, seed=7), Player(clients[1], 1, seed=8)
        ann_task = asyncio.create_task(ann.play())
        # Bob stops when his own decision is due, after a few moves: nothing moves after.
        paused = await bob.play(
            stop=lambda s: bob.count >= 3 and bob.outstanding is None and 1 in s["pending"]
        )
        assert paused.get("outcome") is None and paused["pending"] == [1]
        await eventually(
            lambda: ann.latest is not None and ann.latest["version"] == paused["version"]
        )
        await asyncio.sleep(0.05)  # nothing else arrives: the table waits for Bob
        assert ann.latest is not None and ann.latest["version"] == paused["version"]
        ann_task.cancel()
        return [ann, bob], paused

    players, paused = asyncio.run(before())
    first.signal(signal.SIGKILL)
    assert first.wait() == -signal.SIGKILL

    second = launch()
    public = shown(second, code)
    assert public["room"]["status"] == "playing"
    assert public["room"]["version"] == public["state"]["version"] == paused["version"]
    highest_ack = max(a["version"] for p in players for a in p.acks)
    assert public["state"]["version"] >= highest_ack

    async def after() -> list[dict[str, Any]]:
        for player in players:
            seen = player.latest
            assert seen is not None
            client = await attach(second, code, tokens[player.seat], seen["version"])
            welcome = frames(client, "welcome")[0]
            assert (welcome["seat"], welcome["version"]) == (player.seat, paused["version"])
            room = await client.until("room")
            assert room["status"] == "playing"
            assert room["seats"][player.seat]["connected"]
            state = await client.until("state")
            # Exactly the same position, as this seat may see it, with the same choices.
            assert state["version"] == seen["version"]
            assert (state["view"], state["legal"], state["pending"]) == (
                seen["view"],
                seen["legal"],
                seen["pending"],
            )
            player.resume(client, state)
        # What was acknowledged before the kill is still known: resending is a duplicate.
        bob = players[1]
        await bob.client.send(bob.sent[-1])
        duplicate = await bob.client.until("ack")
        assert duplicate == {**bob.acks[-1], "duplicate": True}
        assert frames(bob.client, "state")[-1] == bob.latest  # and nothing moved
        return await play_to_the_end(players)

    finals = asyncio.run(after())
    assert finals[0]["outcome"] == finals[1]["outcome"] is not None
    record = httpx.get(f"{second.http}/api/rooms/{code}/record")
    assert record.status_code == 200 and record.json()["players"] == 3


def test_sigkill_while_actions_fly_loses_nothing_acknowledged_nor_the_deck(
    launch: Callable[[], ServerProcess],
) -> None:
    first = launch()
    options = {"write_ms": 400, "dispute_ms": 200, "rounds": 4}
    code, grants = open_room(first, FIB_OFF.id, "Ann", "Bob", options=options)
    tokens = [grant["token"] for grant in grants]
    pinned = [{"id": "fib-off-facts", "sha256": sha256(FACTS.read_bytes()).hexdigest()}]

    async def before() -> list[Player]:
        clients = [await attach(first, code, token) for token in tokens]
        await clients[0].send({"type": "set-options", "packs": ["fib-off-facts"]})
        await start_with_bots(clients[0], "greedy", "random")
        players = [Player(c, seat, seed=seat + 20) for seat, c in enumerate(clients)]
        tasks = [asyncio.create_task(p.play()) for p in players]
        await eventually(lambda: sum(len(p.acks) for p in players) >= 6)
        first.signal(signal.SIGKILL)  # while both people and the bots are mid-flow
        await asyncio.gather(*tasks, return_exceptions=True)
        for client in clients:
            await drain(client)
        return players

    players = asyncio.run(before())
    assert first.wait() == -signal.SIGKILL
    acked = [a for p in players for a in p.acks]
    assert acked and all(not a.get("duplicate") for a in acked)
    row, _ = asyncio.run(stored(str(first.database), code))
    assert msgspec.to_builtins(row.content) == pinned  # the deck's pack, pinned by digest

    second = launch()
    public = shown(second, code)
    assert public["state"]["version"] >= max(a["version"] for a in acked)
    assert public["room"]["packs"] == ["fib-off-facts"]

    async def after() -> list[dict[str, Any]]:
        for player in players:
            last = player.latest["version"] if player.latest else -1
            client = await attach(second, code, tokens[player.seat], last)
            state = await client.until("state")
            assert state["version"] >= last
            player.resume(client, state)
        # Every acknowledged action is in the restored log, at the version it was given.
        for player in players:
            by_id = {m["client_id"]: m for m in player.sent}
            for ack in [a for a in player.acks if not a.get("duplicate")]:
                await player.client.send(by_id[ack["client_id"]])
                again = await player.client.until("ack", client_id=ack["client_id"])
                assert again == {**ack, "duplicate": True}
            player.latest = frames(player.client, "state")[-1]  # the table moved meanwhile
        return await play_to_the_end(players)

    finals = asyncio.run(after())
    assert finals[0]["outcome"] == finals[1]["outcome"] is not None
    assert finals[0]["version"] == finals[1]["version"]
    # the whole game, across the kill, was dealt from that one pack, and replays with it
    record = msgspec.convert(httpx.get(f"{second.http}/api/rooms/{code}/record").json(), Record)
    assert msgspec.to_builtins(record.content) == pinned
    final = replay(FIB_OFF, record)
    assert msgspec.to_builtins(FIB_OFF.outcome(final)) == finals[0]["outcome"]


def test_sigterm_tells_every_client_the_server_restarts(
    launch: Callable[[], ServerProcess],
) -> None:
    first = launch()
    code, (host, guest) = open_room(first, WYBI, "Ann", "Bob")

    async def told() -> list[tuple[dict[str, Any], int | None]]:
        clients = [
            await attach(first, code, host["token"]),
            await attach(first, code, guest["token"]),
            await attach(first, code, None),  # a spectator is told too
        ]
        await start_with_bots(clients[0], "random")
        for client in clients:
            await client.until("state")
        first.signal(signal.SIGTERM)
        endings = []
        for client in clients:
            last: dict[str, Any] = {}
            with pytest.raises(websockets.ConnectionClosed):
                while True:
                    last = await client.recv(10.0)
            endings.append((last, client.ws.close_code))
        return endings

    for last, close_code in asyncio.run(told()):
        assert last == {"type": "restarting"}  # the last word before the socket closed
        assert close_code == 1012  # "service restart"
    assert first.wait() in (0, -signal.SIGTERM)  # uvicorn re-raises the signal it handled

    # Over the same database the room is back, and its people can come back to their seats.
    second = launch()

    async def back() -> dict[str, Any]:
        client = await attach(second, code, guest["token"])
        state = await client.until("state")
        await client.__aexit__()
        return state

    assert shown(second, code)["state"]["version"] == asyncio.run(back())["version"]
