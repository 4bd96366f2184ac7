"""Scenario set-ups: put pawns, hands, the top of the draw pile and the tern token in place."""

from __future__ import annotations

from typing import Any

from talltales.core.errors import IllegalAction
from talltales.games.believe_it_or_not.board import Board
from talltales.games.believe_it_or_not.state import Phase, State

KEYS = {"pawns", "hands", "pile", "tern"}


def apply_overrides(board: Board, state: State, overrides: dict[str, Any]) -> None:
    """``pawns``: a position per seat; ``hands``: card ids per seat; ``pile``: card ids to
    draw next, first drawn first; ``tern``: who holds the tern token. Cards named move
    from wherever they were; a hand left short is topped up from the pile's bottom."""
    unknown = set(overrides) - KEYS
    if unknown:
        raise IllegalAction(f"unknown overrides {sorted(unknown)}; use {sorted(KEYS)}")
    players = state.players
    if "pawns" in overrides:
        pawns = list(overrides["pawns"])
        if len(pawns) != players or not all(
            isinstance(p, int) and 0 <= p < board.size for p in pawns
        ):
            raise IllegalAction(f"pawns: {players} positions from 0 to {board.size - 1}")
        state.pawns = pawns
    if "tern" in overrides:
        tern = overrides["tern"]
        if not isinstance(tern, int) or not 0 <= tern < players:
            raise IllegalAction(f"tern: a seat from 0 to {players - 1}")
        state.tern = tern
        if state.phase is Phase.FIRST:
            state.phase = Phase.CHOOSE_CARD
    _place_cards(state, overrides.get("hands"), overrides.get("pile", []))


def _place_cards(state: State, hands: Any, pile: Any) -> None:
    named = [c for h in hands or [] for c in h] + list(pile)
    for card in named:
        if card not in state.catalog:
            raise IllegalAction(f"there is no card {card!r} in this deck")
    if len(set(named)) != len(named):
        raise IllegalAction("a card is named twice")
    if hands is not None and len(hands) != state.players:
        raise IllegalAction(f"hands: one list per seat ({state.players})")
    taken = set(named)
    rest = [c for c in state.deck.pile if c not in taken]  # bottom first
    for k, hand in enumerate(state.hands):
        state.hands[k] = [c for c in hand if c not in taken]
    if hands is not None:
        spare = [c for h in state.hands for c in h]
        rest = spare + rest
        state.hands = [list(h) for h in hands]
    state.deck.pile = rest + list(reversed(pile))  # the top card is the last
