"""Live games beside a flood of reads of a finished room: does reading slow playing?

Run with ``uv run python bench/read_flood.py [--seconds 5] [--readers 8] [--rooms 4]``.

A finished Would You Believe It! room is prepared first (a person and three greedy bots play it
to the end), so that it is only ever read back from storage. The real server then runs as a
subprocess on a free 127.0.0.1 port, twice on that database:

* ``replay``: the hub keeps no finished room (``archive.FINISHED_ROOMS = 0``), so every read
  replays the room's whole log, as every read did before finished rooms were kept;
* ``kept``: as shipped, a finished room is replayed once and then read from memory.

With each, two phases of ``--seconds`` each (each also capped by ``--max-actions``): the
live rooms alone (the anchor), then the same with ``--readers`` keep-alive HTTP connections
(from ``--addresses`` client addresses, default one, in a process of their own) hammering
GET /api/rooms/{code} of the finished room (capped by ``--max-reads``). The live rooms
(``--rooms``, of 2 to 4 people, no bots) are paced: each acts ``--pace`` ms after the whole
room holds the last state, and its round trip runs from sending an action until every client
of the room holds the state of the new version. Printed: live round trip p50/p99 and reads
answered per second. Nothing here asserts a timing; everything stays on loopback.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import multiprocessing as mp
import random
import signal
import sys
import tempfile
import time
import urllib.request
from collections import Counter
from pathlib import Path
from typing import Any

import websockets
from server import HOST, ServerProcess, free_port, percentile, post  # bench/server.py

GAME = "would-you-believe-it"
BOOT = """
import sys
import talltales.server.archive as archive
from talltales.server.run import serve
from talltales.server.settings import Settings
if sys.argv[3] == "replay":
    archive.FINISHED_ROOMS = 0
serve(Settings(database=sys.argv[1], port=int(sys.argv[2]), bot_delay=0.0,
               rooms_per_minute=100_000, message_rate=10_000.0, message_burst=10_000))
"""
_http = urllib.request.build_opener(urllib.request.ProxyHandler({}))  # never a proxy


def server_for(database: Path, mode: str, log: Path) -> ServerProcess:
    """The real server on ``database`` in ``mode`` (replay or kept), on a free port."""
    port = free_port()
    argv = [sys.executable, "-c", BOOT, str(database), str(port), mode]
    return ServerProcess(mode, argv, port, log, stop=signal.SIGTERM)


# --- the finished room ---------------------------------------------------------------------
async def finish_room(server: ServerProcess) -> str:
    """A room Ann and three greedy bots play to the end; its code."""
    grant = post(f"{server.http}/api/rooms", {"game": GAME, "name": "Ann", "options": {}})
    rng = random.Random(7)
    async with websockets.connect(server.ws, max_size=None) as ws:
        await ws.send(json.dumps({"type": "hello", "room": grant["room"], "token": grant["token"]}))
        for _ in range(3):
            await ws.send(json.dumps({"type": "add-bot", "bot": "greedy"}))
        await ws.send(json.dumps({"type": "start"}))
        count, acted = 0, -1
        async with asyncio.timeout(120):
            while True:
                message = json.loads(await ws.recv())
                if message["type"] != "state":
                    continue
                if message.get("outcome"):
                    return str(grant["room"])
                if 0 in message["pending"] and message["legal"] and message["version"] > acted:
                    count, acted = count + 1, message["version"]
                    action = rng.choice(message["legal"])
                    act = {"type": "act", "client_id": f"a{count}", "action": action}
                    await ws.send(json.dumps(act))


# --- live rooms ----------------------------------------------------------------------------
class LiveRoom:
    """People (no bots) at one table: one action in flight at a time, paced."""

    def __init__(self, server: ServerProcess, people: int, pace: float, seed: int) -> None:
        names = ["Ann", "Bob", "Cat", "Dan"][:people]
        host = post(f"{server.http}/api/rooms", {"game": GAME, "name": names[0], "options": {}})
        self.code: str = host["room"]
        url = f"{server.http}/api/rooms/{self.code}/seats"
        self.tokens = [host["token"]] + [post(url, {"name": n})["token"] for n in names[1:]]
        self.server, self.pace, self.rng = server, pace, random.Random(seed)
        self.latest: list[dict[str, Any] | None] = [None] * people
        self.changed = asyncio.Event()
        self.sockets: list[Any] = []
        self.trips: list[float] = []
        self.count = 0

    async def open(self) -> None:
        for token in self.tokens:
            ws = await websockets.connect(self.server.ws, max_size=None, max_queue=None)
            await ws.send(json.dumps({"type": "hello", "room": self.code, "token": token}))
            self.sockets.append(ws)
        await self.sockets[0].send(json.dumps({"type": "start"}))

    async def read(self, seat: int) -> None:
        async for raw in self.sockets[seat]:
            message = json.loads(raw)
            if message["type"] == "state":
                self.latest[seat] = message
                self.changed.set()

    def settled(self, above: int) -> bool:
        return all(s is not None and s["version"] > above for s in self.latest)

    async def play(self, until: float, measuring: list[bool], cap: int) -> None:
        """Act until ``until`` (monotonic); round trips are kept while ``measuring[0]``."""
        version = -1
        while time.monotonic() < until and self.count < cap:
            while not self.settled(version):  # the whole room holds the newest state
                self.changed.clear()
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self.changed.wait(), max(0.0, until - time.monotonic()))
                if time.monotonic() >= until:
                    return
            states = [s for s in self.latest if s is not None]
            version = max(s["version"] for s in states)
            newest = next(s for s in states if s["version"] == version)
            await asyncio.sleep(self.pace)
            if newest.get("outcome"):
                message: dict[str, Any] = {"type": "rematch"}
                seat = 0
            else:
                ready = [i for i in newest["pending"] if self.latest[i] and self.latest[i]["legal"]]
                if not ready:  # a timed phase: the server's clock moves the game on
                    continue  # wait for a newer state
                seat = self.rng.choice(ready)
                legal = (self.latest[seat] or {})["legal"]
                self.count += 1
                action = self.rng.choice(legal)
                message = {"type": "act", "client_id": f"c{self.count}", "action": action}
            sent = time.perf_counter()
            await self.sockets[seat].send(json.dumps(message))
            while not self.settled(version) and time.monotonic() < until:
                self.changed.clear()
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self.changed.wait(), 1.0)
            if self.settled(version) and measuring[0] and message["type"] == "act":
                self.trips.append((time.perf_counter() - sent) * 1000)

    async def close(self) -> None:
        for ws in self.sockets:
            await ws.close()


# --- the readers ---------------------------------------------------------------------------
async def reader(
    path: str, port: int, source: str, until: float, cap: int, got: Counter[int]
) -> None:
    """One keep-alive HTTP/1.1 connection from ``source`` reading ``path`` as fast as it is
    answered."""
    reader_, writer = await asyncio.open_connection(HOST, port, local_addr=(source, 0))
    request = f"GET {path} HTTP/1.1\r\nHost: {HOST}\r\n\r\n".encode()
    try:
        while time.monotonic() < until and sum(got.values()) < cap:
            writer.write(request)
            head = await reader_.readuntil(b"\r\n\r\n")
            status = int(head.split(b" ", 2)[1])
            length = next(
                int(line.split(b":", 1)[1])
                for line in head.split(b"\r\n")
                if line.lower().startswith(b"content-length:")
            )
            await reader_.readexactly(length)
            got[status] += 1
            if b"connection: close" in head.lower():
                break
    except (OSError, asyncio.IncompleteReadError):
        got[-1] += 1
    finally:
        writer.close()


def flood_main(
    path: str, port: int, readers: int, addresses: int, seconds: float, cap: int, out: Any
) -> None:
    """The readers' process: ``readers`` connections from ``addresses`` loopback addresses
    (127.0.0.1, then 127.0.1.2, ...: all of 127/8 is loopback on Linux) for ``seconds``."""

    async def run() -> Counter[int]:
        got: Counter[int] = Counter()
        until = time.monotonic() + seconds
        sources = [
            HOST if i % addresses == 0 else f"127.0.1.{i % addresses + 1}" for i in range(readers)
        ]
        await asyncio.gather(*(reader(path, port, s, until, cap, got) for s in sources))
        return got

    start = time.monotonic()
    got = asyncio.run(run())
    out.send((dict(got), time.monotonic() - start))


# --- phases --------------------------------------------------------------------------------
async def phase(
    server: ServerProcess, code: str, args: argparse.Namespace, readers: int
) -> dict[str, Any]:
    """Fresh live rooms play for ``--seconds`` (after a short warm-up), beside ``readers``."""
    rooms = [LiveRoom(server, 2 + i % 3, args.pace / 1000, seed=i) for i in range(args.rooms)]
    for room in rooms:
        await room.open()
    tasks = [asyncio.create_task(room.read(i)) for room in rooms for i in range(len(room.tokens))]
    measuring = [False]
    warm, seconds = 1.0, args.seconds
    flood: mp.Process | None = None
    receive, send = mp.Pipe(duplex=False)
    if readers:
        flood = mp.Process(
            target=flood_main,
            args=(
                f"/api/rooms/{code}",
                server.port,
                readers,
                args.addresses,
                warm + seconds,
                args.max_reads,
                send,
            ),
        )
        flood.start()
    until = time.monotonic() + warm + seconds
    cap = args.max_actions // max(1, args.rooms)

    async def measure() -> None:
        await asyncio.sleep(warm)
        measuring[0] = True

    await asyncio.gather(measure(), *(room.play(until, measuring, cap) for room in rooms))
    reads: dict[int, int] = {}
    elapsed = warm + seconds
    if flood is not None:
        if receive.poll(warm + seconds + 30):
            reads, elapsed = receive.recv()
        flood.join(10)
        if flood.is_alive():
            flood.kill()
    for task in tasks:
        task.cancel()
    for room in rooms:
        await room.close()
    trips = sorted(t for room in rooms for t in room.trips)
    return {
        "trips": len(trips),
        "p50": percentile(trips, 0.50),
        "p99": percentile(trips, 0.99),
        "reads": reads,
        "reads_per_s": sum(n for s, n in reads.items() if s == 200) / elapsed,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="measured time per phase")
    parser.add_argument("--readers", type=int, default=8, help="reader connections in the flood")
    parser.add_argument(
        "--addresses", type=int, default=1, help="client addresses the readers come from"
    )
    parser.add_argument("--rooms", type=int, default=4, help="live rooms of 2 to 4 people")
    parser.add_argument("--pace", type=float, default=50.0, help="ms a room waits to act")
    parser.add_argument("--max-actions", type=int, default=20_000, help="cap per phase")
    parser.add_argument("--max-reads", type=int, default=500_000, help="cap per flood")
    args = parser.parse_args()
    print(f"(loopback only; the server: {sys.executable} -c <boot>, in a temporary directory)")

    with tempfile.TemporaryDirectory(prefix="read-flood-") as tmp:
        database, log = Path(tmp) / "rooms.sqlite3", Path(tmp) / "server.log"
        with server_for(database, "kept", log) as server:
            code = asyncio.run(finish_room(server))
        rows = []
        for mode in ("replay", "kept"):
            with server_for(database, mode, log) as server:
                for readers in (0, args.readers):
                    result = asyncio.run(phase(server, code, args, readers))
                    rows.append((mode, readers, result))
                    print(
                        f"{mode:>6}  readers {readers:>3}  live round trip "
                        f"p50 {result['p50']:6.1f} ms  p99 {result['p99']:6.1f} ms  "
                        f"({result['trips']} actions)  reads {result['reads_per_s']:7.0f}/s "
                        f"{result['reads'] or ''}",
                        flush=True,
                    )
        problems = [
            line
            for line in log.read_text(errors="replace").splitlines()
            if line.startswith(("ERROR", "Traceback"))
        ]
        if problems:
            print("server log:", *problems[:5], sep="\n  ")


if __name__ == "__main__":
    main()
