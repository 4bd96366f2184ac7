"""Believe It or Not! in a terminal: the snaking path with its special spaces, the pawns,
the card in play, your hand and what just happened."""

from __future__ import annotations

from collections.abc import Sequence

import msgspec
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from talltales.games.believe_it_or_not.view import CardView, PlayView, SpaceView, View
from talltales.terminal.render import (
    register_renderer,
    register_view_type,
    seat_letter,
    seat_style,
    seat_text,
)

MARKS = {"start": "GO", "won": "WIN", "trade": "⇄", "speed-up": "»2", "shortcut": "✂"}
STYLES = {
    "start": "bold",
    "won": "bold green",
    "move": "cyan",
    "trade": "magenta",
    "speed-up": "yellow",
    "slide": "blue",
    "shortcut": "bold yellow",
}
LEGEND = "+n/-n move space  ⇄ trade places  »2 speed up  ↘n slide to n  ✂ shortcut"


def mark(space: SpaceView) -> str:
    """The few characters a space shows: its number or what it does."""
    match space.kind:
        case "move":
            return f"{space.move:+d}"
        case "slide":
            return f"↘{space.end}"
        case "plain":
            return str(space.index)
        case kind:
            return MARKS.get(kind, "?")


def cell(view: View, space: SpaceView) -> Text:
    """One space: its mark, and the letters of the pawns on it."""
    text = Text(mark(space), style=STYLES.get(space.kind, "dim"), justify="center")
    pawns = [s for s, p in enumerate(view.pawns) if p == space.index]
    if pawns:
        text.append("\n")
        for seat in pawns:
            text.append(seat_letter(seat), style=f"reverse {seat_style(seat)}")
    return text


def board_grid(view: View) -> Table:
    """The board on its grid, as the board file places each space."""
    board = view.board
    grid = Table(show_header=False, show_edge=False, box=None, padding=(0, 0))
    for _ in range(board.columns):
        grid.add_column(justify="center", width=4)
    rows: list[list[Text]] = [[Text("") for _ in range(board.columns)] for _ in range(board.rows)]
    for space in board.spaces:
        rows[space.y][space.x] = cell(view, space)
    for row in rows:
        grid.add_row(*row)
    return grid


def card_line(card: CardView) -> Text:
    """A card from the hand, in a line."""
    if card.kind == "movement":
        return Text(f"Movement: move {card.count} {card.direction}", style="bold")
    title = card.kind.replace("-", " ").title()
    spaces = "space" if card.advance == 1 else "spaces"
    return Text(f"{title} · ask {card.ask} · {card.advance} {spaces}", style="bold")


def play_lines(play: PlayView, names: Sequence[str]) -> list[RenderableType]:
    """The card in play as far as this seat may see it."""
    head = Text("Challenge! " if play.challenge else "", style="bold red")
    head.append_text(seat_text(play.asker, names))
    if play.answerer is not None:
        head.append(" asks ").append_text(seat_text(play.answerer, names))
    if play.advance:
        head.append(f"  ({play.advance} spaces at stake)", style="dim")
    lines: list[RenderableType] = [head]
    if play.question is not None:
        lines.append(Text(play.question.text, style="bold"))
        letters = "ABCD"
        lines += [Text(f"  {letters[k]}. {a}") for k, a in enumerate(play.question.answers)]
        if play.question.correct:
            lines.append(Text(play.question.correct, style="green"))
    elif play.said:
        lines.append(Text(f"“{play.said}”", style="bold"))
    if play.claim:
        word = "ahead" if play.claim > 0 else "back"
        lines.append(Text(f"Claims the card moves them {abs(play.claim)} {word}", style="bold"))
    if play.disputer is not None:
        lines.append(Text("Disputed by ").append_text(seat_text(play.disputer, names)))
    if play.verdict:
        lines.append(Text(play.verdict, style="italic"))
    if play.card is not None and play.card.kind == "bluff" and play.card.truth:
        lines.append(Text(f"The real fact: {play.card.truth}", style="dim"))
    return lines


def status(view: View, names: Sequence[str]) -> Text:
    """Whose turn, or who won."""
    if view.winner is not None:
        return Text("Winner: ", style="bold green").append_text(seat_text(view.winner, names))
    text = Text("Tern token: ").append_text(seat_text(view.tern, names))
    text.append(f"   draw pile {view.draw_pile}, discards {view.discards}", style="dim")
    return text


register_view_type("believe-it-or-not", View)


@register_renderer("believe-it-or-not")
def believe_it_or_not(view: msgspec.Struct, names: Sequence[str]) -> RenderableType | None:
    """The board, pawns, card in play, your hand and the latest happenings."""
    if not isinstance(view, View):
        return None
    parts: list[RenderableType] = [board_grid(view), Text(LEGEND, style="dim")]
    places = Text()
    for seat, place in enumerate(view.places):
        places.append_text(seat_text(seat, names)).append(f" {place}   ")
    parts.append(places)
    if view.play is not None:
        parts += play_lines(view.play, names)
    elif view.last is not None:
        parts.append(Text("The card before:", style="underline"))
        parts += play_lines(view.last, names)
    if view.hand:
        parts.append(Text("Your hand:", style="underline"))
        parts += [card_line(c) for c in view.hand]
    parts += [Text(line, style="dim") for line in view.log[-3:]]
    parts.append(status(view, names))
    return Group(*parts)
