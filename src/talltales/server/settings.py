"""Server settings: embedded defaults, overridable from the command line."""

from __future__ import annotations

from typing import Literal

import msgspec


class Settings(msgspec.Struct, kw_only=True):
    """Everything a running server can be told."""

    database: str = "talltales.sqlite3"  # an SQLite file; ":memory:" keeps nothing
    host: str = "127.0.0.1"
    port: int = 8000
    allowed_origins: list[str] = []  # besides the server's own origin
    allowed_hosts: list[str] = []  # Host names served; empty: loopback, public URL's host
    trusted_proxies: list[str] = []  # addresses (or networks) whose X-Forwarded-For counts
    grace_seconds: float = 30.0  # a dropped player keeps the seat this long before a bot plays
    stand_in_bot: str = "greedy"
    bot_delay: float = 0.8  # human-like pacing of bot moves; 0 in tests
    bot_budget: float = 1.0  # seconds a bot may think about one move
    bot_grace: float = 0.5  # past budget + grace a bot is abandoned: a random move instead
    bot_pool: Literal["process", "thread"] = "process"  # threads share the server's GIL
    bot_workers: int = 2  # bots thinking at once, across rooms; the rest wait their turn
    idle_room_seconds: float = 3600.0  # rooms with nobody connected expire after this
    sweep_seconds: float = 30.0
    hello_timeout: float = 10.0  # a socket must say hello within this
    max_connections_per_address: int = 64
    join_failures_per_minute: int = 20  # unknown room codes tried by one address
    join_failures_per_prefix: int = 60  # ... and by one network (/24 IPv4, /64 IPv6)
    reads_per_minute: int = 600  # reads of rooms and records by one address
    message_rate: float = 20.0  # per connection, messages per second on average
    message_burst: int = 60  # per connection, messages at once
    outgoing_queue: int = 512  # messages waiting for a slow client before it is dropped
    outgoing_bytes: int = 1 << 20  # bytes waiting for a slow client before it is dropped
    send_timeout: float = 10.0  # one message not sent within this: the client is dropped
    ping_interval: float = 20.0  # WebSocket pings; a missed pong closes the socket
    rooms_per_minute: int = 30  # rooms one address may create
    compression: bool = False  # per-message deflate: less traffic, more CPU and memory
    public_url: str = ""  # the address players reach, for join links; empty: as requested
