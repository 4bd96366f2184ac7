"""Simulation summaries as Rich tables."""

from __future__ import annotations

from rich.console import Group
from rich.table import Table
from rich.text import Text

from talltales.simulate import Rate, Spread, Summary

RATE_COLUMNS = ("Games", "Wins", "Win rate [95% CI]")


def percent(value: float) -> str:
    """0.4567 as '45.7%'."""
    return f"{100 * value:.1f}%"


def interval(win: Rate) -> str:
    """The rate and its 95% interval as '45.7% [38.9, 52.6]'."""
    return f"{percent(win.rate)} [{100 * win.low:.1f}, {100 * win.high:.1f}]"


def wins(win: Rate) -> str:
    """Wins without a needless fraction: '12' or '12.5'."""
    return f"{win.wins:g}" if win.wins == int(win.wins) else f"{win.wins:.2f}"


def bots_table(summary: Summary) -> Table:
    """Per bot: seats filled, wins, win rate with interval, and the spread of its scores."""
    table = Table(title="By bot (one game per seat filled; ties share the win)")
    for name in ("Bot", *RATE_COLUMNS, "Score mean ± sd", "Range"):
        table.add_column(name, justify="left" if name == "Bot" else "right", no_wrap=True)
    for bot in summary.bots:
        table.add_row(bot.bot, *_rate_cells(bot.win), *_spread_cells(bot.score))
    return table


def seats_table(summary: Summary) -> Table:
    """Per seat position, whoever sat there: wins, win rate with interval, scores."""
    table = Table(title="By seat position")
    for name in ("Seat", *RATE_COLUMNS, "Score mean ± sd", "Range"):
        table.add_column(name, justify="right", no_wrap=True)
    for seat in summary.seats:
        table.add_row(str(seat.seat), *_rate_cells(seat.win), *_spread_cells(seat.score))
    return table


def length_line(summary: Summary) -> Text:
    """Mean game length in actions (chance included) and player moves."""
    a, m = summary.actions, summary.moves
    return Text(
        f"{summary.games} games of {summary.game}. Mean length: {a.mean:.1f} actions"
        f" (sd {a.stdev:.1f}, {a.min:g}-{a.max:g}), of which {m.mean:.1f} player moves"
        f" (sd {m.stdev:.1f}, {m.min:g}-{m.max:g})."
    )


def summary_report(summary: Summary) -> Group:
    """Everything a run found, as tables."""
    return Group(length_line(summary), bots_table(summary), seats_table(summary))


def _rate_cells(win: Rate) -> list[str]:
    return [str(win.games), wins(win), interval(win)]


def _spread_cells(score: Spread) -> list[str]:
    return [f"{score.mean:.2f} ± {score.stdev:.2f}", f"{score.min:g}..{score.max:g}"]
