"""Records: replay reproduces every state; records survive their JSON encoding."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from talltales.core.game import Game
from talltales.core.match import replay, replay_states
from talltales.core.record import Record, decode_record, encode_record

from ..support import encode_state, walk


def check_replay_reproduces_every_state(
    game: Game[Any, Any], players: int, seeds: Sequence[int]
) -> None:
    """replay_states yields, entry by entry, exactly the states seen during play."""
    for seed in seeds:
        # Odd seeds resolve chance one entry at a time, so every entry's state is observed;
        # even seeds let Match resolve chance itself and observe the state after each call.
        seen: dict[int, bytes] = {}
        match = None
        for moment in walk(game, players, seed, auto_chance=seed % 2 == 0):
            match = moment.match
            seen[len(match.record.entries)] = encode_state(match.state)
        assert match is not None
        replayed = [encode_state(s) for s in replay_states(game, match.record)]
        assert len(replayed) == len(match.record.entries) + 1
        for index, encoded in sorted(seen.items()):
            assert replayed[index] == encoded, (
                f"{game.id}-{players}p seed {seed}: replayed state after entry {index} "
                "differs from play"
            )


def check_record_round_trip(game: Game[Any, Any], players: int, seeds: Sequence[int]) -> None:
    """encode_record/decode_record round-trip, and the decoded record replays the same."""
    for seed in seeds:
        match = None
        for moment in walk(game, players, seed):
            match = moment.match
        assert match is not None
        data = encode_record(match.record)
        back = decode_record(data)
        assert isinstance(back, Record)
        assert back == match.record
        assert encode_record(back) == data
        assert back.game == game.id and back.players == players and back.seed == seed
        assert encode_state(replay(game, back)) == encode_state(replay(game, match.record))
        assert game.outcome(replay(game, back)) is not None, (
            f"{game.id}-{players}p: replay did not end"
        )
