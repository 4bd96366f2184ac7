"""Content packs in rooms: what a host may choose, what a game is dealt, what a restore finds.

Over the network a host names packs by shipped id only: a client can never make the server
open a file by path. A game is dealt its packs when it starts, read afresh each time (a
rematch pins the files as they are then), and the room stores them pinned by id and SHA-256
so that a restart replays the game with exactly those cards, or refuses it by the pack's name.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

from talltales.core.content import Pack
from talltales.core.errors import ContentError, IllegalAction
from talltales.core.game import Game
from talltales.core.packs import choose_packs, pack_infos, pack_refs, shipped_packs
from talltales.core.record import PackRef

log = logging.getLogger("talltales.server")


def check_choice(game: Game[Any, Any], ids: Sequence[str]) -> list[str]:
    """The host's choice, refused unless every id names a pack the game ships (once)."""
    if game.card_type is None:
        if ids:
            raise IllegalAction(f"{game.title} takes no content packs")
        return []
    shipped = [info.id for info in pack_infos(game)]
    for ref in ids:
        if ref not in shipped:
            known = ", ".join(shipped) or "none"
            raise IllegalAction(f"{game.title} has no pack {ref!r}; its packs: {known}")
    if len(set(ids)) != len(ids):
        raise IllegalAction("a pack is chosen twice")
    return list(ids)


def shown_packs(game: Game[Any, Any], chosen: Sequence[str]) -> list[str]:
    """The ids a lobby shows: those chosen, else the game's defaults (none without cards)."""
    if game.card_type is None:
        return []
    return list(chosen) or list(game.default_packs)


def deal_packs(game: Game[Any, Any], chosen: Sequence[str]) -> list[Pack[Any]]:
    """The packs a new game is dealt: those chosen (shipped ids), else the game's defaults."""
    if game.card_type is None:
        return []
    try:
        shipped = {p.meta.id for p in shipped_packs(game)}
        gone = [ref for ref in chosen if ref not in shipped]
        if gone:  # never let choose_packs read an id that has vanished as a file path
            raise ContentError(f"{game.title} no longer ships {', '.join(gone)}")
        return choose_packs(game, chosen)
    except ContentError as exc:
        # the reason may name files on this server: it goes to the log, not to players
        log.error("cannot deal %s: %s", game.id, exc.reason)
        raise IllegalAction("the chosen packs cannot be read on this server") from None


def pinned(game: Game[Any, Any], stored: Sequence[PackRef] | None) -> list[PackRef]:
    """A stored game's pinned packs; rows from before pinning were dealt the defaults."""
    if stored is not None:
        return list(stored)
    return pack_refs(choose_packs(game))
