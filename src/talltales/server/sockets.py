"""The WebSocket endpoint: one Connection per socket, hello first, then the hub."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable
from typing import Any

from starlette.types import Message
from starlette.websockets import WebSocket

from talltales.server.connection import Connection, TokenBucket
from talltales.server.door import TRANSPORT, client_of
from talltales.server.guard import Guard
from talltales.server.hub import BadToken, GameEnded, Hub, RoomNotFound
from talltales.server.protocol import ErrorOut, Hello, ProtocolError, decode_client
from talltales.server.settings import Settings

log = logging.getLogger("talltales.server")


class OneLine(logging.Filter):
    """Keeps uvicorn's note of a frame that is not UTF-8 to one line (no traceback)."""

    def filter(self, record: logging.LogRecord) -> bool:
        """Drop the traceback of that one message; pass everything."""
        if str(record.msg).startswith("Invalid UTF-8"):
            record.exc_info, record.exc_text = None, None
        return True


def quiet_bad_frames() -> None:
    """Install OneLine on uvicorn's error log (once)."""
    logger = logging.getLogger("uvicorn.error")
    if not any(isinstance(f, OneLine) for f in logger.filters):
        logger.addFilter(OneLine())


def transport_of(scope: Any) -> asyncio.Transport | None:
    """The socket's transport, where the ASGI server exposed one (uvicorn does)."""
    transport = scope.get(TRANSPORT)
    return transport if isinstance(transport, asyncio.Transport) else None


class WsConnection(Connection):
    """A Starlette WebSocket behind the hub's Connection."""

    def __init__(self, websocket: WebSocket, address: str, settings: Settings) -> None:
        super().__init__(
            address, settings.outgoing_queue, settings.outgoing_bytes, settings.send_timeout
        )
        self.websocket = websocket
        self.transport = transport_of(websocket.scope)

    async def transmit(self, data: bytes) -> None:
        """Send as a text frame (browsers read JSON text)."""
        await self.websocket.send_text(data.decode())

    async def close(self, code: int) -> None:
        """Close once."""
        self.closed = True
        with contextlib.suppress(Exception):
            await self.websocket.close(code)

    def abort(self) -> None:
        """Abort the transport: a client that does not read gets no closing handshake."""
        if self.transport is not None:
            self.transport.abort()

    def given_up(self) -> bool:
        """Whether the server gave up on the socket (a ping went unanswered) but it lingers."""
        return self.transport is not None and self.transport.is_closing() and not self.closed


class SocketEndpoint:
    """Serves each WebSocket: the hello, the message budget, dropping clients that stall."""

    def __init__(self, settings: Settings, guard: Guard, hub: Callable[[], Hub]) -> None:
        self.settings, self.guard, self.hub = settings, guard, hub

    async def endpoint(self, websocket: WebSocket) -> None:
        """Accept, serve until the socket ends, then let the hub know."""
        who = client_of(websocket.scope)
        if not self.guard.connect(who):
            await websocket.close(1008)
            return
        conn = WsConnection(websocket, who, self.settings)
        try:
            await websocket.accept()
            writer = asyncio.create_task(conn.writer())
            try:
                await self.serve(websocket, conn)
            finally:
                await self.hub().disconnect(conn)
                conn.finish()
                with contextlib.suppress(asyncio.TimeoutError, asyncio.CancelledError):
                    await asyncio.wait_for(writer, 1.0)
                if not writer.done():
                    conn.drop()
                    writer.cancel()
        finally:
            self.guard.disconnect(who)

    async def frame(
        self,
        websocket: WebSocket,
        conn: WsConnection,
        by: float | None,
        dropped: asyncio.Future[Any],
    ) -> Message:
        """The next frame; a disconnect when the client is dropped (``dropped``, one waiter
        for the socket's life, not one per frame); TimeoutError past ``by``."""
        check = max(0.05, self.settings.ping_interval / 4)
        receiving = asyncio.ensure_future(websocket.receive())
        try:
            while True:
                wait = check if by is None else min(check, max(0.0, by - time.monotonic()))
                await asyncio.wait(
                    {receiving, dropped}, timeout=wait, return_when=asyncio.FIRST_COMPLETED
                )
                if receiving.done():
                    return receiving.result()
                if dropped.done():
                    return {"type": "websocket.disconnect", "code": 1006}
                if conn.given_up():  # uvicorn's ping went unanswered: cut it off
                    conn.drop()
                elif by is not None and time.monotonic() >= by:
                    raise TimeoutError
        finally:
            receiving.cancel()

    async def serve(self, websocket: WebSocket, conn: WsConnection) -> None:
        """Read frames until the socket ends."""
        dropped = asyncio.ensure_future(conn.dropped.wait())
        try:
            await self.serve_frames(websocket, conn, dropped)
        finally:
            dropped.cancel()

    async def serve_frames(
        self, websocket: WebSocket, conn: WsConnection, dropped: asyncio.Future[Any]
    ) -> None:
        """Read and handle frames until the socket ends or the client is dropped."""
        settings = self.settings
        bucket = TokenBucket(settings.message_rate, settings.message_burst)
        hello_by = time.monotonic() + settings.hello_timeout  # from connecting, not per frame
        while not conn.closed:
            by = hello_by if conn.room is None else None
            try:
                frame = await self.frame(websocket, conn, by, dropped)
            except TimeoutError:
                conn.send(ErrorOut("hello-timeout", "say hello first"))
                conn.finish()  # the writer sends the error, then closes
                return
            if frame["type"] == "websocket.disconnect":
                return
            if not bucket.take():
                await conn.close_within(1008)
                return
            data = frame.get("text") if frame.get("text") is not None else frame.get("bytes")
            if not await self.handle(conn, data or b""):
                return

    async def handle(self, conn: WsConnection, data: str | bytes) -> bool:
        """One message; False when the socket is to close."""
        try:
            message = decode_client(data)
        except ProtocolError as exc:
            conn.send(ErrorOut(exc.code, exc.reason))
            return True
        if conn.room is not None:
            await self.hub().handle(conn, message)
            return True
        if not isinstance(message, Hello):
            conn.send(ErrorOut("hello-first", "the first message must be hello"))
            return True
        if self.guard.blocked(conn.address):
            conn.send(ErrorOut("rate-limited", "too many wrong room codes; wait a minute"))
            conn.finish()  # the writer sends the error, then closes
            return False
        try:
            await self.hub().hello(conn, message)
        except RoomNotFound as exc:
            self.guard.failed(conn.address)
            conn.send(ErrorOut(exc.code, exc.reason))
        except (BadToken, GameEnded) as exc:
            conn.send(ErrorOut(exc.code, exc.reason))
            conn.finish()
            return False
        return True
