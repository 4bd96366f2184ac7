"""Bad input over real sockets: each is refused alone, typed or by closing, and changes nothing.

For every bad input the sender alone hears of it (the other clients of its room, and of a
room elsewhere, answer a ping with nothing queued before the pong), the rooms' versions and
states in the live hub, their GET /api/rooms/{code} versions and their stored rows and logs
are unchanged, and the stored log still replays to the live state. No test may leave an
error in the server's log (an exception escaping a handler fails the test).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
from collections import Counter
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import httpx
import msgspec
import pytest
from fixture_game import FIB_OFF
from hypothesis import HealthCheck, given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st
from websockets.exceptions import ConnectionClosed, InvalidStatus

from talltales.server.protocol import MAX_MESSAGE_BYTES, Ping, ProtocolError, decode_client
from talltales.server.rooms import Room

from .harness import LiveServer, running, settings_for
from .support import NAMES, WYBI, Socket, on_server

Message = dict[str, Any] | str | bytes
NOWHERE = ("OOOO", "IIII", "LLLL")  # codes never dealt: O, I and L are not in the alphabet
pytestmark = pytest.mark.usefixtures("fib_off")  # the fixture game is playable here


# --- a server that must not crash --------------------------------------------------------
class Errors(logging.Handler):
    """Keeps every error the server logs (uvicorn logs exceptions escaping the app)."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


@contextlib.contextmanager
def serve(tmp_path: Path, **changes: Any) -> Iterator[LiveServer]:
    """A live server (no stand-in bots, a generous message budget) that logs no error."""
    values: dict[str, Any] = {"grace_seconds": 600.0, "message_burst": 500, **changes}
    errors = Errors()
    loggers = [logging.getLogger(name) for name in ("uvicorn.error", "talltales")]
    try:
        with running(settings_for(tmp_path, **values)) as server:
            for logger in loggers:  # after uvicorn configured logging, which replaces handlers
                logger.addHandler(errors)
            yield server
    finally:
        for logger in loggers:
            logger.removeHandler(errors)
    logged = [
        f"{r.name}: {r.getMessage()} {r.exc_info and r.exc_info[1]!r}" for r in errors.records
    ]
    assert logged == [], "the server logged errors"


# --- what the server holds --------------------------------------------------------------
async def look(server: LiveServer, http: httpx.AsyncClient, code: str) -> dict[str, Any]:
    """A room as the live hub, its storage and GET /api/rooms/{code} have it, all at once.

    Also checks that the stored log replays to exactly the live state.
    """

    async def read() -> dict[str, Any]:
        hub, encode = server.hub, msgspec.json.encode
        async with hub.locks[code]:
            room = hub.rooms[code]
            loaded = await hub.storage.load(code)
            assert loaded is not None
            replayed = Room.restore(*loaded)
            return {
                "version": room.version,
                "state": encode(room.match.state) if room.match else None,
                "row": encode(room.row()),
                "stored": encode(loaded),
                "replayed": (
                    replayed.version,
                    encode(replayed.match.state) if replayed.match else None,
                ),
            }

    response = await http.get(f"{server.http}/api/rooms/{code}")
    assert response.status_code == 200
    found = await on_server(server, read)
    assert found.pop("replayed") == (found["version"], found["state"]), "log and state differ"
    found["public version"] = response.json()["room"]["version"]
    assert found["public version"] <= found["version"]
    return found


async def settle(client: Socket) -> list[dict[str, Any]]:
    """Everything queued for ``client`` so far: what arrives before the answer to a ping."""
    await client.send({"type": "ping"})
    seen = []
    while (message := await client.recv())["type"] != "pong":
        seen.append(message)
    return seen


async def closed(client: Socket) -> tuple[int | None, list[dict[str, Any]]]:
    """Read until the server closes the socket: its close code and what came before."""
    seen = []
    try:
        while True:
            seen.append(await client.recv())
    except ConnectionClosed as exc:
        return (exc.rcvd.code if exc.rcvd else None), seen


class Scene:
    """Room A (``seats`` connected clients, host first, and a spectator) and room B elsewhere
    (its host connected), both playing Would You Believe It! unless told otherwise."""

    def __init__(self, server: LiveServer) -> None:
        self.server = server
        self.stack = contextlib.AsyncExitStack()
        self.seats: list[Socket] = []
        self.tokens: list[str] = []
        self.watcher: Socket | None = None
        self.elsewhere: Socket | None = None
        self.code = self.other_code = self.other_token = ""
        self.http = httpx.AsyncClient(base_url=server.http)

    async def _room(self, game: str, seats: int, options: dict[str, Any]) -> tuple[str, list[str]]:
        body = {"game": game, "name": NAMES[0], "options": options}
        host = (await self.http.post("/api/rooms", json=body)).json()
        tokens = [host["token"]]
        for seat in range(1, seats):
            path = f"/api/rooms/{host['room']}/seats"
            tokens.append((await self.http.post(path, json={"name": NAMES[seat]})).json()["token"])
        return host["room"], tokens

    async def _client(self, code: str, token: str | None) -> Socket:
        client = await self.stack.enter_async_context(Socket(self.server.ws))
        await client.hello(code, token)
        return client

    async def open(
        self,
        game: str = WYBI,
        seats: int = 2,
        start: bool = True,
        options: dict[str, Any] | None = None,
        elsewhere: bool = True,
    ) -> None:
        scene = self
        await scene.stack.enter_async_context(scene.http)
        scene.code, scene.tokens = await scene._room(game, seats, options or {})
        scene.seats = [await scene._client(scene.code, token) for token in scene.tokens]
        scene.watcher = await scene._client(scene.code, None)
        if start:
            await scene.seats[0].send({"type": "start"})
        if elsewhere:
            scene.other_code, tokens = await scene._room(WYBI, 2, {})
            scene.other_token = tokens[1]
            scene.elsewhere = await scene._client(scene.other_code, tokens[0])
            await scene.elsewhere.send({"type": "start"})
        for client in scene.everyone:
            if start or client is scene.elsewhere:
                await client.until("state")
            await settle(client)

    async def close(self) -> None:
        await self.stack.aclose()

    @property
    def everyone(self) -> list[Socket]:
        extra = [c for c in (self.watcher, self.elsewhere) if c is not None]
        return [*self.seats, *extra]

    async def observe(self) -> list[dict[str, Any]]:
        codes = [self.code, self.other_code] if self.other_code else [self.code]
        return [await look(self.server, self.http, code) for code in codes]

    async def nobody_else_told(self, sender: Socket | None) -> None:
        for client in self.everyone:
            if client is not sender:
                assert await settle(client) == [], "only the sender may hear of its message"


@contextlib.asynccontextmanager
async def scene_of(server: LiveServer, **kwargs: Any) -> AsyncIterator[Scene]:
    scene = Scene(server)
    try:
        await scene.open(**kwargs)
        yield scene
    finally:
        await scene.close()


async def refused(scene: Scene, sender: Socket, message: Message, code: str) -> dict[str, Any]:
    """``message`` is refused with ``code``, to the sender alone, and changes nothing."""
    before = await scene.observe()
    await sender.send(message)
    reply = await sender.recv()
    assert reply["type"] == "error" and reply["code"] == code, (message, reply)
    assert await settle(sender) == []
    await scene.nobody_else_told(sender)
    assert await scene.observe() == before
    return reply


def act(action: dict[str, Any], client_id: str) -> dict[str, Any]:
    """An act message."""
    return {"type": "act", "client_id": client_id, "action": action}


# --- the tests ---------------------------------------------------------------------------
def test_oversized_messages_close_the_socket_and_change_nothing(tmp_path: Path) -> None:
    def padded(size: int) -> str:
        head = '{"type":"ping","pad":"'
        return head + "x" * (size - len(head) - 2) + '"}'

    async def main(server: LiveServer) -> None:
        async with scene_of(server) as scene:
            guest = scene.seats[1]
            # at the limit a message is still read (and refused for its unknown field)
            await refused(scene, guest, padded(MAX_MESSAGE_BYTES), "malformed")
            await refused(scene, guest, padded(MAX_MESSAGE_BYTES).encode(), "malformed")
            for big in (padded(MAX_MESSAGE_BYTES + 1), b"[" + b" " * MAX_MESSAGE_BYTES + b"]"):
                before = await scene.observe()
                sender = Socket(server.ws)
                async with sender:
                    await sender.hello(scene.code, scene.tokens[1])
                    await settle(sender)
                    await sender.send(big)
                    code, seen = await closed(sender)
                too_large = [m for m in seen if m.get("code") == "too-large"]
                assert code == 1009 or too_large, (code, seen)
                assert all(m["type"] == "error" for m in seen)
                for client in scene.everyone:  # at most: seat 1's second socket went away
                    assert all(m["type"] == "room" for m in await settle(client))
                assert await scene.observe() == before
            # the seat's own socket is untouched and may still play its turn
            await scene.seats[0].send(act({"type": "roll"}, "r1"))
            assert (await scene.seats[0].until("ack"))["client_id"] == "r1"

    with serve(tmp_path) as server:
        asyncio.run(main(server))


UNREADABLE: list[tuple[Message, str]] = [
    ("{not json", "bad-json"),
    ('{"type": "ping"', "bad-json"),
    ("", "bad-json"),
    (b"\xff\xfe\x00{}", "bad-json"),  # a binary frame that is not UTF-8
    (b'{"type": "hello", "room": "\xc3\x28AB"}', "bad-json"),
    ('{"type": "fly"}', "malformed"),  # unknown message type
    ('{"kind": "ping"}', "malformed"),  # no type at all
    ("[1, 2, 3]", "malformed"),
    ("null", "malformed"),
    ('"ping"', "malformed"),
    ('{"type": "act", "action": {"type": "roll"}}', "malformed"),  # missing client_id
    ('{"type": "act", "client_id": "a"}', "malformed"),  # missing action
    ('{"type": "act", "client_id": "", "action": {"type": "roll"}}', "malformed"),
    ('{"type": "act", "client_id": 7, "action": {"type": "roll"}}', "malformed"),
    ('{"type": "act", "client_id": "a", "action": "roll"}', "malformed"),
    ('{"type": "ping", "extra": 1}', "malformed"),  # extra field
    ('{"type": "remove-seat"}', "malformed"),
    ('{"type": "remove-seat", "seat": "one"}', "malformed"),
    ('{"type": "add-bot", "bot": "' + "b" * 41 + '"}', "malformed"),
    (
        '{"type": "act", "client_id": "d", "action": {"x": ' + "[" * 5000 + "]" * 5000 + "}}",
        "malformed",
    ),
    ('{"type": "hello", "room": "ABCD"}', "refused"),  # this socket already said hello
]
UNREADABLE_ACTIONS: list[tuple[Message, str]] = [  # read as messages, not as actions
    ('{"type": "act", "client_id": "t", "action": {"type": "teleport"}}', "malformed"),
    ('{"type": "act", "client_id": "e", "action": {"type": "roll", "seat": 0}}', "malformed"),
    (
        '{"type": "act", "client_id": "f", "action": {"type": "move-figure", "figure": 9}}',
        "malformed",
    ),
]


def test_unreadable_messages_get_typed_errors(tmp_path: Path) -> None:
    async def main(server: LiveServer) -> None:
        async with scene_of(server) as scene:
            for message, code in UNREADABLE:
                for sender in (scene.seats[0], scene.seats[1], scene.watcher):
                    assert sender is not None
                    await refused(scene, sender, message, code)
            for message, code in UNREADABLE_ACTIONS:  # by the seat in turn (seat 0)
                await refused(scene, scene.seats[0], message, code)

    with serve(tmp_path) as server:
        asyncio.run(main(server))


def test_you_act_only_for_your_own_seat_and_only_in_turn(tmp_path: Path) -> None:
    async def main(server: LiveServer) -> None:
        async with scene_of(server, seats=3) as scene:
            host, guest = scene.seats[0], scene.seats[1]
            roll = {"type": "roll"}
            # seat 0 holds the die: the others are out of turn
            await refused(scene, guest, act(roll, "g1"), "not-your-turn")
            await refused(scene, scene.seats[2], act(roll, "g2"), "not-your-turn")
            # there is no way to name another seat: the seat is the socket's
            seat_field = {"type": "act", "client_id": "g3", "action": roll, "seat": 0}
            await refused(scene, guest, seat_field, "malformed")
            # nor inside the action: it is read as an action of the sender's seat
            await refused(scene, guest, act({"type": "roll", "seat": 0}, "g4"), "not-your-turn")
            await refused(scene, host, act({"type": "roll", "seat": 1}, "h0"), "malformed")
            # illegal moves by the seat in turn
            figure = {"type": "move-figure", "figure": 0}
            await refused(scene, host, act(figure, "h1"), "illegal")
            await refused(scene, host, act({"type": "die", "value": 6}, "h2"), "illegal")
            await host.send(act(roll, "h3"))
            assert (await host.until("ack"))["client_id"] == "h3"
            for client in scene.everyone:
                await settle(client)
            await refused(scene, host, act(roll, "h4"), "illegal")  # rolled
            guard = {"type": "move-guard", "guard": 0}  # no figure shares its card yet
            await refused(scene, host, act(guard, "h5"), "illegal")
            await refused(scene, guest, act(figure, "g5"), "not-your-turn")

    with serve(tmp_path) as server:
        asyncio.run(main(server))


def test_the_fixture_game_refuses_what_its_rules_forbid(tmp_path: Path) -> None:
    async def main(server: LiveServer) -> None:
        async with scene_of(server, game=FIB_OFF.id, seats=3) as scene:
            reader, writer = scene.seats[0], scene.seats[1]
            hands = await on_server(server, _hands(server, scene.code))
            claim = {"type": "claim", "card": hands[1][0], "stake": 3}  # seat 1's card
            reply = await refused(scene, reader, act(claim, "c1"), "illegal")
            assert reply["client_id"] == "c1"
            await refused(scene, writer, act(claim, "c2"), "not-your-turn")
            bluff = {"type": "bluff", "text": "a tall tale"}
            await refused(scene, writer, act(bluff, "c3"), "not-your-turn")
            stake = {"type": "claim", "card": hands[0][0], "stake": 7}
            await refused(scene, reader, act(stake, "c4"), "malformed")
            # on to the writing: the reader claims, both others pass
            opening = [
                (reader, {**stake, "stake": 3}),
                (writer, {"type": "pass"}),
                (scene.seats[2], {"type": "pass"}),
            ]
            for number, (client, action) in enumerate(opening):
                await client.send(act(action, f"ok-{number}"))
                assert (await client.until("ack"))["client_id"] == f"ok-{number}"
            for client in scene.everyone:
                await settle(client)
            await refused(scene, writer, act({"type": "pass"}, "c5"), "illegal")
            long = {"type": "bluff", "text": "x" * 81}
            await refused(scene, writer, act(long, "c6"), "text-too-long")
            rude = {"type": "bluff", "text": "what the fuck"}
            await refused(scene, writer, act(rude, "c7"), "filtered")  # a Write prompt's text
            blank = {"type": "bluff", "text": "   "}
            await refused(scene, writer, act(blank, "c8"), "empty-text")
            await refused(scene, reader, act(bluff, "c9"), "not-your-turn")
            # text sent by a seat that is asked nothing is refused for that, not screened
            await refused(scene, reader, act(rude, "c9b"), "not-your-turn")
            await writer.send(act(bluff, "c10"))
            assert (await writer.until("ack"))["client_id"] == "c10"
            for client in scene.everyone:
                await settle(client)
            await refused(scene, writer, act(bluff, "c11"), "not-your-turn")  # written

    with serve(tmp_path) as server:
        asyncio.run(main(server))


def _hands(server: LiveServer, code: str) -> Any:
    async def read() -> list[list[str]]:
        match = server.hub.rooms[code].match
        assert match is not None
        return [list(hand) for hand in match.state.hands]

    return read


async def finish(server: LiveServer, scene: Scene) -> None:
    """Play to the end: whoever has a decision takes its last legal action, one at a time."""
    number = 0
    while True:

        async def read() -> tuple[bool, int, Any]:
            match = server.hub.rooms[scene.code].match
            assert match is not None
            if match.is_over():
                return True, -1, None
            seat = min(match.pending())
            return False, seat, msgspec.to_builtins(match.legal_actions(seat)[-1])

        over, seat, action = await on_server(server, read)
        if over:
            break
        number += 1
        await scene.seats[seat].send(
            {"type": "act", "client_id": f"end-{number}", "action": action}
        )
        assert (await scene.seats[seat].until("ack"))["client_id"] == f"end-{number}"
    for client in scene.everyone:
        await settle(client)


def test_actions_after_the_end_get_game_over(tmp_path: Path) -> None:
    async def main(server: LiveServer) -> None:
        async with scene_of(server, game=FIB_OFF.id, seats=3, options={"rounds": 1}) as scene:
            await finish(server, scene)
            finished = await look(server, scene.http, scene.code)
            assert finished["state"] is not None
            for seat, sender in enumerate(scene.seats):
                late = act({"type": "accept"}, f"late-{seat}")
                reply = await refused(scene, sender, late, "game-over")
                assert reply["client_id"] == f"late-{seat}"
            # resending an action that was applied is answered as a duplicate, not re-applied
            before = await scene.observe()
            await scene.seats[0].send(act({"type": "accept"}, "end-1"))
            ack = await scene.seats[0].recv()
            assert (
                ack["type"] == "ack" and ack["duplicate"] and ack["version"] < before[0]["version"]
            )
            await scene.nobody_else_told(scene.seats[0])
            assert await scene.observe() == before
            # the host alone may offer a rematch
            await refused(scene, scene.seats[1], {"type": "rematch"}, "host-only")
            assert scene.watcher is not None
            await refused(scene, scene.watcher, {"type": "rematch"}, "host-only")
            await refused(scene, scene.seats[0], {"type": "start"}, "illegal")

    with serve(tmp_path) as server:
        asyncio.run(main(server))


HOST_ONLY: list[dict[str, Any]] = [
    {"type": "start"},
    {"type": "add-bot", "bot": "greedy"},
    {"type": "remove-seat", "seat": 2},
    {"type": "remove-seat", "seat": 0},
    {"type": "set-options", "options": {"layout": "fixed"}},
    {"type": "set-options", "family_filter": False},
    {"type": "rematch"},
]


def test_host_only_actions_from_anyone_else(tmp_path: Path) -> None:
    async def main(server: LiveServer) -> None:
        async with scene_of(server, seats=3, start=False) as scene:
            assert scene.watcher is not None
            for message in HOST_ONLY:
                for sender in (scene.seats[1], scene.seats[2], scene.watcher):
                    await refused(scene, sender, message, "host-only")
            # the host may: the lobby changes and everyone is told
            await scene.seats[0].send({"type": "set-options", "options": {"layout": "fixed"}})
            for client in scene.everyone[:4]:
                assert (await client.until("room"))["options"] == {"layout": "fixed"}

    with serve(tmp_path) as server:
        asyncio.run(main(server))


def test_bad_bots_are_refused_without_harm(tmp_path: Path) -> None:
    async def main(server: LiveServer) -> None:
        async with scene_of(server, seats=2, start=False) as scene:
            host = scene.seats[0]
            for spec in ("nope", "", "greedy:depth=2", "search:depth=x", "search:depth=²"):
                await refused(scene, host, {"type": "add-bot", "bot": spec}, "illegal")
            # a search this deep would stall every room on the server for minutes per move
            await refused(scene, host, {"type": "add-bot", "bot": "search:depth=40"}, "illegal")
            await host.send({"type": "add-bot", "bot": "search:depth=2"})
            seats = (await host.until("room"))["seats"]
            assert [s["kind"] for s in seats] == ["human", "human", "bot"]

    with serve(tmp_path) as server:
        asyncio.run(main(server))


def test_tokens_from_another_room_or_wrong_are_refused_and_closed(tmp_path: Path) -> None:
    async def main(server: LiveServer) -> None:
        async with scene_of(server) as scene:
            near = scene.tokens[1][:-1] + ("A" if scene.tokens[1][-1] != "A" else "B")
            wrong = [scene.other_token, secrets.token_urlsafe(24), near]
            for token in wrong:
                before = await scene.observe()
                async with Socket(server.ws) as intruder:
                    await intruder.send({"type": "hello", "room": scene.code, "token": token})
                    code, seen = await closed(intruder)
                assert [m["code"] for m in seen] == ["bad-token"]
                assert code == 1008
                await scene.nobody_else_told(None)
                assert await scene.observe() == before
            # a token that is not even token-shaped is malformed; the socket may try again
            async with Socket(server.ws) as late:
                await late.send({"type": "hello", "room": scene.code, "token": "short"})
                assert (await late.recv())["code"] == "malformed"
                welcome = await late.hello(scene.code, scene.tokens[1])
                assert welcome["seat"] == 1

    with serve(tmp_path) as server:
        asyncio.run(main(server))


def test_a_spectator_cannot_act(tmp_path: Path) -> None:
    async def main(server: LiveServer) -> None:
        async with scene_of(server) as scene:
            watcher = scene.watcher
            assert watcher is not None
            roll = act({"type": "roll"}, "w1")
            await refused(scene, watcher, roll, "refused")
            await refused(scene, watcher, {"type": "leave"}, "refused")
            for message in HOST_ONLY:
                await refused(scene, watcher, message, "host-only")
            # the seat whose turn it is still plays
            await scene.seats[0].send(roll)
            assert (await scene.seats[0].until("ack"))["client_id"] == "w1"

    with serve(tmp_path) as server:
        asyncio.run(main(server))


def test_a_flood_closes_the_socket_with_1008(tmp_path: Path) -> None:
    async def main(server: LiveServer) -> None:
        async with scene_of(server) as scene:
            before = await scene.observe()
            flooder = Socket(server.ws)
            async with flooder:
                await flooder.hello(scene.code, scene.tokens[1])
                with contextlib.suppress(ConnectionClosed):
                    for _ in range(40):
                        await flooder.send({"type": "ping"})
                code, seen = await closed(flooder)
            assert code == 1008
            assert sum(m["type"] == "pong" for m in seen) < 40  # cut off, not all answered
            for client in scene.everyone:
                assert all(m["type"] == "room" for m in await settle(client))
            assert await scene.observe() == before
            # the others play on, and the flooder's seat may come back
            await scene.seats[0].send(act({"type": "roll"}, "r1"))
            assert (await scene.seats[0].until("ack"))["client_id"] == "r1"
            async with Socket(server.ws) as back:
                assert (await back.hello(scene.code, scene.tokens[1]))["seat"] == 1

    with serve(tmp_path, message_burst=10, message_rate=1.0) as server:
        asyncio.run(main(server))


def test_too_many_connections_from_one_address(tmp_path: Path) -> None:
    async def main(server: LiveServer) -> None:
        async with contextlib.AsyncExitStack() as stack:
            first = [await stack.enter_async_context(Socket(server.ws)) for _ in range(3)]
            for _ in range(2):
                with pytest.raises(InvalidStatus) as refusal:
                    async with Socket(server.ws):
                        pass
                assert refusal.value.response.status_code == 403
            async with httpx.AsyncClient() as http:  # HTTP is not counted
                assert (await http.get(f"{server.http}/api/games")).status_code == 200
            for client in first:
                await client.send({"type": "ping"})
                assert (await client.recv())["code"] == "hello-first"
            await first[0].ws.close()
            for _ in range(200):  # the server counts the close once it has noticed it
                try:
                    async with Socket(server.ws) as again:
                        await again.send({"type": "ping"})
                        assert (await again.recv())["code"] == "hello-first"
                    break
                except InvalidStatus:
                    await asyncio.sleep(0.02)
            else:
                raise AssertionError("a freed connection slot was never given back")

    with serve(tmp_path, max_connections_per_address=3, hello_timeout=60.0) as server:
        asyncio.run(main(server))


def test_join_code_guessing_is_rate_limited(tmp_path: Path) -> None:
    async def main(server: LiveServer) -> None:
        async with scene_of(server, seats=2, start=False, elsewhere=False) as scene:
            code = scene.code
            async with httpx.AsyncClient(base_url=server.http) as http:
                assert (await http.get(f"/api/rooms/{NOWHERE[0]}")).status_code == 404
                guess = await http.post(f"/api/rooms/{NOWHERE[1]}/seats", json={"name": "Eve"})
                assert guess.status_code == 404 and guess.json()["code"] == "no-room"
                async with Socket(server.ws) as guesser:
                    await guesser.send({"type": "hello", "room": NOWHERE[2]})
                    assert (await guesser.recv())["code"] == "no-room"
                    # three unknown codes: now even the real code is refused, on every path
                    await guesser.send({"type": "hello", "room": code})
                    close_code, seen = await closed(guesser)
                assert [m["code"] for m in seen] == ["rate-limited"] and close_code == 1008
                for response in (
                    await http.get(f"/api/rooms/{code}"),
                    await http.get(f"/api/rooms/{code}/record"),
                    await http.post(f"/api/rooms/{code}/seats", json={"name": "Eve"}),
                    await http.get(f"/api/rooms/{NOWHERE[0]}"),
                ):
                    assert response.status_code == 429
                    assert response.json()["code"] == "rate-limited"
                async with Socket(server.ws) as player:
                    await player.send({"type": "hello", "room": code, "token": scene.tokens[1]})
                    close_code, seen = await closed(player)
                assert [m["code"] for m in seen] == ["rate-limited"] and close_code == 1008
            # sockets that said hello before are not affected
            await scene.nobody_else_told(None)
            await scene.seats[0].send({"type": "start"})
            for client in scene.everyone:
                assert (await client.until("state"))["pending"] == [0]

    with serve(tmp_path, join_failures_per_minute=3) as server:
        asyncio.run(main(server))


def test_foreign_origins_are_refused_at_the_handshake(tmp_path: Path) -> None:
    allowed = "https://play.talltales.example"

    async def main(server: LiveServer) -> None:
        port = server.settings.port
        foreign = [
            "https://evil.example",
            f"http://127.0.0.1:{port + 1}",
            f"http://127.0.0.1:{port}.evil.example",
            "null",
            allowed + ".evil.example",
        ]
        for origin in foreign:
            with pytest.raises(InvalidStatus) as refusal:
                async with Socket(server.ws, Origin=origin):
                    pass
            assert refusal.value.response.status_code == 403, origin
        for origin in (f"http://127.0.0.1:{port}", allowed, None):
            headers = {"Origin": origin} if origin else {}
            async with Socket(server.ws, **headers) as client:
                await client.send({"type": "ping"})
                assert (await client.recv())["code"] == "hello-first"

    with serve(tmp_path, allowed_origins=[allowed]) as server:
        asyncio.run(main(server))


def test_the_hello_timeout_closes_sockets_that_never_say_hello(tmp_path: Path) -> None:
    async def main(server: LiveServer) -> None:
        async with Socket(server.ws) as silent:
            code, seen = await closed(silent)
        assert code == 1008 and [m["code"] for m in seen] == ["hello-timeout"]
        # a socket that keeps talking without saying hello is closed all the same
        async with Socket(server.ws) as chatty:
            with contextlib.suppress(ConnectionClosed):
                for _ in range(100):  # far longer than the timeout, all told
                    await chatty.send({"type": "ping"})
                    await asyncio.sleep(0.05)
            code, seen = await closed(chatty)
        assert code == 1008
        assert {m["code"] for m in seen} == {"hello-first", "hello-timeout"}
        assert seen[-1]["code"] == "hello-timeout"
        assert len(seen) < 100  # closed while it was still talking

    with serve(tmp_path, hello_timeout=0.5) as server:
        asyncio.run(main(server))


def test_messages_before_hello_get_hello_first(tmp_path: Path) -> None:
    async def main(server: LiveServer) -> None:
        async with scene_of(server) as scene:
            before = await scene.observe()
            async with Socket(server.ws) as early:
                for message in (
                    {"type": "ping"},
                    {"type": "act", "client_id": "x", "action": {"type": "roll"}},
                    {"type": "start"},
                    {"type": "leave"},
                ):
                    await early.send(message)
                    assert (await early.recv())["code"] == "hello-first"
                await early.send("{oops")
                assert (await early.recv())["code"] == "bad-json"
                await scene.nobody_else_told(None)
                assert await scene.observe() == before
                assert (await early.hello(scene.code, scene.tokens[0]))["seat"] == 0

    with serve(tmp_path) as server:
        asyncio.run(main(server))


def test_room_creation_is_rate_limited_per_address(tmp_path: Path) -> None:
    with serve(tmp_path, rooms_per_minute=3) as server:
        body = {"game": WYBI, "name": "Ann"}
        made = [httpx.post(f"{server.http}/api/rooms", json=body) for _ in range(3)]
        assert [r.status_code for r in made] == [201, 201, 201]
        refused = httpx.post(f"{server.http}/api/rooms", json=body)
        assert refused.status_code == 429
        assert refused.json()["code"] == "rate-limited"
        assert len(server.hub.rooms) == 3
        # the rooms already made are not affected
        assert httpx.get(f"{server.http}/api/rooms/{made[0].json()['room']}").status_code == 200


def test_http_bodies_over_64_kib_get_413(tmp_path: Path) -> None:
    async def main(server: LiveServer) -> None:
        async with scene_of(server, start=False, elsewhere=False) as scene:
            before = await scene.observe()
            rooms = await on_server(server, _count_rooms(server))
            pad = "x" * MAX_MESSAGE_BYTES
            async with httpx.AsyncClient(base_url=server.http) as http:

                async def chunks() -> AsyncIterator[bytes]:
                    yield b'{"name": "'
                    for _ in range(20):
                        yield b"y" * 4096
                    yield b'"}'

                for response in (
                    await http.post("/api/rooms", json={"game": WYBI, "name": "A", "pad": pad}),
                    await http.post(f"/api/rooms/{scene.code}/seats", json={"name": pad}),
                    await http.post(f"/api/rooms/{scene.code}/seats", content=chunks()),
                    await http.post("/api/rooms", content=chunks()),
                ):
                    assert response.status_code == 413
                    assert response.json()["code"] == "too-large"
                small = await http.post(f"/api/rooms/{scene.code}/seats", content=b"{oops")
                assert small.status_code == 400 and small.json()["code"] == "malformed"
            assert await on_server(server, _count_rooms(server)) == rooms
            await scene.nobody_else_told(None)
            assert await scene.observe() == before

    with serve(tmp_path) as server:
        asyncio.run(main(server))


def _count_rooms(server: LiveServer) -> Any:
    async def count() -> int:
        return len(server.hub.rooms)

    return count


# --- anything at all ---------------------------------------------------------------------
FIELDS = ["type", "room", "token", "last_version", "client_id", "action", "bot", "seat"]
FIELDS += ["options", "family_filter", "figure", "guard", "value", "layout", "figures", "packs"]
WORDS = ["roll", "move-figure", "move-guard", "die", "random", "greedy", "search"]
WORDS += ["search:depth=9", "OOOO", "shuffled", "fixed"]
MESSAGE_TYPES = ["hello", "act", "start", "add-bot", "remove-seat", "set-options"]
MESSAGE_TYPES += ["rematch", "leave", "ping", "pong", "state", "fly"]
ACTION_TYPES = ["roll", "move-figure", "move-guard", "die", "tick", "claim", "bluff"]
KNOWN_CODES = {"bad-json", "malformed", "refused", "not-your-turn", "illegal", "game-over"}
KNOWN_CODES |= {"host-only", "text-too-long", "empty-text", "filtered"}

keys = st.sampled_from(FIELDS) | st.text(max_size=8)
scalars = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=16)
    | st.sampled_from(WORDS)
)
json_values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(keys, inner, max_size=4),
    max_leaves=12,
)


def tagged(types: list[str]) -> st.SearchStrategy[dict[str, Any]]:
    """Objects with a real ``type`` and random other fields."""
    return st.builds(
        lambda kind, body: {**body, "type": kind},
        st.sampled_from(types),
        st.dictionaries(keys, json_values, max_size=4),
    )


acts = st.builds(
    lambda client_id, action, extra: {
        **extra,
        "type": "act",
        "client_id": client_id,
        "action": action,
    },
    st.text(max_size=70),
    tagged(ACTION_TYPES) | json_values,
    st.dictionaries(keys, json_values, max_size=1),
)
frames = (
    (tagged(MESSAGE_TYPES) | acts | json_values).map(json.dumps)
    | st.text(max_size=60)
    | st.binary(max_size=60)
)


def test_anything_sent_by_a_seat_is_answered_and_keeps_the_room_consistent(tmp_path: Path) -> None:
    async def check(frame: str | bytes, seat: int, started: bool) -> None:
        try:
            decoded, problem = decode_client(frame), None
        except ProtocolError as exc:
            decoded, problem = None, exc.code
        async with scene_of(server, start=started, elsewhere=False) as scene:
            sender, others = scene.seats[seat], [scene.seats[1 - seat], scene.watcher]
            before = await scene.observe()
            await sender.send(frame)
            replies = await settle(sender)
            if isinstance(decoded, Ping):  # the settling ping's pong is still to come
                assert replies == [] and (await sender.recv())["type"] == "pong"
            assert all(m["type"] in ("error", "ack", "state", "room") for m in replies)
            if problem is not None:
                assert [m.get("code") for m in replies] == [problem]
            elif not isinstance(decoded, Ping):
                assert replies, "every message is answered"
            # "removed" tells a seat that leaves the lobby that it has gone: not a refusal
            refusals = [m for m in replies if m["type"] == "error" and m["code"] != "removed"]
            assert {m["code"] for m in refusals} <= KNOWN_CODES
            told = [m for other in others if other for m in await settle(other)]
            after = await scene.observe()  # also: the stored log replays to the live state
            if refusals:
                assert len(replies) == 1 and told == [] and after == before
            outcomes["refused" if refusals else "accepted"] += 1

    @hypothesis_settings(
        max_examples=120,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
    )
    @given(frame=frames, seat=st.sampled_from([0, 1]), started=st.booleans())
    def run(frame: str | bytes, seat: int, started: bool) -> None:
        loop.run_until_complete(check(frame, seat, started))

    loop = asyncio.new_event_loop()
    outcomes: Counter[str] = Counter()
    try:
        with serve(tmp_path, max_connections_per_address=10_000) as server:
            run()
            assert outcomes["refused"] and outcomes["accepted"]  # both kinds were tried

            # and the server still serves a game afterwards
            async def alive() -> None:
                async with scene_of(server) as scene:
                    await scene.seats[0].send(
                        {"type": "act", "client_id": "x", "action": {"type": "roll"}}
                    )
                    assert (await scene.seats[0].until("ack"))["client_id"] == "x"

            loop.run_until_complete(alive())
    finally:
        loop.close()
