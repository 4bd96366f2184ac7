"""Game records: JSON round trips, refusing unknown formats, and exact replays."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import msgspec
import pytest
from fixture_game import FIB_OFF

from talltales.core.errors import RecordError, TallTalesError
from talltales.core.game import CHANCE, CLOCK
from talltales.core.match import Match, replay, replay_states
from talltales.core.packs import choose_packs, find_pack
from talltales.core.record import (
    RECORD_FORMAT,
    Entry,
    PackRef,
    Record,
    decode_record,
    encode_record,
)
from talltales.games.would_you_believe_it import GAME as WYBI

from .support import play_randomly


def played(seed: int = 6, players: int = 4) -> Match[Any, Any]:
    match: Match[Any, Any] = Match(
        FIB_OFF, players, {"rounds": 4, "write_ms": 900}, seed=seed, auto_chance=False
    )
    play_randomly(match, seed, tick_every=3)
    return match


def test_encode_decode_round_trip() -> None:
    record = played().record
    assert any(e.seat == CLOCK for e in record.entries)
    assert any(e.seat == CHANCE for e in record.entries)
    data = encode_record(record)
    assert data.startswith(b"{\n")  # indented, for people and diffs
    again = decode_record(data)
    assert again == record
    assert decode_record(data.decode()) == record
    assert encode_record(again) == data


def test_a_minimal_record_takes_defaults() -> None:
    record = decode_record('{"game": "fib-off", "players": 3, "seed": -4}')
    assert record == Record("fib-off", 3, -4)
    assert record.format == RECORD_FORMAT
    assert record.entries == []


@pytest.mark.parametrize(
    "data",
    [
        b'{"game": "fib-off", "players": 3, "seed": 1, "format": 99}',
        b'{"game": "fib-off", "players": 3, "seed": 1, "format": 0}',
    ],
)
def test_an_unknown_format_is_refused(data: bytes) -> None:
    with pytest.raises(RecordError, match="format"):
        decode_record(data)


@pytest.mark.parametrize(
    "data",
    [
        b"",
        b"not json",
        b"[1, 2, 3]",
        b'{"players": 3, "seed": 1}',  # no game
        b'{"game": "fib-off", "players": "three", "seed": 1}',
        b'{"game": "fib-off", "players": 3, "seed": 1, "entries": [{"seat": 0}]}',
    ],
)
def test_something_that_is_not_a_record_is_refused(data: bytes) -> None:
    with pytest.raises(RecordError, match="not a game record"):
        decode_record(data)


@pytest.mark.parametrize("seed", [0, 6, 13])
def test_replay_reproduces_each_intermediate_state_and_the_final_one(seed: int) -> None:
    match = Match(FIB_OFF, 4, {"rounds": 4, "write_ms": 900}, seed=seed, auto_chance=False)
    seen = play_randomly(match, seed, tick_every=3)  # entries so far -> encoded state
    record = decode_record(encode_record(match.record))
    states = [msgspec.json.encode(s) for s in replay_states(FIB_OFF, record)]
    assert len(states) == len(record.entries) + 1
    assert set(seen) == set(range(len(states)))  # one step per entry: every state compared
    for index, state in enumerate(states):
        assert state == seen[index], f"replay differs after entry {index}"
    assert msgspec.json.encode(replay(FIB_OFF, record)) == msgspec.json.encode(match.state)


def test_replay_with_automatic_chance_reaches_the_same_final_state() -> None:
    match = Match(FIB_OFF, 5, {"rounds": 5}, seed=21)
    seen = play_randomly(match, 21, tick_every=2)
    states = [msgspec.json.encode(s) for s in replay_states(FIB_OFF, match.record)]
    for index, state in seen.items():
        assert states[index] == state
    assert FIB_OFF.outcome(replay(FIB_OFF, match.record)) == match.outcome()


def test_replay_of_the_shipped_game_reaches_the_same_position() -> None:
    match = Match(WYBI, 3, seed=9)
    play_randomly(match, 9)
    final = replay(WYBI, decode_record(encode_record(match.record)))
    assert msgspec.json.encode(final) == msgspec.json.encode(match.state)
    assert WYBI.outcome(final) == match.outcome()


def test_replay_yields_independent_states_starting_from_setup() -> None:
    record = played(2).record
    states = list(replay_states(FIB_OFF, record))  # all taken before any is looked at
    packs = choose_packs(FIB_OFF)
    fresh = FIB_OFF.setup(record.players, FIB_OFF.options(record.options), record.seed, packs)
    assert msgspec.json.encode(states[0]) == msgspec.json.encode(fresh)
    assert len({msgspec.json.encode(s) for s in states}) == len(states)  # each entry counts
    assert FIB_OFF.outcome(states[-1]) is not None
    assert FIB_OFF.outcome(states[-2]) is None


def test_a_tampered_record_does_not_replay() -> None:
    record = played(3).record
    entries = list(record.entries)
    first_player = next(i for i, e in enumerate(entries) if e.seat >= 0)
    entries[first_player] = Entry(entries[first_player].seat, {"type": "accept"})
    tampered = msgspec.structs.replace(record, entries=entries)
    with pytest.raises(TallTalesError):
        replay(FIB_OFF, tampered)


# --- packs pinned by id and digest --------------------------------------------------------------
def test_a_record_pins_its_packs_and_replays_with_them() -> None:
    match = played(4)
    (ref,) = match.record.content
    pack = find_pack(FIB_OFF, "fib-off-facts")
    assert (ref.id, ref.sha256) == ("fib-off-facts", pack.sha256)
    record = decode_record(encode_record(match.record))
    assert msgspec.json.encode(replay(FIB_OFF, record)) == msgspec.json.encode(match.state)
    restored = Match.restore(FIB_OFF, record)
    assert msgspec.json.encode(restored.state) == msgspec.json.encode(match.state)


def test_a_changed_pack_is_refused_by_name(tmp_path: Path) -> None:
    shipped = Path(find_pack(FIB_OFF, "fib-off-facts").path)
    mine = tmp_path / "facts.toml"
    mine.write_text(shipped.read_text(encoding="utf-8").replace("Eight legs", "Eight"))
    changed = find_pack(FIB_OFF, str(mine))
    assert changed.meta.id == "fib-off-facts"
    record = played(5).record
    for attempt in (
        lambda: replay(FIB_OFF, record, [changed]),
        lambda: Match.restore(FIB_OFF, record, [changed]),
    ):
        with pytest.raises(RecordError, match='pack "fib-off-facts" has changed'):
            attempt()


def test_a_missing_pack_is_refused_by_name() -> None:
    record = played(5).record
    gone = msgspec.structs.replace(record, content=[PackRef("lost-pack", "0" * 64)])
    with pytest.raises(RecordError, match='pack "lost-pack", which is not here'):
        replay(FIB_OFF, gone)


def test_a_record_with_a_text_over_the_limit_does_not_replay() -> None:
    record = played(7).record
    entries = list(record.entries)
    at = next(i for i, e in enumerate(entries) if e.action.get("type") == "bluff")
    entries[at] = Entry(entries[at].seat, {"type": "bluff", "text": "x" * 500}, entries[at].time)
    with pytest.raises(RecordError, match=r"entry \d+ .*at most 80 characters"):
        replay(FIB_OFF, msgspec.structs.replace(record, entries=entries))
