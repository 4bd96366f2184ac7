"""Boards of the shipped games, registered with the terminal renderer."""

from __future__ import annotations

from collections.abc import Sequence

import msgspec
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from talltales.games.would_you_believe_it.view import View as WybiView
from talltales.terminal.render import (
    register_renderer,
    register_view_type,
    seat_letter,
    seat_style,
    seat_text,
)

ROUTE_COLUMNS = 8
GUARD_STYLE = "bold black on white"


def card_style(label: str) -> str:
    """Plus cards green, minus cards red, fortune cards yellow."""
    if label == "F":
        return "bold yellow"
    return "bold green" if label.startswith("+") else "bold red"


def pieces_at(view: WybiView, position: int) -> Text:
    """The figures (seat letters, coloured) and guards (G) standing on ``position``."""
    text = Text()
    for player in view.players:
        count = player.figures.count(position)
        if count:
            if text:
                text.append(" ")
            text.append(seat_letter(player.seat) * count, style=seat_style(player.seat))
    guards = view.guards.count(position)
    if guards:
        if text:
            text.append(" ")
        text.append("G" * guards, style=GUARD_STYLE)
    return text


def route_cell(view: WybiView, index: int) -> Text:
    """One route place: its number, its card (blank once taken) and who stands there."""
    card = view.route[index]
    text = Text(f"#{card.position}", style="dim", justify="center")
    text.append("\n")
    if card.present:
        text.append(card.card, style=card_style(card.card))
    text.append("\n")
    text.append_text(pieces_at(view, card.position))
    return text


def route_grid(view: WybiView) -> Table:
    """The route in rows of eight, read left to right, top to bottom."""
    grid = Table(show_header=False, show_lines=True, padding=(0, 1))
    for _ in range(ROUTE_COLUMNS):
        grid.add_column(justify="center", min_width=5)
    cells = [route_cell(view, i) for i in range(len(view.route))]
    for start in range(0, len(cells), ROUTE_COLUMNS):
        row = cells[start : start + ROUTE_COLUMNS]
        grid.add_row(*row, *[Text("")] * (ROUTE_COLUMNS - len(row)))
    return grid


def place(view: WybiView, position: int) -> str:
    """'Start', 'Finish' or the card at that place ('+3 #7')."""
    if position == view.start:
        return "Start"
    if position == view.finish:
        return "Finish"
    return f"{view.route[position - 1].card} #{position}"


def players_table(view: WybiView, names: Sequence[str]) -> Table:
    """Each seat's figures, collected cards and running score; the die holder marked."""
    table = Table(show_edge=False, pad_edge=False)
    for title in ("", "Seat", "Figures", "Collected", "Score"):
        table.add_column(title, justify="right" if title == "Score" else "left")
    for player in view.players:
        marker = "▶" if player.seat == view.turn and view.phase != "over" else ""
        collected = Text()
        for label in player.collected:
            collected.append(label, style=card_style(label)).append(" ")
        figures = ", ".join(place(view, p) for p in player.figures)
        seat = seat_text(player.seat, names)
        if player.finished:
            seat.append(" ✓", style="green")
        table.add_row(marker, seat, figures, collected, str(player.score))
    return table


def status_line(view: WybiView, names: Sequence[str]) -> Text:
    """Whose turn it is and what the die shows."""
    if view.phase == "over":
        return Text("Every figure is at Finish: the game is over.", style="bold")
    text = Text("Turn: ").append_text(seat_text(view.turn, names))
    if view.roll:
        text.append(f"   rolled {view.roll}", style="bold")
    else:
        text.append("   to roll the die", style="dim")
    return text


def end_line(view: WybiView, position: int, label: str) -> Text:
    """Start or Finish with the figures standing there."""
    text = Text(f"{label}: ", style="bold")
    pieces = pieces_at(view, position)
    return text.append_text(pieces) if pieces else text.append("—", style="dim")


register_view_type("would-you-believe-it", WybiView)  # views that arrive as JSON


@register_renderer("would-you-believe-it")
def would_you_believe_it(view: msgspec.Struct, names: Sequence[str]) -> RenderableType | None:
    """The route as a grid, Start and Finish, the players' cards and scores, whose turn."""
    if not isinstance(view, WybiView):
        return None
    return Group(
        end_line(view, view.start, "Start"),
        route_grid(view),
        end_line(view, view.finish, "Finish"),
        Text("G = guard   + plus   - minus   F fortune   blank: card taken", style="dim"),
        players_table(view, names),
        status_line(view, names),
    )
