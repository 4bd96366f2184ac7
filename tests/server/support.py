"""What the server tests share beyond the harness: rooms with people seated, sockets that have
said hello, waiting for messages, and what the server shows (HTTP) and stores (SQLite)."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable, Coroutine
from typing import Any, TypeVar

import httpx
import websockets

from talltales.server.storage import EntryRow, RoomRow, SqliteStorage

from .harness import Client, LiveServer, Loopback, create_room, join_room

T = TypeVar("T")
WYBI = "would-you-believe-it"
NAMES = ("Ann", "Bob", "Cid", "Dee", "Eve", "Fay")
# Test players answer within a millisecond, far faster than the per-socket message budget
# allows people to (20 a second): lift it so that whole games fit in a second.
QUICK_HANDS: dict[str, Any] = {"message_rate": 10_000.0, "message_burst": 10_000}


# --- rooms and sockets -------------------------------------------------------------------
def open_room(
    server: Loopback, game: str, host: str, *guests: str, options: dict[str, Any] | None = None
) -> tuple[str, list[dict[str, Any]]]:
    """A room ``host`` created with ``guests`` seated after over HTTP: its code and every
    seat's grant ({room, seat, token}), host first."""
    grant = create_room(server, game, host, options)
    code: str = grant["room"]
    return code, [grant, *(join_room(server, code, name) for name in guests)]


async def attach(server: Loopback, code: str, token: str | None, last: int = -1) -> Client:
    """A new socket that has said hello (with ``last`` as its last version) and read the
    welcome."""
    client = Client(server.ws)
    await client.__aenter__()
    await client.hello(code, token, last)
    return client


async def connect(server: Loopback, code: str, token: str | None) -> Client:
    """A new socket that has said hello and read the room message."""
    client = await attach(server, code, token)
    await client.until("room")
    return client


async def close(*clients: Client) -> None:
    """Close each socket, in order."""
    for client in clients:
        await client.__aexit__()


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


async def start_with_bots(host: Client, *bots: str) -> None:
    """The host seats a bot of each kind given, in order, then starts the game."""
    for bot in bots:
        await host.send({"type": "add-bot", "bot": bot})
    await host.send({"type": "start"})


async def holds_no_seat(server: Loopback, code: str, token: str) -> None:
    """A token that opens nothing: hello is answered bad-token."""
    gone = Client(server.ws)
    await gone.__aenter__()
    await gone.send({"type": "hello", "room": code, "token": token})
    assert (await gone.until("error"))["code"] == "bad-token"
    await gone.__aexit__()


async def refused(client: Client, message: dict[str, Any]) -> str:
    """Send a message that must be refused; the refusal's code."""
    await client.send(message)
    error = await client.until("error")
    code: str = error["code"]
    return code


# --- waiting -----------------------------------------------------------------------------
async def eventually(test: Callable[[], bool], timeout: float = 10.0) -> None:
    """Wait (yielding to the clients' tasks) until ``test`` holds."""
    deadline = time.monotonic() + timeout
    while not test():
        assert time.monotonic() < deadline, "timed out waiting"
        await asyncio.sleep(0.005)


async def until_room(
    client: Client, test: Callable[[dict[str, Any]], bool], timeout: float = 10.0
) -> dict[str, Any]:
    """Skip messages until a room message passes ``test``."""
    while True:
        message = await client.until("room", timeout)
        if test(message):
            return message


async def until_state(
    client: Client, test: Callable[[dict[str, Any]], bool], timeout: float = 10.0
) -> dict[str, Any]:
    """Skip messages until a state message passes ``test``."""
    while True:
        message = await client.until("state", timeout)
        if test(message):
            return message


def frames(client: Client, kind: str) -> list[dict[str, Any]]:
    """Every message of one type a client received, in order."""
    decoded = [json.loads(f) for f in client.frames]
    return [m for m in decoded if m["type"] == kind]


# --- what the server shows and stores ----------------------------------------------------
def shown(server: Loopback, code: str) -> dict[str, Any]:
    """GET /api/rooms/{code}: {room, state}."""
    response = httpx.get(f"{server.http}/api/rooms/{code}")
    assert response.status_code == 200, response.text
    result: dict[str, Any] = response.json()
    return result


async def stored(database: str, code: str) -> tuple[RoomRow, list[EntryRow]]:
    """A room's row and its current game's log as a fresh reader of the database finds them."""
    storage = SqliteStorage(database)
    try:
        loaded = await storage.load(code)
    finally:
        await storage.close()
    assert loaded is not None, code
    return loaded


async def on_server(server: LiveServer, work: Callable[[], Coroutine[Any, Any, T]]) -> T:
    """Run ``work`` on the server's own event loop (where rooms, locks and storage live)."""
    assert server.hub.sweeper is not None
    loop = server.hub.sweeper.get_loop()
    return await asyncio.wrap_future(asyncio.run_coroutine_threadsafe(work(), loop))
