"""Scenario set-ups for Would You Believe It!: positions checked before they are applied.

A set-up is refused unless play could reach it: besides values of the right shape, the
pieces, the gaps and the cards held must fit together as the rules leave them (see
``check_reachable``)."""

from __future__ import annotations

from typing import Any, TypeVar

import msgspec

from talltales.core.errors import IllegalAction
from talltales.games.would_you_believe_it import board
from talltales.games.would_you_believe_it.board import FINISH
from talltales.games.would_you_believe_it.moves import left_empty
from talltales.games.would_you_believe_it.state import MOVE_GUARD, State

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

    Every value is checked, and then the position as a whole, before any is applied; a
    bad one is refused with an IllegalAction naming the key and the problem."""
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
            # every seat plays with the figures setup gave it (printed count or house rule)
            each = len(state.figures[seat])
            if len(places) != each:
                raise IllegalAction(
                    f"override figures: seat {seat} has {len(places)} figures, but every seat "
                    f"plays with {each} (the `figures` option sets another count)"
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
    check_reachable(State(route, present, figures, guards, collected, turn))
    state.route, state.present, state.figures = route, present, figures
    state.guards, state.collected, state.turn = guards, collected, turn


def check_reachable(state: State) -> None:
    """Refuse a position that no game can reach, naming the first thing that play rules out.

    Play keeps these true: pieces stand only on cards still on the route, Start (figures)
    or Finish; guards never move backwards, and leave a card only while a figure shares
    it, so an empty card a guard left was taken by the last figure to leave; the cards
    missing from the route are exactly the cards the seats hold, each taken by a figure
    that has since moved on past it; the seat to move still has a figure to play."""
    for seat, places in enumerate(state.figures):
        for k, position in enumerate(places):
            if _is_gap(state, position):
                raise IllegalAction(
                    f"override figures: seat {seat}'s figure {k} stands on {position}, a card "
                    "already taken (a gap): pieces land only on cards still on the route"
                )
    _check_guards(state)
    _check_cards_taken(state)
    if all(p == FINISH for p in state.figures[state.turn]):
        raise IllegalAction(f"override turn: every figure of seat {state.turn} is at Finish")


def _is_gap(state: State, position: int) -> bool:
    """Whether ``position`` is a route card that has been taken."""
    return 0 < position < FINISH and not state.present[position - 1]


def _check_guards(state: State) -> None:
    """Guards stand on cards, never behind their setup card, and left it only with a figure."""
    starts = board.guard_places(state.route)
    furthest = max(p for places in state.figures for p in places)
    for g, (position, start) in enumerate(zip(state.guards, starts, strict=True)):
        if _is_gap(state, position):
            raise IllegalAction(
                f"override guards: guard {g} stands on {position}, a card already taken "
                "(a gap): pieces land only on cards still on the route"
            )
        if position < start:
            raise IllegalAction(
                f"override guards: guard {g} is at {position}, behind {start}, the card it "
                "starts on: guards only move forward (guards 0-5 start on the fortune cards "
                "in route order, 6 and 7 on the +8 and +7 in route order)"
            )
        if position == start:
            continue
        if furthest < start:
            raise IllegalAction(
                f"override guards: guard {g} has left {start}, the card it starts on, but no "
                "figure stands there or beyond: a guard moves only while a figure shares its "
                "card"
            )
        if not _is_gap(state, start) and left_empty(state, start):
            raise IllegalAction(
                f"override guards: guard {g} has left {start}, the card it starts on, and "
                "nothing stands there now, yet the card is still on the route: the last "
                "figure to leave it must have taken it (mark it taken in `present` and give "
                "it to a seat in `collected`)"
            )


def _check_cards_taken(state: State) -> None:
    """The cards held are the cards missing from the route, each behind its taker's figures."""
    gaps = [p for p in range(1, FINISH) if _is_gap(state, p)]
    for value in sorted(_CARDS):
        name = board.label(value)
        at = [p for p in gaps if state.route[p - 1] == value]
        held = sum(cards.count(value) for cards in state.collected)
        if held > len(at):
            where = f"only {len(at)} is missing from the route" if at else "none is missing"
            raise IllegalAction(
                f"override collected: the seats hold {_cards_text(held, name)}, but {where}: "
                "a card held is no longer on the route (mark where it was taken false in "
                "`present`)"
            )
        if held < len(at):
            raise IllegalAction(
                f"override collected: {_cards_text(len(at), name)} taken from the route "
                f"(positions {', '.join(map(str, at))}), but the seats hold {held}: give each "
                "taken card to the seat that took it in `collected`"
            )
        _check_takers(state, value, at)


def _check_takers(state: State, value: int, at: list[int]) -> None:
    """Each seat's cards of ``value`` fit gaps behind its furthest figure (Hall's condition:
    seats sorted by reach, every prefix needs as many gaps within its reach as cards)."""
    holders = sorted(
        (max(places), seat, state.collected[seat].count(value))
        for seat, places in enumerate(state.figures)
        if value in state.collected[seat]
    )
    seats: list[int] = []
    wanted = 0
    for reach, seat, count in holders:
        seats.append(seat)
        wanted += count
        within = sum(1 for p in at if p < reach)
        if wanted > within:
            one = len(seats) == 1
            who, holds, whose = (
                (f"seat {seat}", "holds", "its furthest figure")
                if one
                else (f"seats {seats}", "hold", "their furthest figures")
            )
            name = board.label(value)
            raise IllegalAction(
                f"override collected: {who} {holds} {_cards_text(wanted, name)}, but only "
                f"{within} of the '{name}' gaps ({', '.join(map(str, at))}) lie behind {whose}: "
                "a figure takes a card by stepping forward off it"
            )


def _cards_text(number: int, name: str) -> str:
    """'1 '-4' card' or '2 '-4' cards'."""
    return f"{number} '{name}' card{'' if number == 1 else 's'}"
