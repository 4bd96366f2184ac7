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
from talltales.core.packs import choose_packs, pack_refs, shipped_packs
from talltales.core.record import PackRef

log = logging.getLogger("talltales.server")


def check_choice(game: Game[Any, Any], ids: Sequence[str]) -> list[str]:
    """The host's choice, refused unless it could be dealt now (see ``deal_packs``)."""
    deal_packs(game, ids)
    return list(ids)


def shown_packs(game: Game[Any, Any], chosen: Sequence[str]) -> list[str]:
    """The ids a lobby shows: those chosen, else the game's defaults (none without cards)."""
    if game.card_type is None:
        return []
    return list(chosen) or list(game.default_packs)


def deal_packs(game: Game[Any, Any], chosen: Sequence[str]) -> list[Pack[Any]]:
    """The packs a new game is dealt: those chosen, else the game's defaults, read now.

    The one check of a host's choice: every id names a pack the game ships (never a path,
    so a client cannot make the server open a file); ``choose_packs`` checks the rest."""
    if game.card_type is not None:
        shipped = _shipped_ids(game)
        unknown = [ref for ref in chosen if ref not in shipped]
        if unknown:
            known = ", ".join(shipped) or "none"
            raise IllegalAction(f"{game.title} has no pack {unknown[0]!r}; its packs: {known}")
    try:
        return choose_packs(game, chosen)
    except ContentError as exc:  # the files were just read: this is about the choice
        raise IllegalAction(exc.reason) from None
    except OSError as exc:  # a file gone since: its path is for the log only
        raise _unreadable(game, exc) from None


def _shipped_ids(game: Game[Any, Any]) -> list[str]:
    try:
        return [pack.meta.id for pack in shipped_packs(game)]
    except (ContentError, OSError) as exc:
        raise _unreadable(game, exc) from None


def _unreadable(game: Game[Any, Any], exc: Exception) -> IllegalAction:
    """A refusal for players; the reason, which may name files on this server, is logged."""
    log.error("cannot deal %s: %s", game.id, getattr(exc, "reason", exc))
    return IllegalAction("the chosen packs cannot be read on this server")


def pinned(game: Game[Any, Any], stored: Sequence[PackRef] | None) -> list[PackRef]:
    """A stored game's pinned packs; rows from before pinning were dealt the defaults."""
    if stored is not None:
        return list(stored)
    return pack_refs(choose_packs(game))
