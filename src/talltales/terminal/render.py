"""Turning views into Rich renderables: a per-game board registry and a generic fallback."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import msgspec
from rich.console import RenderableType
from rich.panel import Panel
from rich.pretty import Pretty
from rich.table import Table
from rich.text import Text

from talltales.core.game import Event, Outcome

Renderer = Callable[[msgspec.Struct, Sequence[str]], RenderableType | None]

SEAT_STYLES = ("bold red", "bold blue", "bold green", "bold magenta", "bold cyan", "bold yellow")

_RENDERERS: dict[str, Renderer] = {}


def register_renderer(game_id: str) -> Callable[[Renderer], Renderer]:
    """Decorator: use this function to draw boards of ``game_id``."""

    def add(renderer: Renderer) -> Renderer:
        _RENDERERS[game_id] = renderer
        return renderer

    return add


def render_view(game_id: str, view: msgspec.Struct, names: Sequence[str]) -> RenderableType:
    """The game's own board if one is registered and accepts the view, else the generic one."""
    _load_builtin()
    renderer = _RENDERERS.get(game_id)
    board = renderer(view, names) if renderer else None
    return board if board is not None else generic_view(view)


def generic_view(view: msgspec.Struct) -> RenderableType:
    """Any view, printed as its fields."""
    return Panel(Pretty(msgspec.to_builtins(view)), title=type(view).__name__, expand=False)


def seat_letter(seat: int) -> str:
    """Seats are lettered A, B, C... on the board."""
    return chr(ord("A") + seat) if 0 <= seat < 26 else str(seat)


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


def event_text(event: Event) -> Text:
    """One event as an indented, dimmed line."""
    return Text(f"   {event.text}", style="dim")


def _load_builtin() -> None:
    import talltales.terminal.boards  # noqa: F401  (registers the shipped boards)
