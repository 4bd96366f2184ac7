"""The ASGI application: a small HTTP API for rooms and one WebSocket per client."""

from __future__ import annotations

import contextlib
import io
import logging
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import msgspec
import segno
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles

from talltales.core.errors import ActionRefused, OptionsError, RecordError, TallTalesError
from talltales.core.packs import pack_infos
from talltales.core.registry import games
from talltales.server.door import FrontDoor, client_of
from talltales.server.guard import Guard
from talltales.server.hub import Hub, RoomNotFound
from talltales.server.protocol import MAX_MESSAGE_BYTES, ErrorOut, Name, ProtocolError
from talltales.server.rooms import Status
from talltales.server.settings import Settings
from talltales.server.sockets import SocketEndpoint, quiet_bad_frames
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


def granted(grant: SeatGranted) -> Response:
    """201 with a seat token: never to be kept by a cache."""
    response = json(grant, 201)
    response.headers["Cache-Control"] = "no-store"
    return response


async def http_error(request: Request, exc: Exception) -> Response:
    """Starlette's own refusals (no such route, wrong method) as typed errors."""
    status = exc.status_code if isinstance(exc, HTTPException) else 400
    code = {404: "not-found", 405: "method-not-allowed"}.get(status, "bad-request")
    response = error(code, str(getattr(exc, "detail", "")) or "not understood", status)
    for name, value in (getattr(exc, "headers", None) or {}).items():
        response.headers[name] = value
    return response


def unreplayable(request: Request, exc: RecordError) -> Response:
    """409 for a stored game that no longer replays: the detail (pack ids, digests, advice
    for the command line) is for the log; people are told what it means for them."""
    log.warning("room %s cannot be shown: %s", request.path_params.get("code"), exc.reason)
    return error(exc.code, UNREPLAYABLE, 409)


def create_app(settings: Settings | None = None, storage: Storage | None = None) -> Starlette:
    """Build the application; storage defaults to the SQLite file named in the settings."""
    settings = settings or Settings()
    guard = Guard(
        settings.max_connections_per_address,
        settings.join_failures_per_minute,
        settings.rooms_per_minute,
        settings.join_failures_per_prefix,
        settings.reads_per_minute,
    )
    holder: dict[str, Hub] = {}

    def too_many_guesses() -> Response:  # a fresh response each time: middleware adds headers
        return error("rate-limited", "too many wrong room codes; wait a minute", 429)

    def hub() -> Hub:
        return holder["hub"]

    async def unknown(who: str, code: str) -> None:
        """A code no room ever had is a guess; a room that has ended (expired) is not."""
        if await hub().storage.load(code.upper()) is None:
            guard.failed(who)

    def too_many_reads() -> Response:
        return error("rate-limited", "too many reads from here; wait a minute", 429)

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
        except RecursionError:  # nested deeper than anything a client needs
            raise ProtocolError("malformed", "request nested too deeply") from None

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
        who = client_of(request.scope)
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
        return granted(SeatGranted(room.code, seat, token))

    async def join_room(request: Request) -> Response:
        who = client_of(request.scope)
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
        return granted(SeatGranted(room.code, seat, token))

    async def show_room(request: Request) -> Response:
        who = client_of(request.scope)
        if guard.blocked(who):
            return too_many_guesses()
        if not guard.read(who):
            return too_many_reads()
        try:
            room = await hub().room(request.path_params["code"])
        except RoomNotFound as exc:
            await unknown(who, request.path_params["code"])
            return error(exc.code, exc.reason, 404)
        except RecordError as exc:  # a finished game whose pack has changed since
            return unreplayable(request, exc)
        return json({"room": room.info(), "state": room.state_for(None, [], hub().clock())})

    async def show_record(request: Request) -> Response:
        if guard.blocked(client_of(request.scope)):
            return too_many_guesses()
        if not guard.read(client_of(request.scope)):
            return too_many_reads()
        try:
            room = await hub().room(request.path_params["code"])
        except RoomNotFound as exc:
            await unknown(client_of(request.scope), request.path_params["code"])
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

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        quiet_bad_frames()  # uvicorn has configured its logging by now
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
        WebSocketRoute("/ws", SocketEndpoint(settings, guard, hub).endpoint),
        Route("/", index),
        Mount("/static", StaticFiles(directory=WEB, check_dir=False), name="static"),
    ]
    return Starlette(
        routes=routes,
        lifespan=lifespan,
        middleware=[Middleware(FrontDoor, settings=settings)],
        exception_handlers={HTTPException: http_error},
    )


__all__ = ["create_app"]
