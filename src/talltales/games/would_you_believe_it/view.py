"""Views of Would You Believe It!, built field by field from the state (an allow-list)."""

from __future__ import annotations

import msgspec

from talltales.games.would_you_believe_it import board
from talltales.games.would_you_believe_it.moves import destination, takes_card_on_leaving
from talltales.games.would_you_believe_it.state import Action, MoveFigure, MoveGuard, State


class RouteCard(msgspec.Struct, frozen=True):
    """One place on the route: its card label, and whether it is still there."""

    position: int
    card: str
    present: bool


class Choice(msgspec.Struct, frozen=True):
    """A move the seat could make now, with where it lands and what it would collect."""

    action: dict[str, str | int]
    piece: str  # "figure" or "guard"
    index: int
    start: int
    end: int
    lands_on: str
    collects: str | None


class PlayerView(msgspec.Struct, frozen=True):
    """One player's pieces, cards and running score."""

    seat: int
    figures: list[int]
    collected: list[str]
    score: int
    finished: bool


class View(msgspec.Struct, frozen=True):
    """The table as one seat (or the public, seat None) sees it."""

    game: str
    seat: int | None
    phase: str
    turn: int
    roll: int
    route: list[RouteCard]
    guards: list[int]
    players: list[PlayerView]
    choices: list[Choice]
    start: int = board.START
    finish: int = board.FINISH


def place_name(state: State, position: int) -> str:
    """'Start', 'Finish' or a card label."""
    if position == board.START:
        return "Start"
    if position == board.FINISH:
        return "Finish"
    return board.label(state.route[position - 1])


def _choice(state: State, seat: int, action: Action) -> Choice | None:

    match action:
        case MoveFigure(figure=k):
            piece, index, start = "figure", k, state.figures[seat][k]
        case MoveGuard(guard=g):
            piece, index, start = "guard", g, state.guards[g]
        case _:
            return None
    end = destination(state, start, state.roll)
    collects = None
    if piece == "figure" and takes_card_on_leaving(state, start):
        collects = board.label(state.route[start - 1])
    return Choice(
        msgspec.to_builtins(action), piece, index, start, end, place_name(state, end), collects
    )


def build_view(state: State, seat: int | None, legal: list[Action]) -> View:
    """Everything in this game is public except the die's future; choices go to the mover."""
    return build_views(state, {seat: legal})[seat]


def build_views(state: State, legal: dict[int | None, list[Action]]) -> dict[int | None, View]:
    """The views of several seats: the table is built once and shared; only the choices of
    the seat to move differ."""
    label = board.label
    route = [RouteCard(i + 1, label(v), state.present[i]) for i, v in enumerate(state.route)]
    players = [
        PlayerView(
            s,
            list(figs),
            [label(v) for v in state.collected[s]],
            board.score(state.collected[s]),
            all(p == board.FINISH for p in figs),
        )
        for s, figs in enumerate(state.figures)
    ]
    guards, phase = list(state.guards), str(state.phase)
    return {
        seat: View(
            game="would-you-believe-it",
            seat=seat,
            phase=phase,
            turn=state.turn,
            roll=state.roll,
            route=route,
            guards=guards,
            players=players,
            choices=[c for a in actions if (c := _choice(state, seat, a)) is not None]
            if seat is not None
            else [],
        )
        for seat, actions in legal.items()
    }
