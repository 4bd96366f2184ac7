"""Rules of Would You Believe It! through the Match authority."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from talltales.core.errors import IllegalAction, NotYourTurn, OptionsError
from talltales.core.game import CHANCE
from talltales.core.match import Match
from talltales.games.would_you_believe_it import GAME, board
from talltales.games.would_you_believe_it.moves import destination
from talltales.games.would_you_believe_it.state import (
    Die,
    MoveFigure,
    MoveGuard,
    Phase,
    Roll,
    State,
)


def new_match(players: int = 2, **overrides: Any) -> Match[State, Any]:
    return Match(GAME, players, {"layout": "fixed"}, overrides=overrides, auto_chance=False)


def roll(match: Match[State, Any], value: int) -> None:
    seat = match.state.turn
    match.submit(seat, Roll())
    match.submit_chance(Die(value))


@pytest.mark.parametrize("players", [1, 7])
def test_player_count_outside_2_to_6_is_refused(players: int) -> None:
    with pytest.raises(OptionsError, match="2 to 6 players"):
        Match(GAME, players)


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_setup_puts_every_figure_on_start(players: int) -> None:
    state = Match(GAME, players, seed=players).state
    assert state.figures == [[board.START] * board.figures_each(players)] * players
    assert state.turn == 0 and state.phase is Phase.ROLL
    assert sorted(state.route[p - 1] for p in state.guards) == [0] * 6 + [7, 8]


def test_house_rule_figures_overrides_the_printed_count() -> None:
    assert Match(GAME, 5, {"figures": 3}).state.figures[0] == [0, 0, 0]


def test_unknown_option_is_refused() -> None:
    with pytest.raises(OptionsError, match="bad option"):
        Match(GAME, 2, {"dice": 2})


def test_turns_pass_clockwise_after_each_move() -> None:
    match = new_match(3)
    seen = []
    for _ in range(4):
        seen.append(match.state.turn)
        roll(match, 1)
        match.submit(match.state.turn, MoveFigure(0))
    assert seen == [0, 1, 2, 0]


def test_the_die_is_chance_and_its_roll_is_pending_for_nobody_else() -> None:
    match = new_match()
    match.submit(0, Roll())
    assert GAME.pending(match.state) == {CHANCE}
    assert match.pending() == frozenset()
    with pytest.raises(NotYourTurn):
        match.submit(0, MoveFigure(0))


def test_seeded_dice_are_reproducible() -> None:
    rolls = []
    for _ in range(2):
        match = Match(GAME, 2, seed=11)
        match.submit(0, Roll())
        rolls.append(match.state.roll)
    assert rolls[0] == rolls[1] and 1 <= rolls[0] <= 6


@pytest.mark.parametrize(
    ("present_gaps", "start", "steps", "end"),
    [
        ((), 0, 1, 1),
        ((), 0, 6, 6),
        ((1, 2), 0, 1, 3),  # gaps are crossed, not counted
        ((4, 5, 6), 3, 2, 8),
        ((), 31, 6, 33),  # Finish ends the move early
        ((32,), 30, 2, 33),
    ],
)
def test_moves_count_cards_and_skip_gaps(
    present_gaps: tuple[int, ...], start: int, steps: int, end: int
) -> None:
    state = new_match().state
    for position in present_gaps:
        state.present[position - 1] = False
    assert destination(state, start, steps) == end


def test_many_pieces_may_share_a_card() -> None:
    match = new_match(2, figures=[[2, 0, 0], [0, 0, 0]])
    roll(match, 2)
    match.submit(0, MoveFigure(1))
    roll(match, 2)
    match.submit(1, MoveFigure(0))
    assert match.state.figures == [[2, 2, 0], [2, 0, 0]]


def test_leaving_a_shared_card_collects_nothing_and_the_last_to_leave_collects() -> None:
    match = new_match(2, figures=[[2, 0, 0], [2, 0, 0]])
    roll(match, 1)
    match.submit(0, MoveFigure(0))
    assert match.state.collected == [[], []]
    roll(match, 1)
    match.submit(1, MoveFigure(0))
    assert match.state.collected == [[], [-2]]
    assert match.state.present[1] is False


def test_leaving_start_collects_nothing() -> None:
    match = new_match()
    roll(match, 3)
    match.submit(0, MoveFigure(0))
    assert match.state.collected == [[], []]
    assert all(match.state.present)


def test_a_guard_moved_by_anyone_when_any_figure_shares_its_card() -> None:
    match = new_match(2, figures=[[0, 0, 0], [5, 0, 0]])  # seat 1's figure on guard 0's card
    roll(match, 1)
    assert MoveGuard(0) in match.legal_actions(0)
    match.submit(0, MoveGuard(0))
    assert match.state.guards[0] == 6
    assert match.state.collected == [[], []]


def test_a_guard_alone_cannot_move() -> None:
    match = new_match()
    roll(match, 1)
    assert not any(isinstance(a, MoveGuard) for a in match.legal_actions(0))
    before = msgspec.json.encode(match.state)
    with pytest.raises(IllegalAction, match="figure stands on its card"):
        match.submit(0, MoveGuard(3))
    assert msgspec.json.encode(match.state) == before


def test_a_guard_at_finish_cannot_move() -> None:
    # guard 0 has gone from the fortune card at 5 to Finish; a figure still stands on 5
    match = new_match(2, figures=[[0, 0, 0], [33, 5, 0]], guards=[33, 10, 16, 21, 27, 31, 13, 25])
    roll(match, 1)
    with pytest.raises(IllegalAction, match="at Finish"):
        match.submit(0, MoveGuard(0))


def test_a_figure_number_beyond_your_figures_is_refused() -> None:
    match = new_match(5)
    roll(match, 1)
    with pytest.raises(IllegalAction, match="only 2 figures"):
        match.submit(0, MoveFigure(2))


def test_choices_in_the_view_preview_landing_and_collection() -> None:
    match = new_match(2, figures=[[2, 0, 0], [0, 0, 0]])
    roll(match, 3)
    view = msgspec.to_builtins(match.view(0))
    by_figure = {c["index"]: c for c in view["choices"] if c["piece"] == "figure"}
    assert by_figure[0]["end"] == 5 and by_figure[0]["lands_on"] == "F"
    assert by_figure[0]["collects"] == "-2"
    assert by_figure[1]["collects"] is None
    assert msgspec.to_builtins(match.view(1))["choices"] == []


@pytest.mark.parametrize(
    ("collected", "winners", "ranking"),
    [
        ([[8], [7]], [0], [[0], [1]]),
        ([[8, -1], [7]], [0, 1], [[0, 1]]),  # ties share the win
        ([[-4, 0], [-4]], [0], [[0], [1]]),
    ],
)
def test_winner_and_ties(
    collected: list[list[int]], winners: list[int], ranking: list[list[int]]
) -> None:
    state = new_match().state
    state.collected = collected
    state.phase = Phase.OVER
    outcome = GAME.outcome(state)
    assert outcome is not None
    assert outcome.winners == winners
    assert outcome.ranking == ranking


def test_describe_names_the_landing_card_and_what_a_move_collects() -> None:
    match = new_match(2, figures=[[2, 0, 0], [0, 0, 0]])
    roll(match, 3)
    assert (
        GAME.describe(match.state, MoveFigure(0)) == "move figure 1: -2 (#2) → F (#5) (collects -2)"
    )
    assert GAME.describe(match.state, MoveFigure(1)) == "move figure 2: Start → +3 (#3)"


def test_every_die_spends_one_draw_scripted_or_not() -> None:
    scripted, drawn = new_match(), new_match()
    drawn.auto_chance = True
    scripted.submit(0, Roll())
    face = GAME.sample_chance(scripted.state)
    assert isinstance(face, Die)
    before = scripted.state.rng
    assert GAME.sample_chance(scripted.state) == face and scripted.state.rng == before  # pure
    scripted.submit_chance(Die(7 - face.value))  # a different face, scripted
    drawn.submit(0, Roll())  # the face the generator gives
    assert drawn.state.roll == face.value
    assert scripted.state.rng == drawn.state.rng != before
