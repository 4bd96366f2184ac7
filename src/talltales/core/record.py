"""Game records: the setup plus every applied action, as versioned JSON."""

from __future__ import annotations

from typing import Any

import msgspec

from talltales.core.errors import RecordError

RECORD_FORMAT = 1


class Entry(msgspec.Struct, frozen=True):
    """One applied action: who (CHANCE and CLOCK included), what, and when (ms)."""

    seat: int
    action: dict[str, Any]
    time: int = 0


class PackRef(msgspec.Struct, frozen=True):
    """A content pack a game was set up with, pinned by its digest."""

    id: str
    sha256: str


class Record(msgspec.Struct):
    """Everything needed to reproduce a game exactly."""

    game: str
    players: int
    seed: int
    options: dict[str, Any] = {}
    overrides: dict[str, Any] = {}
    content: list[PackRef] = []
    entries: list[Entry] = []
    format: int = RECORD_FORMAT


def encode_record(record: Record) -> bytes:
    """The record as indented JSON."""
    return msgspec.json.format(msgspec.json.encode(record), indent=1)


def decode_record(data: bytes | str) -> Record:
    """Read a record, refusing unknown formats."""
    try:
        record = msgspec.json.decode(data, type=Record)
    except (msgspec.ValidationError, msgspec.DecodeError) as exc:
        raise RecordError(f"not a game record: {exc}") from exc
    if record.format != RECORD_FORMAT:
        raise RecordError(f"record format {record.format} is not supported")
    return record
