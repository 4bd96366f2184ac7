"""Bot-versus-bot simulation: many games through the ``Driver``, then win rates and spreads.

Everything here is pure apart from the process pool: the same seed gives the same
results whatever the number of workers, because every game's seed and line-up is
fixed before any game is played and results are put back in game order. Games run on
virtual time: each bot decision takes ``BOT_THINK_MS``, so timers run out as they would
at a table, without anyone waiting.
"""

from __future__ import annotations

import math
import os
import statistics
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from typing import Any

import msgspec

from talltales.bots import make_bot
from talltales.core import rng
from talltales.core.driver import BOT_THINK_MS, Driver, Stuck, VirtualClock
from talltales.core.errors import OptionsError, TallTalesError
from talltales.core.game import CLOCK
from talltales.core.match import Match
from talltales.core.packs import choose_packs
from talltales.core.registry import get_game

MAX_ACTIONS = 100_000  # a game still running after this many actions is a bug, not a game
Z95 = 1.959963984540054  # the normal quantile for a two-sided 95% interval


class GameResult(msgspec.Struct, frozen=True):
    """One finished game: who sat where, the scores, the ranking and how long it ran."""

    index: int
    game: str
    seed: int
    seats: list[str]  # the bot spec at each seat
    scores: list[int]
    ranking: list[list[int]]
    actions: int  # every applied action, chance and clock included
    moves: int  # the actions players chose
    ticks: int = 0  # the clock's ticks: timers that ran out


class Job(msgspec.Struct, frozen=True):
    """One game to play: its place in the run, its seed and its line-up."""

    index: int
    game: str
    seats: list[str]
    seed: int
    options: dict[str, Any] = {}
    packs: list[str] = []  # shipped pack ids or pack files; none: the game's defaults


class Spread(msgspec.Struct, frozen=True):
    """Mean, sample standard deviation, minimum and maximum of some numbers."""

    mean: float
    stdev: float
    min: float
    max: float


class Rate(msgspec.Struct, frozen=True):
    """Wins (ties share: 1/k each) out of games, with a 95% Wilson interval."""

    wins: float
    games: int
    rate: float
    low: float
    high: float


class BotSummary(msgspec.Struct, frozen=True):
    """How one bot spec did over every seat it filled."""

    bot: str
    win: Rate
    score: Spread


class SeatSummary(msgspec.Struct, frozen=True):
    """How whoever sat at one position did."""

    seat: int
    win: Rate
    score: Spread


class Summary(msgspec.Struct, frozen=True):
    """The whole run: per bot, per seat position and game length."""

    game: str
    games: int
    bots: list[BotSummary]
    seats: list[SeatSummary]
    actions: Spread
    moves: Spread
    ticks: Spread
    settings: dict[str, Any] = {}


def derive(seed: int, k: int) -> int:
    """The ``k``-th non-negative 63-bit sub-seed of ``seed`` (for games and bots)."""
    return rng.seed_state(rng.seed_state(seed) + k + 1) >> 1


def wilson(wins: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for ``wins`` successes in ``n`` trials (95% by default)."""
    if n <= 0:
        return 0.0, 1.0
    p = min(max(wins / n, 0.0), 1.0)
    z2 = z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    low = 0.0 if wins <= 0 else max(0.0, centre - half)  # exact at the ends, no rounding dust
    high = 1.0 if wins >= n else min(1.0, centre + half)
    return low, high


def bot_spec(text: str) -> str:
    """Normalise a seat given as 'bot:search:depth=3' or 'search:depth=3' to the bot spec."""
    spec = text.strip()
    if spec.startswith("bot:"):
        spec = spec[4:]
    elif spec == "bot":
        spec = "search"
    make_bot(spec)  # refuses unknown bots and parameters early
    return spec


def play_one(
    game_id: str,
    seat_specs: Sequence[str],
    seed: int,
    options: dict[str, Any] | None = None,
    packs: Sequence[str] = (),
) -> GameResult:
    """Play one game between bots through the ``Driver`` on virtual time; report how it went."""
    game = get_game(game_id)
    match: Match[Any, Any] = Match(game, len(seat_specs), options, seed, choose_packs(game, packs))
    bots = {s: make_bot(spec, derive(seed, s)) for s, spec in enumerate(seat_specs)}
    driver = Driver(match, bots, VirtualClock(), seed=seed, think_ms=BOT_THINK_MS)
    try:
        driver.run(MAX_ACTIONS)
    except Stuck as exc:
        raise TallTalesError(f"{exc.reason} (seed {seed})") from exc
    outcome = match.outcome()
    assert outcome is not None
    entries = match.record.entries
    return GameResult(
        index=0,
        game=game_id,
        seed=seed,
        seats=list(seat_specs),
        scores=list(outcome.scores),
        ranking=[list(group) for group in outcome.ranking],
        actions=len(entries),
        moves=sum(1 for e in entries if e.seat >= 0),
        ticks=sum(1 for e in entries if e.seat == CLOCK),
    )


def plan(
    game_id: str,
    seat_specs: Sequence[str],
    n: int,
    seed: int,
    options: dict[str, Any] | None = None,
    rotate: bool = True,
    packs: Sequence[str] = (),
) -> list[Job]:
    """The games of a run; rotating, each block of k games replays one seed k ways round."""
    if n < 1:
        raise OptionsError("simulate at least one game")
    game = get_game(game_id)
    game.check_players(len(seat_specs))
    game.options(options)  # refuse bad options and packs before any worker starts
    choose_packs(game, packs)
    k = len(seat_specs)
    jobs = []
    for i in range(n):
        if rotate:
            lineup = [seat_specs[(s + i) % k] for s in range(k)]
            game_seed = derive(seed, i // k)
        else:
            lineup, game_seed = list(seat_specs), derive(seed, i)
        jobs.append(Job(i, game_id, lineup, game_seed, dict(options or {}), list(packs)))
    return jobs


def play_jobs(jobs: Sequence[Job]) -> list[GameResult]:
    """Play a chunk of jobs in order (the unit of work a process-pool worker runs)."""
    results = []
    for job in jobs:
        result = play_one(job.game, job.seats, job.seed, job.options, job.packs)
        results.append(msgspec.structs.replace(result, index=job.index))
    return results


def chunks(jobs: Sequence[Job], workers: int) -> Iterator[list[Job]]:
    """Split jobs into chunks: several per worker, for balance and a lively progress bar."""
    size = max(1, min(50, math.ceil(len(jobs) / (max(1, workers) * 8))))
    for start in range(0, len(jobs), size):
        yield list(jobs[start : start + size])


def run(
    jobs: Sequence[Job],
    workers: int | None = None,
    progress: Callable[..., object] | None = None,
) -> list[GameResult]:
    """Play every job across ``workers`` processes (one: in this process), in job order.

    ``progress(advance=k)`` is called as each chunk of ``k`` games finishes.
    """
    workers = workers or os.cpu_count() or 1
    results: list[GameResult] = []
    if workers == 1:
        for chunk in chunks(jobs, 1):
            results += play_jobs(chunk)
            if progress:
                progress(advance=len(chunk))
    else:
        with ProcessPoolExecutor(max_workers=workers) as pool:
            futures = [pool.submit(play_jobs, chunk) for chunk in chunks(jobs, workers)]
            for future in as_completed(futures):
                done = future.result()
                results += done
                if progress:
                    progress(advance=len(done))
    return sorted(results, key=lambda r: r.index)


def spread(values: Sequence[float]) -> Spread:
    """Mean, sample stdev (0 for fewer than two), min and max; zeros when empty."""
    if not values:
        return Spread(0.0, 0.0, 0.0, 0.0)
    stdev = statistics.stdev(values) if len(values) > 1 else 0.0
    return Spread(statistics.fmean(values), stdev, float(min(values)), float(max(values)))


def rate(wins: float, games: int) -> Rate:
    """A win count as a rate with its Wilson interval."""
    low, high = wilson(wins, games)
    return Rate(round(wins, 9), games, wins / games if games else 0.0, low, high)


def win_shares(result: GameResult) -> list[float]:
    """Each seat's share of the win: 1/k for each of k seats tied first, else 0."""
    shares = [0.0] * len(result.scores)
    winners = result.ranking[0] if result.ranking else []
    for seat in winners:
        shares[seat] = 1 / len(winners)
    return shares


class _Tally:
    """Win shares and scores collected for one bot or one seat position."""

    def __init__(self) -> None:
        self.wins: list[float] = []
        self.scores: list[float] = []

    def add(self, share: float, score: int) -> None:
        """Count one seat-game."""
        self.wins.append(share)
        self.scores.append(float(score))

    def rate(self) -> Rate:
        """The win rate with its interval."""
        return rate(sum(self.wins), len(self.wins))


def summarise(results: Sequence[GameResult]) -> Summary:
    """Win rates with intervals per bot and per seat position, scores and game lengths."""
    by_bot: dict[str, _Tally] = {}
    by_seat: dict[int, _Tally] = {}
    for result in results:
        for seat, share in enumerate(win_shares(result)):
            by_bot.setdefault(result.seats[seat], _Tally()).add(share, result.scores[seat])
            by_seat.setdefault(seat, _Tally()).add(share, result.scores[seat])
    return Summary(
        game=results[0].game if results else "",
        games=len(results),
        bots=[BotSummary(bot, t.rate(), spread(t.scores)) for bot, t in by_bot.items()],
        seats=[SeatSummary(s, t.rate(), spread(t.scores)) for s, t in sorted(by_seat.items())],
        actions=spread([float(r.actions) for r in results]),
        moves=spread([float(r.moves) for r in results]),
        ticks=spread([float(r.ticks) for r in results]),
    )
