"""Scenario set-ups for Would You Believe It!: positions checked before they are applied."""

from __future__ import annotations

from typing import Any, TypeVar

import msgspec

from talltales.core.errors import IllegalAction
from talltales.games.would_you_believe_it import board
from talltales.games.would_you_believe_it.board import FINISH
from talltales.games.would_you_believe_it.state import MOVE_FIGURE, MOVE_GUARD, State

T = TypeVar("T")
_OVERRIDES = ("route", "present", "figures", "guards", "collected", "turn")
_CARDS = frozenset(board.ROUTE_DECK)
_CARD_LABELS = "'+1' to '+8', '-1' to '-7' or 'F'"


def _convert(overrides: dict[str, Any], name: str, kind: type[T]) -> T:
    """The override ``name`` as ``kind``, or an IllegalAction naming it."""
    try:
        return msgspec.convert(overrides[name], kind)
    except msgspec.ValidationError as exc:
        raise IllegalAction(f"override {name}: {exc}") from exc


def _check_count(name: str, values: list[Any], count: int, each: str) -> None:
    """Refuse a list override that does not hold ``count`` entries, one per ``each``."""
    if len(values) != count:
        raise IllegalAction(f"override {name}: {len(values)} given, expected {count} (one {each})")


def _check_position(name: str, which: str, position: int, lowest: int) -> None:
    """Refuse a piece placed off the board: below ``lowest`` or beyond Finish."""
    if not lowest <= position <= FINISH:
        raise IllegalAction(f"override {name}: {which} is at {position}, not {lowest} to {FINISH}")


def _cards(name: str, which: str, labels: list[str | int], first: int = 0) -> list[int]:
    """The values of route card labels, or an IllegalAction naming the first bad one."""
    values = []
    for k, text in enumerate(labels, start=first):
        try:
            value: int | None = board.parse_label(str(text))
        except ValueError:
            value = None
        if value is None or value not in _CARDS:
            raise IllegalAction(
                f"override {name}: {which} {k} is {text!r}, not a card (write {_CARD_LABELS})"
            )
        values.append(value)
    return values


def _check_deck(name: str, values: list[int], whole: bool) -> None:
    """Refuse more copies of a card than the deck holds and, if ``whole``, fewer."""
    counts = [(values.count(v), board.ROUTE_DECK.count(v), v) for v in sorted(_CARDS)]
    wrong = [c for c in counts if c[0] > c[1]] or [c for c in counts if whole and c[0] < c[1]]
    if wrong:
        given, printed, value = wrong[0]
        raise IllegalAction(
            f"override {name}: {given} '{board.label(value)}' cards, the deck has {printed}"
        )


def apply_overrides(state: State, overrides: dict[str, Any]) -> None:
    """Scenario set-ups: route (labels), present, figures, guards, collected, turn.

    Every value is checked before any is applied, and a bad one is refused with an
    IllegalAction naming the key and the problem."""
    unknown = set(overrides) - set(_OVERRIDES)
    if unknown:
        raise IllegalAction(f"unknown overrides: {sorted(unknown)}")
    players = len(state.figures)
    route, present, figures = state.route, state.present, state.figures
    guards, collected, turn = state.guards, state.collected, state.turn
    if "route" in overrides:
        labels = _convert(overrides, "route", list[str | int])
        _check_count("route", labels, board.ROUTE_LENGTH, "per route card")
        route = _cards("route", "position", labels, first=1)
        _check_deck("route", route, whole=True)
        guards = board.guard_places(route)
    if "present" in overrides:
        present = _convert(overrides, "present", list[bool])
        _check_count("present", present, board.ROUTE_LENGTH, "per route card")
    if "figures" in overrides:
        figures = _convert(overrides, "figures", list[list[int]])
        _check_count("figures", figures, players, "list per seat")
        for seat, places in enumerate(figures):
            if not 1 <= len(places) <= len(MOVE_FIGURE):
                raise IllegalAction(
                    f"override figures: seat {seat} has {len(places)} figures, "
                    f"not 1 to {len(MOVE_FIGURE)}"
                )
            for k, position in enumerate(places):
                _check_position("figures", f"seat {seat}'s figure {k}", position, board.START)
    if "guards" in overrides:
        guards = _convert(overrides, "guards", list[int])
        _check_count("guards", guards, len(MOVE_GUARD), "per guard")
        for g, position in enumerate(guards):
            _check_position("guards", f"guard {g}", position, board.START + 1)
    if "collected" in overrides:
        held = _convert(overrides, "collected", list[list[str | int]])
        _check_count("collected", held, players, "list per seat")
        collected = [_cards("collected", f"seat {s}'s card", c) for s, c in enumerate(held)]
        _check_deck("collected", [v for cards in collected for v in cards], whole=False)
    if "turn" in overrides:
        turn = _convert(overrides, "turn", int)
        if not 0 <= turn < players:
            raise IllegalAction(f"override turn: {turn} is not a seat (0 to {players - 1})")
    if all(p == FINISH for p in figures[turn]):
        raise IllegalAction(f"override turn: every figure of seat {turn} is at Finish")
    state.route, state.present, state.figures = route, present, figures
    state.guards, state.collected, state.turn = guards, collected, turn
