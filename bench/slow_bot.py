"""Does a slow bot hold up other rooms? A busy room's round trips, with and without one.

Run with ``uv run python bench/slow_bot.py [--seconds 10] [--rooms 4] [--slow-rooms 1]
[--budget 1.0] [--interval 0.02] [--workers 2]``.

For each phase a fresh real server runs as a subprocess (this script in ``--serve`` mode,
SQLite in a temporary directory, no bot pacing). In it every bot thinks for its whole time
budget, and then takes its first legal move:

* ``sleep``: the bot waits out its budget (like a bot waiting on I/O; it holds no CPU);
* ``busy``: the bot spins for its budget (CPU-bound Python, like a search: in a thread of
  the server's process it holds the GIL, which the interpreter hands back and forth every
  few milliseconds; in a worker process it holds nothing the server needs).

Busy rooms (``--rooms``) of two WebSocket clients play Would You Believe It!, each room at
one action per ``--interval`` seconds: the round trip of an action is from its send until
its ``ack`` (which follows the new state to both clients). Slow rooms (``--slow-rooms``)
seat a client and a bot; the client answers at once, so a bot is thinking nearly all the
time. Phases: no slow room (the baseline), sleeping bots in worker processes, spinning bots
in worker threads (``bot_pool = "thread"``), spinning bots in worker processes (the
default); ``--workers`` bots think at once either way. Nothing here asserts a timing: it
prints the figures.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import math
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

import websockets

HOST = "127.0.0.1"
GAME = "would-you-believe-it"
ROOT = Path(__file__).resolve().parent.parent


# --- the server side (--serve) -------------------------------------------------------------
class SlowBot:
    """Thinks for its whole budget (sleeping or spinning), then takes the first legal move."""

    name = "slow"

    def __init__(self, mode: str) -> None:
        self.mode = mode

    def choose(self, game: Any, state: Any, seat: int, *, budget: float | None = None) -> Any:
        """The first legal action, once the budget is spent."""
        end = time.monotonic() + (budget or 1.0)
        if self.mode == "sleep":
            time.sleep(max(0.0, end - time.monotonic()))
        while time.monotonic() < end:  # busy: pure Python, holding the GIL between switches
            pass
        return game.legal_actions(state, seat)[0]


def serve(args: argparse.Namespace) -> None:
    """The real server, every bot of which is a SlowBot (forked workers inherit it)."""
    from talltales.server import thinking
    from talltales.server.run import serve as run_server
    from talltales.server.settings import Settings

    def slow_bot(spec: str, seed: int) -> Any:
        return SlowBot(args.bot)

    thinking.make_bot = slow_bot
    run_server(
        Settings(
            port=args.port,
            database=args.database,
            bot_delay=0.0,
            bot_budget=args.budget,
            bot_pool=args.pool,
            bot_workers=args.workers,
            message_rate=10_000.0,
            message_burst=10_000,
            rooms_per_minute=100_000,
        )
    )


# --- the client side -------------------------------------------------------------------------
def free_port() -> int:
    """A TCP port nobody listens on right now."""
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        return int(sock.getsockname()[1])


def post(url: str, body: dict[str, Any]) -> dict[str, Any]:
    """POST JSON on loopback (never through a proxy)."""
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    request = urllib.request.Request(
        url, json.dumps(body).encode(), {"content-type": "application/json"}, method="POST"
    )
    with opener.open(request, timeout=10) as response:
        result: dict[str, Any] = json.loads(response.read())
        return result


class Server:
    """This script in --serve mode, on a free port, stopped when the phase ends."""

    def __init__(self, bot: str, pool: str, args: argparse.Namespace, tmp: Path) -> None:
        self.port = free_port()
        argv = [sys.executable, __file__, "--serve", "--port", str(self.port)]
        argv += ["--database", str(tmp / f"{self.port}.sqlite3"), "--bot", bot]
        argv += ["--budget", str(args.budget), "--pool", pool, "--workers", str(args.workers)]
        self.log = (tmp / f"{self.port}.log").open("wb")
        self.process = subprocess.Popen(argv, cwd=ROOT, stdout=self.log, stderr=self.log)
        deadline = time.monotonic() + 30
        while True:
            if self.process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"the server did not start: see {self.log.name}")
            with contextlib.suppress(OSError), socket.create_connection((HOST, self.port), 0.2):
                return
            time.sleep(0.05)

    def room(self, *names: str) -> tuple[str, list[str]]:
        """A room with these people seated: its code and their tokens."""
        made = post(f"http://{HOST}:{self.port}/api/rooms", {"game": GAME, "name": names[0]})
        tokens = [made["token"]]
        for name in names[1:]:
            path = f"http://{HOST}:{self.port}/api/rooms/{made['room']}/seats"
            tokens.append(post(path, {"name": name})["token"])
        return made["room"], tokens

    def cpu(self) -> float:
        """CPU seconds the server and its bots' worker processes have used, from /proc."""
        return sum(cpu_of(pid) for pid in [self.process.pid, *children(self.process.pid)])

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(5)
        self.log.close()


class Table:
    """The clients of one room: each acts when its seat is pending, at the room's pace."""

    def __init__(
        self, url: str, code: str, tokens: list[str], interval: float, measure_from: float
    ) -> None:
        self.url, self.code, self.tokens, self.interval = url, code, tokens, interval
        self.measure_from = measure_from  # round trips before this (warming up) are not kept
        self.next_at = 0.0
        self.sent: dict[str, float] = {}
        self.latencies: list[float] = []
        self.versions = 0
        self.running = True
        self.acting: set[asyncio.Task[None]] = set()

    async def play(self, add_bot: bool) -> None:
        sockets = [await websockets.connect(self.url, max_size=None) for _ in self.tokens]
        for ws, token in zip(sockets, self.tokens, strict=True):
            await ws.send(json.dumps({"type": "hello", "room": self.code, "token": token}))
        if add_bot:
            await sockets[0].send(json.dumps({"type": "add-bot", "bot": "greedy"}))
        await sockets[0].send(json.dumps({"type": "start"}))
        try:
            await asyncio.gather(*(self._seat(ws, seat) for seat, ws in enumerate(sockets)))
        finally:
            for ws in sockets:
                await ws.close()

    async def _seat(self, ws: Any, seat: int) -> None:
        count = 0
        with contextlib.suppress(TimeoutError, websockets.ConnectionClosed):
            while True:
                message = json.loads(await asyncio.wait_for(ws.recv(), 30))
                if message["type"] == "ack":
                    began = self.sent.pop(message["client_id"], None)
                    if began is not None and began >= self.measure_from:
                        self.latencies.append(time.perf_counter() - began)
                if message["type"] != "state" or not self.running:
                    continue  # once the phase is over only acks in flight are counted
                self.versions = max(self.versions, message["version"])
                if message.get("outcome") and seat == 0:
                    await ws.send(json.dumps({"type": "rematch"}))
                elif seat in message["pending"] and message["legal"]:
                    count += 1  # paced in a task of its own, so acks are read meanwhile
                    act = self._act(ws, f"s{seat}-{count}", message["legal"][0])
                    self.acting.add(asyncio.create_task(act))

    async def _act(self, ws: Any, client_id: str, action: dict[str, Any]) -> None:
        now = time.perf_counter()
        if self.interval:
            self.next_at = max(self.next_at + self.interval, now)
            await asyncio.sleep(self.next_at - now)
        if self.running:
            self.sent[client_id] = time.perf_counter()
            await ws.send(json.dumps({"type": "act", "client_id": client_id, "action": action}))
        self.acting.discard(asyncio.current_task())


def cpu_of(pid: int) -> float:
    """CPU seconds a process has used (all its threads); 0 if it is gone."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def children(pid: int) -> list[int]:
    """The processes whose parent is ``pid`` (the server's bot workers)."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            with contextlib.suppress(OSError), open(f"/proc/{entry}/stat") as f:
                if int(f.read().rsplit(")", 1)[1].split()[1]) == pid:
                    found.append(int(entry))
    return found


def machine_busy() -> float:
    """CPU seconds all cores of the machine spent not idle since boot, from /proc/stat."""
    with open("/proc/stat") as f:
        ticks = [int(x) for x in f.readline().split()[1:9]]
    return (sum(ticks) - ticks[3] - ticks[4]) / os.sysconf("SC_CLK_TCK")


def percentile(ordered: list[float], share: float) -> float:
    """The nearest-rank percentile of an ascending list (NaN when empty)."""
    if not ordered:
        return math.nan
    return ordered[min(len(ordered) - 1, max(0, math.ceil(share * len(ordered)) - 1))]


async def phase(server: Server, args: argparse.Namespace, slow_rooms: int) -> dict[str, Any]:
    """The busy rooms play for ``args.seconds`` beside ``slow_rooms`` rooms with a bot."""
    url = f"ws://{HOST}:{server.port}/ws"
    start = time.perf_counter() + args.warmup
    busy = [Table(url, *server.room("Ann", "Bob"), args.interval, start) for _ in range(args.rooms)]
    slow = [Table(url, *server.room("Cat"), 0.0, start) for _ in range(slow_rooms)]
    tasks = [asyncio.create_task(t.play(add_bot=False)) for t in busy]
    tasks += [asyncio.create_task(t.play(add_bot=True)) for t in slow]
    await asyncio.sleep(args.warmup)
    busy_before, cpu_before = machine_busy(), server.cpu() + time.process_time()
    await asyncio.sleep(args.seconds)
    other = machine_busy() - busy_before - (server.cpu() + time.process_time() - cpu_before)
    for table in busy + slow:
        table.running = False  # no more acts; those in flight may still be answered
    await asyncio.sleep(1.0)
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    latencies = sorted(x for t in busy for x in t.latencies)
    return {
        "actions": len(latencies),
        "rate": len(latencies) / args.seconds,
        "p50": percentile(latencies, 0.50) * 1000,
        "p99": percentile(latencies, 0.99) * 1000,
        "max": (latencies[-1] * 1000) if latencies else math.nan,
        "slow_versions": sum(t.versions for t in slow),
        "other": max(0.0, other) / args.seconds,
    }


def run(args: argparse.Namespace) -> None:
    """Every phase on a fresh server; a table of the figures."""
    phases = [
        ("no slow room", "sleep", "process", 0),
        ("sleeping, processes", "sleep", "process", args.slow_rooms),
        ("spinning, threads", "busy", "thread", args.slow_rooms),
        ("spinning, processes", "busy", "process", args.slow_rooms),
    ]
    print(
        f"{args.rooms} busy rooms of 2 clients, one action per {args.interval * 1000:g} ms each; "
        f"{args.slow_rooms} slow room(s) with a bot of budget {args.budget:g} s, "
        f"{args.workers} thinking at once; {args.seconds:g} s per phase"
    )
    header = f"{'phase':<24}{'actions':>9}{'per s':>8}{'p50 ms':>9}{'p99 ms':>9}{'max ms':>9}"
    print(header + f"{'slow-room versions':>20}{'other CPU':>11}")
    with tempfile.TemporaryDirectory(prefix="talltales-slow-bot-") as tmp:
        for name, bot, pool, slow_rooms in phases:
            server = Server(bot, pool, args, Path(tmp))
            try:
                r = asyncio.run(phase(server, args, slow_rooms))
            finally:
                server.stop()
            print(
                f"{name:<24}{r['actions']:>9,}{r['rate']:>8.0f}{r['p50']:>9.2f}{r['p99']:>9.2f}"
                f"{r['max']:>9.1f}{r['slow_versions']:>20,}{r['other']:>11.0%}"
            )
    print(
        "Round trip: from sending an act until its ack (sent after the new state went to both "
        "clients). Slow-room versions: how far the slow rooms got (each bot move takes its "
        "whole budget). Other CPU: what the rest of the machine used meanwhile (besides the "
        "server, its bot workers and this client), in cores: above a few per cent the figures "
        f"are noisy ({os.cpu_count()} CPUs here)."
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=10.0, help="duration of each phase")
    parser.add_argument("--warmup", type=float, default=1.0, help="s played before measuring")
    parser.add_argument("--rooms", type=int, default=4, help="busy rooms of two clients")
    parser.add_argument("--slow-rooms", type=int, default=1, help="rooms with a slow bot")
    parser.add_argument("--budget", type=float, default=1.0, help="a bot's thinking budget, s")
    parser.add_argument("--interval", type=float, default=0.02, help="s between a room's acts")
    parser.add_argument("--workers", type=int, default=2, help="bots thinking at once")
    parser.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--port", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--database", help=argparse.SUPPRESS)
    parser.add_argument("--pool", choices=("process", "thread"), help=argparse.SUPPRESS)
    parser.add_argument("--bot", choices=("sleep", "busy"), default="sleep", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        serve(args)
    else:
        run(args)


if __name__ == "__main__":
    main()
