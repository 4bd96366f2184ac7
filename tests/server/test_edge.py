"""The server's edges over real sockets: clients that stop reading, shutdown whatever clients
do, tokens for games that ended, the front door (Host, Origin, proxies, bad requests) and
reads that must not starve play."""

from __future__ import annotations

import asyncio
import base64
import contextlib
import logging
import os
import signal
import socket
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx

from .harness import LiveServer, Loopback, running, settings_for
from .support import WYBI, Socket, on_server, open_room
from .test_abuse import Errors, serve
from .test_restart import ServerProcess

SECURITY_HEADERS = ("content-security-policy", "x-content-type-options", "referrer-policy")


# --- a client that never reads -----------------------------------------------------------
def frame(payload: str | bytes, opcode: int = 1) -> bytes:
    """One masked client frame (text by default)."""
    data = payload.encode() if isinstance(payload, str) else payload
    mask = os.urandom(4)
    head = bytes([0x80 | opcode])
    if len(data) < 126:
        head += bytes([0x80 | len(data)])
    else:
        head += bytes([0x80 | 126]) + len(data).to_bytes(2, "big")
    return head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(data))


@contextlib.contextmanager
def stuck_client(
    server: Loopback, hello: str | bytes, receive_buffer: int = 1024
) -> Iterator[socket.socket]:
    """A plain TCP socket that does the WebSocket handshake, says ``hello`` and never reads
    again, with a tiny receive buffer."""
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, receive_buffer)
    sock.connect(("127.0.0.1", server.port))
    key = base64.b64encode(os.urandom(16)).decode()
    sock.sendall(
        (
            f"GET /ws HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\nUpgrade: websocket\r\n"
            f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
        ).encode()
    )
    head = b""
    while b"\r\n\r\n" not in head:
        head += sock.recv(1)
    assert b" 101 " in head.split(b"\r\n")[0], head
    sock.sendall(frame(hello))
    try:
        yield sock
    finally:
        sock.close()


def hello(code: str, token: str | None = None) -> str:
    """A hello message as JSON text."""
    token_part = f', "token": "{token}"' if token else ""
    return f'{{"type": "hello", "room": "{code}"{token_part}}}'


async def flood_until_dropped(server: Loopback, code: str, token: str, seat: int) -> dict[str, Any]:
    """Another socket of ``token``'s seat comes and goes (each time the room is told) until a
    room message shows ``seat`` disconnected; that message."""
    async with Socket(server.ws) as watcher:
        await watcher.hello(code, token)
        for _ in range(20_000):
            async with Socket(server.ws) as extra:
                await extra.hello(code, token)
            while True:
                message = await watcher.recv()
                if message["type"] != "room":
                    continue
                if not message["seats"][seat]["connected"]:
                    return message
                if not message["seats"][0]["connected"] or len(watcher.frames) % 2:
                    break
        raise AssertionError("the client that never reads was never dropped")


async def churn(server: Loopback, code: str, token: str, times: int, workers: int = 16) -> None:
    """Sockets of ``token``'s seat come and go ``times`` times in all (the room is told of
    each), ``workers`` at once."""

    async def worker(count: int) -> None:
        for _ in range(count):
            async with Socket(server.ws) as extra:
                await extra.hello(code, token)

    await asyncio.gather(*(worker(times // workers) for _ in range(workers)))


def test_a_client_that_stops_reading_is_dropped_and_a_bot_stands_in(tmp_path: Path) -> None:
    async def main(server: LiveServer) -> None:
        code, grants = open_room(server, WYBI, "Ann", "Bob")
        async with Socket(server.ws) as ann:
            await ann.hello(code, grants[0]["token"])
            with stuck_client(server, hello(code, grants[1]["token"])):
                while not (await ann.until("room"))["seats"][1]["connected"]:
                    pass
                await ann.send({"type": "start"})
                await ann.until("state")
                await flood_until_dropped(server, code, grants[0]["token"], 1)
                while True:  # the grace period runs out and a bot plays Bob's seat
                    seats = (await ann.until("room"))["seats"]
                    if seats[1]["stand_in"]:
                        break

    with running(
        settings_for(tmp_path, send_timeout=0.5, message_rate=1e4, message_burst=10_000)
    ) as server:
        asyncio.run(main(server))


def test_sigterm_ends_the_server_even_with_a_client_that_never_reads(tmp_path: Path) -> None:
    server = ServerProcess(tmp_path, tmp_path / "rooms.sqlite3")
    try:
        code, grants = open_room(server, WYBI, "Ann", "Bob")

        async def main() -> None:
            async with Socket(server.ws) as ann:
                await ann.hello(code, grants[0]["token"])
                await ann.send({"type": "start"})
                await ann.until("state")
                with stuck_client(server, hello(code, grants[1]["token"])):
                    await churn(server, code, grants[0]["token"], 8000)  # ~5 MB for Bob
                    server.signal(signal.SIGTERM)
                    exited = await asyncio.to_thread(server.process.wait, 60)
                    assert exited is not None

        asyncio.run(main())
    finally:
        server.stop()


# --- tokens for games that ended ---------------------------------------------------------
async def answer_to(server: Loopback, code: str, token: str | None) -> tuple[str, str]:
    """Say hello on a new socket: the answer's type and (for an error) its code."""
    async with Socket(server.ws) as client:
        message: dict[str, Any] = {"type": "hello", "room": code}
        if token is not None:
            message["token"] = token
        await client.send(message)
        reply = await client.recv()
        return reply["type"], reply.get("code", "")


def test_a_token_for_a_game_that_ended_is_told_so_and_is_no_guess(tmp_path: Path) -> None:
    async def main(server: LiveServer) -> None:
        gone, gone_grants = open_room(server, WYBI, "Ann", "Bob")
        live, live_grants = open_room(server, WYBI, "Cat", "Dan")
        async with Socket(server.ws) as cat:
            await cat.hello(live, live_grants[0]["token"])
            assert await on_server(server, server.hub.expire_idle) == [gone]
            for _ in range(3):  # the whole party comes back: more than the guesses allowed
                for grant in gone_grants:
                    assert await answer_to(server, gone, grant["token"]) == ("error", "game-ended")
            async with httpx.AsyncClient() as http:  # phones then read the room: no guess either
                for _ in range(4):
                    gone_room = await http.get(f"{server.http}/api/rooms/{gone}")
                    assert gone_room.status_code == 404
            assert (await answer_to(server, live, live_grants[1]["token"]))[0] == "welcome"
            # a token that never held a seat there, and wrong codes, are guesses as before
            assert await answer_to(server, gone, "x" * 43) == ("error", "no-room")
            assert await answer_to(server, "OOOO", None) == ("error", "no-room")
            assert await answer_to(server, "IIII", None) == ("error", "no-room")
            assert await answer_to(server, live, None) == ("error", "rate-limited")

    settings = settings_for(tmp_path, join_failures_per_minute=3, idle_room_seconds=0.0)
    with running(settings) as server:
        asyncio.run(main(server))


# --- the front door ----------------------------------------------------------------------
def handshake(server: Loopback, **headers: str) -> int:
    """The HTTP status a WebSocket handshake with these headers (Host among them) gets."""
    with socket.create_connection(("127.0.0.1", server.port)) as sock:
        fields = {
            "Host": f"127.0.0.1:{server.port}",
            "Upgrade": "websocket",
            "Connection": "Upgrade",
            "Sec-WebSocket-Key": base64.b64encode(os.urandom(16)).decode(),
            "Sec-WebSocket-Version": "13",
            **headers,
        }
        lines = "".join(f"{name}: {value}\r\n" for name, value in fields.items())
        sock.sendall(f"GET /ws HTTP/1.1\r\n{lines}\r\n".encode())
        head = b""
        while b"\r\n" not in head:
            head += sock.recv(1)
        return int(head.split()[1])


def typed(response: httpx.Response, status: int, code: str) -> None:
    """A typed JSON error with the usual security headers."""
    assert response.status_code == status, response.text
    assert response.json()["type"] == "error" and response.json()["code"] == code
    assert response.headers["content-type"] == "application/json"
    for name in SECURITY_HEADERS:
        assert name in response.headers, name


def test_strange_host_names_are_refused(tmp_path: Path) -> None:
    settings = settings_for(tmp_path, public_url="http://party.example:8000")
    with running(settings) as server:
        port, body = server.port, {"game": WYBI, "name": "Ann"}
        evil = {"Host": f"evil.example:{port}", "Origin": f"http://evil.example:{port}"}
        typed(httpx.get(f"{server.http}/api/games", headers=evil), 400, "bad-host")
        typed(httpx.post(f"{server.http}/api/rooms", json=body, headers=evil), 400, "bad-host")
        assert handshake(server, **evil) == 403
        for host in (f"localhost:{port}", f"127.0.0.1:{port}", "party.example:8000"):
            assert httpx.get(f"{server.http}/api/games", headers={"Host": host}).status_code == 200
        assert handshake(server) == 101
    with running(settings_for(tmp_path, allowed_hosts=["tables.example"])) as server:
        games = f"{server.http}/api/games"
        assert httpx.get(games, headers={"Host": "tables.example"}).status_code == 200
        typed(httpx.get(games, headers={"Host": "party.example"}), 400, "bad-host")


def test_cross_site_writes_are_refused_and_seat_tokens_are_not_cached(tmp_path: Path) -> None:
    with running(settings_for(tmp_path)) as server:
        port, rooms = server.port, f"{server.http}/api/rooms"
        body = '{"game": "' + WYBI + '", "name": "Ann"}'
        for origin in ("https://evil.example", f"https://127.0.0.1:{port}", "null"):
            headers = {"Origin": origin, "Content-Type": "text/plain"}
            typed(httpx.post(rooms, content=body, headers=headers), 403, "bad-origin")
        assert handshake(server, Origin=f"https://127.0.0.1:{port}") == 403  # the scheme too
        own = {"Origin": f"http://127.0.0.1:{port}"}
        made = httpx.post(rooms, content=body, headers=own)
        assert made.status_code == 201 and made.headers["cache-control"] == "no-store"
        seats = f"{rooms}/{made.json()['room']}/seats"
        typed(
            httpx.post(seats, json={"name": "Eve"}, headers={"Origin": "https://evil.example"}),
            403,
            "bad-origin",
        )
        joined = httpx.post(seats, json={"name": "Bob"}, headers=own)
        assert joined.status_code == 201 and joined.headers["cache-control"] == "no-store"
        assert (
            httpx.get(
                f"{rooms}/{made.json()['room']}", headers={"Origin": "https://evil.example"}
            ).status_code
            == 200
        )


def guess(server: Loopback, forwarded: str | None = None) -> int:
    """GET an unknown room, perhaps through a proxy naming a client: the status."""
    headers = {"X-Forwarded-For": forwarded} if forwarded else {}
    return httpx.get(f"{server.http}/api/rooms/OOOO", headers=headers).status_code


def test_forwarded_for_counts_only_from_trusted_proxies(tmp_path: Path) -> None:
    with running(settings_for(tmp_path, join_failures_per_minute=2)) as server:
        assert [guess(server, f"198.51.{n}.1") for n in range(3)] == [404, 404, 429]
    settings = settings_for(tmp_path, join_failures_per_minute=2, trusted_proxies=["127.0.0.1"])
    with running(settings) as server:
        assert [guess(server, "198.51.100.7") for _ in range(3)] == [404, 404, 429]
        assert guess(server, "203.0.113.9") == 404  # someone else behind the same proxy
        assert guess(server, "198.51.100.7, 203.0.113.9") == 404  # the proxy's own hop counts
        assert guess(server) == 404  # the proxy itself


def test_guessing_counts_per_network_as_well_as_per_address(tmp_path: Path) -> None:
    settings = settings_for(
        tmp_path,
        join_failures_per_minute=100,
        join_failures_per_prefix=3,
        trusted_proxies=["127.0.0.0/8"],
    )
    with running(settings) as server:
        assert [guess(server, f"198.51.100.{n}") for n in (1, 2, 3)] == [404] * 3
        assert guess(server, "198.51.100.77") == 429  # same /24
        assert guess(server, "198.51.101.1") == 404
        assert [guess(server, f"2001:db8::{n}") for n in (1, 2, 3)] == [404] * 3
        assert guess(server, "2001:db8::ffff") == 429  # same /64
        assert guess(server, "2001:db8:0:1::1") == 404


def test_bad_requests_get_typed_4xx_with_the_usual_headers(tmp_path: Path) -> None:
    deep = '{"x": ' * 1000 + "1" + "}" * 1000
    with serve(tmp_path) as server:
        rooms = f"{server.http}/api/rooms"
        body = '{"game": "' + WYBI + '", "name": "Ann", "options": ' + deep + "}"
        typed(httpx.post(rooms, content=body), 400, "malformed")
        typed(httpx.get(f"{server.http}/api/nothing"), 404, "not-found")
        typed(httpx.delete(rooms), 405, "method-not-allowed")
        typed(httpx.post(rooms, content=b"\xff\xfe"), 400, "malformed")


def test_text_frames_that_are_not_utf8_log_one_line_each(tmp_path: Path) -> None:
    errors = Errors()
    with running(settings_for(tmp_path)) as server:
        logger = logging.getLogger("uvicorn.error")
        logger.addHandler(errors)
        try:
            for _ in range(3):
                with stuck_client(server, b"\xff\xfe{") as sock, contextlib.suppress(OSError):
                    while sock.recv(4096):  # until the server closes it
                        pass
        finally:
            logger.removeHandler(errors)
    assert len(errors.records) == 3
    for record in errors.records:
        assert "UTF-8" in record.getMessage() and "\n" not in record.getMessage()
        assert not record.exc_info and not record.exc_text


# --- reads --------------------------------------------------------------------------------
def test_reads_are_rate_limited_per_address_and_play_goes_on(tmp_path: Path) -> None:
    async def main(server: LiveServer) -> None:
        code, grants = open_room(server, WYBI, "Ann", "Bob")
        room = f"{server.http}/api/rooms/{code}"
        reader = {"X-Forwarded-For": "198.51.100.7"}
        async with Socket(server.ws) as ann, httpx.AsyncClient() as http:
            await ann.hello(code, grants[0]["token"])
            statuses = [(await http.get(room, headers=reader)).status_code for _ in range(6)]
            assert statuses == [200] * 5 + [429]
            typed(await http.get(f"{room}/record", headers=reader), 429, "rate-limited")
            other = {"X-Forwarded-For": "203.0.113.9"}
            assert (await http.get(room, headers=other)).status_code == 200
            await ann.send({"type": "add-bot", "bot": "random"})
            await ann.send({"type": "start"})
            assert (await ann.until("state"))["pending"] == [0]

    settings = settings_for(tmp_path, reads_per_minute=5, trusted_proxies=["127.0.0.1"])
    with running(settings) as server:
        asyncio.run(main(server))


def test_a_client_that_never_answers_pings_is_dropped(tmp_path: Path) -> None:
    """A phone asleep with its socket half-open reads nothing back: no pong ever comes."""

    async def main(server: LiveServer) -> None:
        code, grants = open_room(server, WYBI, "Ann", "Bob")
        async with Socket(server.ws) as ann:
            await ann.hello(code, grants[0]["token"])
            with stuck_client(server, hello(code, grants[1]["token"]), 1 << 16) as mute:
                drain = threading.Thread(target=_drain, args=(mute,), daemon=True)
                drain.start()  # it reads every frame but never answers a ping
                seen_connected = False
                while True:
                    seat = (await ann.until("room", timeout=30))["seats"][1]
                    seen_connected = seen_connected or seat["connected"]
                    if seen_connected and not seat["connected"]:
                        break

    with running(settings_for(tmp_path, ping_interval=0.5)) as server:
        asyncio.run(main(server))


def _drain(sock: socket.socket) -> None:
    """Read and forget whatever comes, until the server closes the socket."""
    with contextlib.suppress(OSError):
        while sock.recv(65536):
            pass
