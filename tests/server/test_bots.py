"""Bots at the server's tables, thinking in worker threads (the setting tests and embedding
may use; test_bot_workers.py covers the default, worker processes). A bot decides on what
its seat may know, within the server's budget; an answer still legal when it arrives is
played even if the room moved on meanwhile, a refused stale one is asked for again (three
questions at most), and a bot that errs gives way to a random legal move.

A gated bot stands in for a slow one: it thinks until the test lets it answer, so what must
happen while a bot thinks is shown by events, never by timing.
"""

from __future__ import annotations

import asyncio
import queue
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, NamedTuple

import msgspec
import pytest
from fixture_game import FIB_OFF

from talltales.bots import make_bot
from talltales.core.errors import MalformedAction
from talltales.core.game import Game, Seat
from talltales.core.registry import get_game
from talltales.server import thinking
from talltales.server.rooms import Room

from .harness import Client, LiveServer, running, settings_for
from .players import play_first_legal
from .support import (
    QUICK_HANDS,
    WYBI,
    attach,
    close,
    eventually,
    frames,
    open_room,
    refused,
    start_with_bots,
    until_room,
    until_state,
)

# a gated bot thinks as long as the test needs: far within budget and grace
THREADS: dict[str, Any] = {"bot_pool": "thread", "bot_grace": 60.0, **QUICK_HANDS}
Answer = Callable[[Game[Any, Any], Any, Seat], Any]


class Asked(NamedTuple):
    """One question to a bot: the sample, the budget, the thread, the legal actions' types."""

    sample: Any
    budget: float | None
    thread: str
    legal: list[str]


def first_legal(game: Game[Any, Any], state: Any, seat: Seat) -> Any:
    """The seat's first legal action."""
    return game.legal_actions(state, seat)[0]


def nonsense(game: Game[Any, Any], state: Any, seat: Seat) -> Any:
    """An answer no game accepts."""
    return {"type": "nonsense"}


class GatedBot:
    """Thinks until the test lets an answer go (one at a time, or all from then on)."""

    name = "gated"

    def __init__(self) -> None:
        self.answer: Answer = first_legal
        self.asked: list[Asked] = []
        self.questions: queue.Queue[Asked] = queue.Queue()
        self.gate = threading.Semaphore(0)
        self.opened = threading.Event()

    def choose(
        self, game: Game[Any, Any], state: Any, seat: Seat, *, budget: float | None = None
    ) -> Any:
        """Wait for the gate (at most a minute), then answer."""
        legal = [msgspec.to_builtins(a)["type"] for a in game.legal_actions(state, seat)]
        asked = Asked(state, budget, threading.current_thread().name, legal)
        self.asked.append(asked)
        self.questions.put(asked)
        if not self.opened.is_set():
            self.gate.acquire(timeout=60)
        return self.answer(game, state, seat)

    def let_one_answer(self) -> None:
        """The question being thought about is answered."""
        self.gate.release()

    def let_all_answer(self) -> None:
        """Every question is answered at once from now on."""
        self.opened.set()
        self.gate.release(100)


@pytest.fixture
def bot(monkeypatch: pytest.MonkeyPatch) -> Iterator[GatedBot]:
    """Every bot of a server the test starts, bot seats and stand-ins alike, is this one."""
    gated = GatedBot()
    monkeypatch.setattr(thinking, "make_bot", lambda spec, seed: gated)
    yield gated
    gated.let_all_answer()  # nothing is left thinking once the test is over


async def question(bot: GatedBot) -> Asked:
    """The next question the bot is asked (it is thinking about it now)."""
    return await asyncio.to_thread(bot.questions.get, True, 10)


async def until_pending(client: Client, seats: list[int]) -> dict[str, Any]:
    """Skip states until one where exactly ``seats`` have a decision."""
    return await until_state(client, lambda s: s["pending"] == seats)


async def to_the_bot(server: LiveServer, code: str, ann: str, bob: str) -> tuple[Client, Client]:
    """Ann and Bob start with a greedy bot in seat 2 and play until the bot is to move."""
    host = await attach(server, code, ann)
    guest = await attach(server, code, bob)
    await start_with_bots(host, "greedy")
    await asyncio.gather(
        play_first_legal(host, 0, "ann-", stop=lambda s: s["pending"] == [2]),
        play_first_legal(guest, 1, "bob-", stop=lambda s: s["pending"] == [2]),
    )
    return host, guest


def moves_of(server: LiveServer, code: str, seat: Seat) -> list[str]:
    """The types of the seat's logged actions in the room's current game."""
    match = server.hub.rooms[code].match
    assert match is not None
    return [e.action["type"] for e in match.record.entries if e.seat == seat]


def test_a_slow_bot_thinks_in_a_thread_while_another_room_plays(
    tmp_path: Path, bot: GatedBot
) -> None:
    settings = settings_for(tmp_path, bot_budget=2.5, **THREADS)
    with running(settings) as server:
        slow, (ann,) = open_room(server, WYBI, "Ann")
        busy, (cid, dee) = open_room(server, WYBI, "Cid", "Dee")

        async def scenario() -> None:
            host = await attach(server, slow, ann["token"])
            await start_with_bots(host, "greedy")
            await play_first_legal(host, 0, "ann-", stop=lambda s: s["pending"] == [1])
            asked = await question(bot)
            truth = server.hub.rooms[slow].match
            assert truth is not None
            # the bot decides from a sample of what its seat may know, in a worker thread,
            # within the server's budget: never from the true state, never on the loop
            assert asked.sample is not truth.state and asked.sample.rng != truth.state.rng
            assert asked.budget == settings.bot_budget
            assert asked.thread.startswith("talltales-bot")

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
            assert len(acks) == stop and len(bot.asked) == 1  # the bot still thinks

            # let go, the slow bot's move is made and the table comes back to Ann
            bot.let_all_answer()
            back = await until_pending(host, [0])
            assert any(e["data"].get("seat") == 1 for e in back["events"])
            await close(host, first, second)

        asyncio.run(scenario())


def test_an_answer_still_legal_after_the_room_moved_on_is_played(
    tmp_path: Path, bot: GatedBot
) -> None:
    with running(settings_for(tmp_path, **THREADS)) as server:
        code, (ann, bob) = open_room(server, WYBI, "Ann", "Bob")

        async def scenario() -> None:
            host, guest = await to_the_bot(server, code, ann["token"], bob["token"])
            assert (await question(bot)).legal == ["roll"]
            # Bob goes; his grace runs out while the bot thinks: a new version of the room
            await close(guest)
            changed = await until_room(host, lambda r: r["seats"][1]["stand_in"])
            bot.let_all_answer()
            back = await until_pending(host, [0])
            assert back["version"] > changed["version"]
            # asked once for the roll (its answer still held), then once for the move
            assert [a.legal == ["roll"] for a in bot.asked] == [True, False]
            assert moves_of(server, code, 2)[0] == "roll" and len(moves_of(server, code, 2)) == 2
            await close(host)

        asyncio.run(scenario())


@pytest.mark.usefixtures("fib_off")
def test_a_bots_fake_arriving_after_another_seat_wrote_is_played_without_asking_again(
    tmp_path: Path, bot: GatedBot
) -> None:
    with running(settings_for(tmp_path, **THREADS)) as server:
        code, (ann, bob) = open_room(server, FIB_OFF.id, "Ann", "Bob", options={"rounds": 1})

        def writing(state: dict[str, Any]) -> bool:
            return 1 in state["pending"] and state["legal"][0]["type"] == "bluff"

        async def scenario() -> None:
            host = await attach(server, code, ann["token"])
            guest = await attach(server, code, bob["token"])
            await start_with_bots(host, "greedy")
            # Ann reads a card and claims; the bot disputes first, which opens the writing
            await play_first_legal(host, 0, "ann-", stop=lambda s: s["pending"] == [1, 2])
            assert (await question(bot)).legal == ["dispute", "pass"]
            bot.let_one_answer()
            assert (await question(bot)).legal[0] == "bluff"  # now it thinks of a fake
            state = await until_state(guest, writing)
            await guest.send({"type": "act", "client_id": "bob-1", "action": state["legal"][0]})
            wrote = await guest.until("ack")  # Bob wrote meanwhile: the room moved on
            bot.let_one_answer()
            judging = await until_pending(host, [0])  # both fakes are in: Ann judges
            assert judging["version"] == wrote["version"] + 1  # the bot's fake, at once
            assert len(bot.asked) == 2  # never asked again about its fake
            assert moves_of(server, code, 2) == ["dispute", "bluff"]
            await close(host, guest)

        asyncio.run(scenario())


def test_a_bot_outdated_again_and_again_plays_a_random_legal_move_after_three_questions(
    tmp_path: Path, bot: GatedBot
) -> None:
    bot.answer = nonsense  # refused every time: stale answers are asked for again
    with running(settings_for(tmp_path, **THREADS)) as server:
        code, (ann, bob) = open_room(server, WYBI, "Ann", "Bob")

        async def scenario() -> None:
            host, guest = await to_the_bot(server, code, ann["token"], bob["token"])
            # each time the bot thinks about its roll, the room moves on: Bob goes and his
            # grace runs out (a new version), then he comes back before the next question
            for times in range(3):
                assert (await question(bot)).legal == ["roll"]
                if times:
                    guest = await attach(server, code, bob["token"])
                    await until_room(host, lambda r: not r["seats"][1]["stand_in"])
                await close(guest)
                await until_room(host, lambda r: r["seats"][1]["stand_in"])
                bot.let_one_answer()
            await eventually(lambda: moves_of(server, code, 2)[:1] == ["roll"])
            assert [a.legal for a in bot.asked[:3]] == [["roll"]] * 3
            assert all(a.legal != ["roll"] for a in bot.asked[3:])  # no fourth question
            bot.let_all_answer()
            await close(host)

        asyncio.run(scenario())


def test_a_bot_that_errs_gives_way_to_a_random_legal_move(tmp_path: Path, bot: GatedBot) -> None:
    bot.answer = nonsense
    with running(settings_for(tmp_path, **THREADS)) as server:
        code, (ann,) = open_room(server, WYBI, "Ann")

        async def scenario() -> None:
            host = await attach(server, code, ann["token"])
            await start_with_bots(host, "greedy")
            await play_first_legal(host, 0, "ann-", stop=lambda s: s["pending"] == [1])
            assert (await question(bot)).legal == ["roll"]
            bot.let_one_answer()
            # refused in a room that stood still: not asked again, a random legal move
            # instead, and the next question is the next decision
            assert (await question(bot)).legal != ["roll"]
            assert moves_of(server, code, 1) == ["roll"]
            bot.let_all_answer()
            await close(host)

        asyncio.run(scenario())


def test_a_stand_in_steps_aside_mid_thought_and_its_answer_is_dropped(
    tmp_path: Path, bot: GatedBot
) -> None:
    with running(settings_for(tmp_path, **THREADS)) as server:
        code, (ann, bob) = open_room(server, WYBI, "Ann", "Bob")

        async def scenario() -> None:
            host = await attach(server, code, ann["token"])
            guest = await attach(server, code, bob["token"])
            await host.send({"type": "start"})
            await play_first_legal(host, 0, "ann-", stop=lambda s: s["pending"] == [1])
            await close(guest)  # Bob's turn, and Bob is gone: a stand-in thinks for him
            await until_room(host, lambda r: r["seats"][1]["stand_in"])
            await question(bot)
            guest = await attach(server, code, bob["token"])  # back before it answers
            state = await guest.until("state")
            bot.let_all_answer()
            # the stand-in's answer is dropped: the roll is still Bob's to make
            await guest.send({"type": "act", "client_id": "bob-1", "action": state["legal"][0]})
            ack = await guest.until("ack")
            assert ack["version"] == state["version"] + 1
            assert moves_of(server, code, 1) == ["roll"]  # Bob's own roll
            await close(host, guest)

        asyncio.run(scenario())


def test_bots_and_their_samples_get_fresh_seeds_never_the_games(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    seeds: list[int] = []

    def seeded(spec: str, seed: int) -> Any:
        seeds.append(seed)
        return make_bot("random", seed)

    monkeypatch.setattr(thinking, "make_bot", seeded)
    with running(settings_for(tmp_path, **THREADS)) as server:
        code, (ann,) = open_room(server, WYBI, "Ann")

        async def scenario() -> None:
            host = await attach(server, code, ann["token"])
            await start_with_bots(host, "random", "random")
            await play_first_legal(host, 0, "ann-", stop=lambda s: len(seeds) >= 4)
            await close(host)

        asyncio.run(scenario())
        room, driver = server.hub.rooms[code], server.hub.autoplay.drivers[code]
    # SplitMix64 can be run backwards: a seed near the game's would give its dice away
    near = {room.seed + k for k in range(-8, 9)}
    assert len(set(seeds)) == len(seeds) and not near & set(seeds)
    assert driver.seed not in near


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
