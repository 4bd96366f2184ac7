"""Who holds the seats, over real sockets: leaving (in the lobby and mid-game), renumbered
seats, the host role after a grace period (stored, so it survives a restart) or a leave,
seat changes the storage refuses, and a deadline that passed before a late action (applied
first, and logged first).
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from fixture_game import FIB_OFF

from talltales.core.game import CLOCK
from talltales.server.storage import EntryRow, RoomRow, SqliteStorage

from .harness import Client, LiveServer, running, settings_for
from .players import Player
from .support import (
    QUICK_HANDS,
    close,
    connect,
    frames,
    holds_no_seat,
    open_room,
    shown,
    start_with_bots,
    stored,
    until_room,
)
from .support import WYBI as GAME  # turn-based and without timers: nothing moves unless told


async def seat_of(server: LiveServer, code: str, token: str) -> int | None:
    """The seat a token holds now, by saying hello with it on a fresh socket."""
    client = Client(server.ws)
    await client.__aenter__()
    seat: int | None = (await client.hello(code, token))["seat"]
    await client.__aexit__()
    return seat


async def answer(client: Client, client_id: str) -> dict[str, Any]:
    """The ack or error answering the act sent with ``client_id``."""
    while True:
        message = await client.recv()
        if message["type"] in ("ack", "error") and message.get("client_id") == client_id:
            return message


def names(room: dict[str, Any]) -> list[str]:
    """The names at the table, in seat order."""
    return [s["name"] for s in room["seats"]]


def test_a_guest_who_leaves_the_lobby_loses_the_seat_and_later_seats_move_up(
    tmp_path: Path,
) -> None:
    with running(settings_for(tmp_path, grace_seconds=30.0, **QUICK_HANDS)) as server:
        code, grants = open_room(server, GAME, "Ann", "Bob", "Cat", "Dan", options={"figures": 1})
        tokens = [grant["token"] for grant in grants]

        async def scenario() -> None:
            ann, bob, cat, dan = [await connect(server, code, token) for token in tokens]
            await until_room(ann, lambda r: all(s["connected"] for s in r["seats"]))
            before = shown(server, code)["room"]["version"]

            await bob.send({"type": "leave"})
            removed = await bob.until("error")
            assert removed == {"type": "error", "code": "removed", "reason": "you left the room"}

            # Cat and Dan moved up: each socket is told its new seat, then the room.
            for client, seat in ((cat, 1), (dan, 2)):
                welcome = await client.until("welcome")
                assert (welcome["room"], welcome["seat"]) == (code, seat)
                assert welcome["version"] == before + 1
                room = await client.until("room")
                assert room["version"] == before + 1
                assert names(room) == ["Ann", "Cat", "Dan"]
                assert [s["seat"] for s in room["seats"]] == [0, 1, 2]
                assert all(s["connected"] for s in room["seats"])
            # Ann's seat did not move: no new welcome for her, only the room.
            await until_room(ann, lambda r: names(r) == ["Ann", "Cat", "Dan"])
            assert len(frames(ann, "welcome")) == 1
            assert shown(server, code)["room"]["version"] == before + 1

            # Bob's socket stays open as a spectator's; his token holds no seat.
            spectating = await until_room(bob, lambda r: len(r["seats"]) == 3)
            assert "Bob" not in names(spectating)
            assert len(frames(bob, "welcome")) == 1  # not re-welcomed to any seat
            await bob.send({"type": "leave"})
            refused = await bob.until("error")
            assert (refused["code"], refused["reason"]) == (
                "refused",
                "spectators hold no seat to leave",
            )
            await holds_no_seat(server, code, tokens[1])
            await bob.__aexit__()

            # The tokens followed their seats ...
            assert await seat_of(server, code, tokens[2]) == 1
            assert await seat_of(server, code, tokens[3]) == 2
            # ... and the moved sockets play as their new seats to the end.
            await ann.send({"type": "start"})
            players = [Player(ann, 0, seed=1), Player(cat, 1, seed=2), Player(dan, 2, seed=3)]
            finals = await asyncio.gather(*(p.play() for p in players))
            assert finals[0]["outcome"] == finals[1]["outcome"] == finals[2]["outcome"]
            assert finals[0]["outcome"] is not None
            for player in players:
                assert player.count >= 1 and not player.errors
            assert [f["view"]["seat"] for f in finals] == [0, 1, 2]
            await close(ann, cat, dan)

        asyncio.run(scenario())


def test_the_host_who_leaves_the_lobby_passes_the_role_to_the_next_connected_person(
    tmp_path: Path,
) -> None:
    with running(settings_for(tmp_path, grace_seconds=30.0)) as server:
        code, (host, bob_grant, cat_grant) = open_room(server, GAME, "Ann", "Bob", "Cat")
        # Bob never connects.

        async def scenario() -> None:
            ann = await connect(server, code, host["token"])
            cat = await connect(server, code, cat_grant["token"])
            watcher = await connect(server, code, None)
            before = shown(server, code)["room"]["version"]

            await ann.send({"type": "leave"})
            removed = await ann.until("error")
            assert (removed["code"], removed["reason"]) == ("removed", "you left the room")

            # Bob is next after Ann but away; Cat is the next connected person: she is host,
            # and moved up from seat 2 to seat 1.
            welcome = await cat.until("welcome")
            assert welcome["seat"] == 1 and welcome["version"] == before + 1
            room = await until_room(watcher, lambda r: len(r["seats"]) == 2)
            assert room["version"] == before + 1
            assert [(s["name"], s["host"], s["connected"]) for s in room["seats"]] == [
                ("Bob", False, False),
                ("Cat", True, True),
            ]
            assert shown(server, code)["room"] == room
            assert len(frames(watcher, "welcome")) == 1  # spectators have no seat to move

            # Cat may do what the host does; Ann, now a spectator, may not.
            await ann.send({"type": "add-bot", "bot": "greedy"})
            assert (await ann.until("error"))["code"] == "host-only"
            await cat.send({"type": "add-bot", "bot": "greedy"})
            room = await until_room(cat, lambda r: len(r["seats"]) == 3)
            assert names(room) == ["Bob", "Cat", "Bot 1"]
            await holds_no_seat(server, code, host["token"])
            assert await seat_of(server, code, bob_grant["token"]) == 0
            await close(ann, cat, watcher)

        asyncio.run(scenario())

    # The stored room has Ann's seat gone and Cat as host.
    row, _ = asyncio.run(stored(str(tmp_path / "rooms.sqlite3"), code))
    assert [s.name for s in row.seats] == ["Bob", "Cat", "Bot 1"]
    assert row.host == 1


def test_a_host_who_leaves_while_everyone_else_is_away_leaves_the_role_behind(
    tmp_path: Path,
) -> None:
    # Nobody else is connected: the role goes to the next person even though they are away
    # (not with the host, which would leave a lobby nobody can start, or a game nobody can
    # offer a rematch of).
    with running(settings_for(tmp_path, grace_seconds=30.0, **QUICK_HANDS)) as server:
        lobby_code, (lobby, bob_grant) = open_room(server, GAME, "Ann", "Bob")  # Bob: away
        code, (game, dan_grant) = open_room(server, GAME, "Ann", "Dan", options={"figures": 1})

        async def scenario() -> None:
            ann = await connect(server, lobby_code, lobby["token"])
            await ann.send({"type": "leave"})
            assert (await ann.until("error"))["code"] == "removed"
            room = await until_room(ann, lambda r: len(r["seats"]) == 1)
            assert [(s["name"], s["host"]) for s in room["seats"]] == [("Bob", True)]
            await ann.__aexit__()
            bob = await connect(server, lobby_code, bob_grant["token"])
            await start_with_bots(bob, "greedy")
            await until_room(bob, lambda r: r["status"] == "playing")

            host = await connect(server, code, game["token"])
            dan = await connect(server, code, dan_grant["token"])
            await host.send({"type": "start"})
            await dan.until("state")
            await dan.__aexit__()  # Dan is away (within his grace period) ...
            await until_room(host, lambda r: not r["seats"][1]["connected"])
            await host.send({"type": "leave"})  # ... when the host leaves the game
            assert (await host.until("error"))["code"] == "removed"
            room = await until_room(host, lambda r: r["seats"][0]["kind"] == "bot")
            assert [s["host"] for s in room["seats"]] == [False, True]
            await host.__aexit__()
            back = await connect(server, code, dan_grant["token"])
            final = await Player(back, 1, seed=7).play()
            assert final["outcome"] is not None
            await back.send({"type": "rematch"})
            again = await until_room(back, lambda r: r["status"] == "playing")
            assert [(s["kind"], s["host"]) for s in again["seats"]] == [
                ("bot", False),
                ("human", True),
            ]
            await close(bob, back)

        asyncio.run(scenario())


def test_leaving_mid_game_hands_the_seat_to_a_bot_on_every_socket(tmp_path: Path) -> None:
    with running(settings_for(tmp_path, grace_seconds=30.0, **QUICK_HANDS)) as server:
        code, (host, guest) = open_room(server, GAME, "Ann", "Bob", options={"figures": 1})

        async def scenario() -> None:
            ann_client = await connect(server, code, host["token"])
            phone = await connect(server, code, guest["token"])
            laptop = await connect(server, code, guest["token"])  # Bob's second socket
            await ann_client.send({"type": "start"})
            ann, bob = Player(ann_client, 0, seed=1), Player(phone, 1, seed=2)
            ann_task = asyncio.create_task(ann.play())

            # Bob plays twice, then leaves between his turns from his phone.
            left_at = await bob.play(
                stop=lambda s: bob.count >= 2 and bob.outstanding is None and 1 not in s["pending"]
            )
            assert left_at.get("outcome") is None
            await phone.send({"type": "leave"})
            reason = "you left the game; a bot plays your seat"
            for client in (phone, laptop):  # both of the seat's sockets are told
                removed = await client.until("error")
                assert (removed["code"], removed["reason"]) == ("removed", reason)

            room = await until_room(laptop, lambda r: r["seats"][1]["kind"] == "bot")
            bobs = room["seats"][1]
            assert (bobs["name"], bobs["bot"], bobs["connected"], bobs["stand_in"]) == (
                "Bob",
                "greedy",
                True,
                False,
            )
            assert room["status"] == "playing"
            left_version = room["version"]

            # The sockets watch on as spectators; the bot plays seat 1 to the end.
            final = await ann_task
            assert final["outcome"] is not None
            for client in (phone, laptop):
                watched = await client.until("state", outcome=final["outcome"])
                assert watched["view"]["seat"] is None and watched["legal"] == []
                await client.send({"type": "act", "client_id": "late", "action": {"type": "roll"}})
                refused = await client.until("error")
                assert (refused["code"], refused["client_id"]) == ("refused", "late")
            await holds_no_seat(server, code, guest["token"])

            hub_room = server.hub.rooms[code]
            assert hub_room.match is not None
            seat_one = [e for e in hub_room.match.record.entries if e.seat == 1]
            assert len(seat_one) > bob.count  # Bob's own moves, then the bot's
            assert hub_room.seats[1].bot == "greedy" and hub_room.seats[1].token_hash is None
            assert left_version > left_at["version"]
            await close(ann_client, phone, laptop)

        asyncio.run(scenario())

    row, rows = asyncio.run(stored(str(tmp_path / "rooms.sqlite3"), code))
    assert row.status == "finished"
    assert (row.seats[1].name, row.seats[1].bot, row.seats[1].token_hash) == ("Bob", "greedy", None)
    assert any(r.seat == 1 for r in rows)


def test_the_host_role_passed_after_the_grace_period_is_stored_and_survives_a_restart(
    tmp_path: Path,
) -> None:
    settings = settings_for(tmp_path, grace_seconds=0.3)
    with running(settings) as server:
        code, (host, guest) = open_room(server, GAME, "Ann", "Bob")

        async def away() -> int:
            ann = await connect(server, code, host["token"])
            bob = await connect(server, code, guest["token"])
            await until_room(ann, lambda r: all(s["connected"] for s in r["seats"]))
            before = shown(server, code)["room"]["version"]
            await ann.__aexit__()
            passed = await until_room(bob, lambda r: r["seats"][1]["host"])
            assert [s["host"] for s in passed["seats"]] == [False, True]
            assert passed["version"] == before + 1  # a change of host is a new version
            assert shown(server, code)["room"]["version"] == before + 1
            await bob.__aexit__()
            return before

        before = asyncio.run(away())

    row, _ = asyncio.run(stored(settings.database, code))
    assert row.host == 1
    assert row.version > before

    # A new server over the same database: Bob is still the host, Ann is not.
    with running(settings_for(tmp_path, grace_seconds=30.0)) as again:

        async def back() -> None:
            ann = await connect(again, code, host["token"])
            bob = await connect(again, code, guest["token"])
            room = frames(bob, "room")[-1]
            assert all(s["connected"] for s in room["seats"])
            assert [s["host"] for s in room["seats"]] == [False, True]
            assert room["version"] == row.version
            await ann.send({"type": "add-bot", "bot": "random", "client_id": "mine"})
            refused = await ann.until("error")
            assert (refused["code"], refused["client_id"]) == ("host-only", "mine")
            await bob.send({"type": "start"})
            await until_room(ann, lambda r: r["status"] == "playing")
            await close(ann, bob)

        asyncio.run(back())


def test_a_deadline_that_passed_is_applied_before_a_late_action(
    tmp_path: Path, fib_off: None
) -> None:
    # Timers a minute long: the server's own timer cannot fire during the test, so only
    # the clock the hub reads (moved past the deadline below) can close the dispute phase.
    options = {"rounds": 1, "dispute_ms": 60_000, "write_ms": 60_000}
    settings = settings_for(tmp_path, **QUICK_HANDS)
    with running(settings) as server:
        code, grants = open_room(server, FIB_OFF.id, "Ann", "Bob", "Cat", options=options)

        async def scenario() -> None:
            ann, bob, cat = [await connect(server, code, g["token"]) for g in grants]
            await ann.send({"type": "start"})
            state = await ann.until("state")
            assert state["view"]["phase"] == "claim" and state["pending"] == [0]
            await ann.send({"type": "act", "client_id": "a1", "action": state["legal"][0]})
            assert (await answer(ann, "a1"))["type"] == "ack"
            disputing = await bob.until("state", pending=[1, 2])
            assert disputing["view"]["phase"] == "dispute"
            deadline = disputing["deadline"]
            assert deadline is not None

            # A bluff is only legal once the dispute window has closed. Bob sends it after
            # the deadline, before any timer closed the window: the deadline comes first.
            server.hub.clock = lambda: deadline + 5
            bluff = {"type": "bluff", "text": "a llama ate it"}
            await bob.send({"type": "act", "client_id": "b1", "action": bluff})
            ack = await answer(bob, "b1")
            assert ack["type"] == "ack" and not ack.get("duplicate"), ack

            # Everyone saw the clock's version, then Bob's bluff.
            ticked = await cat.until("state", version=disputing["version"] + 1)
            assert [e["kind"] for e in ticked["events"]] == ["timeout", "write"]
            assert ticked["view"]["phase"] == "write" and ticked["pending"] == [1, 2]
            written = await cat.until("state", version=ack["version"])
            assert ack["version"] == ticked["version"] + 1
            assert [e["kind"] for e in written["events"]] == ["bluff"]
            assert written["pending"] == [2]
            await close(ann, bob, cat)

        asyncio.run(scenario())

    _, rows = asyncio.run(stored(settings.database, code))
    tail = [(r.seat, r.action["type"]) for r in rows[-3:]]
    assert tail == [(0, "claim"), (CLOCK, "tick"), (1, "bluff")]
    claim, tick, bluff_row = rows[-3:]
    assert bluff_row.client_id == "b1" and tick.client_id is None
    assert claim.version < tick.version < bluff_row.version


class FailingStorage(SqliteStorage):
    """SQLite whose room writes fail while ``failing`` is set (a full disk, say)."""

    failing = False

    async def save_room(self, room: RoomRow, entries: Sequence[EntryRow] = ()) -> None:
        if self.failing:
            raise OSError("disk full")
        await super().save_room(room, entries)


def test_a_seat_change_that_cannot_be_stored_leaves_every_socket_on_its_own_seat(
    tmp_path: Path,
) -> None:
    settings = settings_for(tmp_path, grace_seconds=30.0, **QUICK_HANDS)
    storage = FailingStorage(settings.database)
    with running(settings, storage) as server:
        code, grants = open_room(server, GAME, "Ann", "Bob", "Cat", options={"figures": 1})
        bob_token = grants[1]["token"]

        async def scenario() -> None:
            ann, bob, cat = [await connect(server, code, g["token"]) for g in grants]
            await until_room(ann, lambda r: all(s["connected"] for s in r["seats"]))
            before = shown(server, code)["room"]

            # The host removes Bob, and Bob leaves, while the disk is full: both refused.
            storage.failing = True
            await ann.send({"type": "remove-seat", "seat": 1, "client_id": "kick"})
            refused = await ann.until("error")
            assert (refused["code"], refused.get("client_id")) == ("refused", "kick"), refused
            await bob.send({"type": "leave", "client_id": "bye"})
            refused = await bob.until("error")
            assert (refused["code"], refused.get("client_id")) == ("refused", "bye"), refused
            storage.failing = False
            assert shown(server, code)["room"] == before

            # Nobody was told of a change that did not happen ...
            for client in (ann, bob, cat):
                await client.send({"type": "ping"})
                await client.until("pong")
            assert frames(bob, "error")[-1]["code"] == "refused"
            assert not [e for e in frames(bob, "error") if e["code"] == "removed"]
            assert len(frames(cat, "welcome")) == 1
            # ... and each socket still holds its own seat: Cat leaving removes Cat.
            await cat.send({"type": "leave"})
            assert (await cat.until("error"))["code"] == "removed"
            room = await until_room(ann, lambda r: len(r["seats"]) == 2)
            assert names(room) == ["Ann", "Bob"]
            assert await seat_of(server, code, bob_token) == 1
            await cat.__aexit__()

            # In a game too: Bob's leave is refused, and he plays on as himself.
            await ann.send({"type": "start"})
            await bob.until("state")
            storage.failing = True
            await bob.send({"type": "leave"})
            assert (await bob.until("error"))["code"] == "refused"
            storage.failing = False
            assert shown(server, code)["room"]["seats"][1]["kind"] == "human"
            players = [Player(ann, 0, seed=1), Player(bob, 1, seed=2)]
            finals = await asyncio.gather(*(p.play() for p in players))
            assert finals[0]["outcome"] == finals[1]["outcome"] is not None
            assert players[1].count >= 1 and not players[1].errors
            await close(ann, bob)

        asyncio.run(scenario())
