"""The ceiling for bench/server.py: a minimal Starlette WebSocket broadcast server.

Rooms of four sockets: a socket's first message is ``{"type": "hello", "room": ...}``
(answered with ``{"type": "welcome"}``); every later message is sent as-is to every socket
of its room, the sender included. No storage, no game, no limits, no per-socket queue: what
is left is the cost of uvicorn, Starlette and the WebSocket framing on the same settings as
the real server (see src/talltales/server/run.py).

Run with ``uv run python bench/minimal_broadcast.py --port 8001`` (loopback only).
"""

from __future__ import annotations

import argparse
import contextlib

import msgspec
import uvicorn
from starlette.applications import Starlette
from starlette.routing import WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

MAX_MESSAGE_BYTES = 64 * 1024  # as talltales.server.protocol
PING_INTERVAL = 20.0  # as talltales.server.settings
WELCOME = '{"type":"welcome"}'

rooms: dict[str, list[WebSocket]] = {}


class Hello(msgspec.Struct):
    """The first message: which room to join."""

    room: str


async def endpoint(websocket: WebSocket) -> None:
    """Join a room on hello, then broadcast every message to the room as-is."""
    await websocket.accept()
    try:
        hello = msgspec.json.decode(await websocket.receive_text(), type=Hello)
    except (WebSocketDisconnect, msgspec.DecodeError, msgspec.ValidationError):
        with contextlib.suppress(Exception):
            await websocket.close(1008)
        return
    members = rooms.setdefault(hello.room, [])
    members.append(websocket)
    try:
        await websocket.send_text(WELCOME)
        while True:
            text = await websocket.receive_text()
            for peer in list(members):
                with contextlib.suppress(Exception):  # a peer that left is the reader's business
                    await peer.send_text(text)
    except WebSocketDisconnect:
        pass
    finally:
        members.remove(websocket)
        if not members:
            rooms.pop(hello.room, None)


app = Starlette(routes=[WebSocketRoute("/ws", endpoint)])


def main() -> None:
    """Serve on 127.0.0.1 with the real server's uvicorn WebSocket settings."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=8001)
    args = parser.parse_args()
    uvicorn.run(
        app,
        host="127.0.0.1",
        port=args.port,
        ws_max_size=MAX_MESSAGE_BYTES,
        ws_ping_interval=PING_INTERVAL,
        ws_ping_timeout=PING_INTERVAL,
        log_level="warning",
        timeout_graceful_shutdown=5,
    )


if __name__ == "__main__":
    main()
