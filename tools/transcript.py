"""Record real protocol frames for docs/protocol.md.

Starts a real server (uvicorn on a free loopback port, as tests/server/harness.py does),
plays a short game of Would You Believe It! with two WebSocket clients and a bot, and prints
every HTTP exchange and WebSocket frame in the order they happened. Further sections probe
the error paths and limits, SIGTERM and restart of a ``talltales serve`` process, and (with
the test fixture game, the only one with cards and typed prompts so far) a lobby's packs
and a round of every kind of prompt.

    uv run python tools/transcript.py               # every section
    uv run python tools/transcript.py game          # only the game
    uv run python tools/transcript.py --full game   # do not elide repeated route lists
    uv run python tools/transcript.py --focus Ann game   # Ann's frames; others' acks, errors

Frames are printed as sent on the wire (compact JSON), one per line:
``Ann -> {...}`` is a frame Ann sent and ``Ann <- {...}`` one she received. By default the
``view.route`` list (32 route cards) is printed in full only in the first state a client
receives, and as "..." after that; ``--full`` prints it everywhere.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import websockets
from websockets.exceptions import ConnectionClosed, InvalidStatus

from talltales.core.registry import register
from talltales.server.run import ServerThread
from talltales.server.settings import Settings

GAME = "would-you-believe-it"
TESTS = Path(__file__).resolve().parent.parent / "tests"
FULL = False
FOCUS: str | None = None  # with --focus NAME: other clients' copies of state and room are omitted
GRACE = 2.0  # seconds a dropped player keeps the seat here (30 by default)
LOG: list[str] = []


def out(line: str = "") -> None:
    """Print (and keep) one line of the transcript."""
    LOG.append(line)
    print(line, flush=True)


def note(text: str) -> None:
    """A comment line between frames."""
    out(f"# {text}")


def free_port() -> int:
    """A TCP port nobody listens on right now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


# --- a live server in a thread: talltales.server.run.ServerThread -----------------------------
LiveServer = ServerThread


@contextlib.contextmanager
def running(**changes: Any) -> Iterator[LiveServer]:
    """A live server on a fresh database for the duration of a ``with`` block."""
    with tempfile.TemporaryDirectory() as tmp:
        values: dict[str, Any] = {
            "database": str(Path(tmp) / "rooms.sqlite3"),
            "port": free_port(),
            "bot_delay": 0.2,
            "grace_seconds": GRACE,
            "hello_timeout": 2.0,
            "sweep_seconds": 3600.0,
        }
        values.update(changes)
        server = LiveServer(Settings(**values))
        server.start()
        try:
            yield server
        finally:
            server.stop()


# --- HTTP ------------------------------------------------------------------------------------
async def http(
    base: str, method: str, path: str, body: Any = None, raw: bytes | None = None
) -> tuple[int, Any]:
    """One HTTP exchange, printed; returns the status and the decoded body."""
    async with httpx.AsyncClient() as client:
        if raw is not None:
            response = await client.request(
                method, base + path, content=raw, headers={"content-type": "application/json"}
            )
            shown = f"<{len(raw)} bytes>" if len(raw) > 200 else raw.decode()
        elif body is not None:
            response = await client.request(method, base + path, json=body)
            shown = json.dumps(body, separators=(",", ":"))
        else:
            response = await client.request(method, base + path)
            shown = ""
    out(f"HTTP {method} {path} {shown}".rstrip())
    text = response.text
    kind = response.headers.get("content-type", "")
    out(f"HTTP {response.status_code} {kind}: {text}")
    try:
        return response.status_code, response.json()
    except ValueError:
        return response.status_code, text


# --- WebSocket clients -----------------------------------------------------------------------
class Client:
    """A WebSocket client that prints every frame it sends and receives."""

    def __init__(self, name: str, url: str, **headers: str) -> None:
        self.name = name
        self.url = url
        self.headers = headers
        self.ws: Any = None
        self.inbox: asyncio.Queue[dict[str, Any] | None] = asyncio.Queue()
        self.reader: asyncio.Task[None] | None = None
        self.seen_route = False
        self.last_version = -1
        self.state: dict[str, Any] | None = None  # the latest state received
        self.news = asyncio.Event()
        self.gone = False
        self.after_hello = False

    async def connect(self) -> Client:
        self.ws = await websockets.connect(
            self.url, additional_headers=self.headers or None, max_size=None
        )
        self.inbox = asyncio.Queue()
        self.reader = asyncio.create_task(self._read())
        return self

    async def _read(self) -> None:
        try:
            async for raw in self.ws:
                text = raw if isinstance(raw, str) else raw.decode()
                message = json.loads(text)
                if message["type"] == "welcome":
                    self.after_hello = True
                if self._wanted(message):
                    out(f"{self.name} <- {self._shown(text, message)}")
                if message.get("type") == "state":
                    self.last_version = max(self.last_version, message["version"])
                    self.state = message
                await self.inbox.put(message)
                self.news.set()
        except ConnectionClosed:
            pass
        out(f"{self.name} <- (closed: code {self.ws.close_code}, reason {self.ws.close_reason!r})")
        self.gone = True
        self.news.set()
        await self.inbox.put(None)

    async def next_state(self, after: int, timeout: float = 15.0) -> dict[str, Any]:
        """The latest state once its version is above ``after``."""
        deadline = time.monotonic() + timeout
        while True:
            if self.state is not None and self.state["version"] > after:
                return self.state
            if self.gone:
                raise ConnectionError(f"{self.name}: closed while waiting for a state")
            self.news.clear()
            await asyncio.wait_for(self.news.wait(), max(0.01, deadline - time.monotonic()))

    def _wanted(self, message: dict[str, Any]) -> bool:
        """Whether to print a received frame (see --focus)."""
        if FOCUS is None or self.name == FOCUS or message["type"] not in ("state", "room"):
            return True
        if self.after_hello:  # what a (re)connecting client is sent is always shown
            if message["type"] == "state" or message.get("status") == "lobby":
                self.after_hello = False  # the last message of the welcome burst
            return True
        return False

    def _shown(self, text: str, message: dict[str, Any]) -> str:
        view = message.get("view") if message.get("type") == "state" else None
        if FULL or not isinstance(view, dict) or "route" not in view:
            return text
        if not self.seen_route:
            self.seen_route = True
            return text
        view["route"] = "..."
        return json.dumps(message, separators=(",", ":"), ensure_ascii=False)

    async def send(self, message: dict[str, Any] | str | bytes, shown: str | None = None) -> None:
        data = json.dumps(message, separators=(",", ":")) if isinstance(message, dict) else message
        if shown is None:
            shown = data if isinstance(data, str) else data.decode(errors="replace")
        out(f"{self.name} -> {shown}")
        await self.ws.send(data)

    async def until(self, kind: str, timeout: float = 15.0, **match: Any) -> dict[str, Any]:
        """Skip (already printed) messages until one of type ``kind`` with these fields."""
        deadline = time.monotonic() + timeout
        while True:
            left = max(0.01, deadline - time.monotonic())
            message = await asyncio.wait_for(self.inbox.get(), left)
            if message is None:
                raise ConnectionError(f"{self.name}: closed while waiting for {kind}")
            if message["type"] == kind and all(message.get(k) == v for k, v in match.items()):
                return message

    async def closed(self, timeout: float = 15.0) -> None:
        """Wait until the server closes the socket (the close is printed by the reader)."""
        deadline = time.monotonic() + timeout
        while True:
            message = await asyncio.wait_for(self.inbox.get(), deadline - time.monotonic())
            if message is None:
                return

    async def settle(self, seconds: float = 0.3) -> None:
        """Let frames in flight arrive (and be printed)."""
        await asyncio.sleep(seconds)

    async def hello(
        self, room: str, token: str | None = None, last_version: int | None = None
    ) -> dict[str, Any]:
        message: dict[str, Any] = {"type": "hello", "room": room}
        if token is not None:
            message["token"] = token
        if last_version is not None:
            message["last_version"] = last_version
        await self.send(message)
        return await self.until("welcome")

    async def close(self) -> None:
        out(f"{self.name} -> (closes the socket, code 1000)")
        await self.ws.close()
        if self.reader:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.reader, 5)


# --- the game --------------------------------------------------------------------------------
async def rejoin(server: LiveServer, code: str, token: str, last: int) -> Client:
    """A new socket for a returning player, saying which version it saw last."""
    client = await Client("Bob", server.ws).connect()
    client.seen_route = True
    client.last_version = last
    await client.hello(code, token, last_version=last)
    return client


async def play_game() -> None:
    """Two people (Ann, Bob), a greedy bot and a spectator screen play one short game."""
    with running() as server:
        out("## HTTP: games, a room, a seat")
        await http(server.http, "GET", "/api/games")
        _, ann_seat = await http(
            server.http,
            "POST",
            "/api/rooms",
            {"game": GAME, "name": "Ann", "options": {"layout": "fixed"}},
        )
        code = ann_seat["room"]
        _, bob_seat = await http(
            server.http, "POST", f"/api/rooms/{code.lower()}/seats", {"name": "Bob"}
        )
        await http(server.http, "GET", f"/api/rooms/{code}")
        await http(server.http, "GET", f"/api/rooms/{code}/record")

        out()
        out("## WebSocket: lobby")
        ann = await Client("Ann", server.ws).connect()
        await ann.hello(code, ann_seat["token"])
        await ann.settle()
        bob = await Client("Bob", server.ws).connect()
        await bob.hello(code, bob_seat["token"])
        await bob.settle()
        wall = await Client("Wall", server.ws).connect()
        note("Wall is a shared table screen: a spectator (no token)")
        await wall.hello(code)
        await wall.settle()
        await bob.send({"type": "start"})
        await bob.until("error")
        await ann.send({"type": "set-options", "options": {"figures": 1}})
        await ann.settle()
        await ann.send({"type": "add-bot", "bot": "greedy"})
        await ann.settle()
        await ann.send({"type": "start"})

        out()
        out("## WebSocket: the game")
        counts = {0: 0, 1: 0}
        bob_online = True
        script_done: set[str] = set()

        def client_id(seat: int) -> str:
            counts[seat] += 1
            return f"{'ann' if seat == 0 else 'bob'}-{counts[seat]}"

        handled = -1
        away_since = 1 << 62
        while True:
            state = await ann.next_state(after=handled)
            handled = version = state["version"]
            if state.get("outcome"):
                break
            pending = state["pending"]
            if 0 in pending:
                action = state["legal"][0]
                if "simultaneous" not in script_done:
                    script_done.add("simultaneous")
                    note("Ann (whose turn it is) and Bob send at the same moment")
                    cid = client_id(0)
                    await asyncio.gather(
                        ann.send({"type": "act", "client_id": cid, "action": action}),
                        bob.send({"type": "act", "client_id": "bob-early", "action": action}),
                    )
                    await ann.until("ack", client_id=cid)
                    await bob.until("error")
                    note("Ann's socket hiccups: she resends the same client_id")
                    await ann.send({"type": "act", "client_id": cid, "action": action})
                    await ann.until("ack", client_id=cid, duplicate=True)
                    await bob.send({"type": "ping"})
                    await bob.until("pong")
                    await http(server.http, "GET", f"/api/rooms/{code}")
                    continue
                await ann.send({"type": "act", "client_id": client_id(0), "action": action})
            elif 1 in pending and bob_online:
                mine = await bob.next_state(after=version - 1)
                action = mine["legal"][0]
                if action["type"] == "roll" and "double" not in script_done and counts[1] >= 2:
                    script_done.add("double")
                    note("Bob double-clicks Roll: two different client ids")
                    first, second = client_id(1), client_id(1)
                    await bob.send({"type": "act", "client_id": first, "action": action})
                    await bob.send({"type": "act", "client_id": second, "action": action})
                    await bob.until("error", client_id=second)
                    continue
                cid = client_id(1)
                await bob.send({"type": "act", "client_id": cid, "action": action})
                await bob.until("ack", client_id=cid)
                moved = action["type"] != "roll"
                if moved and "reconnect" not in script_done and counts[1] >= 6:
                    script_done.add("reconnect")
                    note("Bob's phone drops the socket; the bot plays on")
                    await bob.close()
                    bob_online = False
                    while True:
                        latest = await ann.next_state(after=handled)
                        handled = latest["version"]
                        if 0 in latest["pending"]:
                            break
                    handled -= 1  # let the loop look at the latest state again
                    last = bob.last_version
                    note(f"Bob reconnects within the grace period, saying he has seen {last}")
                    bob = await rejoin(server, code, bob_seat["token"], last)
                    await bob.settle()
                    bob_online = True
                elif moved and "grace" not in script_done and counts[1] >= 10:
                    script_done.add("grace")
                    note(f"Bob goes away for longer than the grace period ({GRACE} s here)")
                    await bob.close()
                    bob_online = False
                    away_since = bob.last_version
            stood_in = version > away_since and any(
                e["kind"] in ("move-figure", "move-guard") and e["data"].get("seat") == 1
                for e in state["events"]
            )
            if not bob_online and stood_in and "back" not in script_done:
                script_done.add("back")
                note("Bob comes back after the stand-in has played his turn")
                bob = await rejoin(server, code, bob_seat["token"], bob.last_version)
                bob_online = True
        await ann.settle(0.5)

        out()
        out("## After the game")
        await http(server.http, "GET", f"/api/rooms/{code}/record")
        await ann.send({"type": "rematch"})
        await ann.next_state(after=handled)
        await ann.settle()
        await wall.close()
        await bob.close()
        await ann.close()


# --- probes: refusals and limits -------------------------------------------------------------
async def probes() -> None:
    """Every refusal a client can meet, and the limits that close a socket."""
    with running(max_connections_per_address=3, join_failures_per_minute=5) as server:
        out("## Probes (max_connections_per_address=3, join_failures_per_minute=5)")
        _, host = await http(server.http, "POST", "/api/rooms", {"game": GAME, "name": "Ann"})
        code = host["room"]
        _, bob = await http(server.http, "POST", f"/api/rooms/{code}/seats", {"name": "Bob"})

        out()
        out("### HTTP refusals")
        await http(server.http, "POST", "/api/rooms", {"game": "chess", "name": "Ann"})
        await http(
            server.http,
            "POST",
            "/api/rooms",
            {"game": GAME, "name": "Ann", "options": {"figures": 9}},
        )
        await http(server.http, "POST", "/api/rooms", {"game": GAME, "name": "Ann", "colour": 1})
        await http(server.http, "POST", "/api/rooms", {"game": GAME, "name": ""})
        await http(server.http, "POST", "/api/rooms", raw=b"{not json")
        await http(server.http, "POST", "/api/rooms", {"game": GAME, "name": "   "})
        await http(server.http, "POST", f"/api/rooms/{code}/seats", {"name": "ann"})
        await http(server.http, "POST", f"/api/rooms/{code}/seats", {"name": "x" * 30})
        await http(server.http, "POST", "/api/rooms", raw=b'{"name":"' + b"x" * 70000 + b'"}')
        await http(server.http, "GET", f"/api/rooms/{code}/record")
        await http(server.http, "DELETE", f"/api/rooms/{code}")
        await http(server.http, "GET", "/api/nothing")

        out()
        out("### WebSocket refusals that keep the socket open")
        ann = await Client("Ann", server.ws).connect()
        await ann.send({"type": "ping"})
        await ann.until("error")
        await ann.send("{not json")
        await ann.until("error")
        await ann.send({"type": "hello", "room": "ABCDE"})
        await ann.until("error")
        await ann.send({"type": "hello", "room": code, "colour": "red"})
        await ann.until("error")
        await ann.send({"type": "dance"})
        await ann.until("error")
        await ann.hello(code, host["token"])
        await ann.settle()
        await ann.send({"type": "hello", "room": code})
        await ann.until("error")
        await ann.send({"type": "act", "client_id": "a-1", "action": {"type": "roll"}})
        await ann.until("error")
        await ann.send({"type": "add-bot", "bot": "genius"})
        await ann.until("error")
        await ann.send({"type": "remove-seat", "seat": 0})
        await ann.until("error")
        await ann.send({"type": "set-options", "options": {"layout": "spiral"}})
        await ann.until("error")
        await ann.send({"type": "rematch"})
        await ann.until("error")
        await ann.send({"type": "ping"})
        await ann.until("pong")

        b = await Client("Bob", server.ws).connect()
        await b.hello(code, bob["token"])
        await b.settle()
        await b.send({"type": "add-bot"})
        await b.until("error")
        await ann.send({"type": "add-bot"})
        await ann.until("room")
        await ann.send({"type": "start"})
        await ann.until("state")
        await b.settle()
        await b.send({"type": "act", "client_id": "b-1", "action": {"type": "roll"}})
        await b.until("error")
        await ann.send(
            {"type": "act", "client_id": "a-1", "action": {"type": "move-figure", "figure": 0}}
        )
        await ann.until("error")
        await ann.send({"type": "act", "client_id": "a-2", "action": {"type": "jump"}})
        await ann.until("error")
        await ann.send({"type": "add-bot"})
        await ann.until("error")
        await ann.settle()
        await b.close()
        spectator = await Client("Wall", server.ws).connect()
        await spectator.hello(code)
        await spectator.settle()
        await spectator.send({"type": "act", "client_id": "w-1", "action": {"type": "roll"}})
        await spectator.until("error")
        await spectator.close()
        await ann.close()

        out()
        out("### WebSocket refusals that close the socket")
        c = await Client("Eve", server.ws).connect()
        await c.send({"type": "hello", "room": code, "token": "x" * 32})
        await c.closed()
        c = await Client("Eve", server.ws).connect()
        note("Eve says nothing")
        await c.closed()
        c = await Client("Eve", server.ws).connect()
        await c.send(b"[" * 70000, shown="<a 70000-byte frame>")
        await c.closed()
        c = await Client("Eve", server.ws).connect()
        await c.hello(code)
        await c.settle()
        note("Eve sends 100 pings at once (the budget is a burst of 60, then 20 a second)")
        for _ in range(100):
            with contextlib.suppress(ConnectionClosed):
                await c.ws.send('{"type":"ping"}')
        await c.closed()

        out()
        out("### Handshake refusals (HTTP 403 before the WebSocket opens)")
        try:
            await websockets.connect(server.ws, origin="https://evil.example")  # type: ignore[arg-type]
        except InvalidStatus as exc:
            out(f"Eve (Origin https://evil.example) -> refused: HTTP {exc.response.status_code}")
        ok = await websockets.connect(server.ws, origin=f"http://127.0.0.1:{server.settings.port}")  # type: ignore[arg-type]
        out("Eve (Origin the server's own host) -> accepted")
        held = [ok]
        for _ in range(2):
            held.append(await websockets.connect(server.ws))
        out(f"Eve has {len(held)} sockets open (the limit here is 3)")
        try:
            await websockets.connect(server.ws)
        except InvalidStatus as exc:
            out(f"Eve's 4th socket -> refused: HTTP {exc.response.status_code}")
        for ws in held:
            await ws.close()

        out()
        out("### Leaving, and the host role passing on")
        _, a2 = await http(server.http, "POST", "/api/rooms", {"game": GAME, "name": "Ann"})
        code2 = a2["room"]
        _, b2 = await http(server.http, "POST", f"/api/rooms/{code2}/seats", {"name": "Bob"})
        _, c2 = await http(server.http, "POST", f"/api/rooms/{code2}/seats", {"name": "Cat"})
        ann = await Client("Ann", server.ws).connect()
        await ann.hello(code2, a2["token"])
        bob2 = await Client("Bob", server.ws).connect()
        await bob2.hello(code2, b2["token"])
        cat = await Client("Cat", server.ws).connect()
        await cat.hello(code2, c2["token"])
        await cat.settle()
        await ann.send({"type": "add-bot", "bot": "random"})
        await ann.settle()
        await ann.send({"type": "remove-seat", "seat": 3})
        await ann.settle()
        note("Cat leaves the lobby: her seat is removed and her socket stays, as a spectator")
        await cat.send({"type": "leave"})
        await cat.settle()
        await cat.close()
        note(f"Ann (the host) drops off for longer than the grace period ({GRACE} s)")
        await ann.close()
        await bob2.settle(GRACE + 0.5)
        note("Ann comes back: Bob keeps the host role")
        ann = await Client("Ann", server.ws).connect()
        await ann.hello(code2, a2["token"])
        await ann.settle()
        note("Bob (now the host) leaves the lobby")
        await bob2.send({"type": "leave"})
        await bob2.settle()
        await bob2.close()
        await ann.close()

        out()
        out("### The web client's routes")
        await http(server.http, "GET", "/")
        async with httpx.AsyncClient() as client:
            response = await client.get(f"{server.http}/api/rooms/{code2.lower()}/qr.svg")
        out(f"HTTP GET /api/rooms/{code2.lower()}/qr.svg")
        kind = response.headers.get("content-type")
        out(f"HTTP {response.status_code} {kind}: {response.text[:120]}...")
        await http(server.http, "GET", "/api/rooms/AB1/qr.svg")

        out()
        out("### Join-code guessing (limit here: 5 unknown codes a minute)")
        for guess in ("ZZZZ", "ZZZY", "ZZZX"):
            await http(server.http, "POST", f"/api/rooms/{guess}/seats", {"name": "Eve"})
        await http(server.http, "GET", "/api/rooms/ZZZW")
        await http(server.http, "GET", "/api/rooms/ZZZV/record")
        await http(server.http, "GET", f"/api/rooms/{code}")
        await http(server.http, "POST", f"/api/rooms/{code}/seats", {"name": "Eve"})
        await http(server.http, "GET", f"/api/rooms/{code}/record")
        await http(server.http, "GET", "/api/rooms/ZZZU/record")
        c = await Client("Eve", server.ws).connect()
        await c.send({"type": "hello", "room": code})
        await c.closed()


# --- SIGTERM and restart of a real `talltales serve` -----------------------------------------
def serve_process(port: int, database: str) -> subprocess.Popen[bytes]:
    """``talltales serve`` in a child process, waited for until it answers."""
    command = [
        sys.executable, "-m", "talltales.cli", "serve", "--port", str(port),
        "--database", database, "--bot-delay", "0", "--grace", "30",
    ]  # fmt: skip
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        with contextlib.suppress(httpx.HTTPError):
            httpx.get(f"http://127.0.0.1:{port}/api/games", timeout=1)
            return process
        time.sleep(0.1)
    process.kill()
    raise RuntimeError("talltales serve did not start")


async def restart() -> None:
    """SIGTERM while a game is on, then start again on the same database and reconnect."""
    out("## SIGTERM and restart of `talltales serve`")
    with tempfile.TemporaryDirectory() as tmp:
        database = str(Path(tmp) / "rooms.sqlite3")
        port = free_port()
        base, url = f"http://127.0.0.1:{port}", f"ws://127.0.0.1:{port}/ws"
        process = serve_process(port, database)
        try:
            _, host = await http(base, "POST", "/api/rooms", {"game": GAME, "name": "Ann"})
            _, guest = await http(base, "POST", f"/api/rooms/{host['room']}/seats", {"name": "Bob"})
            code = host["room"]
            ann = await Client("Ann", url).connect()
            await ann.hello(code, host["token"])
            await ann.send({"type": "start"})
            state = await ann.until("state")
            await ann.send({"type": "act", "client_id": "ann-1", "action": state["legal"][0]})
            await ann.until("ack")
            await ann.settle()
            note(f"SIGTERM to the server process (pid {process.pid})")
            process.send_signal(signal.SIGTERM)
            await ann.closed()
            process.wait(20)
            note(f"the server exited with status {process.returncode}; starting it again")
        finally:
            if process.poll() is None:
                process.kill()
        process = serve_process(port, database)
        try:
            last = ann.last_version
            ann = await Client("Ann", url).connect()
            ann.seen_route = True
            await ann.hello(code, host["token"], last_version=last)
            await ann.settle()
            note("Ann's resend of her last action after the restart is recognised")
            await ann.send({"type": "act", "client_id": "ann-1", "action": {"type": "roll"}})
            await ann.until("ack")
            await ann.close()
            del guest
        finally:
            process.send_signal(signal.SIGTERM)
            process.wait(20)


# --- packs and prompts: the fixture game ------------------------------------------------------
def state_of(client: Client) -> dict[str, Any]:
    """The latest state a client holds."""
    assert client.state is not None
    return client.state


async def answer(client: Client, number: int, action: dict[str, Any]) -> None:
    """Send an act and wait for its ack."""
    client_id = f"{client.name.lower()}-{number}"
    await client.send({"type": "act", "client_id": client_id, "action": action})
    await client.until("ack", client_id=client_id)
    await client.settle(0.1)


async def packs_and_prompts() -> None:
    """Three people choose the fixture game's pack and play one round of it."""
    sys.path.insert(0, str(TESTS))
    from fixture_game import FIB_OFF

    register(FIB_OFF)
    with running() as server:
        out("## Packs and prompts (the test fixture game)")
        await http(server.http, "GET", "/api/games")
        body = {"game": FIB_OFF.id, "name": "Ann", "options": {"rounds": 1}}
        _, host = await http(server.http, "POST", "/api/rooms", body)
        code = host["room"]
        grants = [host]
        for name in ("Bob", "Cat"):
            grants.append(
                (await http(server.http, "POST", f"/api/rooms/{code}/seats", {"name": name}))[1]
            )
        ann, bob, cat = [await Client(n, server.ws).connect() for n in ("Ann", "Bob", "Cat")]
        for client, grant in zip((ann, bob, cat), grants, strict=True):
            await client.hello(code, grant["token"])
            await client.settle(0.1)
        for who, ids in ((bob, ["fib-off-facts"]), (ann, ["fib-off-nope"]), (ann, ["/etc/passwd"])):
            await who.send({"type": "set-options", "packs": ids})
            await who.until("error")
        await ann.send({"type": "set-options", "packs": ["fib-off-facts"]})
        await ann.until("room")
        await ann.send({"type": "start"})
        state = await ann.until("state")
        await cat.settle()
        note("Ann reads: she picks a card and claims a stake; Bob and Cat may dispute")
        await answer(ann, 1, state["legal"][0])
        await answer(bob, 1, {"type": "pass"})
        await answer(cat, 1, {"type": "pass"})
        note("Bob and Cat write fake answers; Bob's first try is refused by the family filter")
        await bob.send(
            {
                "type": "act",
                "client_id": "bob-2",
                "action": {"type": "bluff", "text": "what the hell"},
            }
        )
        await bob.until("error")
        await answer(bob, 3, {"type": "bluff", "text": "Nobody has ever found out"})
        await answer(cat, 2, {"type": "bluff", "text": state_of(cat)["prompt"]["examples"][0]})
        note("Ann judges the answers; then Bob and Cat vote")
        await answer(ann, 2, {"type": "accept"})
        for client, number in ((bob, 4), (cat, 3)):
            await answer(client, number, state_of(client)["prompt"]["options"][0]["action"])
        await ann.settle()
        await http(server.http, "GET", f"/api/rooms/{code}/record")
        for client in (ann, bob, cat):
            await client.close()


def main() -> None:
    global FULL, FOCUS
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "sections",
        nargs="*",
        metavar="game|probes|restart|packs",
        help="what to run (default: everything)",
    )
    parser.add_argument("--full", action="store_true", help="print every route list")
    parser.add_argument(
        "--focus",
        metavar="NAME",
        help="print every frame NAME receives, but only the frames other clients"
        " receive that are not copies of the same state or room messages"
        " (in the game section only)",
    )
    args = parser.parse_args()
    FULL, FOCUS = args.full, args.focus
    runners = {"game": play_game, "probes": probes, "restart": restart, "packs": packs_and_prompts}
    sections = args.sections or list(runners)
    unknown = set(sections) - set(runners)
    if unknown:
        parser.error(f"unknown sections: {sorted(unknown)}")
    for section in sections:
        runner = runners[section]
        FOCUS = args.focus if section == "game" else None
        asyncio.run(runner())
        out()


if __name__ == "__main__":
    main()
