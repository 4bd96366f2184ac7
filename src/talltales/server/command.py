"""`talltales serve`: the game server's command-line options (the server loads lazily)."""

from __future__ import annotations

from typing import Annotated

import typer


def serve(
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to listen on.")] = 8000,
    database: Annotated[
        str, typer.Option(help="SQLite file for rooms and game logs.")
    ] = "talltales.sqlite3",
    bot_delay: Annotated[float, typer.Option(help="Seconds a bot waits before moving.")] = 0.8,
    grace: Annotated[
        float, typer.Option(help="Seconds a dropped player keeps the seat before a bot plays.")
    ] = 30.0,
    origin: Annotated[
        list[str] | None, typer.Option(help="Another allowed browser Origin; repeat.")
    ] = None,
    allowed_host: Annotated[
        list[str] | None,
        typer.Option(help="A Host name to answer to; repeat. Default: loopback and --public-url."),
    ] = None,
    trusted_proxy: Annotated[
        list[str] | None,
        typer.Option(help="A proxy (address or network) whose X-Forwarded-For counts; repeat."),
    ] = None,
    public_url: Annotated[
        str, typer.Option(help="The address phones reach, for join links and QR codes.")
    ] = "",
    compression: Annotated[
        bool, typer.Option(help="Compress WebSocket messages (less traffic, more CPU).")
    ] = False,
    per_address: Annotated[
        int, typer.Option(help="Sockets one address may hold (a school behind NAT needs more).")
    ] = 64,
    rooms_per_minute: Annotated[
        int, typer.Option(help="New rooms one address may create in a minute.")
    ] = 30,
    idle_minutes: Annotated[
        float, typer.Option(help="Rooms with nobody connected expire after this long.")
    ] = 60.0,
    bot_budget: Annotated[
        float, typer.Option(help="Seconds a bot may think about one move.")
    ] = 1.0,
    bot_workers: Annotated[
        int, typer.Option(help="Bots that may think at once (worker processes).")
    ] = 2,
) -> None:
    """Run the game server (rooms, WebSockets) on embedded defaults: SQLite, in-process."""
    from talltales.server.run import serve as run_server
    from talltales.server.settings import Settings

    settings = Settings(
        host=host,
        port=port,
        database=database,
        bot_delay=bot_delay,
        grace_seconds=grace,
        allowed_origins=list(origin or []),
        allowed_hosts=list(allowed_host or []),
        trusted_proxies=list(trusted_proxy or []),
        public_url=public_url,
        compression=compression,
        max_connections_per_address=per_address,
        rooms_per_minute=rooms_per_minute,
        idle_room_seconds=idle_minutes * 60,
        bot_budget=bot_budget,
        bot_workers=bot_workers,
    )
    run_server(settings)
