"""The front door: who is asking, whether they asked this server, and the headers every answer
carries (typed errors included)."""

from __future__ import annotations

import logging
from typing import Any

import msgspec
from starlette.datastructures import Headers, MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from talltales.server.guard import allowed_hosts, client_address, host_allowed, origin_allowed
from talltales.server.protocol import ErrorOut
from talltales.server.settings import Settings

log = logging.getLogger("talltales.server")
CLIENT = "talltales.client"  # the address the request is counted against
TRANSPORT = "talltales.transport"  # the server's transport under a WebSocket, if exposed
SAFE_METHODS = ("GET", "HEAD", "OPTIONS")


def client_of(scope: Any) -> str:
    """The address a request or socket is counted against."""
    found = scope.get(CLIENT)
    if isinstance(found, str):
        return found
    client = scope.get("client")
    return str(client[0]) if client else "unknown"


class FrontDoor:
    """Refuses strangers' Host names and cross-site writes; adds the security headers."""

    POLICY = (
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        "connect-src 'self' ws: wss:; frame-ancestors 'none'; base-uri 'none'"
    )

    def __init__(self, app: ASGIApp, settings: Settings) -> None:
        self.app = app
        self.settings = settings
        self.hosts = allowed_hosts(settings.allowed_hosts, settings.public_url, settings.host)
        self.origins = list(settings.allowed_origins)
        if settings.public_url:
            self.origins.append(settings.public_url.rstrip("/"))

    def admits(self, scope: Scope) -> tuple[str, str] | None:
        """None when the request may go in; else the error code and reason."""
        headers = Headers(scope=scope)
        if not host_allowed(headers.get("host"), self.hosts):
            return "bad-host", "this server does not answer to that host name"
        writes = scope["type"] == "websocket" or scope.get("method") not in SAFE_METHODS
        origin = headers.get("origin")
        if writes and not origin_allowed(
            origin, headers.get("host"), self.origins, scope.get("scheme", "http")
        ):
            return "bad-origin", "requests from other sites are not accepted"
        return None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Check the request, then pass it in with the headers added to every response."""
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        peer = scope["client"][0] if scope.get("client") else None
        forwarded = Headers(scope=scope).get("x-forwarded-for")
        scope[CLIENT] = client_address(peer, forwarded, self.settings.trusted_proxies)
        refusal = self.admits(scope)
        if scope["type"] == "websocket":
            if refusal is not None:
                await send({"type": "websocket.close", "code": 1008})
                return
            scope[TRANSPORT] = getattr(getattr(send, "__self__", None), "transport", None)
            await self.app(scope, receive, send)
            return
        static = scope["path"].startswith("/static/")
        started = False

        async def with_headers(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                headers = MutableHeaders(scope=message)
                headers["Content-Security-Policy"] = self.POLICY
                headers["X-Content-Type-Options"] = "nosniff"
                headers["Referrer-Policy"] = "no-referrer"
                if static:
                    headers["Cache-Control"] = "no-cache"
            await send(message)

        if refusal is not None:
            status = 400 if refusal[0] == "bad-host" else 403
            await self.answer(with_headers, status, *refusal)
            return
        try:
            await self.app(scope, receive, with_headers)
        except Exception:
            if started:
                raise
            log.exception("request %s %s failed", scope.get("method"), scope["path"])
            await self.answer(with_headers, 500, "internal", "the server could not answer that")

    @staticmethod
    async def answer(send: Send, status: int, code: str, reason: str) -> None:
        """A typed JSON error."""
        body = msgspec.json.encode(ErrorOut(code, reason))
        headers = [
            (b"content-type", b"application/json"),
            (b"content-length", str(len(body)).encode()),
        ]
        await send({"type": "http.response.start", "status": status, "headers": headers})
        await send({"type": "http.response.body", "body": body})
