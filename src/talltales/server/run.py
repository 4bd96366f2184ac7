"""Running the server with uvicorn on the embedded defaults."""

from __future__ import annotations

import uvicorn

from talltales.server.app import create_app
from talltales.server.protocol import MAX_MESSAGE_BYTES
from talltales.server.settings import Settings


def serve(settings: Settings) -> None:
    """Serve until interrupted; SIGTERM tells clients the server restarts."""
    uvicorn.run(
        create_app(settings),
        host=settings.host,
        port=settings.port,
        ws_max_size=MAX_MESSAGE_BYTES,
        ws_ping_interval=settings.ping_interval,
        ws_ping_timeout=settings.ping_interval,
        log_level="info",
        timeout_graceful_shutdown=5,
    )
