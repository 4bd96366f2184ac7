"""Full games of every registered game (and the fixture game) over real sockets.

People and bots share each table; every client must see the same end, every view and prompt
must be exactly what the game shows that seat (spectators: the public view, nothing to do
and no prompt), the stored log must replay to the state the server held, and a rematch
keeps the seats.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import msgspec
import pytest
from fixture_game import FIB_OFF

from talltales.core.game import CLOCK, Game
from talltales.core.match import replay_states
from talltales.core.record import Record
from talltales.core.registry import games, get_game
from talltales.server.rooms import Room
from talltales.server.storage import EntryRow

from .harness import Client, LiveServer, running, settings_for
from .players import Player
from .support import QUICK_HANDS, frames, open_room, stored, until_room

# Short timers so that the server's own clock closes the fixture game's timed phases.
FAST_OPTIONS: dict[str, dict[str, Any]] = {
    "fib-off": {"write_ms": 250, "dispute_ms": 120},
    "believe-it-or-not": {"dispute_seconds": 3},
}
GAME_IDS = sorted({g.id for g in games()} | {FIB_OFF.id})
pytestmark = pytest.mark.usefixtures("fib_off")  # the fixture game is playable here


def table_for(game: Game[Any, Any]) -> tuple[int, list[str]]:
    """How many people, and which bots, sit at a mixed table of this game."""
    seats = max(game.min_players, min(4, game.max_players))
    people = min(2, seats - 1) if seats > 1 else 1
    bots = ["greedy", "random", "greedy", "random"][: seats - people]
    return people, bots


def seen_by(
    game: Game[Any, Any], record: Record, rows: list[EntryRow]
) -> Callable[[int, int | None], tuple[Any, Any, Any]]:
    """What a seat may see, do and is asked after each room version, by replaying the
    record (the prompt None when the seat has nothing to decide)."""
    states = list(replay_states(game, record))
    version_of = {row.index: row.version for row in rows}
    versions = [version_of[i] for i in range(len(record.entries))]
    assert versions == sorted(versions)

    def seen(version: int, seat: int | None) -> tuple[Any, Any, Any]:
        state = states[sum(1 for v in versions if v <= version)]
        over = game.outcome(state) is not None
        asked = seat is not None and not over and seat in game.pending(state)
        legal = game.legal_actions(state, seat) if asked else []
        prompt = game.prompt(state, seat) if asked else None
        return as_json(game.view(state, seat)), as_json(legal), as_json(prompt)

    return seen


def as_json(value: Any) -> Any:
    """A value as a client reads it after JSON encoding."""
    return json.loads(msgspec.json.encode(value))


async def seat_everyone(
    server: LiveServer, game_id: str, people: int, bots: list[str], options: dict[str, Any]
) -> tuple[str, list[Client], Client, list[dict[str, Any]]]:
    """Create the room, seat the people and bots, and attach a spectator; not started."""
    code, grants = open_room(
        server, game_id, *["Ann", "Bob", "Cat", "Dan"][:people], options=options
    )
    clients = [Client(server.ws) for _ in grants]
    for client, grant in zip(clients, grants, strict=True):
        await client.__aenter__()
        welcome = await client.hello(code, grant["token"])
        assert welcome["seat"] == grant["seat"]
    watcher = Client(server.ws)
    await watcher.__aenter__()
    assert (await watcher.hello(code))["seat"] is None
    for spec in bots:
        await clients[0].send({"type": "add-bot", "bot": spec})
    seated = await until_room(clients[0], lambda r: len(r["seats"]) == people + len(bots))
    assert [s["kind"] for s in seated["seats"]] == ["human"] * people + ["bot"] * len(bots)
    return code, clients, watcher, grants


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_a_full_mixed_game_ends_alike_for_everyone(tmp_path: Path, game_id: str) -> None:
    game = get_game(game_id)
    people, bots = table_for(game)
    assert bots, "every table mixes people and bots"
    settings = settings_for(tmp_path, **QUICK_HANDS)
    with running(settings) as server:

        async def scenario() -> dict[str, Any]:
            code, clients, watcher, _ = await seat_everyone(
                server, game_id, people, bots, FAST_OPTIONS.get(game_id, {})
            )
            seats = people + len(bots)
            await clients[0].send({"type": "start"})
            # Seat 1 always lets timed decisions run out; seat 0 does now and then.
            players = [
                Player(c, seat, seed=seat, skip=1.0 if seat == 1 else 0.3)
                for seat, c in enumerate(clients)
            ]
            finals = await asyncio.gather(*(p.play() for p in players))
            spectated = await Player(watcher, -1, 0).play(act=False)
            outcomes = [f["outcome"] for f in [*finals, spectated]]
            assert all(o == outcomes[0] for o in outcomes) and outcomes[0] is not None
            ranked = sorted(s for group in outcomes[0]["ranking"] for s in group)
            assert ranked == list(range(seats))
            assert len({f["version"] for f in [*finals, spectated]}) == 1
            for player in players:  # every act was answered once, none as a duplicate
                await player.settle()
                assert len(player.acks) + len(player.errors) == len(player.sent) >= 1
                assert not any(a.get("duplicate") for a in player.acks)
                # Refusals only come from racing the clock (a timer closed the decision).
                if type(game).deadline is Game.deadline:
                    assert player.errors == []
                for refusal in player.errors:
                    assert refusal["code"] in ("not-your-turn", "illegal"), refusal

            hub_room = server.hub.rooms[code]
            assert hub_room.match is not None
            assert hub_room.version == finals[0]["version"]
            record_json = httpx.get(f"{server.http}/api/rooms/{code}/record").json()
            record = msgspec.convert(record_json, Record)
            assert record == hub_room.match.record
            assert msgspec.to_builtins(record.entries) == msgspec.to_builtins(
                hub_room.match.record.entries
            )

            # The stored log replays to exactly the state the hub holds.
            row, rows = await stored(settings.database, code)
            assert row.status == "finished"
            restored = Room.restore(row, rows)
            assert restored.match is not None
            assert restored.version == hub_room.version
            assert msgspec.to_builtins(restored.match.state) == msgspec.to_builtins(
                hub_room.match.state
            )
            assert msgspec.to_builtins(restored.match.outcome()) == outcomes[0]

            # Every state each client received is that seat's view of the game at that
            # version, with its prompt; the spectator only ever saw the public view and
            # had nothing to do.
            seen = seen_by(game, record, rows)
            for seat, client in [*enumerate(clients), (None, watcher)]:
                states = frames(client, "state")
                assert states
                for state in states:
                    view, legal, prompt = seen(state["version"], seat)
                    assert state["view"] == view, (seat, state)
                    assert state["legal"] == legal, (seat, state)
                    assert state.get("prompt") == prompt, (seat, state)
            asked = [
                s["prompt"]["kind"] for c in clients for s in frames(c, "state") if "prompt" in s
            ]
            assert asked, "people were asked something"
            assert all(s["legal"] == [] and "prompt" not in s for s in frames(watcher, "state"))
            if type(game).deadline is not Game.deadline:  # the server's clock closed timed phases
                assert any(entry.seat == CLOCK for entry in record.entries), record.entries
            if game_id == FIB_OFF.id:  # the reader's secret die is told to the reader alone
                kinds = [e["kind"] for s in frames(watcher, "state") for e in s["events"]]
                assert "claim" in kinds and "roll" not in kinds
                assert {"write", "race", "vote"} <= set(asked)  # the typed prompts, on the wire

            # The host offers a rematch: a new game with the very same seats.
            before = frames(watcher, "room")[-1]
            await clients[1].send({"type": "rematch"})
            refused = await clients[1].until("error")
            assert refused["code"] == "host-only"
            await clients[0].send({"type": "rematch"})
            after = await watcher.until("room", status="playing")
            assert after["version"] > before["version"]
            assert [(s["name"], s["kind"], s["host"]) for s in after["seats"]] == [
                (s["name"], s["kind"], s["host"]) for s in before["seats"]
            ]
            fresh = await watcher.until("state")
            assert fresh.get("outcome") is None and fresh["pending"]
            while not (
                set(fresh["pending"]) <= set(range(people)) and fresh.get("deadline") is None
            ):
                fresh = await watcher.until("state")  # bots move until a person must decide
            for client in [*clients, watcher]:
                await client.__aexit__()
            return fresh

        fresh = asyncio.run(scenario())

    # The rematch is stored too: its log restores to the position the table last saw.
    row, rows = asyncio.run(stored(settings.database, fresh["room"]))
    assert (row.status, row.game_number) == ("playing", 1)
    restored = Room.restore(row, rows)
    assert restored.version == fresh["version"]
    assert restored.match is not None
    assert as_json(restored.match.view(None)) == fresh["view"]
