"""Engine throughput on one core: random playouts through the raw game API, and bot speed.

Run with ``uv run python bench/engine.py [--seconds 5] [--profile]``. Nothing here asserts
a timing; the figures are for comparing changes on the same machine.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import statistics
import time
from typing import Any

from rich.console import Console
from rich.table import Table

from talltales.bots import make_bot
from talltales.core.game import CHANCE, Game
from talltales.core.packs import choose_packs
from talltales.core.registry import games
from talltales.core.rng import Rng


def player_counts(game: Game[Any, Any]) -> list[int]:
    """2, 4 and the maximum, where the game allows them (and the minimum if above 2)."""
    wanted = {game.min_players, 2, 4, game.max_players}
    return sorted(n for n in wanted if game.min_players <= n <= game.max_players)


def step(game: Game[Any, Any], state: Any, rng: Rng) -> None:
    """One action: a chance draw, a random legal player action, or a clock tick."""
    pending = game.pending(state)
    if CHANCE in pending:
        game.apply(state, CHANCE, game.sample_chance(state))
        return
    if not pending:
        due = game.deadline(state)
        if due is None:
            raise RuntimeError(f"{game.id}: stuck with nobody to move")
        game.tick(state, due)
        return
    seat = min(pending)  # the lowest pending seat (CHANCE was handled above)
    action = rng.choice(game.legal_actions(state, seat))
    game.validate(state, seat, action)
    game.apply(state, seat, action)


def playouts(game: Game[Any, Any], players: int, seconds: float) -> tuple[float, float]:
    """Random games until ``seconds`` pass; returns (actions/s, games/s)."""
    rng, options, packs = Rng(1), game.options(None), choose_packs(game)
    actions = finished = 0
    start = time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds:
        state = game.setup(players, options, finished, packs)
        while game.outcome(state) is None:
            step(game, state, rng)
            actions += 1
        finished += 1
    return actions / elapsed, finished / elapsed


def bot_speed(game: Game[Any, Any], spec: str, players: int, seconds: float) -> float:
    """Decisions per second of a bot seated everywhere (forced single choices not counted)."""
    bot, rng, options, packs = make_bot(spec, 1), Rng(2), game.options(None), choose_packs(game)
    decisions, spent, seed = 0, 0.0, 0
    while spent < seconds:
        state = game.setup(players, options, seed, packs)
        seed += 1
        while game.outcome(state) is None and spent < seconds:
            pending = sorted(s for s in game.pending(state) if s >= 0)
            if CHANCE in game.pending(state) or not pending:
                step(game, state, rng)
                continue
            seat = pending[0]
            if len(game.legal_actions(state, seat)) == 1:
                step(game, state, rng)
                continue
            began = time.perf_counter()
            action = bot.choose(game, state, seat)
            spent += time.perf_counter() - began
            decisions += 1
            game.apply(state, seat, action)
    return decisions / spent if spent else 0.0


ANCHOR = "would-you-believe-it"  # the game every other game's speed is compared with
SLICES = 5  # each measurement is cut into slices, interleaved with the anchor's


def interleaved(
    game: Game[Any, Any], anchor: Game[Any, Any], players: int, seconds: float
) -> tuple[float, float, float]:
    """(actions/s, games/s, ratio of actions/s to the anchor's): medians over slices that
    alternate between the game and the anchor, so a machine slowing down for a while
    (a shared host) weighs on both alike."""
    mine: list[tuple[float, float]] = []
    ratios: list[float] = []
    for _ in range(SLICES):
        rate = playouts(game, players, seconds / SLICES)
        base = playouts(anchor, players, seconds / SLICES)[0]
        mine.append(rate)
        ratios.append(rate[0] / base if base else 0.0)
    return (
        statistics.median(r[0] for r in mine),
        statistics.median(r[1] for r in mine),
        statistics.median(ratios),
    )


def playout_table(seconds: float) -> Table:
    """Random-playout throughput per game and player count, and its ratio to the anchor
    game's at the same player count, measured in slices interleaved with the anchor's."""
    table = Table(title=f"Random playouts, one core ({seconds:g} s each)")
    for name in ("Game", "Players", "Actions/s", "Games/s", "Actions/game", f"vs {ANCHOR}"):
        table.add_column(name, justify="left" if name == "Game" else "right")
    anchor = next(g for g in games() if g.id == ANCHOR)
    for game in sorted(games(), key=lambda g: g.id != ANCHOR):
        for players in player_counts(game):
            per_action, per_game, ratio = interleaved(game, anchor, players, seconds)
            table.add_row(
                game.id,
                str(players),
                f"{per_action:,.0f}",
                f"{per_game:,.1f}",
                f"{per_action / per_game:,.1f}" if per_game else "-",
                f"{ratio:.2f}x",
            )
    return table


def bot_table(seconds: float) -> Table:
    """Bot decisions per second, at the smallest player count of two or more."""
    table = Table(title=f"Bot decisions (choices of two or more; {seconds:g} s each)")
    for name in ("Game", "Players", "Bot", "Decisions/s", "ms/decision"):
        table.add_column(name, justify="left" if name in ("Game", "Bot") else "right")
    for game in games():
        players = max(2, game.min_players)
        for spec in ("greedy", "search", "smart"):
            rate = bot_speed(game, spec, players, seconds)
            ms = f"{1000 / rate:.2f}" if rate else "-"
            table.add_row(game.id, str(players), spec, f"{rate:,.0f}", ms)
    return table


def profile(seconds: float) -> None:
    """Profile random playouts of the first game and print the costliest calls."""
    game = games()[0]
    profiler = cProfile.Profile()
    profiler.runcall(playouts, game, max(2, game.min_players), seconds)
    pstats.Stats(profiler).sort_stats("cumulative").print_stats(20)


def main() -> None:
    """Parse the arguments and print the tables."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="time per measurement")
    parser.add_argument("--profile", action="store_true", help="profile random playouts")
    args = parser.parse_args()
    if args.profile:
        profile(args.seconds)
        return
    console = Console()
    console.print(playout_table(args.seconds))
    console.print(bot_table(args.seconds))


if __name__ == "__main__":
    main()
