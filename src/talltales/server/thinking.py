"""Where the server's bots think: worker processes by default, threads for tests and embedding.

A CPU-bound bot in a thread of the server's process holds the GIL for most of its budget,
and every other room's round trip waits for it (bench/slow_bot.py measures how much). In a
worker process it holds nothing the event loop needs. A worker is sent only what the bot
needs (a ``Job``: the game's id, the bot's spec, a fresh seed, the seat, the budget and the
seat's sample as JSON), builds the bot afresh and answers with the action as builtins.

Workers are forked (on POSIX), so they know every game the server knows (fixture games
that tests register included) and the bot factory as the server has it (``make_bot``,
replaced by tests and the bench before the server starts). They are forked when the server
starts, before it opens a socket; a pool forked later (after a stuck worker was killed)
lets go of the sockets it inherited, so a connection the server closes really closes.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import os
import signal
import stat
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import BrokenExecutor, Executor, ProcessPoolExecutor, ThreadPoolExecutor
from types import FrameType
from typing import Any

import msgspec

from talltales import bots
from talltales.core.registry import get_game

log = logging.getLogger("talltales.server")
WORKER_NICENESS = 10  # bots yield the CPU to the server's event loop when both want it
ABANDON_MARGIN = 0.5  # s past budget + grace before a worker that never answers is killed
PARENT_POLL = 0.5  # s between a worker's checks that the server is still there
FD_DIR = "/proc/self/fd" if os.path.isdir("/proc/self/fd") else "/dev/fd"
_in_worker = False  # set in worker processes: only there may a bot's deadline be a signal
# what builds a bot from its spec and seed; tests and the bench put their own here before
# the server starts (forked workers inherit it)
make_bot: Callable[[str, int], bots.Bot] = bots.make_bot


class Job(msgspec.Struct, frozen=True):
    """One question to a bot: all a worker needs, and nothing of the true state."""

    game: str
    bot: str
    seed: int
    seat: int
    budget: float
    grace: float
    sample: bytes  # the seat's sample (``Driver.observe``), msgspec JSON


class Overran(BaseException):
    """The bot thought past its budget and grace (not an Exception: a bot's own ``except
    Exception`` must not swallow it)."""


def think(job: Job) -> dict[str, Any] | None:
    """The bot's action as builtins, or None when it overran (runs in a worker)."""
    game = get_game(job.game)
    state = msgspec.json.decode(job.sample, type=game.state_type)
    bot = make_bot(job.bot, job.seed)
    try:
        with _deadline(job.budget + job.grace):
            action = bot.choose(game, state, job.seat, budget=job.budget)
    except Overran:
        return None
    answer = msgspec.to_builtins(action)
    return answer if isinstance(answer, dict) else None


@contextlib.contextmanager
def _deadline(seconds: float) -> Iterator[None]:
    """Interrupt a worker process's bot after ``seconds`` (a thread cannot be: the pool
    stops waiting for it instead)."""
    timed = _in_worker and hasattr(signal, "setitimer")  # POSIX only
    if not timed or threading.current_thread() is not threading.main_thread():
        yield
        return

    def overran(signum: int, frame: FrameType | None) -> None:
        raise Overran

    previous = signal.signal(signal.SIGALRM, overran)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def _worker_started() -> None:
    """A fresh worker: lower priority, no Ctrl-C of its own, none of the server's sockets."""
    global _in_worker
    _in_worker = True
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the server stops its workers itself
    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # not the server's graceful handler
    with contextlib.suppress(OSError, AttributeError):  # no niceness on Windows
        os.nice(WORKER_NICENESS)
    _drop_sockets()
    server = os.getppid()
    threading.Thread(target=_outlive_not, args=(server,), daemon=True).start()


def _outlive_not(server: int) -> None:
    """Exit once the server is gone: killed, it cannot stop its workers itself, and they
    would wait for work forever (each holds the others' ends of the pool's pipes)."""
    while os.getppid() == server:
        time.sleep(PARENT_POLL)
    os._exit(0)


def _drop_sockets() -> None:
    """Point every inherited socket at /dev/null: the server alone holds its connections."""
    try:
        names = os.listdir(FD_DIR)
    except OSError:  # no way to list them here (not Linux, macOS or a BSD)
        return
    null = os.open(os.devnull, os.O_RDWR)
    try:
        for name in names:
            with contextlib.suppress(OSError, ValueError):
                fd = int(name)
                if fd != null and stat.S_ISSOCK(os.fstat(fd).st_mode):
                    # replaced, not closed: the number stays taken, so a stray close of a
                    # socket object copied from the server can close nothing else
                    os.dup2(null, fd)
    finally:
        os.close(null)


class BotPool:
    """Bots thinking, at most ``workers`` at once; a bot past its time is abandoned."""

    def __init__(self, kind: str, workers: int) -> None:
        self.kind = kind
        self.workers = max(1, workers)
        self.slots = asyncio.Semaphore(self.workers)
        self.executor = self._executor()

    def _executor(self) -> Executor:
        if self.kind == "thread":
            return ThreadPoolExecutor(self.workers, thread_name_prefix="talltales-bot")
        methods = multiprocessing.get_all_start_methods()
        context = multiprocessing.get_context("fork" if "fork" in methods else None)
        return ProcessPoolExecutor(self.workers, context, initializer=_worker_started)

    def start(self) -> None:
        """Start the workers now (forked processes start all at once, before any socket)."""
        self.executor.submit(int)

    def slot(self) -> asyncio.Semaphore:
        """Held while a bot is asked and answers: a job sent then starts at once, so its
        time is all thinking, and its sample is taken as late as can be."""
        return self.slots

    async def answer(self, job: Job) -> dict[str, Any] | None:
        """The bot's action as builtins; None when it overran, failed or was abandoned (call
        holding a ``slot``)."""
        executor = self.executor
        thinking = asyncio.get_running_loop().run_in_executor(executor, think, job)
        try:
            return await asyncio.wait_for(thinking, job.budget + job.grace + ABANDON_MARGIN)
        except TimeoutError:
            log.error("a %s bot gave no answer in time; abandoned", job.bot)
            self._renew(executor)
        except BrokenExecutor:
            log.error("a bot's worker died; the pool is started afresh")
            self._renew(executor)
        except Exception:
            log.exception("a %s bot failed", job.bot)
        return None

    def _renew(self, broken: Executor) -> None:
        """Replace the pool (once, whoever notices first); its processes are killed."""
        if broken is not self.executor:
            return
        self.executor = self._executor()
        _shut(broken)
        self.start()  # the next bot need not wait for a fork

    def stop(self) -> None:
        """No more jobs; bots thinking are stopped (processes) or left to finish (threads)."""
        _shut(self.executor)


def _shut(executor: Executor) -> None:
    processes = getattr(executor, "_processes", None) or {}  # shutdown forgets them
    stuck = list(processes.values())
    executor.shutdown(wait=False, cancel_futures=True)
    for process in stuck:
        process.kill()  # a thread cannot be stopped; a process can
