"""Running the server with uvicorn on the embedded defaults."""

from __future__ import annotations

import socket

import uvicorn
from starlette.applications import Starlette

from talltales.server.app import create_app
from talltales.server.hub import Hub
from talltales.server.protocol import MAX_MESSAGE_BYTES
from talltales.server.settings import Settings


class _Server(uvicorn.Server):
    """uvicorn, letting the hub tell its clients the server restarts before sockets close.

    (uvicorn closes every WebSocket before the application's shutdown runs, so the hub's
    own shutdown would be too late to say anything.)
    """

    def __init__(self, config: uvicorn.Config, application: Starlette) -> None:
        super().__init__(config)
        self.application = application

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        hub = getattr(self.application.state, "hub", None)
        if isinstance(hub, Hub):
            await hub.close_clients(restarting=True)
        await super().shutdown(sockets)


def serve(settings: Settings) -> None:
    """Serve until interrupted; SIGTERM tells clients the server restarts."""
    application = create_app(settings)
    config = uvicorn.Config(
        application,
        host=settings.host,
        port=settings.port,
        ws_max_size=MAX_MESSAGE_BYTES,
        ws_ping_interval=settings.ping_interval,
        ws_ping_timeout=settings.ping_interval,
        ws_per_message_deflate=settings.compression,
        log_level="info",
        access_log=False,  # one line per socket is too much at thousands of phones
        timeout_graceful_shutdown=5,
    )
    _Server(config, application).run()
