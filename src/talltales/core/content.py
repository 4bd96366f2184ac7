"""Content packs: metadata plus cards, as TOML or JSON files validated by msgspec schemas."""

from __future__ import annotations

import hashlib
import re
import tomllib
from pathlib import Path
from typing import Any, Generic, TypeVar

import msgspec

from talltales.core.errors import ContentError

C = TypeVar("C", bound=msgspec.Struct)


class PackMeta(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """Who made a pack, for which game, in which language, under which licence."""

    id: str
    title: str
    game: str
    author: str
    licence: str
    language: str = "en"
    version: int = 1
    description: str = ""


class Pack(msgspec.Struct, Generic[C], frozen=True):
    """A validated pack: its metadata, its cards and the digest of its file."""

    meta: PackMeta
    cards: list[C]
    sha256: str
    path: str


_INDEX = re.compile(r"^\$\[(\d+)\]\.?(.*)$")  # the cards list is converted on its own


def _read(path: Path, data: bytes | None = None) -> tuple[dict[str, Any], bytes]:
    if data is None:
        try:
            data = path.read_bytes()
        except OSError as exc:
            raise ContentError(f"{path}: cannot read the pack: {exc.strerror or exc}") from exc
    try:
        if path.suffix == ".toml":
            return tomllib.loads(data.decode("utf-8")), data
        if path.suffix == ".json":
            return msgspec.json.decode(data, type=dict[str, Any]), data
    except (tomllib.TOMLDecodeError, msgspec.DecodeError, UnicodeDecodeError) as exc:
        raise ContentError(f"{path}: not valid {path.suffix[1:].upper()}: {exc}") from exc
    raise ContentError(f"{path}: a pack is a .toml or .json file")


def _where(path: Path, raw: dict[str, Any], location: str) -> str:
    """Turn msgspec's '$[3].answer' into 'file, card "id", field "answer"'."""
    found = _INDEX.match(location)
    if not found:
        return f"{path}, at {location}"
    index, field = int(found.group(1)), found.group(2)
    cards = raw.get("cards") or []
    card_id = cards[index].get("id") if isinstance(cards[index], dict) else None
    card = f'card "{card_id}"' if card_id else f"card #{index + 1}"
    # a missing or unknown field is a problem of the card as a whole: msgspec names the field
    return f"{path}, {card}, field {field!r}" if field else f"{path}, {card}"


def read_pack_meta(path: Path | str, data: bytes | None = None) -> PackMeta:
    """Only a pack's [pack] metadata (to learn which game's schema checks its cards)."""
    path = Path(path)
    raw, _ = _read(path, data)
    try:
        return msgspec.convert(raw.get("pack"), PackMeta)
    except msgspec.ValidationError as exc:
        raise ContentError(f"{path}, [pack] metadata: {exc}") from exc


def load_pack(
    path: Path | str, card_type: type[C], game_id: str | None = None, data: bytes | None = None
) -> Pack[C]:
    """Read and validate a pack, naming the file, card and field of the first problem.

    ``data``, if given, is the file's content (a pack shipped inside a package)."""
    path = Path(path)
    raw, data = _read(path, data)
    meta = read_pack_meta(path, data)
    if game_id is not None and meta.game != game_id:
        raise ContentError(f"{path}: the pack is for {meta.game!r}, not {game_id!r}")
    extra = set(raw) - {"pack", "cards"}
    if extra:
        raise ContentError(f"{path}: unknown top-level keys {sorted(extra)}")
    try:
        cards = msgspec.convert(raw.get("cards", []), list[card_type])  # type: ignore[valid-type]
    except msgspec.ValidationError as exc:
        message, _, location = str(exc).rpartition(" - at `")
        where = _where(path, raw, location.rstrip("`")) if message else str(path)
        raise ContentError(f"{where}: {message or exc}") from exc
    seen: set[str] = set()
    for card in cards:
        card_id = str(getattr(card, "id", ""))
        if card_id in seen:
            raise ContentError(f'{path}, card "{card_id}": the id is used twice')
        seen.add(card_id)
    if not cards:
        raise ContentError(f"{path}: the pack has no cards")
    return Pack(meta, cards, hashlib.sha256(data).hexdigest(), str(path))
