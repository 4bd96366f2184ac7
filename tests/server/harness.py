"""A real server on a free loopback port, and a small WebSocket client, for server tests."""

from __future__ import annotations

import asyncio
import json
import socket
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import websockets

from talltales.server.run import ServerThread
from talltales.server.settings import Settings
from talltales.server.storage import Storage


def free_port() -> int:
    """A TCP port nobody listens on right now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class Loopback:
    """A server listening on a loopback port: where to reach it over HTTP and WebSocket."""

    port: int

    @property
    def http(self) -> str:
        """Base URL for HTTP."""
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws(self) -> str:
        """URL of the WebSocket."""
        return f"ws://127.0.0.1:{self.port}/ws"


class LiveServer(ServerThread, Loopback):
    """The real server in a thread (``talltales.server.run.ServerThread``); ``hub`` is live."""


def settings_for(tmp_path: Path, **changes: Any) -> Settings:
    """Settings for tests: a fresh database, no bot pacing, short timers."""
    values: dict[str, Any] = {
        "database": str(tmp_path / "rooms.sqlite3"),
        "port": free_port(),
        "bot_delay": 0.0,
        "grace_seconds": 0.5,
        "hello_timeout": 2.0,
        "sweep_seconds": 3600.0,
        "rooms_per_minute": 100_000,  # tests create rooms quickly from one address
        # Test clients share this process (and its GIL) with the server, so on a loaded
        # machine they read late; the limits that drop slow readers have tests of their own.
        "send_timeout": 60.0,
        "outgoing_bytes": 64 * 1024 * 1024,
    }
    values.update(changes)
    return Settings(**values)


@contextmanager
def running(settings: Settings, storage: Storage | None = None) -> Iterator[LiveServer]:
    """A live server for the duration of a ``with`` block."""
    server = LiveServer(settings, storage)
    server.start()
    try:
        yield server
    finally:
        server.stop()


def create_room(
    server: Loopback, game: str, name: str, options: dict[str, Any] | None = None
) -> dict[str, Any]:
    """POST /api/rooms; returns {room, seat, token}."""
    body = {"game": game, "name": name, "options": options or {}}
    response = httpx.post(f"{server.http}/api/rooms", json=body)
    assert response.status_code == 201, response.text
    result: dict[str, Any] = response.json()
    return result


def join_room(server: Loopback, code: str, name: str) -> dict[str, Any]:
    """POST /api/rooms/{code}/seats; returns {room, seat, token}."""
    response = httpx.post(f"{server.http}/api/rooms/{code}/seats", json={"name": name})
    assert response.status_code == 201, response.text
    result: dict[str, Any] = response.json()
    return result


class Client:
    """One WebSocket client that records every frame it receives."""

    def __init__(self, url: str, **headers: str) -> None:
        self.url = url
        self.headers = headers
        self.frames: list[str] = []
        self.ws: Any = None

    async def __aenter__(self) -> Client:
        self.ws = await websockets.connect(
            self.url, additional_headers=self.headers or None, max_size=None
        )
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.ws.close()

    async def send(self, message: dict[str, Any] | str | bytes) -> None:
        """Send a message (dicts as JSON text)."""
        await self.ws.send(json.dumps(message) if isinstance(message, dict) else message)

    async def recv(self, timeout: float = 10.0) -> dict[str, Any]:
        """The next message, decoded."""
        raw = await asyncio.wait_for(self.ws.recv(), timeout)
        self.frames.append(raw if isinstance(raw, str) else raw.decode())
        result: dict[str, Any] = json.loads(raw)
        return result

    async def until(self, kind: str, timeout: float = 10.0, **match: Any) -> dict[str, Any]:
        """Skip messages until one of type ``kind`` (with matching fields) arrives."""
        deadline = time.monotonic() + timeout
        while True:
            message = await self.recv(max(0.01, deadline - time.monotonic()))
            if message["type"] == kind and all(message.get(k) == v for k, v in match.items()):
                return message

    async def hello(
        self, room: str, token: str | None = None, last_version: int = -1
    ) -> dict[str, Any]:
        """Say hello and return the welcome."""
        message: dict[str, Any] = {"type": "hello", "room": room, "last_version": last_version}
        if token is not None:
            message["token"] = token
        await self.send(message)
        return await self.until("welcome")
