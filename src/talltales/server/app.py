"""The ASGI application: a small HTTP API for rooms and one WebSocket per client."""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import msgspec
import segno
from starlette.applications import Starlette
from starlette.datastructures import MutableHeaders
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from starlette.websockets import WebSocket, WebSocketDisconnect

from talltales.core.errors import ActionRefused, OptionsError, RecordError, TallTalesError
from talltales.core.packs import pack_infos
from talltales.core.registry import games
from talltales.server.connection import Connection, TokenBucket
from talltales.server.guard import Guard, origin_allowed
from talltales.server.hub import BadToken, Hub, RoomNotFound
from talltales.server.protocol import (
    MAX_MESSAGE_BYTES,
    ErrorOut,
    Hello,
    Name,
    ProtocolError,
    decode_client,
)
from talltales.server.rooms import Status
from talltales.server.settings import Settings
from talltales.server.storage import SqliteStorage, Storage

WEB = Path(__file__).resolve().parent.parent / "web"
UNREPLAYABLE = (
    "This game was played with a card pack that has changed on this server, "
    "so it can no longer be shown."
)
log = logging.getLogger("talltales.server")


class CreateRoom(msgspec.Struct, forbid_unknown_fields=True):
    """POST /api/rooms."""

    game: str
    name: Name
    options: dict[str, Any] = {}
    family_filter: bool = True


class JoinRoom(msgspec.Struct, forbid_unknown_fields=True):
    """POST /api/rooms/{code}/seats."""

    name: Name


class SeatGranted(msgspec.Struct):
    """Answer to creating or joining: keep the token to come back to the seat."""

    room: str
    seat: int
    token: str


def json(value: Any, status: int = 200) -> Response:
    """A JSON response encoded by msgspec."""
    return Response(msgspec.json.encode(value), status, media_type="application/json")


def error(code: str, reason: str, status: int) -> Response:
    """A typed error response."""
    return json(ErrorOut(code, reason), status)


def unreplayable(request: Request, exc: RecordError) -> Response:
    """409 for a stored game that no longer replays: the detail (pack ids, digests, advice
    for the command line) is for the log; people are told what it means for them."""
    log.warning("room %s cannot be shown: %s", request.path_params.get("code"), exc.reason)
    return error(exc.code, UNREPLAYABLE, 409)


class WsConnection(Connection):
    """A Starlette WebSocket behind the hub's Connection."""

    def __init__(self, websocket: WebSocket, address: str, queue_limit: int) -> None:
        super().__init__(address, queue_limit)
        self.websocket = websocket

    async def transmit(self, data: bytes) -> None:
        """Send as a text frame (browsers read JSON text)."""
        await self.websocket.send_text(data.decode())

    async def close(self, code: int) -> None:
        """Close once."""
        self.closed = True
        with contextlib.suppress(Exception):
            await self.websocket.close(code)


def create_app(settings: Settings | None = None, storage: Storage | None = None) -> Starlette:
    """Build the application; storage defaults to the SQLite file named in the settings."""
    settings = settings or Settings()
    guard = Guard(
        settings.max_connections_per_address,
        settings.join_failures_per_minute,
        settings.rooms_per_minute,
    )
    holder: dict[str, Hub] = {}

    def too_many_guesses() -> Response:  # a fresh response each time: middleware adds headers
        return error("rate-limited", "too many wrong room codes; wait a minute", 429)

    def hub() -> Hub:
        return holder["hub"]

    def address(scope_client: Any) -> str:
        return scope_client.host if scope_client else "unknown"

    async def read_body(request: Request, kind: type[Any]) -> Any:
        if int(request.headers.get("content-length") or 0) > MAX_MESSAGE_BYTES:
            raise ProtocolError("too-large", "request bodies are limited to 64 KiB")
        body = b""
        async for chunk in request.stream():
            body += chunk
            if len(body) > MAX_MESSAGE_BYTES:
                raise ProtocolError("too-large", "request bodies are limited to 64 KiB")
        try:
            return msgspec.json.decode(body, type=kind)
        except (msgspec.ValidationError, msgspec.DecodeError) as exc:
            raise ProtocolError("malformed", f"request not understood: {exc}") from exc

    async def list_games(request: Request) -> Response:
        return json(
            [
                {
                    "id": g.id,
                    "title": g.title,
                    "min_players": g.min_players,
                    "max_players": g.max_players,
                    "summary": g.summary,
                    "options": msgspec.to_builtins(g.options()),
                    "options_schema": msgspec.json.schema(g.options_type),
                    "packs": pack_infos(g),
                }
                for g in games()
            ]
        )

    async def create_room(request: Request) -> Response:
        who = address(request.client)
        if guard.creations.over(who):
            return error("rate-limited", "too many new rooms from here; wait a minute", 429)
        try:
            body = await read_body(request, CreateRoom)
            room, seat, token = await hub().create_room(
                body.game, body.name, body.options, body.family_filter, str(request.base_url)
            )
            guard.creations.note(who)
        except ProtocolError as exc:
            return error(exc.code, exc.reason, 413 if exc.code == "too-large" else 400)
        except (OptionsError, ActionRefused) as exc:
            return error(exc.code, exc.reason, 400)
        return json(SeatGranted(room.code, seat, token), 201)

    async def join_room(request: Request) -> Response:
        who = address(request.client)
        if guard.blocked(who):
            return too_many_guesses()
        try:
            body = await read_body(request, JoinRoom)
            room, seat, token = await hub().join(request.path_params["code"], body.name)
        except ProtocolError as exc:
            return error(exc.code, exc.reason, 413 if exc.code == "too-large" else 400)
        except RoomNotFound as exc:
            guard.failed(who)
            return error(exc.code, exc.reason, 404)
        except TallTalesError as exc:
            return error(getattr(exc, "code", "refused"), exc.reason, 409)
        return json(SeatGranted(room.code, seat, token), 201)

    async def show_room(request: Request) -> Response:
        who = address(request.client)
        if guard.blocked(who):
            return too_many_guesses()
        try:
            room = await hub().room(request.path_params["code"])
        except RoomNotFound as exc:
            guard.failed(who)
            return error(exc.code, exc.reason, 404)
        except RecordError as exc:  # a finished game whose pack has changed since
            return unreplayable(request, exc)
        return json({"room": room.info(), "state": room.state_for(None, [], hub().clock())})

    async def show_record(request: Request) -> Response:
        if guard.blocked(address(request.client)):
            return too_many_guesses()
        try:
            room = await hub().room(request.path_params["code"])
        except RoomNotFound as exc:
            guard.failed(address(request.client))
            return error(exc.code, exc.reason, 404)
        except RecordError as exc:
            return unreplayable(request, exc)
        if room.status is not Status.FINISHED or room.match is None:
            return error("not-finished", "the record is published once the game is over", 409)
        return json(room.match.record)

    async def join_qr(request: Request) -> Response:
        code = request.path_params["code"].upper()
        if len(code) != 4 or not code.isalpha():
            return error("no-room", "a room code is four letters", 404)
        base = settings.public_url or str(request.base_url)
        link = f"{base.rstrip('/')}/?join={code}"
        buffer = io.BytesIO()
        segno.make(link, error="m").save(buffer, kind="svg", scale=8, border=2, title=link)
        return Response(buffer.getvalue(), media_type="image/svg+xml")

    async def index(request: Request) -> Response:
        page = WEB / "index.html"
        if not page.exists():
            return error("no-client", "the web client is not installed", 404)
        return Response(page.read_bytes(), media_type="text/html; charset=utf-8")

    async def websocket_endpoint(websocket: WebSocket) -> None:
        who = address(websocket.client)
        if not origin_allowed(
            websocket.headers.get("origin"), websocket.headers.get("host"), settings.allowed_origins
        ):
            await websocket.close(1008)
            return
        if not guard.connect(who):
            await websocket.close(1008)
            return
        conn = WsConnection(websocket, who, settings.outgoing_queue)
        try:
            await websocket.accept()
            writer = asyncio.create_task(conn.writer())
            try:
                await serve_socket(websocket, conn)
            finally:
                await hub().disconnect(conn)
                conn.finish()
                with contextlib.suppress(asyncio.TimeoutError, asyncio.CancelledError):
                    await asyncio.wait_for(writer, 1.0)
        finally:
            guard.disconnect(who)

    async def serve_socket(websocket: WebSocket, conn: WsConnection) -> None:
        bucket = TokenBucket(settings.message_rate, settings.message_burst)
        hello_by = time.monotonic() + settings.hello_timeout  # from connecting, not per frame
        while not conn.closed:
            timeout = max(0.0, hello_by - time.monotonic()) if conn.room is None else None
            try:
                frame = await asyncio.wait_for(websocket.receive(), timeout)
            except TimeoutError:
                conn.send(ErrorOut("hello-timeout", "say hello first"))
                conn.finish()  # the writer sends the error, then closes
                return
            if frame["type"] == "websocket.disconnect":
                return
            if not bucket.take():
                await conn.close(1008)
                return
            data = frame.get("text") if frame.get("text") is not None else frame.get("bytes")
            if not await handle_frame(conn, data or b""):
                return

    async def handle_frame(conn: WsConnection, data: str | bytes) -> bool:
        try:
            message = decode_client(data)
        except ProtocolError as exc:
            conn.send(ErrorOut(exc.code, exc.reason))
            return True
        if conn.room is not None:
            await hub().handle(conn, message)
            return True
        if not isinstance(message, Hello):
            conn.send(ErrorOut("hello-first", "the first message must be hello"))
            return True
        if guard.blocked(conn.address):
            conn.send(ErrorOut("rate-limited", "too many wrong room codes; wait a minute"))
            conn.finish()  # the writer sends the error, then closes
            return False
        try:
            await hub().hello(conn, message)
        except RoomNotFound as exc:
            guard.failed(conn.address)
            conn.send(ErrorOut(exc.code, exc.reason))
        except BadToken as exc:
            conn.send(ErrorOut(exc.code, exc.reason))
            conn.finish()
            return False
        return True

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        holder["hub"] = Hub(storage or SqliteStorage(settings.database), settings)
        await hub().start()
        app.state.hub = hub()
        try:
            yield
        finally:
            await hub().stop(restarting=True)

    routes = [
        Route("/api/games", list_games),
        Route("/api/rooms", create_room, methods=["POST"]),
        Route("/api/rooms/{code}", show_room),
        Route("/api/rooms/{code}/seats", join_room, methods=["POST"]),
        Route("/api/rooms/{code}/record", show_record),
        Route("/api/rooms/{code}/qr.svg", join_qr),
        WebSocketRoute("/ws", websocket_endpoint),
        Route("/", index),
        Mount("/static", StaticFiles(directory=WEB, check_dir=False), name="static"),
    ]
    return Starlette(routes=routes, lifespan=lifespan, middleware=[Middleware(SecurityHeaders)])


class SecurityHeaders:
    """Pages may load only our own scripts, styles and sockets; static files revalidate."""

    POLICY = (
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        "connect-src 'self' ws: wss:; frame-ancestors 'none'; base-uri 'none'"
    )

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Add the headers to every HTTP response."""
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        static = scope["path"].startswith("/static/")

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                headers["Content-Security-Policy"] = self.POLICY
                headers["X-Content-Type-Options"] = "nosniff"
                headers["Referrer-Policy"] = "no-referrer"
                if static:
                    headers["Cache-Control"] = "no-cache"
            await send(message)

        await self.app(scope, receive, with_headers)


__all__ = ["WebSocketDisconnect", "create_app"]
