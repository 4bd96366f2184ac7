"""Bots thinking in worker processes, the server's default: forked, so they know the games
the server knows (the fixture game is registered in this process only); handed a sample
of their seat's view as JSON; and abandoned past budget and grace, the room playing a
random legal move instead. A worker that cannot even be interrupted is killed with its
pool, and the fresh pool's workers hold none of the server's sockets.
"""

from __future__ import annotations

import asyncio
import os
import signal
import stat
from pathlib import Path
from typing import Any

import pytest
from fixture_game import FIB_OFF

from talltales.core.game import Game, Seat
from talltales.server import thinking

from .harness import LiveServer, running, settings_for
from .players import play_first_legal
from .support import QUICK_HANDS, WYBI, attach, close, eventually, open_room, start_with_bots
from .test_restart import ServerProcess

PROCESSES: dict[str, Any] = {"bot_pool": "process", "bot_workers": 2, **QUICK_HANDS}


class NotingBot:
    """Notes the process it thinks in (in a file: a worker's memory is its own), then takes
    the first legal action."""

    name = "noting"

    def __init__(self, notes: Path) -> None:
        self.notes = notes

    def choose(
        self, game: Game[Any, Any], state: Any, seat: Seat, *, budget: float | None = None
    ) -> Any:
        """The first legal action."""
        with self.notes.open("a") as notes:
            notes.write(f"{os.getpid()} {type(state).__name__}\n")
        return game.legal_actions(state, seat)[0]


class StubbornBot:
    """Never answers: spins past any budget; ``deaf``, it also ignores the signal a worker's
    deadline is, so only killing its process stops it."""

    name = "stubborn"

    def __init__(self, deaf: bool) -> None:
        self.deaf = deaf

    def choose(
        self, game: Game[Any, Any], state: Any, seat: Seat, *, budget: float | None = None
    ) -> Any:
        """Nothing, ever."""
        if self.deaf:  # as a long call into C code would be, which checks no signals
            signal.signal(signal.SIGALRM, signal.SIG_IGN)
        while True:
            pass


def sockets_held(pid: int) -> int:
    """How many sockets a process holds open."""
    count = 0
    for fd in os.listdir(f"/proc/{pid}/fd"):
        try:
            count += stat.S_ISSOCK(os.stat(f"/proc/{pid}/fd/{fd}").st_mode)
        except OSError:
            continue  # closed meanwhile
    return count


def children(pid: int) -> list[int]:
    """The live processes whose parent is ``pid``."""
    return [p for p in os.listdir("/proc") if p.isdigit() and stat_of(int(p))[1] == str(pid)]


def alive(pid: int) -> bool:
    """Whether a process runs (a zombie waiting to be reaped does not)."""
    state = stat_of(pid)[0]
    return state not in ("", "Z", "X")


def stat_of(pid: int) -> list[str]:
    """A process's state and parent id from /proc (empty once it is gone)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[:2]
    except OSError:
        return ["", ""]


def workers(server: LiveServer) -> list[int]:
    """The process ids of the bot pool's workers now."""
    processes = getattr(server.hub.autoplay.pool.executor, "_processes", None) or {}
    return list(processes)


@pytest.mark.usefixtures("fib_off")
def test_bots_think_in_worker_processes_that_know_the_servers_games(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    notes = tmp_path / "thought-in"
    monkeypatch.setattr(thinking, "make_bot", lambda spec, seed: NotingBot(notes))
    options = {"rounds": 1, "write_ms": 250, "dispute_ms": 120}
    with running(settings_for(tmp_path, **PROCESSES)) as server:
        code, (ann,) = open_room(server, FIB_OFF.id, "Ann", options=options)

        async def scenario() -> dict[str, Any]:
            host = await attach(server, code, ann["token"])
            await start_with_bots(host, "greedy", "random")
            final = await play_first_legal(host, 0, "ann-")
            await close(host)
            return final

        final = asyncio.run(scenario())
    assert final["outcome"] is not None
    thought = [line.split() for line in notes.read_text().splitlines()]
    pids = {int(pid) for pid, _ in thought}
    assert thought and os.getpid() not in pids and len(pids) <= PROCESSES["bot_workers"]
    assert {kind for _, kind in thought} == {"State"}  # the game's own state, decoded


@pytest.mark.parametrize("deaf", [False, True], ids=["interrupted", "killed"])
def test_a_bot_past_budget_and_grace_gives_way_to_a_random_legal_move(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, deaf: bool
) -> None:
    monkeypatch.setattr(thinking, "make_bot", lambda spec, seed: StubbornBot(deaf))
    settings = settings_for(tmp_path, bot_budget=0.1, bot_grace=0.1, **PROCESSES)
    with running(settings) as server:
        code, (ann,) = open_room(server, WYBI, "Ann")
        first = workers(server)
        assert first
        asyncio.run(eventually(lambda: all(sockets_held(pid) == 0 for pid in first)))

        async def scenario() -> None:
            host = await attach(server, code, ann["token"])
            await start_with_bots(host, "search")
            # Ann moves, the bot never answers; the table comes back to Ann all the same
            await play_first_legal(
                host, 0, "ann-", stop=lambda s: s["pending"] == [0] and s["version"] > 5
            )
            renewed = workers(server)
            if deaf:  # killed with its pool; the fresh workers let the clients' sockets go
                assert renewed and not set(renewed) & set(first)
                # once started, that is: a worker lets them go as it starts
                await eventually(lambda: all(sockets_held(pid) == 0 for pid in renewed))
            else:  # interrupted in its worker, which carries on
                assert renewed == first
            await close(host)

        asyncio.run(scenario())
        match = server.hub.rooms[code].match
        assert match is not None
        moves = [e.action["type"] for e in match.record.entries if e.seat == 1]
        assert moves[:2] == ["roll", moves[1]] and moves[1].startswith("move-")


def test_the_workers_of_a_killed_server_do_not_outlive_it(tmp_path: Path) -> None:
    server = ServerProcess(tmp_path, tmp_path / "rooms.sqlite3")
    try:
        pids = [int(pid) for pid in children(server.process.pid)]
        assert pids  # forked as the server started
    finally:
        server.stop()  # SIGKILL: nothing of the server runs to stop its workers
    asyncio.run(eventually(lambda: not any(alive(pid) for pid in pids)))
