"""Everything crossing the wire survives JSON: states, actions, views, events, options."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from talltales.core.errors import OptionsError
from talltales.core.game import Event
from talltales.core.match import Match, decode_action

from .support import advised, case_seeds, encode, encode_state, sampled, seats, walk


def test_json_round_trip(case: Any) -> None:
    game, players = case
    events_seen = 0
    for seed in case_seeds(players, salt=30, count=8):
        for moment in sampled(walk(game, players, seed), 0.3, seed):
            state = moment.state
            # State: encode, decode with state_type, encode again: identical, same behaviour.
            data = encode(state)
            back = msgspec.json.decode(data, type=game.state_type)
            assert isinstance(back, game.state_type)
            assert encode(back) == data, f"{case.id}: state changed in a JSON round trip"
            assert encode_state(back) == encode_state(state)
            assert game.pending(back) == game.pending(state)
            assert encode(game.outcome(back)) == encode(game.outcome(state))
            for seat in seats(players):
                assert encode(game.view(back, seat)) == encode(game.view(state, seat))
            # Actions: encode, decode with action_type: the same action, also via Match's reader.
            for _, action in advised(moment.match):
                wire = encode(action)
                assert msgspec.json.decode(wire, type=game.action_type) == action
                assert decode_action(game, wire) == action
                assert decode_action(game, msgspec.to_builtins(action)) == action
            # Views for many seats at once equal the views one by one.
            together = game.views(state, seats(players))
            assert set(together) == set(seats(players))
            for seat in seats(players):
                assert encode(together[seat]) == encode(game.view(state, seat)), (
                    f"{case.id}: views() differs from view() for seat {seat}"
                )
            # Views: they encode, and decode to a JSON object.
            for seat in seats(players):
                view = game.view(state, seat)
                assert isinstance(view, msgspec.Struct)
                decoded = msgspec.json.decode(encode(view))
                assert isinstance(decoded, dict), f"{case.id}: view of {seat} is no JSON object"
            # Events: encode and decode back to equal events.
            for event in moment.events:
                assert isinstance(event, Event)
                assert msgspec.json.decode(encode(event), type=Event) == event
                events_seen += 1
            outcome = game.outcome(state)
            if outcome is not None:
                assert msgspec.json.decode(encode(outcome), type=type(outcome)) == outcome
    assert events_seen > 0, f"{case.id}: no events were ever emitted"


def test_options_and_player_counts(game: Any) -> None:
    """Default options round-trip through builtins; unknown options and player counts the
    game does not allow are refused."""
    assert isinstance(game.id, str) and game.id
    assert isinstance(game.title, str) and game.title
    assert 1 <= game.min_players <= game.max_players
    options = game.options()
    assert isinstance(options, game.options_type)
    assert game.options(msgspec.to_builtins(options)) == options
    for bad in (game.min_players - 1, game.max_players + 1):
        with pytest.raises(OptionsError):
            Match(game, bad)
    with pytest.raises(OptionsError):
        game.options({"zz_no_such_option": 1})
