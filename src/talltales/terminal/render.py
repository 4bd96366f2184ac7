"""Rich renderables: boards (a per-game registry, generic fallback), rankings, summaries."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Sequence
from typing import Any

import msgspec
from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.pretty import Pretty
from rich.table import Table
from rich.text import Text

from talltales.core.game import Outcome
from talltales.core.packs import PackInfo
from talltales.simulate import Rate, Spread, Summary

Renderer = Callable[[msgspec.Struct, Sequence[str]], RenderableType | None]

SEAT_STYLES = ("bold red", "bold blue", "bold green", "bold magenta", "bold cyan", "bold yellow")

_RENDERERS: dict[str, Renderer] = {}
_VIEW_TYPES: dict[str, type[msgspec.Struct]] = {}


def register_renderer(game_id: str) -> Callable[[Renderer], Renderer]:
    """Decorator: use this function to draw boards of ``game_id``."""

    def add(renderer: Renderer) -> Renderer:
        _RENDERERS[game_id] = renderer
        return renderer

    return add


def register_view_type(game_id: str, view_type: type[msgspec.Struct]) -> None:
    """Say which Struct the views of ``game_id`` are, so views read from JSON can be typed."""
    _VIEW_TYPES[game_id] = view_type


def typed_view(game_id: str, view: Any) -> msgspec.Struct | None:
    """A view as its game's own type: Structs as they are, JSON objects converted (None: unknown).

    Views that arrive over the wire (the server sends each seat its view as JSON) are plain
    dicts; converting them lets the same boards draw a phone's, a bot's and a terminal's table.
    """
    if isinstance(view, msgspec.Struct):
        return view
    _load_builtin()
    view_type = _VIEW_TYPES.get(game_id)
    if view_type is None or not isinstance(view, dict):
        return None
    try:
        return msgspec.convert(view, view_type)
    except msgspec.ValidationError:
        return None


def render_view(
    game_id: str, view: msgspec.Struct | dict[str, Any], names: Sequence[str]
) -> RenderableType:
    """The game's own board if one is registered and accepts the view, else the generic one.

    ``view`` is the game's view Struct, or the same view as JSON (a dict, as sent to clients).
    """
    _load_builtin()
    typed = typed_view(game_id, view)
    renderer = _RENDERERS.get(game_id)
    board = renderer(typed, names) if renderer and typed is not None else None
    return board if board is not None else generic_view(view)


def generic_view(view: msgspec.Struct | dict[str, Any]) -> RenderableType:
    """Any view, printed as its fields."""
    title = type(view).__name__ if isinstance(view, msgspec.Struct) else "View"
    return Panel(Pretty(msgspec.to_builtins(view)), title=title, expand=False)


def seat_letter(seat: int) -> str:
    """Seats are lettered A, B, C... on the board."""
    return chr(ord("A") + seat) if 0 <= seat < 26 else str(seat)


_HIDDEN = frozenset({"Cc", "Cf", "Co", "Cs"})  # controls, format (bidi, zero-width), private


def plain(text: str) -> str:
    """Text another person typed, safe for a terminal: escape sequences, control and
    format characters (bidi overrides, zero-width) removed, whitespace made spaces."""
    return "".join(
        " " if ch.isspace() else ch
        for ch in text
        if ch.isspace() or unicodedata.category(ch) not in _HIDDEN
    )


def scrubbed(value: Any) -> Any:
    """A server message with every string in it made ``plain`` (keys included)."""
    if isinstance(value, str):
        return plain(value)
    if isinstance(value, list):
        return [scrubbed(v) for v in value]
    if isinstance(value, dict):
        return {plain(k) if isinstance(k, str) else k: scrubbed(v) for k, v in value.items()}
    return value


def seat_style(seat: int) -> str:
    """The colour of a seat's pieces and name."""
    return SEAT_STYLES[seat % len(SEAT_STYLES)]


def seat_text(seat: int, names: Sequence[str]) -> Text:
    """'A (You)' in the seat's colour."""
    name = names[seat] if seat < len(names) else f"seat {seat}"
    return Text(f"{seat_letter(seat)} ({name})", style=seat_style(seat))


def ranking_table(outcome: Outcome, names: Sequence[str]) -> Table:
    """The final ranking: place, seat, score; tied seats share a place."""
    table = Table(title="Final ranking")
    table.add_column("Place", justify="right")
    table.add_column("Seat")
    table.add_column("Score", justify="right")
    place = 1
    for group in outcome.ranking:
        for seat in group:
            label = f"{place}" + (" (tie)" if len(group) > 1 else "")
            table.add_row(label, seat_text(seat, names), str(outcome.scores[seat]))
        place += len(group)
    return table


_SEAT = re.compile(r"\bseat (\d+)\b")


def event_text(text: str, names: Sequence[str]) -> Text:
    """One event as an indented, dimmed line, with 'seat 2' told as that player's name."""

    def name(found: re.Match[str]) -> str:
        seat = int(found[1])
        return names[seat] if seat < len(names) else found[0]

    return Text(f"   {_SEAT.sub(name, text)}", style="dim")


def packs_table(title: str, infos: Sequence[PackInfo]) -> Table:
    """A game's shipped packs (``deck list``): id, title, cards, the defaults marked."""
    table = Table(title=f"Packs for {title}")
    for name in ("Id", "Title", "Cards", "Default"):
        table.add_column(name, justify="right" if name == "Cards" else "left", overflow="fold")
    for info in infos:
        table.add_row(info.id, info.title, str(info.cards), "yes" if info.default else "")
    return table


# --- simulation summaries ---------------------------------------------------------------
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


def length_table(summary: Summary) -> Table:
    """Game length in actions (chance and clock included), in player moves and in ticks."""
    table = Table(title=f"{summary.games} games of {summary.game}: length")
    table.add_column("Counted")
    for name in ("Mean", "sd", "Min", "Max"):
        table.add_column(name, justify="right")
    for name, spread in (
        ("actions (chance and clock too)", summary.actions),
        ("player moves", summary.moves),
        ("clock ticks (timers run out)", summary.ticks),
    ):
        table.add_row(name, f"{spread.mean:.1f}", f"{spread.stdev:.1f}", *_spread_ends(spread))
    return table


def summary_report(summary: Summary) -> Group:
    """Everything a run found, as tables."""
    return Group(length_table(summary), bots_table(summary), seats_table(summary))


def _rate_cells(win: Rate) -> list[str]:
    return [str(win.games), wins(win), interval(win)]


def _spread_ends(spread: Spread) -> list[str]:
    return [f"{spread.min:g}", f"{spread.max:g}"]


def _spread_cells(score: Spread) -> list[str]:
    return [f"{score.mean:.2f} ± {score.stdev:.2f}", f"{score.min:g}..{score.max:g}"]


def _load_builtin() -> None:
    import talltales.terminal.believe_board
    import talltales.terminal.boards  # noqa: F401  (registers the shipped boards and views)
