"""Running the server with uvicorn on the embedded defaults."""

from __future__ import annotations

import socket
import threading
import time

import uvicorn
from starlette.applications import Starlette

from talltales.server.app import create_app
from talltales.server.hub import Hub
from talltales.server.protocol import MAX_MESSAGE_BYTES
from talltales.server.settings import Settings
from talltales.server.storage import Storage


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


def uvicorn_config(application: Starlette, settings: Settings, log_level: str) -> uvicorn.Config:
    """uvicorn set up for the game server: message size, pings, compression, quiet access."""
    return uvicorn.Config(
        application,
        host=settings.host,
        port=settings.port,
        ws_max_size=MAX_MESSAGE_BYTES,
        ws_ping_interval=settings.ping_interval,
        ws_ping_timeout=settings.ping_interval,
        ws_per_message_deflate=settings.compression,
        log_level=log_level,
        access_log=False,  # one line per socket is too much at thousands of phones
        lifespan="on",
        proxy_headers=False,  # X-Forwarded-For counts only from --trusted-proxy (door.py)
        timeout_graceful_shutdown=3,  # then sockets still open are cut off
    )


def serve(settings: Settings) -> None:
    """Serve until interrupted; SIGTERM tells clients the server restarts."""
    application = create_app(settings)
    _Server(uvicorn_config(application, settings, "info"), application).run()


class ServerThread:
    """The real server in a background thread of this process (tests, tools, embedding)."""

    def __init__(self, settings: Settings, storage: Storage | None = None) -> None:
        self.settings = settings
        self.port = settings.port
        self.app = create_app(settings, storage)
        self.server = uvicorn.Server(uvicorn_config(self.app, settings, "warning"))
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    @property
    def http(self) -> str:
        """Base URL for HTTP."""
        return f"http://{self.settings.host}:{self.port}"

    @property
    def ws(self) -> str:
        """URL of the WebSocket."""
        return f"ws://{self.settings.host}:{self.port}/ws"

    @property
    def hub(self) -> Hub:
        """The hub inside the running app."""
        hub: Hub = self.app.state.hub
        return hub

    def start(self, timeout: float = 10.0) -> None:
        """Start, and return once it accepts connections."""
        self.thread.start()
        deadline = time.monotonic() + timeout
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("the server did not start")
            time.sleep(0.01)

    def stop(self) -> None:
        """Shut down gracefully and wait for the thread."""
        self.server.should_exit = True
        self.thread.join(10)
