"""The wire: states, actions, views, events and options survive JSON."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import msgspec

from talltales.core.errors import OptionsError
from talltales.core.game import Event, Game
from talltales.core.match import Match, decode_action

from ..support import advised, encode, encode_state, sampled, seats, walk


def check_json_round_trip(game: Game[Any, Any], players: int, seeds: Sequence[int]) -> None:
    events_seen = 0
    for seed in seeds:
        for moment in sampled(walk(game, players, seed), 0.3, seed):
            state = moment.state
            # State: encode, decode with state_type, encode again: identical, same behaviour.
            data = encode(state)
            back = msgspec.json.decode(data, type=game.state_type)
            assert isinstance(back, game.state_type)
            assert encode(back) == data, f"{game.id}-{players}p: state changed in a JSON round trip"
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
                    f"{game.id}-{players}p: views() differs from view() for seat {seat}"
                )
            # Views: they encode, and decode to a JSON object.
            for seat in seats(players):
                view = game.view(state, seat)
                assert isinstance(view, msgspec.Struct)
                decoded = msgspec.json.decode(encode(view))
                assert isinstance(decoded, dict), (
                    f"{game.id}-{players}p: view of {seat} is no JSON object"
                )
            # Events: encode and decode back to equal events.
            for event in moment.events:
                assert isinstance(event, Event)
                assert msgspec.json.decode(encode(event), type=Event) == event
                events_seen += 1
            outcome = game.outcome(state)
            if outcome is not None:
                assert msgspec.json.decode(encode(outcome), type=type(outcome)) == outcome
    assert events_seen > 0, f"{game.id}-{players}p: no events were ever emitted"


def check_options_and_player_counts(
    game: Game[Any, Any], players: int, seeds: Sequence[int]
) -> None:
    """Default options round-trip through builtins; unknown options and player counts the
    game does not allow are refused."""
    assert isinstance(game.id, str) and game.id
    assert isinstance(game.title, str) and game.title
    assert 1 <= game.min_players <= game.max_players
    options = game.options()
    assert isinstance(options, game.options_type)
    assert game.options(msgspec.to_builtins(options)) == options
    for bad in (game.min_players - 1, game.max_players + 1):
        _refused_options(lambda n=bad: Match(game, n), f"{game.id}: {bad} players")
    _refused_options(lambda: game.options({"zz_no_such_option": 1}), f"{game.id}: unknown option")


def _refused_options(make: Callable[[], object], what: str) -> None:
    try:
        make()
    except OptionsError:
        return
    raise AssertionError(f"{what} was accepted, not refused with OptionsError")
