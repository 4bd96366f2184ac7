"""Server load: real Would You Believe It! rooms over WebSockets, against a broadcast ceiling.

Run with ``uv run python bench/server.py [--seconds 10] [--rooms 50] [--rate 1000]``.

The real server runs as a subprocess (``python -m talltales.cli serve``, SQLite WAL storage
in a temporary directory, bots without delay) on a free 127.0.0.1 port. Rooms of four
WebSocket clients play for real: a client whose seat is pending sends a random action from
the ``legal`` list of its own latest ``state``; the host asks for a rematch when a game ends.
Two phases are measured, each bounded by ``--seconds`` and ``--max-actions``:

* saturation: every room acts as soon as its pending seat has its state;
* paced: the rooms share a target total rate (``--rate`` actions per second).

For each phase: actions per second, the round trip from sending an action until all four
clients of the room hold the state of the new version (p50, p99), and the server's CPU time
per action (utime + stime from /proc/<pid>/stat, before and after the phase).

The same client code then drives bench/minimal_broadcast.py (a message is sent as-is to the
room's four sockets; no storage, no game), the ceiling of uvicorn + Starlette + WebSockets:
there an "action" is a state-sized message and its round trip is its echo to all four.

``--connections N`` also opens N idle spectator sockets to the real server and reports how
many it holds and its memory. The server allows 64 sockets per address, so clients connect
from many loopback source addresses (127.1.x.y; all of 127/8 is loopback on Linux).

The client side runs in ``--workers`` processes (default: 2 when there are 4 or more CPUs,
else 1, leaving a core to the server); their CPU use is reported, so a saturated client
(not the server) is visible. Nothing here asserts a timing.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import math
import multiprocessing as mp
import os
import random
import resource
import signal
import socket
import subprocess
import sys
import tempfile
import time
import traceback
import urllib.request
from collections import Counter, deque
from multiprocessing.connection import Connection as Pipe
from pathlib import Path
from typing import Any

import msgspec
import websockets
from rich.console import Console
from rich.table import Table

HOST = "127.0.0.1"
GAME = "would-you-believe-it"
ROOT = Path(__file__).resolve().parent.parent
PER_ADDRESS = 60  # the server accepts 64 sockets per client address (Settings)
CLIENT_RATE, CLIENT_BURST = 19.0, 40  # under the server's 20 messages/s, burst 60, per socket
DRAIN_SECONDS = 3.0  # after a phase, how long in-flight actions may take to arrive
SETUP_SECONDS = 60.0  # connecting and starting every room
HELD_SPECTATORS_PER_ROOM = 1000
SATURATED = 0.9  # a client process busier than this share of a core limits the figures


# --- helpers -------------------------------------------------------------------------------
def free_port() -> int:
    """A TCP port nobody listens on right now."""
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        return int(sock.getsockname()[1])


def source_address(n: int) -> str:
    """The n-th client source address: 127.1.x.y, loopback like 127.0.0.1."""
    return f"127.1.{n // 250}.{n % 250 + 1}"


def raise_fd_limit() -> int:
    """Raise RLIMIT_NOFILE to its hard limit (children inherit it); returns the new limit."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY:
        hard = 1 << 20
    if soft != hard:
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


def cpu_seconds(pid: int) -> float:
    """User plus system CPU time of a process, all threads, from /proc."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def proc_status(pid: int, key: str) -> int:
    """A kB figure (VmRSS, VmHWM) from /proc/<pid>/status, in KiB."""
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith(key + ":"):
                return int(line.split()[1])
    return 0


def machine_busy() -> float:
    """CPU seconds all cores of the machine spent not idle since boot, from /proc/stat."""
    with open("/proc/stat") as f:
        ticks = [int(x) for x in f.readline().split()[1:9]]
    return (sum(ticks) - ticks[3] - ticks[4]) / os.sysconf("SC_CLK_TCK")


def open_fds(pid: int) -> int:
    """How many file descriptors a process holds."""
    try:
        return len(os.listdir(f"/proc/{pid}/fd"))
    except OSError:
        return -1


def percentile(ordered: list[float], share: float) -> float:
    """The nearest-rank percentile of an ascending list (NaN when empty)."""
    if not ordered:
        return math.nan
    return ordered[min(len(ordered) - 1, max(0, math.ceil(share * len(ordered)) - 1))]


_http = urllib.request.build_opener(urllib.request.ProxyHandler({}))  # never a proxy


def post(url: str, body: dict[str, Any]) -> dict[str, Any]:
    """POST JSON on loopback; returns the decoded answer."""
    request = urllib.request.Request(
        url, json.dumps(body).encode(), {"content-type": "application/json"}, method="POST"
    )
    with _http.open(request, timeout=10) as response:
        result: dict[str, Any] = json.loads(response.read())
        return result


# --- the servers ---------------------------------------------------------------------------
class ServerProcess:
    """A server subprocess on a free loopback port that this bench started and stops."""

    def __init__(
        self, name: str, argv: list[str], port: int, log: Path, stop: int = signal.SIGINT
    ) -> None:
        self.name, self.argv, self.port, self.log_path = name, argv, port, log
        self.stop = stop  # SIGINT lets cProfile write its file; SIGTERM is a server's stop
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def pid(self) -> int:
        assert self.process is not None
        return self.process.pid

    @property
    def ws(self) -> str:
        return f"ws://{HOST}:{self.port}/ws"

    @property
    def http(self) -> str:
        return f"http://{HOST}:{self.port}"

    def __enter__(self) -> ServerProcess:
        log = self.log_path.open("ab")  # one log may serve several servers in turn
        self.process = subprocess.Popen(
            self.argv, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
        )
        log.close()
        deadline = time.monotonic() + 30
        while True:
            if self.process.poll() is not None:
                raise RuntimeError(f"{self.name} exited: see {self.log_path}")
            with contextlib.suppress(OSError), socket.create_connection((HOST, self.port), 0.2):
                return self
            if time.monotonic() > deadline:
                raise RuntimeError(f"{self.name} did not start: see {self.log_path}")
            time.sleep(0.05)

    def __exit__(self, *exc: object) -> None:
        """The stop signal (uvicorn shuts down gracefully), then SIGKILL."""
        if self.process is None or self.process.poll() is not None:
            return
        self.process.send_signal(self.stop)
        try:
            self.process.wait(20)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(5)

    def problems(self) -> list[str]:
        """Warnings, errors and tracebacks the server logged (first lines of each kind)."""
        found: Counter[str] = Counter()
        with contextlib.suppress(OSError), self.log_path.open(errors="replace") as log:
            for line in log:
                if line.startswith(("WARNING", "ERROR", "CRITICAL", "Traceback")):
                    found[line.strip()[:160]] += 1
        return [f"{text} (x{count})" for text, count in found.most_common(5)]

    def cpu(self) -> float:
        return cpu_seconds(self.pid)


def talltales_argv(port: int, database: Path, profile: Path | None) -> list[str]:
    """The real server, optionally under cProfile."""
    serve = ["-m", "talltales.cli", "serve", "--port", str(port)]
    serve += ["--database", str(database), "--bot-delay", "0", "--rooms-per-minute", "100000"]
    if profile is None:
        return [sys.executable, *serve]
    return [sys.executable, "-m", "cProfile", "-o", str(profile), *serve]


def minimal_argv(port: int) -> list[str]:
    """The ceiling."""
    return [sys.executable, str(ROOT / "bench" / "minimal_broadcast.py"), "--port", str(port)]


# --- the clients (run inside worker processes) ---------------------------------------------
class Incoming(msgspec.Struct):
    """What a client reads of a server message (the rest, e.g. the view, is skipped)."""

    type: str
    version: int = -1
    pending: list[int] = []
    legal: list[dict[str, Any]] = []
    outcome: Any = None
    client_id: str | None = None
    code: str | None = None


_decode = msgspec.json.Decoder(Incoming).decode
_encode = msgspec.json.Encoder().encode
ROLL: dict[str, Any] = {"type": "roll"}
MOVE: dict[str, Any] = {"type": "move-figure", "figure": 0}


class Phase:
    """One measured phase inside a worker."""

    def __init__(self, mode: str, interval: float, seconds: float, cap: int) -> None:
        self.mode, self.interval, self.cap = mode, interval, cap
        self.began = time.perf_counter()
        self.deadline = self.began + seconds
        self.ended = self.deadline
        self.running = True
        self.sent = self.rematches = self.in_time = self.throttled = self.retried = 0
        self.latencies: list[float] = []

    def finish(self) -> None:
        if self.running:
            self.running = False
            self.ended = min(self.deadline, time.perf_counter())

    def record(self, latency: float, now: float) -> None:
        self.latencies.append(latency)
        if now <= self.deadline:
            self.in_time += 1


class Client:
    """One socket: a seat (or a spectator) of one room."""

    def __init__(self, room: Room, seat: int, token: str | None) -> None:
        self.room, self.seat, self.token = room, seat, token
        self.ws: Any = None
        self.latest: Incoming | None = None
        self.seen = -1  # version of the newest state received
        self.acted = -1  # version of the state this client last acted on
        self.timer: asyncio.TimerHandle | None = None
        self.welcomed = asyncio.Event()
        self.counter = 0
        self.expected: dict[str, int] = {}  # client id -> the version its act should make
        self.tokens, self.stamp = float(CLIENT_BURST), time.perf_counter()

    def bucket_wait(self, now: float) -> float:
        """Seconds until the server's per-socket budget allows another message."""
        self.tokens = min(CLIENT_BURST, self.tokens + (now - self.stamp) * CLIENT_RATE)
        self.stamp = now
        return 0.0 if self.tokens >= 1 else (1 - self.tokens) / CLIENT_RATE

    async def send(self, data: bytes) -> None:
        self.bucket_wait(time.perf_counter())
        self.tokens -= 1
        await self.ws.send(data.decode())


class Room:
    """Four clients; versions sent and not yet received by all four."""

    def __init__(self, code: str, tokens: list[str | None], address: str) -> None:
        self.code, self.address = code, address
        self.clients = [Client(self, seat, token) for seat, token in enumerate(tokens)]
        self.outstanding: deque[tuple[int, float]] = deque()
        self.next_at = 0.0


class Worker:
    """A client process: takes commands from the parent over a pipe, answers with figures."""

    def __init__(self, pipe: Pipe, index: int) -> None:
        self.pipe, self.index = pipe, index
        self.kind = "talltales"
        self.rooms: list[Room] = []
        self.phase: Phase | None = None
        self.tasks: set[asyncio.Task[Any]] = set()
        self.errors: Counter[str] = Counter()
        self.closed = 0
        self.closing = False
        self.limit = True
        self.pad = ""
        self.acks = self.ack_mismatch = self.state_frames = self.state_chars = 0
        self.held: list[Any] = []
        self.rng = random.Random(index)

    async def serve(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            command, payload = await loop.run_in_executor(None, self.pipe.recv)
            if command == "stop":
                return
            try:
                reply = await getattr(self, command)(**payload)
            except Exception:
                reply = {"failed": traceback.format_exc()}
            self.pipe.send(reply)

    def _spawn(self, coro: Any) -> None:
        task = asyncio.create_task(coro)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    # --- connecting ------------------------------------------------------------------------
    async def _open(self, url: str, address: str, compression: str | None) -> Any:
        return await websockets.connect(
            url,
            compression=compression,
            proxy=None,
            local_addr=(address, 0),
            max_size=None,
            ping_interval=None,  # the server pings; answering is automatic
            open_timeout=30,
        )

    async def connect(
        self,
        kind: str,
        url: str,
        rooms: list[tuple[str, list[str | None], str]],
        compression: str | None,
        pad: int,
    ) -> dict[str, Any]:
        """Open every room's four sockets, say hello, start the games; wait for the states."""
        self.kind, self.limit, self.pad = kind, kind == "talltales", "x" * pad
        self.rooms = [Room(code, tokens, address) for code, tokens, address in rooms]
        self.errors.clear()
        self.closed, self.closing = 0, False
        gate = asyncio.Semaphore(64)

        async def join(client: Client) -> None:
            async with gate:
                client.ws = await self._open(url, client.room.address, compression)
                hello: dict[str, Any] = {"type": "hello", "room": client.room.code}
                if client.token is not None:
                    hello["token"] = client.token
                if kind == "minimal":
                    hello["seat"] = client.seat
                await client.send(_encode(hello))
                self._spawn(self._read(client))
                await asyncio.wait_for(client.welcomed.wait(), 30)

        clients = [c for room in self.rooms for c in room.clients]
        await asyncio.wait_for(asyncio.gather(*(join(c) for c in clients)), SETUP_SECONDS)
        for room in self.rooms:
            host = room.clients[0]
            if kind == "talltales":
                await host.send(_encode({"type": "start"}))
            else:
                first = {"type": "state", "version": 1, "pending": [0], "legal": [ROLL]}
                await host.send(_encode({**first, "pad": self.pad}))
        deadline = time.monotonic() + SETUP_SECONDS
        while any(c.latest is None for c in clients):
            if time.monotonic() > deadline:
                raise RuntimeError("some rooms never received their first state")
            await asyncio.sleep(0.01)
        return {"clients": len(clients), "errors": dict(self.errors)}

    async def disconnect(self) -> dict[str, Any]:
        """Close every game socket."""
        self.closing = True
        sockets = [c.ws for room in self.rooms for c in room.clients if c.ws is not None]
        await asyncio.gather(*(ws.close() for ws in sockets), return_exceptions=True)
        self.rooms = []
        return {"closed": len(sockets)}

    # --- playing ---------------------------------------------------------------------------
    async def _read(self, client: Client) -> None:
        try:
            async for raw in client.ws:
                message = _decode(raw)
                kind = message.type
                if kind == "state":
                    self.state_frames += 1
                    self.state_chars += len(raw)
                    client.latest = message
                    client.seen = message.version
                    self._delivered(client.room)
                    await self._maybe_act(client)
                elif kind == "ack":
                    self.acks += 1
                    expected = client.expected.pop(message.client_id or "", None)
                    if message.version != expected:  # the round trip waits for this version
                        self.ack_mismatch += 1
                elif kind == "welcome":
                    client.welcomed.set()
                elif kind == "error":
                    self._refused(client, message)
        except websockets.ConnectionClosed:
            pass
        finally:
            if not self.closing:
                self.closed += 1

    def _refused(self, client: Client, message: Incoming) -> None:
        """An action refused: count it and let the seat try again."""
        self.errors[message.code or "?"] += 1
        latest = client.latest
        if self.phase is None or latest is None or client.acted != latest.version:
            return  # not about an action of ours still waiting (rematches carry no client id)
        room = client.room
        if room.outstanding:
            room.outstanding.pop()
        client.acted = -1
        self.phase.retried += 1
        asyncio.get_running_loop().call_later(0.05, self._retry, client)

    def _delivered(self, room: Room) -> None:
        """A state arrived: close the round trips every client of the room now has."""
        if not room.outstanding:
            return
        low = min(c.seen for c in room.clients)
        now = time.perf_counter()
        while room.outstanding and room.outstanding[0][0] <= low:
            _, began = room.outstanding.popleft()
            if self.phase is not None:
                self.phase.record(now - began, now)

    def _retry(self, client: Client) -> None:
        client.timer = None
        self._spawn(self._maybe_act(client))

    async def _maybe_act(self, client: Client) -> None:
        """Act if this seat is pending in its newest state, within pace and budget."""
        phase, state = self.phase, client.latest
        if phase is None or not phase.running or state is None or client.timer is not None:
            return
        if client.acted >= state.version:
            return
        if state.pending and client.seat in state.pending and state.legal:
            rematch = False
        elif self.kind == "talltales" and state.outcome is not None and client.seat == 0:
            rematch = True
        else:
            return
        now = time.perf_counter()
        if now >= phase.deadline or phase.sent >= phase.cap:
            phase.finish()
            return
        room = client.room
        wait = room.next_at - now if phase.interval else 0.0
        if self.limit:
            budget = client.bucket_wait(now)
            if budget > max(wait, 0.0):
                phase.throttled += 1
                wait = budget
        if wait > 0:
            client.timer = asyncio.get_running_loop().call_later(wait, self._retry, client)
            return
        if phase.interval:
            room.next_at = max(room.next_at + phase.interval, now - phase.interval)
        client.acted = state.version
        room.outstanding.append((state.version + 1, now))
        phase.sent += 1
        if rematch:
            phase.rematches += 1
            await client.send(b'{"type":"rematch"}')
        elif self.kind == "talltales":
            client.counter += 1
            client_id = f"b{client.counter}"
            client.expected[client_id] = state.version + 1
            action = self.rng.choice(state.legal)
            act = {"type": "act", "client_id": client_id, "action": action}
            await client.send(_encode(act))
        else:  # the ceiling: the "action" is the next state itself, broadcast as-is
            rolled = state.legal[0].get("type") == "roll"
            following = client.seat if rolled else (client.seat + 1) % len(room.clients)
            nxt = {
                "type": "state",
                "version": state.version + 1,
                "pending": [following],
                "legal": [MOVE if rolled else ROLL],
                "pad": self.pad,
            }
            await client.send(_encode(nxt))

    async def run(self, mode: str, interval: float, seconds: float, cap: int) -> dict[str, Any]:
        """One phase: act until the deadline or the cap, then let in-flight actions land."""
        self.errors.clear()
        frames, chars, acks = self.state_frames, self.state_chars, self.acks
        mismatched = self.ack_mismatch
        cpu_before, wall_before = time.process_time(), time.perf_counter()
        phase = self.phase = Phase(mode, interval, seconds, cap)
        for room in self.rooms:
            room.outstanding.clear()
            room.next_at = phase.began + (self.rng.random() * interval if interval else 0.0)
            for client in room.clients:
                self._spawn(self._maybe_act(client))
        while phase.running and time.perf_counter() < phase.deadline:
            await asyncio.sleep(min(0.05, max(0.0, phase.deadline - time.perf_counter())))
        phase.finish()
        for room in self.rooms:
            for client in room.clients:
                if client.timer is not None:
                    client.timer.cancel()
                    client.timer = None
        drain_until = time.perf_counter() + DRAIN_SECONDS
        while any(r.outstanding for r in self.rooms) and time.perf_counter() < drain_until:
            await asyncio.sleep(0.005)
        cpu = time.process_time() - cpu_before
        wall = time.perf_counter() - wall_before
        self.phase = None
        return {
            "sent": phase.sent,
            "rematches": phase.rematches,
            "completed": len(phase.latencies),
            "in_time": phase.in_time,
            "elapsed": phase.ended - phase.began,
            "latencies": phase.latencies,
            "lost": sum(len(r.outstanding) for r in self.rooms),
            "throttled": phase.throttled,
            "retried": phase.retried,
            "errors": dict(self.errors),
            "closed": self.closed,
            "acks": self.acks - acks,
            "ack_mismatch": self.ack_mismatch - mismatched,
            "state_frames": self.state_frames - frames,
            "state_chars": self.state_chars - chars,
            "client_cpu": cpu,
            "client_wall": wall,
            "client_rss": proc_status(os.getpid(), "VmRSS"),
        }

    # --- holding idle connections ----------------------------------------------------------
    async def hold(
        self, url: str, codes: list[str], first_address: int, count: int, compression: str | None
    ) -> dict[str, Any]:
        """Open ``count`` spectator sockets (hello, wait for welcome) and keep them open."""
        gate = asyncio.Semaphore(128)
        failures: Counter[str] = Counter()

        async def one(n: int) -> None:
            async with gate:
                try:
                    address = source_address(first_address + n // PER_ADDRESS)
                    ws = await self._open(url, address, compression)
                    self.held.append(ws)
                    await ws.send(_encode({"type": "hello", "room": codes[n % len(codes)]}))
                    while True:
                        message = _decode(await asyncio.wait_for(ws.recv(), 30))
                        if message.type == "welcome":
                            return
                        if message.type == "error":
                            failures[f"error {message.code}"] += 1
                            return
                except Exception as exc:
                    failures[type(exc).__name__] += 1

        began = time.perf_counter()
        await asyncio.gather(*(one(n) for n in range(count)))
        return {
            "failures": dict(failures),
            "seconds": time.perf_counter() - began,
            "client_rss": proc_status(os.getpid(), "VmRSS"),
        }

    async def check(self, seconds: float) -> dict[str, Any]:
        """Keep the held sockets idle for ``seconds``, then count those still open."""
        await asyncio.sleep(seconds)
        return {"alive": sum(1 for ws in self.held if ws.state is websockets.State.OPEN)}

    async def release(self) -> dict[str, Any]:
        """Close the held sockets."""
        gate = asyncio.Semaphore(256)

        async def close(ws: Any) -> None:
            async with gate:
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(ws.close(), 10)

        await asyncio.gather(*(close(ws) for ws in self.held))
        count, self.held = len(self.held), []
        return {"released": count}


def worker_main(pipe: Pipe, index: int) -> None:
    """Entry point of a client process."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent stops us
    asyncio.run(Worker(pipe, index).serve())


# --- the parent ----------------------------------------------------------------------------
class Clients:
    """The worker processes and the commands sent to all of them."""

    def __init__(self, count: int) -> None:
        context = mp.get_context("spawn")
        self.pipes: list[Pipe] = []
        self.processes: list[Any] = []
        for index in range(count):
            mine, theirs = context.Pipe()
            process = context.Process(target=worker_main, args=(theirs, index), daemon=True)
            process.start()
            self.pipes.append(mine)
            self.processes.append(process)

    def __len__(self) -> int:
        return len(self.pipes)

    def call(self, payloads: list[tuple[str, dict[str, Any]]], timeout: float) -> list[Any]:
        """Send one command to each worker and gather the answers (bounded in time)."""
        for pipe, payload in zip(self.pipes, payloads, strict=True):
            pipe.send(payload)
        deadline = time.monotonic() + timeout
        replies = []
        for pipe in self.pipes:
            if not pipe.poll(max(0.0, deadline - time.monotonic())):
                raise RuntimeError(f"a client worker did not answer {payloads[0][0]!r} in time")
            reply = pipe.recv()
            if isinstance(reply, dict) and "failed" in reply:
                raise RuntimeError(f"a client worker failed:\n{reply['failed']}")
            replies.append(reply)
        return replies

    def all(self, command: str, timeout: float, **payload: Any) -> list[Any]:
        return self.call([(command, payload)] * len(self), timeout)

    def close(self) -> None:
        for pipe in self.pipes:
            with contextlib.suppress(Exception):
                pipe.send(("stop", {}))
        for process in self.processes:
            process.join(5)
            if process.is_alive():
                process.terminate()
                process.join(5)


def create_rooms(server: ServerProcess, count: int) -> list[tuple[str, list[str | None]]]:
    """Rooms with four seated players each, through the HTTP API."""
    rooms: list[tuple[str, list[str | None]]] = []
    for _ in range(count):
        made = post(f"{server.http}/api/rooms", {"game": GAME, "name": "P0"})
        tokens: list[str | None] = [made["token"]]
        for n in range(1, 4):
            joined = post(f"{server.http}/api/rooms/{made['room']}/seats", {"name": f"P{n}"})
            tokens.append(joined["token"])
        rooms.append((made["room"], tokens))
    return rooms


def assign(rooms: list[tuple[str, list[str | None]]], workers: int) -> list[list[Any]]:
    """Rooms round-robin over the workers, with source addresses of at most 60 sockets."""
    shares: list[list[Any]] = [[] for _ in range(workers)]
    per_address = PER_ADDRESS // 4
    for n, (code, tokens) in enumerate(rooms):
        shares[n % workers].append((code, tokens, source_address(n // per_address)))
    return shares


def run_phases(
    name: str,
    server: ServerProcess,
    clients: Clients,
    args: argparse.Namespace,
    rooms: list[tuple[str, list[str | None]]],
    pad: int,
) -> list[dict[str, Any]]:
    """Connect the rooms, measure saturation then paced, disconnect."""
    kind = "talltales" if name == "Tall Tales" else "minimal"
    shares = assign(rooms, len(clients))
    payloads = [
        (
            "connect",
            {
                "kind": kind,
                "url": server.ws,
                "rooms": share,
                "compression": args.ws_comp,
                "pad": pad,
            },
        )
        for share in shares
    ]
    clients.call(payloads, SETUP_SECONDS + 10)
    results = []
    cap = max(1, args.max_actions // len(clients))
    for mode in ("saturation", "paced"):
        interval = 0.0 if mode == "saturation" else len(rooms) / args.rate
        rss_before = proc_status(server.pid, "VmRSS")
        cpu_before, wall_before = server.cpu(), time.perf_counter()
        busy_before = machine_busy()
        replies = clients.all(
            "run",
            args.seconds + DRAIN_SECONDS + 30,
            mode=mode,
            interval=interval,
            seconds=args.seconds,
            cap=cap,
        )
        server_cpu, wall = server.cpu() - cpu_before, time.perf_counter() - wall_before
        busy = machine_busy() - busy_before
        result = summarise(name, mode, args, replies, server_cpu, wall, rss_before, server.pid)
        client_cpu = sum(r["client_cpu"] for r in replies)
        result["other_load"] = max(0.0, busy - server_cpu - client_cpu) / wall
        results.append(result)
    clients.all("disconnect", 30)
    return results


def summarise(
    name: str,
    mode: str,
    args: argparse.Namespace,
    replies: list[dict[str, Any]],
    server_cpu: float,
    wall: float,
    rss_before: int,
    pid: int,
) -> dict[str, Any]:
    """Merge the workers' figures for one phase."""
    latencies = sorted(x for r in replies for x in r["latencies"])
    completed = sum(r["completed"] for r in replies)
    elapsed = max(r["elapsed"] for r in replies)
    errors: Counter[str] = Counter()
    for r in replies:
        errors.update(r["errors"])
    frames = sum(r["state_frames"] for r in replies)
    return {
        "server": name,
        "mode": mode,
        "target": None if mode == "saturation" else args.rate,
        "completed": completed,
        "rematches": sum(r["rematches"] for r in replies),
        "rate": sum(r["in_time"] for r in replies) / elapsed if elapsed else 0.0,
        "p50": percentile(latencies, 0.50) * 1000,
        "p99": percentile(latencies, 0.99) * 1000,
        "server_us": server_cpu / completed * 1e6 if completed else math.nan,
        "server_load": server_cpu / wall,
        "client_loads": [r["client_cpu"] / r["client_wall"] for r in replies],
        "throttled": sum(r["throttled"] for r in replies),
        "lost": sum(r["lost"] for r in replies),
        "retried": sum(r["retried"] for r in replies),
        "errors": dict(errors),
        "closed": sum(r["closed"] for r in replies),
        "acks": sum(r["acks"] for r in replies),
        "ack_mismatch": sum(r["ack_mismatch"] for r in replies),
        "state_size": sum(r["state_chars"] for r in replies) / frames if frames else 0.0,
        "server_rss": proc_status(pid, "VmRSS"),
        "server_rss_before": rss_before,
    }


def hold_connections(
    server: ServerProcess, clients: Clients, count: int, args: argparse.Namespace
) -> dict[str, Any]:
    """Open ``count`` idle spectator sockets spread over the workers; report what is held."""
    lobbies = [
        post(f"{server.http}/api/rooms", {"game": GAME, "name": "Host"})["room"]
        for _ in range(max(1, math.ceil(count / HELD_SPECTATORS_PER_ROOM)))
    ]
    rss_before, fds_before = proc_status(server.pid, "VmRSS"), open_fds(server.pid)
    cpu_before = server.cpu()
    shares = [
        count // len(clients) + (1 if i < count % len(clients) else 0) for i in range(len(clients))
    ]
    base = 1000  # source addresses far from the game rooms'
    payloads = []
    for i, share in enumerate(shares):
        first = base + sum(math.ceil(s / PER_ADDRESS) for s in shares[:i])
        payloads.append(
            (
                "hold",
                {
                    "url": server.ws,
                    "codes": lobbies,
                    "first_address": first,
                    "count": share,
                    "compression": args.ws_comp,
                },
            )
        )
    replies = clients.call(payloads, 300)
    cpu_opened = server.cpu()
    idle = clients.all("check", args.seconds + 30, seconds=args.seconds)
    held = {
        "requested": count,
        "alive": sum(r["alive"] for r in idle),
        "idle_seconds": args.seconds,
        "seconds": max(r["seconds"] for r in replies),
        "failures": dict(sum((Counter(r["failures"]) for r in replies), Counter())),
        "server_rss_before": rss_before,
        "server_rss": proc_status(server.pid, "VmRSS"),
        "server_fds": open_fds(server.pid) - fds_before,
        "open_cpu": cpu_opened - cpu_before,
        "idle_load": (server.cpu() - cpu_opened) / args.seconds,
        "client_rss": sum(r["client_rss"] for r in replies),
    }
    clients.all("release", 120)
    return held


# --- output --------------------------------------------------------------------------------
def figure(value: float, digits: int = 1) -> str:
    return "-" if value is None or math.isnan(value) else f"{value:,.{digits}f}"


def notes_for(r: dict[str, Any]) -> list[str]:
    """What a row's figures need said about them."""
    notes = []
    if r["server"] == "Tall Tales":
        notes.append(f"states ≈{r['state_size']:,.0f} B")
        notes.append(f"server RSS {r['server_rss'] / 1024:,.0f} MiB")
    if r["rematches"]:
        notes.append(f"{r['rematches']} of the actions were rematches")
    if r["throttled"]:
        notes.append(f"{r['throttled']} sends held back for the server's 20/s socket budget")
    if r["errors"]:
        notes.append("errors: " + ", ".join(f"{k} x{v}" for k, v in r["errors"].items()))
    if r["retried"]:
        notes.append(f"{r['retried']} refused actions sent again")
    if r["ack_mismatch"]:
        notes.append(f"{r['ack_mismatch']} acks named an unexpected version")
    if r["lost"]:
        notes.append(f"{r['lost']} actions never reached all four clients")
    if r["closed"]:
        notes.append(f"{r['closed']} sockets closed by the server")
    if r["other_load"] >= 0.25:
        notes.append(
            f"other processes used {r['other_load']:.0%} of a core meanwhile: figures are noisy"
        )
    if max(r["client_loads"]) >= SATURATED:
        notes.append("[bold red]a client process was saturated: the figures are the client's[/]")
    return notes


def phase_table(results: list[dict[str, Any]], args: argparse.Namespace, workers: int) -> Table:
    """One row per server and phase; notes are printed below."""
    table = Table(
        title=f"{args.rooms} rooms of 4 WebSocket clients, {args.seconds:g} s per phase, "
        f"{workers} client process(es), compression: {args.ws_comp or 'none'}"
    )
    for column in (
        "Server",
        "Mode",
        "Target/s",
        "Actions",
        "Actions/s",
        "p50 ms",
        "p99 ms",
        "Server µs/action",
        "Server CPU",
        "Client CPU",
        "Other CPU",
    ):
        table.add_column(column, justify="left" if column in ("Server", "Mode") else "right")
    for r in results:
        loads = r["client_loads"]
        client = " + ".join(f"{x:.0%}" for x in loads)
        if max(loads) >= SATURATED:
            client = f"[bold red]{client}[/]"
        table.add_row(
            r["server"],
            r["mode"],
            figure(r["target"], 0) if r["target"] else "max",
            f"{r['completed']:,}",
            figure(r["rate"], 0),
            figure(r["p50"], 2),
            figure(r["p99"], 2),
            figure(r["server_us"], 0),
            f"{r['server_load']:.0%}",
            client,
            f"{r['other_load']:.0%}",
        )
    return table


def hold_table(held: dict[str, Any], limit: int) -> Table:
    table = Table(
        title=f"Idle spectator sockets on the Tall Tales server (fd limit {limit:,}; "
        f"held: still open after {held['idle_seconds']:g} s idle)"
    )
    for column in (
        "Requested",
        "Held",
        "Open time s",
        "Server CPU ms/open",
        "Server CPU idle",
        "Server RSS before → after MiB",
        "Server KiB/socket",
        "Server fds",
        "Client RSS MiB",
        "Failures",
    ):
        table.add_column(column, justify="right")
    added = held["server_rss"] - held["server_rss_before"]
    table.add_row(
        f"{held['requested']:,}",
        f"{held['alive']:,}",
        f"{held['seconds']:.1f}",
        figure(held["open_cpu"] * 1000 / held["requested"], 2),
        f"{held['idle_load']:.0%}",
        f"{held['server_rss_before'] / 1024:,.0f} → {held['server_rss'] / 1024:,.0f}",
        figure(added / held["alive"], 1) if held["alive"] else "-",
        f"{held['server_fds']:,}",
        f"{held['client_rss'] / 1024:,.0f}",
        ", ".join(f"{k} x{v}" for k, v in held["failures"].items()) or "none",
    )
    return table


def print_profile(path: Path, console: Console) -> None:
    import pstats

    console.print(f"[bold]cProfile of the Tall Tales server[/] ({path}):")
    stats = pstats.Stats(str(path))
    stats.sort_stats("tottime").print_stats(25)
    stats.sort_stats("cumulative").print_stats(35)


# --- main ----------------------------------------------------------------------------------
def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=10.0, help="duration of each phase")
    parser.add_argument("--rooms", type=int, default=50, help="rooms of four clients")
    parser.add_argument("--rate", type=float, default=1000.0, help="paced total actions/s")
    parser.add_argument("--max-actions", type=int, default=200_000, help="hard cap per phase")
    parser.add_argument(
        "--workers",
        type=int,
        default=2 if (os.cpu_count() or 1) >= 4 else 1,
        help="client processes",
    )
    parser.add_argument(
        "--connections",
        type=int,
        default=0,
        help="also hold this many idle sockets (the aim is 8000)",
    )
    parser.add_argument(
        "--compression",
        choices=("deflate", "none"),
        default="deflate",
        help="permessage-deflate offered by the clients (browsers offer it)",
    )
    parser.add_argument("--skip-ceiling", action="store_true", help="no minimal server")
    parser.add_argument(
        "--profile-server",
        type=Path,
        default=None,
        help="run the Tall Tales server under cProfile, save stats here",
    )
    args = parser.parse_args()
    if not 1 <= args.rooms <= 2000 or args.seconds <= 0 or args.seconds > 600:
        parser.error("--rooms is 1 to 2000 and --seconds is above 0 and at most 600")
    if args.rate <= 0 or args.max_actions < 1 or not 1 <= args.workers <= 16:
        parser.error("--rate and --max-actions must be positive; --workers is 1 to 16")
    args.ws_comp = None if args.compression == "none" else "deflate"
    limit = raise_fd_limit()
    if args.connections and args.connections + 200 > limit:
        args.connections = limit - 200
    console = Console(width=None if sys.stdout.isatty() else 160)
    console.print(
        f"CPUs: {os.cpu_count()}, client processes: {args.workers}, fd limit {limit:,}"
        + (", [bold]server under cProfile (slower)[/]" if args.profile_server else "")
    )
    results: list[dict[str, Any]] = []
    held, logged = None, []
    clients = Clients(args.workers)
    try:
        with tempfile.TemporaryDirectory(prefix="talltales-bench-") as tmp:
            port = free_port()
            argv = talltales_argv(port, Path(tmp) / "bench.sqlite3", args.profile_server)
            with ServerProcess("Tall Tales", argv, port, Path(tmp) / "talltales.log") as server:
                rooms = create_rooms(server, args.rooms)
                results += run_phases("Tall Tales", server, clients, args, rooms, 0)
                if args.connections:
                    held = hold_connections(server, clients, args.connections, args)
            logged = server.problems()
            if not args.skip_ceiling:
                state_size = int(results[0]["state_size"]) if results else 1500
                pad = max(0, state_size - 90)  # the ceiling's messages as large as real states
                port = free_port()
                with ServerProcess(
                    "Ceiling", minimal_argv(port), port, Path(tmp) / "minimal.log"
                ) as server:
                    codes: list[tuple[str, list[str | None]]] = [
                        (f"M{n:04d}", [None] * 4) for n in range(args.rooms)
                    ]
                    results += run_phases("Ceiling", server, clients, args, codes, pad)
    finally:
        clients.close()
    console.print(phase_table(results, args, len(clients)))
    for r in results:
        notes = notes_for(r)
        if notes:
            console.print(f"  {r['server']}, {r['mode']}: " + "; ".join(notes))
    if held is not None:
        console.print(hold_table(held, limit))
    console.print(
        "Round trip: from sending an action until all four clients of the room hold the new "
        "version. Server µs/action: the server process's CPU time (all threads) over the phase, "
        "divided by the actions applied. The ceiling is bench/minimal_broadcast.py with "
        "state-sized messages. CPU columns are shares of one core (client: per process; other: "
        "the rest of the machine, from /proc/stat). A client process near 100% of a core, or "
        "other load, limits actions/s; µs/action is the steadier figure."
    )
    for line in logged:
        console.print(f"  Tall Tales server log: {line}", markup=False)
    if args.profile_server is not None and args.profile_server.exists():
        print_profile(args.profile_server, console)


if __name__ == "__main__":
    main()
