"""The cards of each deck in use, by the digest of its pack, kept out of game states.

A state names its deck by digest rather than carrying sixty cards of text: states are
copied, compared and sent to bot workers all the time. A deck is registered when a game is
set up; a process that meets a digest it has not seen (a bot worker forked earlier) finds it
among the shipped packs.
"""

from __future__ import annotations

from typing import Any

from talltales.core.content import Pack
from talltales.core.errors import ContentError
from talltales.games.believe_it_or_not.cards import Card

GAME_ID = "believe-it-or-not"
CATALOGS: dict[str, dict[str, Card]] = {}  # digest -> cards by id; never mutated


def register(pack: Pack[Any]) -> str:
    """Remember a deck's cards; returns the digest a state names it by."""
    if pack.sha256 not in CATALOGS:
        CATALOGS[pack.sha256] = {c.id: c for c in pack.cards}
    return pack.sha256


def catalog_of(digest: str) -> dict[str, Card]:
    """The cards of the deck with this digest."""
    cards = CATALOGS.get(digest)
    if cards is None:
        from talltales.core.packs import shipped_packs  # only on a miss: packs need a game
        from talltales.core.registry import get_game

        for pack in shipped_packs(get_game(GAME_ID)):
            register(pack)
        cards = CATALOGS.get(digest)
    if cards is None:
        raise ContentError(f"no deck with digest {digest[:12]}… is loaded: set the game up")
    return cards
