"""The Match authority: ordered checks, refusals that change nothing, chance, versions."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest
from fixture_game import FIB_OFF, Bluff, Claim, Pass

from talltales.core.errors import GameOver, IllegalAction, MalformedAction, NotYourTurn
from talltales.core.game import CHANCE
from talltales.core.match import MAX_ACTION_BYTES, Match, decode_action
from talltales.core.record import Entry
from talltales.games.would_you_believe_it import GAME as WYBI
from talltales.games.would_you_believe_it.state import Die, MoveFigure, Phase, Roll

from .support import play_randomly, refused, snapshot


def wybi(**kwargs: Any) -> Match[Any, Any]:
    return Match(WYBI, 3, {"layout": "fixed"}, seed=1, **kwargs)


def finished() -> Match[Any, Any]:
    match = Match(FIB_OFF, 3, {"rounds": 1}, seed=2)
    play_randomly(match, 2)
    return match


# --- the ordered checks --------------------------------------------------------------------------
def test_game_over_comes_first() -> None:
    match = finished()
    assert match.is_over()
    assert match.pending() == frozenset()
    for seat in (0, 1, 2, -1, 99):
        for action in (Pass(), "{not json", {"type": "nonsense"}):
            refused(match, seat, action, GameOver)


def test_not_your_turn_comes_before_the_form_of_the_action() -> None:
    match = wybi()
    assert match.pending() == {0}
    for action in (Roll(), "{not json", {"type": "nonsense"}, b"x" * (MAX_ACTION_BYTES + 1)):
        refused(match, 1, action, NotYourTurn)
    refused(match, 3, Roll(), NotYourTurn)  # no such seat
    refused(match, -1, Roll(), NotYourTurn)  # chance is not a player
    refused(match, CHANCE, {"type": "die", "value": 6}, NotYourTurn)
    assert match.legal_actions(1) == []


@pytest.mark.parametrize(
    ("raw", "words"),
    [
        ("{not json", "cannot read"),
        (b"\xff\xfe", "cannot read"),
        ('{"type": "fly"}', "cannot read"),  # unknown type
        ({"type": "fly"}, "cannot read"),
        ('{"value": 3}', "cannot read"),  # no type at all
        ({"type": "move-figure"}, "figure"),  # missing field
        ({"type": "move-figure", "figure": "one"}, "figure"),  # wrong field type
        ({"type": "move-figure", "figure": 7}, "figure"),  # out of range
        ("[1, 2]", "cannot read"),
        (42, "int"),
        (None, "NoneType"),
    ],
)
def test_malformed_actions_are_refused_and_change_nothing(raw: object, words: str) -> None:
    match = wybi()
    error = refused(match, 0, raw, MalformedAction)
    assert words in error.reason


def test_an_unknown_field_is_malformed() -> None:
    match = Match(FIB_OFF, 3, seed=4)
    reader = match.state.reader
    card = match.state.hands[reader][0]
    for raw in (
        {"type": "claim", "card": card, "stake": 2, "wink": True},
        msgspec.json.encode({"type": "claim", "card": card, "stake": 2, "wink": True}),
    ):
        assert "wink" in refused(match, reader, raw, MalformedAction).reason


def test_an_oversized_action_is_malformed() -> None:
    match = Match(FIB_OFF, 3, seed=4)
    reader = match.state.reader
    card = match.state.hands[reader][0]
    padding = " " * MAX_ACTION_BYTES
    text = '{"type": "claim", "card": "%s", "stake": 2}%s' % (card, padding)  # noqa: UP031
    for raw in (text, text.encode()):
        assert len(raw) > MAX_ACTION_BYTES
        error = refused(match, reader, raw, MalformedAction)
        assert str(MAX_ACTION_BYTES) in error.reason
    match.submit(reader, text[: -len(padding)])  # the same action, small, is fine
    assert match.state.card == card


def test_illegal_actions_are_refused_with_a_reason_and_change_nothing() -> None:
    match = wybi()
    error = refused(match, 0, MoveFigure(0), IllegalAction)
    assert error.reason == "roll the die first"
    match.submit(0, Roll())
    assert "already rolled" in refused(match, 0, {"type": "roll"}, IllegalAction).reason
    refused(match, 0, Die(3), IllegalAction)  # players do not set the die


def test_checks_are_ordered_turn_then_form_then_legality() -> None:
    match = wybi()
    refused(match, 1, MoveFigure(0), NotYourTurn)  # illegal too, but out of turn first
    refused(match, 0, {"type": "move-figure", "figure": 9}, MalformedAction)
    refused(match, 0, {"type": "move-figure", "figure": 0}, IllegalAction)


# --- accepting -----------------------------------------------------------------------------------
@pytest.mark.parametrize("raw", [Roll(), {"type": "roll"}, '{"type": "roll"}', b'{"type":"roll"}'])
def test_an_action_is_accepted_as_struct_builtins_text_or_bytes(raw: object) -> None:
    match = wybi()
    match.submit(0, raw, time=1234)
    assert match.record.entries[0] == Entry(0, {"type": "roll"}, 1234)


def test_decode_action_turns_anything_readable_into_the_typed_action() -> None:
    assert decode_action(WYBI, {"type": "die", "value": 4}) == Die(4)
    assert decode_action(WYBI, '{"type":"move-figure","figure":2}') == MoveFigure(2)
    assert decode_action(FIB_OFF, Bluff("hi")) == Bluff("hi")
    with pytest.raises(MalformedAction):
        decode_action(FIB_OFF, Roll())  # another game's action


def test_chance_is_resolved_automatically_and_recorded() -> None:
    match = wybi()
    assert match.version == 0
    events = match.submit(0, Roll(), time=50)
    assert match.state.phase is Phase.MOVE
    assert 1 <= match.state.roll <= 6
    assert [e.seat for e in match.record.entries] == [0, CHANCE]
    assert match.record.entries[1].action == {"type": "die", "value": match.state.roll}
    assert match.record.entries[1].time == 50
    assert match.version == 2
    assert [e.kind for e in events] == ["roll", "die"]


def test_chance_at_setup_is_resolved_before_the_first_move() -> None:
    match = Match(FIB_OFF, 3, seed=8)
    assert match.version == 1
    assert match.record.entries[0].seat == CHANCE
    assert match.pending() == {0}


def test_submit_chance_scripts_the_dice_when_auto_chance_is_off() -> None:
    match = wybi(auto_chance=False)
    with pytest.raises(NotYourTurn):
        match.submit_chance(Die(3))
    match.submit(0, Roll())
    assert match.pending() == frozenset()  # chance is nobody's seat
    assert WYBI.pending(match.state) == {CHANCE}
    assert match.version == 1
    before = snapshot(match)
    with pytest.raises(MalformedAction):
        match.submit_chance({"type": "die", "value": 9})
    with pytest.raises(IllegalAction):
        match.submit_chance({"type": "roll"})
    assert snapshot(match) == before
    match.submit_chance({"type": "die", "value": 3}, time=9)
    assert match.state.roll == 3
    assert match.record.entries[-1] == Entry(CHANCE, {"type": "die", "value": 3}, 9)
    assert match.version == 2
    assert match.pending() == {0}


def test_tick_without_a_deadline_does_nothing() -> None:
    match = wybi()
    assert match.deadline() is None
    before = snapshot(match)
    assert match.tick(10**9) == []
    assert snapshot(match) == before


def test_every_applied_action_bumps_the_version_once() -> None:
    match = Match(FIB_OFF, 3, seed=3)
    reader = match.state.reader
    card = match.state.hands[reader][0]
    start = match.version
    match.submit(reader, Claim(card, 2))
    assert match.version == start + 1 == len(match.record.entries)
    match.submit(1, Pass())
    match.submit(2, Pass())
    assert match.version == start + 3 == len(match.record.entries)


def test_a_finished_match_reports_its_outcome() -> None:
    match = finished()
    outcome = match.outcome()
    assert outcome is not None
    assert outcome == FIB_OFF.outcome(match.state)
    assert match.deadline() is None
    assert match.legal_actions(0) == []
    assert match.tick(10**9) == []
