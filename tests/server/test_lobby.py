"""The lobby over real sockets: host-only actions, bots, kicks, options, names, expiry, API."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import httpx

from talltales.server.app import WEB

from .harness import Client, LiveServer, create_room, join_room, running, settings_for
from .players import Player
from .support import (
    QUICK_HANDS,
    close,
    connect,
    frames,
    holds_no_seat,
    on_server,
    open_room,
    refused,
    shown,
    start_with_bots,
    stored,
    until_room,
)
from .support import WYBI as GAME


def test_host_only_actions_from_anyone_else_change_nothing(tmp_path: Path) -> None:
    with running(settings_for(tmp_path)) as server:
        code, (host, guest) = open_room(server, GAME, "Ann", "Bob")

        async def scenario() -> None:
            ann = await connect(server, code, host["token"])
            bob = await connect(server, code, guest["token"])
            watcher = await connect(server, code, None)
            before = shown(server, code)["room"]
            attempts: list[dict[str, Any]] = [
                {"type": "start"},
                {"type": "add-bot", "bot": "greedy"},
                {"type": "remove-seat", "seat": 0},
                {"type": "set-options", "options": {"figures": 2}},
                {"type": "set-options", "family_filter": False},
                {"type": "rematch"},
            ]
            for client in (bob, watcher):
                for attempt in attempts:
                    assert await refused(client, attempt) == "host-only", attempt
            after = shown(server, code)["room"]
            assert after == before  # same version, seats, options and status
            assert after["status"] == "lobby" and after["options"] == {}

            # The next change anyone sees is the host's, one version on: nothing in between.
            await ann.send({"type": "add-bot", "bot": "random"})
            changed = await until_room(bob, lambda r: len(r["seats"]) == 3)
            assert changed["version"] == before["version"] + 1
            await close(ann, bob, watcher)

        asyncio.run(scenario())


def test_the_host_adds_and_removes_bots(tmp_path: Path) -> None:
    with running(settings_for(tmp_path)) as server:
        code, (host,) = open_room(server, GAME, "Ann")

        async def scenario() -> None:
            ann = await connect(server, code, host["token"])
            for bot in ("greedy", "random"):
                await ann.send({"type": "add-bot", "bot": bot})
            room = await until_room(ann, lambda r: len(r["seats"]) == 3)
            assert [(s["name"], s["kind"], s["connected"]) for s in room["seats"]] == [
                ("Ann", "human", True),
                ("Bot 1", "bot", True),
                ("Bot 2", "bot", True),
            ]
            await ann.send({"type": "remove-seat", "seat": 1})
            room = await until_room(ann, lambda r: len(r["seats"]) == 2)
            assert [(s["seat"], s["name"]) for s in room["seats"]] == [(0, "Ann"), (1, "Bot 2")]
            # Names are reused, the table fills up to the game's maximum, and no further.
            for _ in range(room["max_players"] - 2):
                await ann.send({"type": "add-bot", "bot": "greedy"})
            full = await until_room(ann, lambda r: len(r["seats"]) == r["max_players"])
            assert full["seats"][2]["name"] == "Bot 1"
            assert await refused(ann, {"type": "add-bot", "bot": "greedy"}) == "illegal"
            assert await refused(ann, {"type": "add-bot", "bot": "nonsense"}) == "illegal"
            assert await refused(ann, {"type": "remove-seat", "seat": 0}) == "illegal"  # host
            assert await refused(ann, {"type": "remove-seat", "seat": 99}) == "illegal"
            assert shown(server, code)["room"]["version"] == full["version"]
            await ann.__aexit__()

        asyncio.run(scenario())


def test_a_kicked_player_loses_the_seat_and_the_others_move_up(tmp_path: Path) -> None:
    with running(settings_for(tmp_path, **QUICK_HANDS)) as server:
        code, grants = open_room(server, GAME, "Ann", "Bob", "Cat")
        bob_token = grants[1]["token"]

        async def scenario() -> None:
            ann, bob, cat = [await connect(server, code, g["token"]) for g in grants]
            await ann.send({"type": "remove-seat", "seat": 1})
            removed = await bob.until("error")
            assert removed["code"] == "removed"
            room = await until_room(cat, lambda r: len(r["seats"]) == 2)
            assert [s["name"] for s in room["seats"]] == ["Ann", "Cat"]
            # The kicked socket holds no seat any more; its token opens nothing.
            assert await refused(bob, {"type": "start"}) == "host-only"
            await bob.__aexit__()
            await holds_no_seat(server, code, bob_token)

            # Cat moved up to seat 1 and plays it.
            await start_with_bots(ann, "greedy")
            players = [Player(ann, 0, seed=1), Player(cat, 1, seed=2)]
            finals = await asyncio.gather(*(p.play() for p in players))
            assert finals[0]["outcome"] == finals[1]["outcome"] is not None
            assert players[1].count >= 1 and finals[1]["view"]["seat"] == 1
            await close(ann, cat)

        asyncio.run(scenario())


def test_options_are_checked_and_the_family_filter_can_be_switched_off(tmp_path: Path) -> None:
    with running(settings_for(tmp_path)) as server:
        code, (host,) = open_room(server, GAME, "Ann")

        async def scenario() -> None:
            ann = await connect(server, code, host["token"])
            version = shown(server, code)["room"]["version"]
            for bad in ({"figures": 9}, {"layout": "upside-down"}, {"no-such-rule": True}):
                assert await refused(ann, {"type": "set-options", "options": bad}) == "illegal"
            assert shown(server, code)["room"]["version"] == version

            await ann.send({"type": "set-options", "options": {"figures": 2}})
            room = await until_room(ann, lambda r: r["options"] == {"figures": 2})
            assert room["version"] == version + 1 and room["family_filter"]

            # A profane name is refused while the filter is on (the default) ...
            response = httpx.post(f"{server.http}/api/rooms/{code}/seats", json={"name": "shit"})
            assert response.status_code == 409 and response.json()["code"] == "filtered"
            assert len(shown(server, code)["room"]["seats"]) == 1
            # ... and taken once the host switches it off.
            await ann.send({"type": "set-options", "family_filter": False})
            room = await until_room(ann, lambda r: not r["family_filter"])
            assert room["options"] == {"figures": 2}  # options kept
            join_room(server, code, "shit")
            room = await until_room(ann, lambda r: len(r["seats"]) == 2)
            assert room["seats"][1]["name"] == "shit"
            await ann.__aexit__()

        asyncio.run(scenario())

        response = httpx.post(
            f"{server.http}/api/rooms", json={"game": GAME, "name": "Ann", "options": {"x": 1}}
        )
        assert response.status_code == 400 and response.json()["code"] == "options"
        response = httpx.post(f"{server.http}/api/rooms", json={"game": GAME, "name": "shit"})
        assert response.status_code == 400 and response.json()["code"] == "filtered"


def test_starting_needs_enough_players_and_closes_the_lobby(tmp_path: Path) -> None:
    with running(settings_for(tmp_path)) as server:
        code, (host,) = open_room(server, GAME, "Ann")

        async def scenario() -> None:
            ann = await connect(server, code, host["token"])
            assert await refused(ann, {"type": "start"}) == "illegal"  # alone at the table
            assert shown(server, code)["room"]["status"] == "lobby"
            assert shown(server, code)["state"] is None

            join_room(server, code, "Bob")
            await ann.send({"type": "start"})
            await until_room(ann, lambda r: r["status"] == "playing")
            state = await ann.until("state")
            assert state["pending"] == [0]

            response = httpx.post(f"{server.http}/api/rooms/{code}/seats", json={"name": "Cat"})
            assert response.status_code == 409 and response.json()["code"] == "illegal"
            for late in (
                {"type": "start"},
                {"type": "add-bot", "bot": "greedy"},
                {"type": "remove-seat", "seat": 1},
                {"type": "set-options", "options": {"figures": 2}},
                {"type": "rematch"},  # the game is not over
            ):
                assert await refused(ann, late) == "illegal", late
            now = shown(server, code)
            assert [s["name"] for s in now["room"]["seats"]] == ["Ann", "Bob"]
            assert now["room"]["version"] == state["version"]
            await ann.__aexit__()

        asyncio.run(scenario())


def test_a_hostile_name_comes_back_as_the_same_string(tmp_path: Path) -> None:
    hostile = "\"'><img src=x onerror=1>"  # 24 characters, the longest name allowed
    with running(settings_for(tmp_path)) as server:
        host = create_room(server, GAME, "Ann")
        code = host["room"]
        too_long = httpx.post(
            f"{server.http}/api/rooms/{code}/seats",
            json={"name": "<img src=x onerror=alert(1)>"},
        )
        assert too_long.status_code == 400 and too_long.json()["code"] == "malformed"
        guest = join_room(server, code, hostile)

        async def scenario() -> list[str]:
            client = await connect(server, code, guest["token"])
            room = frames(client, "room")[-1]
            await client.__aexit__()
            assert room["seats"][1]["name"] == hostile
            return client.frames

        raw = asyncio.run(scenario())
        # Stored and sent as typed, only JSON-escaped: escaping for HTML is the client's job.
        assert any(json.dumps(hostile) in frame for frame in raw)
        response = httpx.get(f"{server.http}/api/rooms/{code}")
        assert response.headers["content-type"] == "application/json"
        assert json.dumps(hostile) in response.text
        assert response.json()["room"]["seats"][1]["name"] == hostile


def test_idle_rooms_expire_and_finished_ones_stay_readable(tmp_path: Path) -> None:
    settings = settings_for(tmp_path, idle_room_seconds=0.0, **QUICK_HANDS)
    with running(settings) as server:
        idle = create_room(server, GAME, "Ann")["room"]
        watched = create_room(server, GAME, "Ann")
        done = create_room(server, GAME, "Ann")

        async def scenario() -> list[str]:
            keeper = await connect(server, watched["room"], watched["token"])
            ann = await connect(server, done["room"], done["token"])
            await start_with_bots(ann, "greedy")
            final = await Player(ann, 0, seed=9).play()
            assert final["outcome"] is not None
            await ann.__aexit__()
            while server.hub.clients.get(done["room"]):  # until the server saw Ann go
                await asyncio.sleep(0.005)
            # Rooms nobody is connected to expire (idle_room_seconds is 0 here); a room
            # with someone in it stays, however long since it last changed.
            gone: list[str] = await on_server(server, server.hub.expire_idle)
            assert watched["room"] in server.hub.rooms
            await keeper.send({"type": "ping"})
            await keeper.until("pong")
            await keeper.__aexit__()
            return gone

        gone = asyncio.run(scenario())
        assert sorted(gone) == sorted([idle, done["room"]])
        assert idle not in server.hub.rooms and done["room"] not in server.hub.rooms

        missing = httpx.get(f"{server.http}/api/rooms/{idle}")
        assert missing.status_code == 404 and missing.json()["code"] == "no-room"
        finished = shown(server, done["room"])
        assert finished["room"]["status"] == "finished"
        assert finished["state"]["outcome"] is not None
        record = httpx.get(f"{server.http}/api/rooms/{done['room']}/record")
        assert record.status_code == 200
        assert record.json()["game"] == GAME and record.json()["players"] == 2

    assert asyncio.run(stored(settings.database, idle))[0].status == "expired"
    assert asyncio.run(stored(settings.database, done["room"]))[0].status == "finished"


def test_the_http_api_lists_games_and_refuses_unknown_rooms(tmp_path: Path) -> None:
    with running(settings_for(tmp_path)) as server:
        listed = httpx.get(f"{server.http}/api/games")
        assert listed.status_code == 200
        wybi = {g["id"]: g for g in listed.json()}["would-you-believe-it"]
        assert (wybi["min_players"], wybi["max_players"]) == (2, 6)
        assert wybi["title"] and isinstance(wybi["options"], dict)
        for path in ("/api/rooms/XXXX", "/api/rooms/XXXX/record"):
            response = httpx.get(f"{server.http}{path}")
            assert response.status_code == 404, path
            assert response.json()["code"] == "no-room"
        joined = httpx.post(f"{server.http}/api/rooms/XXXX/seats", json={"name": "Ann"})
        assert joined.status_code == 404
        unknown = httpx.post(f"{server.http}/api/rooms", json={"game": "chess", "name": "Ann"})
        assert unknown.status_code == 400 and unknown.json()["code"] == "options"


def test_a_refused_lobby_command_echoes_its_client_id(tmp_path: Path) -> None:
    with running(settings_for(tmp_path)) as server:
        code, (host, guest) = open_room(server, GAME, "Ann", "Bob")

        async def scenario() -> None:
            ann = await connect(server, code, host["token"])
            bob = await connect(server, code, guest["token"])
            watcher = await connect(server, code, None)
            await bob.send({"type": "start", "client_id": "c1"})
            error = await bob.until("error")
            assert error == {
                "type": "error",
                "code": "host-only",
                "reason": "only the host may start the game",
                "client_id": "c1",
            }
            # Every lobby command takes one; each refusal carries its own.
            commands: list[tuple[Client, dict[str, Any], str]] = [
                (bob, {"type": "add-bot", "bot": "greedy"}, "host-only"),
                (bob, {"type": "remove-seat", "seat": 0}, "host-only"),
                (bob, {"type": "set-options", "options": {"figures": 2}}, "host-only"),
                (bob, {"type": "rematch"}, "host-only"),
                (ann, {"type": "add-bot", "bot": "nonsense"}, "illegal"),
                (ann, {"type": "set-options", "options": {"figures": 9}}, "illegal"),
                (ann, {"type": "rematch"}, "illegal"),
                (watcher, {"type": "leave"}, "refused"),
            ]
            for number, (client, command, expected) in enumerate(commands):
                client_id = f"cmd-{number}"
                await client.send({**command, "client_id": client_id})
                error = await client.until("error")
                assert (error["code"], error.get("client_id")) == (expected, client_id), command
            # Without one, the error has none; an empty or over-long one is malformed.
            await bob.send({"type": "start"})
            assert "client_id" not in await bob.until("error")
            for bad in ("", "x" * 65):
                assert await refused(bob, {"type": "start", "client_id": bad}) == "malformed"
            # An accepted command is answered by the room message, as before.
            await ann.send({"type": "add-bot", "bot": "greedy", "client_id": "c2"})
            room = await until_room(bob, lambda r: len(r["seats"]) == 3)
            assert room["seats"][2]["bot"] == "greedy"
            assert shown(server, code)["room"]["version"] == room["version"]
            await close(ann, bob, watcher)

        asyncio.run(scenario())


async def first_room(server: LiveServer, code: str, token: str | None) -> dict[str, Any]:
    """The room message a socket receives after hello."""
    client = await connect(server, code, token)
    room = frames(client, "room")[-1]
    await client.__aexit__()
    return room


def test_the_room_carries_its_join_link_and_the_qr_code_shows_it(tmp_path: Path) -> None:
    with running(settings_for(tmp_path)) as server:
        code = create_room(server, GAME, "Ann")["room"]
        # Without a public URL, the link is made from the address the room was created at.
        assert shown(server, code)["room"]["join_url"] == f"{server.http}/?join={code}"
        qr = httpx.get(f"{server.http}/api/rooms/{code.lower()}/qr.svg")
        assert qr.status_code == 200 and qr.headers["content-type"] == "image/svg+xml"
        assert f"<title>{server.http}/?join={code}</title>" in qr.text

    public = "http://party.example:9000"
    for configured in (public, public + "/"):
        with running(settings_for(tmp_path, public_url=configured)) as server:
            grant = create_room(server, GAME, "Ann")
            code = grant["room"]

            room = asyncio.run(first_room(server, code, grant["token"]))
            assert room["join_url"] == f"{public}/?join={code}"
            assert room["join_url"].startswith(public) and room["join_url"].endswith(
                f"/?join={code}"
            )
            assert shown(server, code)["room"]["join_url"] == room["join_url"]
            qr = httpx.get(f"{server.http}/api/rooms/{code}/qr.svg")
            assert qr.status_code == 200
            assert qr.text.lstrip().startswith(("<?xml", "<svg"))
            assert f"<title>{public}/?join={code}</title>" in qr.text
            assert "127.0.0.1" not in qr.text

    # The link is stored with the room: a restarted server keeps it.
    with running(settings_for(tmp_path)) as server:
        assert shown(server, code)["room"]["join_url"] == f"{public}/?join={code}"


def test_seats_say_which_bot_holds_them(tmp_path: Path) -> None:
    with running(settings_for(tmp_path, **QUICK_HANDS)) as server:
        code, (host, _) = open_room(server, GAME, "Ann", "Bob")

        async def scenario() -> None:
            ann = await connect(server, code, host["token"])
            for bot in ("greedy", "random", "search:depth=1"):
                await ann.send({"type": "add-bot", "bot": bot})
            room = await until_room(ann, lambda r: len(r["seats"]) == 5)
            assert [(s["kind"], s["bot"]) for s in room["seats"]] == [
                ("human", None),
                ("human", None),
                ("bot", "greedy"),
                ("bot", "random"),
                ("bot", "search:depth=1"),
            ]
            assert all("bot" in s for s in room["seats"])  # sent as null for people
            assert shown(server, code)["room"]["seats"] == room["seats"]
            await ann.__aexit__()

        asyncio.run(scenario())
        raw = httpx.get(f"{server.http}/api/rooms/{code}").text
        assert raw.count('"bot":null') == 2


def test_security_headers_on_pages_api_and_static_files(tmp_path: Path) -> None:
    with running(settings_for(tmp_path)) as server:
        code = create_room(server, GAME, "Ann")["room"]
        paths = ["/api/games", f"/api/rooms/{code}", f"/api/rooms/{code}/qr.svg", "/api/rooms/XXXX"]
        if (WEB / "index.html").exists():
            paths.append("/")
        for path in paths:
            response = httpx.get(f"{server.http}{path}")
            assert response.status_code in (200, 404), path
            headers = response.headers
            policy = headers["content-security-policy"]
            for directive in ("default-src 'self'", "script-src 'self'", "frame-ancestors 'none'"):
                assert directive in policy, (path, policy)
            assert headers["x-content-type-options"] == "nosniff", path
            assert headers["referrer-policy"] == "no-referrer", path
            assert headers.get("cache-control") != "no-cache", path  # only static files
        if (WEB / "index.html").exists():
            page = httpx.get(f"{server.http}/")
            assert page.headers["content-type"].startswith("text/html")
        script = httpx.get(f"{server.http}/static/app.js")
        assert script.status_code == 200
        assert script.headers["cache-control"] == "no-cache"
        assert script.headers["x-content-type-options"] == "nosniff"
        assert "content-security-policy" in script.headers
        missing = httpx.get(f"{server.http}/static/no-such-file.js")
        assert missing.status_code == 404 and missing.headers["cache-control"] == "no-cache"
