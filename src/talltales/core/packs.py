"""Finding a game's packs: shipped ones by id, a player's own by path, recorded ones by digest.

A record, a room and a restore pin every pack by id and SHA-256, so a game replays with
exactly the cards it was dealt; a pack that changed since is refused by name.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import msgspec

from talltales.core.content import Pack, load_pack
from talltales.core.errors import ContentError, RecordError
from talltales.core.game import Game
from talltales.core.record import PackRef


class PackInfo(msgspec.Struct, frozen=True):
    """A pack as a lobby or `deck list` shows it."""

    id: str
    title: str
    cards: int
    description: str = ""
    default: bool = False


_PARSED: dict[tuple[str, str, str], Pack[Any]] = {}  # (game, file, sha256) -> pack


def shipped_packs(game: Game[Any, Any]) -> list[Pack[Any]]:
    """Every pack the game ships, validated, in file-name order.

    Files are read each time (so a changed pack is noticed) but parsed once per digest:
    simulations set up thousands of games."""
    if game.card_type is None:
        return []
    found = []
    for file in game.pack_files():
        data = file.read_bytes()
        key = (game.id, str(file), hashlib.sha256(data).hexdigest())
        if key not in _PARSED:
            _PARSED[key] = load_pack(Path(str(file)), game.card_type, game.id, data)
        found.append(_PARSED[key])
    return found


def pack_infos(game: Game[Any, Any]) -> list[PackInfo]:
    """What a host chooses from: the shipped packs, defaults marked."""
    return [
        PackInfo(
            p.meta.id,
            p.meta.title,
            len(p.cards),
            p.meta.description,
            p.meta.id in game.default_packs,
        )
        for p in shipped_packs(game)
    ]


def find_pack(game: Game[Any, Any], ref: str) -> Pack[Any]:
    """A pack by shipped id, or by the path of a player's own file."""
    if game.card_type is None:
        raise ContentError(f"{game.title} takes no content packs")
    shipped = {p.meta.id: p for p in shipped_packs(game)}
    if ref in shipped:
        return shipped[ref]
    path = Path(ref)
    if path.suffix in (".toml", ".json") and path.is_file():
        return load_pack(path, game.card_type, game.id)
    known = ", ".join(sorted(shipped)) or "none"
    raise ContentError(f"{game.title} has no pack {ref!r} (shipped: {known}; or give a file path)")


def choose_packs(game: Game[Any, Any], refs: Sequence[str] = ()) -> list[Pack[Any]]:
    """The packs for a new game: those named, else the game's defaults; never mixed ids."""
    if game.card_type is None:
        if refs:
            raise ContentError(f"{game.title} takes no content packs")
        return []
    names = list(refs) or list(game.default_packs)
    packs = [find_pack(game, ref) for ref in names]
    ids = [p.meta.id for p in packs]
    if len(set(ids)) != len(ids):
        raise ContentError(f"a pack is chosen twice: {', '.join(ids)}")
    if not packs:
        raise ContentError(f"{game.title} needs a pack of cards and ships none by default")
    return packs


def resolve_packs(
    game: Game[Any, Any], pinned: Sequence[PackRef], given: Sequence[Pack[Any]] = ()
) -> list[Pack[Any]]:
    """The packs a record or room names, found among ``given`` or shipped, digest checked."""
    mine = {p.meta.id: p for p in given}
    shipped: dict[str, Pack[Any]] | None = None
    found = []
    for ref in pinned:
        pack = mine.get(ref.id)
        if pack is None:
            if shipped is None:
                shipped = {p.meta.id: p for p in shipped_packs(game)}
            pack = shipped.get(ref.id)
        if pack is None:
            raise RecordError(
                f'this game was played with the pack "{ref.id}", which is not here: '
                "give its file with --pack"
            )
        if pack.sha256 != ref.sha256:
            raise RecordError(
                f'the pack "{ref.id}" has changed since this game was played '
                f"(recorded sha256 {ref.sha256[:12]}…, now {pack.sha256[:12]}…)"
            )
        found.append(pack)
    return found


def pack_refs(packs: Sequence[Pack[Any]]) -> list[PackRef]:
    """Packs pinned by id and digest."""
    return [PackRef(p.meta.id, p.sha256) for p in packs]
