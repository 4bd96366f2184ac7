"""Believe It or Not! at the terminal: the board, a question, a claim and a reveal."""

from __future__ import annotations

import msgspec
from rich.console import Console

from talltales.core.packs import choose_packs
from talltales.games.believe_it_or_not import GAME
from talltales.games.believe_it_or_not.state import (
    AskQuestion,
    Believe,
    Bluff,
    Claim,
    Dispute,
    PlayCard,
    State,
)
from talltales.terminal.render import render_view

NAMES = ["Ann", "Bob", "Cy"]


def table(**overrides: object) -> State:
    state = GAME.setup(3, GAME.options({"first": "host"}), 2, choose_packs(GAME))
    GAME.override(state, dict(overrides))
    return state


def shown(state: State, seat: int | None) -> str:
    console = Console(width=100, record=True, color_system=None)
    view = GAME.view(state, seat)
    console.print(render_view(GAME.id, msgspec.to_builtins(view), NAMES))  # as it arrives
    return console.export_text()


def test_the_board_shows_special_spaces_and_pawns() -> None:
    text = shown(table(pawns=[5, 18, 64]), None)
    assert "GO" in text and "WIN" in text and "↘11" in text and "✂" in text and "»2" in text
    assert "A (Ann) space 5" in text and "C (Cy) the shortcut" in text
    assert "Your hand" not in text  # the table holds no hand


def test_a_question_shows_its_answers_but_not_which_is_right() -> None:
    state = table(hands=[["mc-01"], [], []], tern=0)
    GAME.apply(state, 0, PlayCard("mc-01"))
    GAME.apply(state, 0, AskQuestion(0))
    text = shown(state, 1)
    question = state.catalog["mc-01"].questions[0]
    assert question.text in text and all(a in text for a in question.answers)
    assert "right answer" not in text
    assert "right answer" in shown(state, 0)  # the asker sees it


def test_a_disputed_claim_shows_the_reveal() -> None:
    state = table(pawns=[10, 10, 10], hands=[["mv-04"], [], []], tern=0)
    GAME.apply(state, 0, PlayCard("mv-04"))
    GAME.apply(state, 0, Claim("ahead", 5))
    assert "Claims the card moves them 5 ahead" in shown(state, 2)
    GAME.apply(state, 2, Dispute())
    text = shown(state, 1)
    assert "Disputed by C (Cy)" in text and "move 3 ahead" in text


def test_the_card_before_stays_on_show_with_its_reveal() -> None:
    state = table(pawns=[10, 10, 10], hands=[["bl-02", "mc-02"], [], []], tern=0)
    GAME.apply(state, 0, PlayCard("bl-02"))  # Ask Right: seat 2
    GAME.apply(state, 0, Bluff("A cat once ran a railway station"))
    GAME.apply(state, 2, Believe(False))
    text = shown(state, 1)
    assert "The card before:" in text and "I don't believe it" in text
    assert "The real fact:" in text and "Zanzibar" in text
