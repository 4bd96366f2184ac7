"""Content packs in rooms: the lobby lists a game's packs, the host chooses among the shipped
ones (never a file), a started game pins its packs by digest in the stored room, a rematch
pins them afresh, and a game whose pack has changed since is refused by the pack's name.

A second pack, a copy of the fixture's deck under another id, is "shipped" by pointing the
fixture game's ``pack_files`` at it for the length of a test.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
from collections.abc import Iterator
from functools import partial
from pathlib import Path
from typing import Any

import httpx
import msgspec
import pytest
from fixture_game import FIB_OFF, PACKS

from talltales.core.errors import IllegalAction, RecordError
from talltales.core.game import Game
from talltales.core.record import PackRef
from talltales.core.registry import get_game
from talltales.server.app import UNREPLAYABLE
from talltales.server.rooms import Room, Status
from talltales.server.storage import EntryRow, MemoryStorage, RoomRow, SqliteStorage

from .harness import running, settings_for
from .support import WYBI, close, connect, open_room, refused, shown, stored, until_room

FACTS = PACKS / "fib-off-facts.toml"
pytestmark = pytest.mark.usefixtures("fib_off")  # the fixture game is playable here


def digest(path: Path) -> str:
    """A pack file's SHA-256, as rooms pin it."""
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.fixture
def alt(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A second pack of the fixture game, "fib-off-alt", whose cards' ids start with alt:."""
    text = FACTS.read_text(encoding="utf-8")
    text = text.replace('id = "fib-off-facts"', 'id = "fib-off-alt"')
    text = text.replace('id = "fib:', 'id = "alt:')
    path = tmp_path / "packs" / "fib-off-alt.toml"
    path.parent.mkdir()
    path.write_text(text, encoding="utf-8")
    monkeypatch.setattr(FIB_OFF, "pack_files", lambda: [path, FACTS])
    yield path


def seated(game: Game[Any, Any], players: int = 3) -> Room:
    """A lobby with ``players`` people seated, the first its host."""
    room = Room("PACK", game, {"rounds": 1} if game is FIB_OFF else {}, 0)
    for name in ("Ann", "Bob", "Cat")[:players]:
        room.join(name, 0)
    return room


def finish(room: Room) -> list[EntryRow]:
    """Play the room's game to its end (each pending seat takes its last legal action, the
    clock jumps to any deadline that holds the table); the log entries it made."""
    moment, entries = 0, []
    while room.status is Status.PLAYING and room.match is not None:
        match, moment = room.match, moment + 1
        pending = sorted(match.pending())
        if pending:
            action = msgspec.to_builtins(match.legal_actions(pending[0])[-1])
            entries += room.bot_act(pending[0], action, moment)[1]
        else:
            deadline = match.deadline()
            assert deadline is not None, "nobody to act and no timer running"
            entries += room.advance(partial(match.tick, deadline), moment)[1]
    return entries


def test_the_lobby_lists_packs_and_only_the_host_chooses_shipped_ones(
    tmp_path: Path, alt: Path
) -> None:
    settings = settings_for(tmp_path)
    with running(settings) as server:
        listed = {g["id"]: g for g in httpx.get(f"{server.http}/api/games").json()}
        packs = listed[FIB_OFF.id]["packs"]
        assert [(p["id"], p["cards"], p["default"]) for p in packs] == [
            ("fib-off-alt", 12, False),
            ("fib-off-facts", 12, True),
        ]
        assert packs[1]["title"] == "Fib-off: plain facts" and packs[1]["description"]
        assert listed[WYBI]["packs"] == []
        code, (ann, bob, _) = open_room(server, FIB_OFF.id, "Ann", "Bob", "Cat")

        async def scenario() -> dict[str, Any]:
            host = await connect(server, code, ann["token"])
            guest = await connect(server, code, bob["token"])
            before = shown(server, code)["room"]
            assert before["packs"] == ["fib-off-facts"]  # the game's defaults, until chosen
            choose = {"type": "set-options", "packs": ["fib-off-alt"]}
            assert await refused(guest, choose) == "host-only"
            never = [  # unknown ids, files by path (too long to be an id, or not), twice
                (["fib-off-nope"], "illegal"),
                (["tests/packs/fib-off-facts.toml"], "illegal"),
                ([str(alt)], "malformed"),
                (["fib-off-alt"] * 2, "illegal"),
            ]
            for ids, answer in never:
                assert await refused(host, {"type": "set-options", "packs": ids}) == answer
            assert shown(server, code)["room"] == before
            await host.send(choose)
            chosen = await until_room(guest, lambda r: r["packs"] == ["fib-off-alt"])
            assert chosen["version"] == before["version"] + 1
            await host.send({"type": "start"})
            state = await host.until("state")
            room = await until_room(guest, lambda r: r["status"] == "playing")
            await close(host, guest)
            return {"state": state, "room": room}

        seen = asyncio.run(scenario())
    # the game was dealt from the chosen pack, and the stored room pins it by digest
    assert seen["room"]["packs"] == ["fib-off-alt"]
    assert all(card["id"].startswith("alt:") for card in seen["state"]["view"]["hand"])
    row, _ = asyncio.run(stored(settings.database, code))
    assert row.packs == ["fib-off-alt"]
    assert row.content == [PackRef("fib-off-alt", digest(alt))]


def test_a_game_without_cards_takes_no_packs(tmp_path: Path) -> None:
    with running(settings_for(tmp_path)) as server:
        code, (ann,) = open_room(server, WYBI, "Ann")

        async def scenario() -> None:
            host = await connect(server, code, ann["token"])
            refusal = {"type": "set-options", "packs": ["fib-off-facts"]}
            assert await refused(host, refusal) == "illegal"
            room = shown(server, code)["room"]
            assert "packs" not in room  # nothing to show: the field is left out
            await close(host)

        asyncio.run(scenario())


def test_a_rematch_pins_the_packs_as_they_are_then(alt: Path) -> None:
    room = seated(FIB_OFF)
    room.set_options(0, {}, None, 0, ["fib-off-alt"])
    room.start(0, 0)
    finish(room)
    first = room.row().content
    assert first == [PackRef("fib-off-alt", digest(alt))]
    alt.write_text(alt.read_text(encoding="utf-8").replace("Eight legs", "8 legs"), "utf-8")
    entries = room.rematch(0, 1)
    row = room.row()
    assert row.content == [PackRef("fib-off-alt", digest(alt))] != first
    restored = Room.restore(row, entries)  # the new game replays with today's pack
    assert restored.match is not None and room.match is not None
    assert msgspec.to_builtins(restored.match.state) == msgspec.to_builtins(room.match.state)


@pytest.mark.parametrize("trouble", ["gone", "broken"])
def test_a_refused_rematch_changes_nothing(
    alt: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture, trouble: str
) -> None:
    room = seated(FIB_OFF)
    room.set_options(0, {}, None, 0, ["fib-off-alt"])
    room.start(0, 0)
    finish(room)
    before, match = msgspec.to_builtins(room.row()), room.match
    if trouble == "gone":  # the server no longer ships the chosen pack
        monkeypatch.setattr(FIB_OFF, "pack_files", lambda: [FACTS])
    else:  # its file no longer reads
        alt.write_text("id = [", encoding="utf-8")
    with caplog.at_level(logging.ERROR, "talltales.server"), pytest.raises(IllegalAction) as no:
        room.rematch(0, 1)
    # the same game, number, version and pinned packs: a later rematch starts from here
    assert msgspec.to_builtins(room.row()) == before and room.match is match
    assert room.status is Status.FINISHED
    if trouble == "gone":
        assert "no pack 'fib-off-alt'" in no.value.reason
    else:  # the reason names a file on the server: for the log only
        assert no.value.reason == "the chosen packs cannot be read on this server"
        assert any(str(alt) in r.getMessage() for r in caplog.records)


def test_a_game_whose_pack_changed_is_refused_by_the_packs_name(
    tmp_path: Path, alt: Path, caplog: pytest.LogCaptureFixture
) -> None:
    playing, done = seated(FIB_OFF), seated(FIB_OFF)
    done.code = "DONE"
    logs: list[tuple[RoomRow, list[EntryRow]]] = []
    for room in (playing, done):
        room.set_options(0, {}, None, 0, ["fib-off-alt"])
        first = room.start(0, 0)
        logs.append((room.row(), first))
    played = finish(done)
    logs[1] = (done.row(), logs[1][1] + played)
    assert done.status is Status.FINISHED
    assert Room.restore(*logs[0]).match is not None  # as long as the pack is unchanged
    alt.write_text(alt.read_text(encoding="utf-8").replace("Eight legs", "8 legs"), "utf-8")
    with pytest.raises(RecordError, match='the pack "fib-off-alt" has changed'):
        Room.restore(*logs[0])

    # A server over that storage leaves the playing room out, saying why in its log, and
    # answers for the finished one with the reason rather than a game it cannot replay.
    storage = MemoryStorage()
    wybi = seated(get_game(WYBI), 2)
    wybi.code = "WYBI"

    async def fill() -> None:
        for row, entries in logs:
            await storage.save_room(row, entries)
        await storage.save_room(wybi.row())

    asyncio.run(fill())
    with (
        caplog.at_level(logging.WARNING, "talltales.server"),
        running(settings_for(tmp_path), storage) as server,
    ):
        assert set(server.hub.rooms) == {"WYBI"}
        answers = [httpx.get(f"{server.http}/api/rooms/DONE{path}") for path in ("", "/record")]
    assert any(
        "PACK" in r.getMessage()
        and '"fib-off-alt" has changed' in str(r.exc_info and r.exc_info[1])
        for r in caplog.records
    )
    # over HTTP people get a plain sentence: pack ids, digests and command-line advice are
    # for the log, which names the room and the pack
    for answer in answers:
        assert answer.status_code == 409 and answer.json()["code"] == "record"
        assert answer.json()["reason"] == UNREPLAYABLE
    shown = [r.getMessage() for r in caplog.records if "DONE" in r.getMessage()]
    assert len(shown) == 2 and all('"fib-off-alt" has changed' in m for m in shown)


def test_rooms_stored_before_packs_were_pinned_still_restore(tmp_path: Path) -> None:
    database = str(tmp_path / "old.sqlite3")
    rooms = [seated(get_game(WYBI), 2), seated(FIB_OFF)]
    for code, room in zip(("OLDW", "OLDF"), rooms, strict=True):
        room.code = code

    async def write_old_rows() -> None:
        storage = SqliteStorage(database)
        for room in rooms:
            first = room.start(0, 0)
            old = msgspec.json.decode(msgspec.json.encode(room.row()))
            del old["packs"], old["content"]  # as rows were written before packs
            storage.db.execute(
                "INSERT INTO rooms (code, status, updated, row) VALUES (?, ?, ?, ?)",
                (room.code, old["status"], old["updated"], msgspec.json.encode(old)),
            )
            await storage.append(room.code, room.game_number, first)
        await storage.close()

    asyncio.run(write_old_rows())
    for room in rooms:
        row, entries = asyncio.run(stored(database, room.code))
        assert row.packs == [] and row.content is None
        restored = Room.restore(row, entries)  # dealt, as then, the game's default packs
        assert restored.match is not None and room.match is not None
        assert restored.match.record.content == room.match.record.content
        assert msgspec.to_builtins(restored.match.state) == msgspec.to_builtins(room.match.state)
    assert rooms[1].match is not None
    assert rooms[1].match.record.content == [PackRef("fib-off-facts", digest(FACTS))]
