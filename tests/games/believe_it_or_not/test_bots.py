"""The game's own bot: each strategy hint as a position and the decision it leads to."""

from __future__ import annotations

from talltales.bots import make_bot
from talltales.core.packs import choose_packs
from talltales.games.believe_it_or_not import GAME
from talltales.games.believe_it_or_not.bots import Sharp, gain, unseen_kinds
from talltales.games.believe_it_or_not.cards import Kind
from talltales.games.believe_it_or_not.state import (
    Answer,
    Believe,
    Bluff,
    Bonus,
    Claim,
    Dispute,
    LetStand,
    PlayCard,
    State,
    Target,
)

PACKS = choose_packs(GAME)


def table(players: int, **overrides: object) -> State:
    state = GAME.setup(players, GAME.options({"first": "host"}), 1, PACKS)
    GAME.override(state, dict(overrides))
    return state


def play(state: State, seat: int, *actions: object) -> None:
    for action in actions:
        GAME.validate(state, seat, action)  # type: ignore[arg-type]
        GAME.apply(state, seat, action)  # type: ignore[arg-type]


def test_the_smart_kind_hands_decisions_to_the_games_own_bot() -> None:
    bot = make_bot("smart:skill=90", 3)
    state = table(3)
    assert bot.choose(GAME, state, 0) in GAME.legal_actions(state, 0)
    assert isinstance(bot.own[GAME.id], Sharp)  # type: ignore[attr-defined]
    assert bot.own[GAME.id].skill == 0.9  # type: ignore[attr-defined]


def test_ask_anyone_goes_to_the_player_falling_behind() -> None:
    state = table(4, pawns=[10, 30, 3, 25], hands=[["mc-03"], [], [], []], tern=0)
    play(state, 0, PlayCard("mc-03"))  # Ask Anyone
    assert Sharp(1).choose(GAME, state, 0) == Target(2)


def test_a_remembered_answer_is_given_and_a_forgotten_one_guessed() -> None:
    state = table(2, hands=[["mc-01"], ["mc-02"]], tern=0)
    play(state, 0, PlayCard("mc-01"))
    play(state, 0, GAME.legal_actions(state, 0)[0])
    right = state.catalog["mc-01"].questions[0].correct
    assert Sharp(1, skill=1.0).choose(GAME, state, 1) == Answer(right)
    guesses = {Sharp(seed, skill=0.0).choose(GAME, state, 1) for seed in range(12)}
    assert len(guesses) > 1


def test_a_known_true_statement_is_believed() -> None:
    state = table(2, hands=[["st-01"], ["mc-02"]], tern=0)
    play(state, 0, PlayCard("st-01"))
    play(state, 0, GAME.legal_actions(state, 0)[0])
    assert Sharp(1, skill=1.0).choose(GAME, state, 1) == Believe(True)


def test_an_unknown_statement_is_judged_by_the_unseen_mix() -> None:
    state = table(2, hands=[["bl-01"], ["mc-02"]], tern=0)
    play(state, 0, PlayCard("bl-01"))
    play(state, 0, Bluff("A dog once sang the national anthem at a match"))
    unseen = unseen_kinds(state, 1)
    bot = Sharp(1, skill=0.9)
    expected = unseen[Kind.STATEMENT] * (1 - bot.skill) > unseen[Kind.BLUFF]
    assert bot.choose(GAME, state, 1) == Believe(expected)


def test_bluffs_are_written_from_hint_one() -> None:
    state = table(2, hands=[["bl-02"], ["mc-02"]], tern=0)
    play(state, 0, PlayCard("bl-02"))
    action = Sharp(4).choose(GAME, state, 0)
    assert isinstance(action, Bluff)
    assert "____" not in action.text and "Pellmora" in action.text


def test_a_forward_card_is_claimed_truthfully() -> None:
    state = table(2, pawns=[30, 30], hands=[["mv-04"], ["mc-02"]], tern=0)  # ahead 3
    play(state, 0, PlayCard("mv-04"))
    assert Sharp(1).choose(GAME, state, 0) == Claim("ahead", 3)


def test_a_back_card_is_claimed_truthfully_unless_a_lie_pays_for_its_risk() -> None:
    state = table(2, pawns=[36, 36], hands=[["mv-14"], ["mc-02"]], tern=0)  # back 5
    play(state, 0, PlayCard("mv-14"))
    assert Sharp(1).choose(GAME, state, 0) == Claim("back", 5)  # caught, it would cost 10
    state = table(2, pawns=[20, 36], hands=[["mv-14"], ["mc-02"]], tern=0)
    play(state, 0, PlayCard("mv-14"))  # "ahead 1" lands on the slide at 21: worth the risk
    assert Sharp(1).choose(GAME, state, 0) == Claim("ahead", 1)


def test_a_modest_claim_stands_and_an_unlikely_one_is_disputed() -> None:
    state = table(2, pawns=[30, 30], hands=[["mv-04"], ["mc-02"]], tern=0)
    play(state, 0, PlayCard("mv-04"), Claim("ahead", 3))
    assert Sharp(1).choose(GAME, state, 1) == LetStand()  # two ahead-3 cards: likely true
    state = table(2, pawns=[30, 30], hands=[["mv-11"], ["mv-07", "mc-02"]], tern=0)
    play(state, 0, PlayCard("mv-11"), Claim("ahead", 5))  # the only ahead-5 is in seat 1's hand
    assert Sharp(1).choose(GAME, state, 1) == Dispute()


def test_the_bonus_is_taken_where_it_is_worth_more() -> None:
    state = table(2, pawns=[5, 52], hands=[["mv-13"], ["mc-02"]], tern=0)  # back 4
    play(state, 0, PlayCard("mv-13"), Claim("ahead", 2))
    play(state, 1, Dispute())
    assert Sharp(1).choose(GAME, state, 1) in (Bonus("forward"), Bonus("back"))
    forward = gain(GAME.board, state, 1, 4)
    assert forward > 0


def test_a_move_is_valued_where_the_pawn_really_ends() -> None:
    state = table(2, pawns=[8, 0])
    assert gain(GAME.board, state, 0, 1) == 3.0  # 8 -> 9 is a slide to 11
    assert gain(GAME.board, state, 0, 3) == 3.0  # 8 -> 11 by count: the same place
    state = table(2, pawns=[60, 0])
    assert gain(GAME.board, state, 0, 5) > 10  # reaching the last space is worth a bonus


def test_a_back_claim_onto_a_move_space_can_pay() -> None:
    state = table(2, pawns=[30, 30], hands=[["mv-14"], ["mc-02"]], tern=0)
    play(state, 0, PlayCard("mv-14"))  # back 5: 29 is a move-ahead-3 space
    assert gain(GAME.board, state, 0, -1) == 2.0
