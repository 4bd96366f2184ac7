"""Bots at the server's tables: they think in worker threads, on what their seat may know,
within the server's budget, and their answers are applied only if the room stood still.

A latched bot stands in for a slow one: it thinks until the test releases it, so what must
happen while a bot thinks is shown by events, never by timing.
"""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path
from typing import Any

import msgspec
import pytest

from talltales.core.errors import MalformedAction
from talltales.core.game import Game, Seat
from talltales.core.registry import get_game
from talltales.server.rooms import Room

from .harness import Client, LiveServer, running, settings_for
from .players import play_first_legal
from .support import (
    QUICK_HANDS,
    WYBI,
    attach,
    close,
    frames,
    open_room,
    refused,
    start_with_bots,
    until_room,
)


class LatchedBot:
    """Thinks until released; keeps what it was asked with. Answers the first legal action."""

    name = "latched"

    def __init__(self) -> None:
        self.thinking = threading.Event()
        self.release = threading.Event()
        self.asked: list[tuple[Any, float | None, str]] = []  # sample, budget, thread

    def choose(
        self, game: Game[Any, Any], state: Any, seat: Seat, *, budget: float | None = None
    ) -> Any:
        """Wait for the release (at most a minute), then take the first legal action."""
        self.asked.append((state, budget, threading.current_thread().name))
        self.thinking.set()
        self.release.wait(60)
        return game.legal_actions(state, seat)[0]


def latch(server: LiveServer) -> LatchedBot:
    """Every bot of this server, bot seats and stand-ins alike, is one latched bot."""
    bot = LatchedBot()
    server.hub.autoplay.make_bot = lambda spec, seed: bot
    return bot


async def thinking(bot: LatchedBot) -> None:
    """Wait until the bot has been asked (and is now thinking)."""
    assert await asyncio.to_thread(bot.thinking.wait, 10), "the bot was never asked"


async def until_pending(client: Client, seats: list[int]) -> dict[str, Any]:
    """Skip states until one where exactly ``seats`` have a decision."""
    while True:
        state = await client.until("state")
        if state["pending"] == seats:
            return state


def test_a_slow_bot_thinks_in_a_thread_while_another_room_plays(tmp_path: Path) -> None:
    settings = settings_for(tmp_path, bot_budget=2.5, **QUICK_HANDS)
    with running(settings) as server:
        bot = latch(server)
        slow, (ann,) = open_room(server, WYBI, "Ann")
        busy, (cid, dee) = open_room(server, WYBI, "Cid", "Dee")

        async def scenario() -> None:
            host = await attach(server, slow, ann["token"])
            await start_with_bots(host, "greedy")
            await play_first_legal(host, 0, "ann-", stop=lambda s: s["pending"] == [1])
            await thinking(bot)
            truth = server.hub.rooms[slow].match
            assert truth is not None
            sample, budget, thread = bot.asked[0]
            # the bot decides from a sample of what its seat may know, in a worker thread,
            # within the server's budget: never from the true state, never on the loop
            assert sample is not truth.state and sample.rng != truth.state.rng
            assert budget == settings.bot_budget
            assert thread.startswith("talltales-bot")

            # meanwhile another room plays twelve moves, every one acknowledged
            first, second = (
                await attach(server, busy, cid["token"]),
                await attach(server, busy, dee["token"]),
            )
            await first.send({"type": "start"})
            stop = 12

            def done(state: dict[str, Any]) -> bool:
                return state["version"] >= stop + 3  # two seats taken, then the start

            await asyncio.gather(
                play_first_legal(first, 0, "cid-", stop=done),
                play_first_legal(second, 1, "dee-", stop=done),
            )
            for client in (first, second):  # the last acks follow the last states
                await client.send({"type": "ping"})
                await client.until("pong")
            acks = frames(first, "ack") + frames(second, "ack")
            assert len(acks) == stop and not bot.release.is_set()
            assert len(bot.asked) == 1  # still the first question: the bot is thinking

            # released, the slow bot's move is made and the table comes back to Ann
            bot.release.set()
            back = await until_pending(host, [0])
            assert any(e["data"].get("seat") == 1 for e in back["events"])
            await close(host, first, second)

        asyncio.run(scenario())


def test_an_answer_outdated_while_the_bot_thought_is_asked_for_again(tmp_path: Path) -> None:
    with running(settings_for(tmp_path, **QUICK_HANDS)) as server:
        bot = latch(server)
        code, (ann, bob) = open_room(server, WYBI, "Ann", "Bob")

        async def scenario() -> None:
            host = await attach(server, code, ann["token"])
            guest = await attach(server, code, bob["token"])
            await start_with_bots(host, "greedy")
            await asyncio.gather(
                play_first_legal(host, 0, "ann-", stop=lambda s: s["pending"] == [2]),
                play_first_legal(guest, 1, "bob-", stop=lambda s: s["pending"] == [2]),
            )
            await thinking(bot)  # the bot's roll
            # Bob goes; his grace runs out while the bot thinks: a new version of the room
            await close(guest)
            changed = await until_room(host, lambda r: r["seats"][1]["stand_in"])
            bot.release.set()
            back = await until_pending(host, [0])
            assert back["version"] > changed["version"]
            # asked for the roll, again for the roll (the room had moved on), then the move
            assert len(bot.asked) == 3
            room = server.hub.rooms[code]
            assert room.match is not None
            moves = [e.action["type"] for e in room.match.record.entries if e.seat == 2]
            assert moves == ["roll", "move-figure"] or moves == ["roll", "move-guard"]
            await close(host)

        asyncio.run(scenario())


def test_a_stand_in_steps_aside_mid_thought_and_its_answer_is_dropped(tmp_path: Path) -> None:
    with running(settings_for(tmp_path, **QUICK_HANDS)) as server:
        bot = latch(server)
        code, (ann, bob) = open_room(server, WYBI, "Ann", "Bob")

        async def scenario() -> None:
            host = await attach(server, code, ann["token"])
            guest = await attach(server, code, bob["token"])
            await host.send({"type": "start"})
            await play_first_legal(host, 0, "ann-", stop=lambda s: s["pending"] == [1])
            await close(guest)  # Bob's turn, and Bob is gone: a stand-in thinks for him
            await until_room(host, lambda r: r["seats"][1]["stand_in"])
            await thinking(bot)
            guest = await attach(server, code, bob["token"])  # back before it answers
            state = await guest.until("state")
            bot.release.set()
            # the stand-in's answer is dropped: the roll is still Bob's to make
            await guest.send({"type": "act", "client_id": "bob-1", "action": state["legal"][0]})
            ack = await guest.until("ack")
            assert ack["version"] == state["version"] + 1
            room = server.hub.rooms[code]
            assert room.match is not None
            assert [e.seat for e in room.match.record.entries].count(1) == 1  # Bob's own roll
            await close(host, guest)

        asyncio.run(scenario())


def test_client_ids_in_the_bots_namespace_are_refused(tmp_path: Path) -> None:
    with running(settings_for(tmp_path)) as server:
        code, (ann, _) = open_room(server, WYBI, "Ann", "Bob")

        async def scenario() -> None:
            host = await attach(server, code, ann["token"])
            await host.send({"type": "start"})
            state = await host.until("state")
            act = {"type": "act", "client_id": "bot-7", "action": state["legal"][0]}
            assert await refused(host, act) == "malformed"
            act["client_id"] = "ann-1"
            await host.send(act)
            assert (await host.until("ack"))["version"] == state["version"] + 1
            await close(host)

        asyncio.run(scenario())


def test_a_bot_move_is_never_dropped_as_a_resend() -> None:
    room = Room("ABCD", get_game(WYBI), {}, 0)
    for name in ("Ann", "Bob"):
        room.join(name, 0)
    room.start(0, 0)
    assert room.match is not None
    # a log from before ids were reserved may hold the very id the bot's move would take
    room.applied[(0, f"bot-{room.version}")] = 1
    with pytest.raises(MalformedAction):  # and no client may send one
        room.act(0, f"bot-{room.version}", {"type": "roll"}, 1)
    events, entries = room.bot_act(0, {"type": "roll"}, 1)
    assert events and [e.seat for e in entries] == [0, -1]
    assert msgspec.to_builtins(room.match.record.entries[0].action) == {"type": "roll"}
