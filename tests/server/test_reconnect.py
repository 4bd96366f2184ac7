"""Dropped sockets: coming back to the seat, resending safely, stand-ins, the host role."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

from .harness import Client, running, settings_for
from .players import Player
from .support import (
    QUICK_HANDS,
    attach,
    close,
    eventually,
    frames,
    open_room,
    shown,
    start_with_bots,
    until_room,
)
from .support import WYBI as GAME  # turn-based and without timers: nothing moves unless told


def seat_info(room: dict[str, Any], seat: int) -> dict[str, Any]:
    """One seat of a room message."""
    found: dict[str, Any] = room["seats"][seat]
    return found


def last_room(client: Client) -> dict[str, Any]:
    """The newest room message a client has read."""
    return frames(client, "room")[-1]


def test_a_dropped_player_comes_back_to_the_same_seat(tmp_path: Path) -> None:
    with running(settings_for(tmp_path, grace_seconds=30.0, **QUICK_HANDS)) as server:
        code, (host, guest) = open_room(server, GAME, "Ann", "Bob")

        async def scenario() -> None:
            ann_client = await attach(server, code, host["token"])
            bob_client = await attach(server, code, guest["token"])
            await start_with_bots(ann_client, "greedy")
            ann, bob = Player(ann_client, 0, seed=1), Player(bob_client, 1, seed=2)
            ann_task = asyncio.create_task(ann.play())

            # Bob drops in the middle of his own turn, having acted twice already.
            mid_turn = await bob.play(
                stop=lambda s: bob.count >= 2 and bob.outstanding is None and 1 in s["pending"]
            )
            assert mid_turn.get("outcome") is None
            await bob_client.__aexit__()
            await eventually(lambda: not seat_info(last_room(ann_client), 1)["connected"])

            # Back with his token: same seat, welcome + room + state at the current version.
            again = await attach(server, code, guest["token"], mid_turn["version"])
            welcome = frames(again, "welcome")[0]
            assert (welcome["seat"], welcome["version"]) == (1, mid_turn["version"])
            room = await again.recv()
            assert room["type"] == "room" and seat_info(room, 1)["connected"]
            state = await again.recv()
            assert state["type"] == "state"
            assert state["version"] == mid_turn["version"]
            assert state["events"] == []  # it missed nothing
            assert (state["view"], state["legal"]) == (mid_turn["view"], mid_turn["legal"])
            assert 1 in state["pending"]
            assert [json.loads(f)["type"] for f in again.frames] == ["welcome", "room", "state"]

            # Resending an action that was applied already changes nothing.
            resent, first_ack = bob.sent[-1], bob.acks[-1]
            assert first_ack["client_id"] == resent["client_id"]
            await again.send(resent)
            duplicate = await again.until("ack")
            assert duplicate == {**first_ack, "duplicate": True}
            await again.send({"type": "ping"})
            await again.until("pong")
            assert len(frames(again, "state")) == 1  # no new state: nothing was applied
            public = shown(server, code)
            assert public["room"]["version"] == public["state"]["version"] == mid_turn["version"]

            # Bob plays on, then drops between his turns while the others move.
            bob.resume(again, state)
            between = await bob.play(
                stop=lambda s: bob.count >= 5 and bob.outstanding is None and 1 not in s["pending"]
            )
            assert between.get("outcome") is None
            await again.__aexit__()
            await eventually(
                lambda: (
                    ann.latest is not None
                    and ann.latest["version"] > between["version"]
                    and (1 in ann.latest["pending"] or bool(ann.latest.get("outcome")))
                )
            )
            assert ann.latest is not None
            now = ann.latest
            back = await attach(server, code, guest["token"], between["version"])
            assert frames(back, "welcome")[0]["seat"] == 1
            await back.until("room")
            caught_up = await back.until("state")
            assert caught_up["version"] == now["version"] > between["version"]
            missed = [
                e
                for s in frames(ann_client, "state")
                if between["version"] < s["version"] <= now["version"]
                for e in s["events"]
            ]
            assert missed and caught_up["events"] == missed  # told what it missed, once

            bob.resume(back, caught_up)
            finals = await asyncio.gather(bob.play(), ann_task)
            assert finals[0]["outcome"] == finals[1]["outcome"]
            assert finals[0]["version"] == finals[1]["version"]
            await close(back, ann_client)

        asyncio.run(scenario())


def test_a_stand_in_plays_for_an_absent_player_until_they_return(tmp_path: Path) -> None:
    with running(settings_for(tmp_path, grace_seconds=0.3, **QUICK_HANDS)) as server:
        code, (host, guest) = open_room(server, GAME, "Ann", "Bob")

        async def scenario() -> None:
            ann_client = await attach(server, code, host["token"])
            bob_client = await attach(server, code, guest["token"])
            await start_with_bots(ann_client, "random")
            await bob_client.until("state")
            await bob_client.__aexit__()  # Bob leaves as the game starts

            ann = Player(ann_client, 0, seed=3)
            turns = {"bob": False}

            def bob_has_been_played(state: dict[str, Any]) -> bool:
                turns["bob"] = turns["bob"] or 1 in state["pending"]
                return turns["bob"] and 0 in state["pending"]

            # The game goes on without Bob: his seat's turn is taken by the stand-in.
            resumed = await ann.play(stop=bob_has_been_played)
            assert resumed.get("outcome") is None
            rooms = frames(ann_client, "room")
            standing = [r for r in rooms if seat_info(r, 1)["stand_in"]]
            assert standing, "the room said a stand-in plays seat 1"
            assert seat_info(standing[0], 1)["kind"] == "human"
            assert not seat_info(standing[0], 1)["connected"]
            room = server.hub.rooms[code]
            assert room.match is not None
            assert any(e.seat == 1 for e in room.match.record.entries)

            # Bob returns: the stand-in stops and he plays on himself.
            back = await attach(server, code, guest["token"], -1)
            assert frames(back, "welcome")[0]["seat"] == 1
            # (Ann must decide now, so nothing but room messages reaches her meanwhile.)
            returned = await until_room(ann_client, lambda r: not seat_info(r, 1)["stand_in"])
            assert seat_info(returned, 1)["connected"]
            mine = await back.until("room")
            assert not seat_info(mine, 1)["stand_in"]
            bob = Player(back, 1, seed=4)
            bob.latest = await back.until("state")
            finals = await asyncio.gather(ann.play(), bob.play())
            assert finals[0]["outcome"] == finals[1]["outcome"] is not None
            assert bob.count >= 1  # Bob himself made moves after returning
            assert all(not a.get("duplicate") for a in bob.acks)
            await close(back, ann_client)

        asyncio.run(scenario())


def test_the_host_role_passes_to_the_next_connected_player(tmp_path: Path) -> None:
    with running(settings_for(tmp_path, grace_seconds=0.3, **QUICK_HANDS)) as server:
        code, grants = open_room(server, GAME, "Ann", "Bob", "Cat")

        async def scenario() -> None:
            ann, bob, cat = [await attach(server, code, grant["token"]) for grant in grants]
            await ann.send({"type": "start"})
            await cat.until("state")
            assert seat_info(last_room(cat), 0)["host"]

            # Bob drops, then the host drops: past the grace period Cat (the next connected
            # person after Ann) holds the host role and stand-ins play both empty seats.
            await bob.__aexit__()
            await until_room(cat, lambda r: seat_info(r, 1)["stand_in"])
            await ann.__aexit__()
            passed = await until_room(cat, lambda r: not seat_info(r, 0)["host"])
            assert [s["host"] for s in passed["seats"]] == [False, False, True]
            assert seat_info(passed, 0)["stand_in"] and not seat_info(passed, 0)["connected"]

            cat_player = Player(cat, 2, seed=5)
            final = await cat_player.play()
            assert final["outcome"] is not None

            # The new host may offer the rematch; the returning old host may not.
            ann_back = await attach(server, code, grants[0]["token"])
            back_room = await ann_back.until("room")
            assert not seat_info(back_room, 0)["host"] and seat_info(back_room, 2)["host"]
            await ann_back.send({"type": "rematch"})
            assert (await ann_back.until("error"))["code"] == "host-only"
            await cat.send({"type": "rematch"})
            again = await until_room(cat, lambda r: r["status"] == "playing")
            assert [s["host"] for s in again["seats"]] == [False, False, True]
            assert not seat_info(again, 0)["stand_in"] and seat_info(again, 0)["connected"]
            await close(ann_back, cat)

        asyncio.run(scenario())
