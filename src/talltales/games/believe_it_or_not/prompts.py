"""What each pending seat is asked, in words a first-time player follows, and the short
phrases for actions that logs and pick lists show."""

from __future__ import annotations

import msgspec

from talltales.core.prompt import Option, Pick, Prompt, Race, Verdict, Write
from talltales.games.believe_it_or_not.board import Board
from talltales.games.believe_it_or_not.cards import BLANK, Card, Kind, kind_name
from talltales.games.believe_it_or_not.state import (
    MAX_BLUFF,
    Action,
    Answer,
    AskQuestion,
    Believe,
    Bluff,
    Bonus,
    Claim,
    Dispute,
    LetStand,
    Phase,
    PlayCard,
    Say,
    Shortest,
    State,
    TakeShortcut,
    Target,
)
from talltales.games.believe_it_or_not.turns import LETTERS

CLAIMS = [Claim(d, n) for d in ("ahead", "back") for n in range(1, 6)]


def card_label(card: Card) -> str:
    """'Multiple Choice · ask left · 3 spaces' or 'Movement: move 4 back'."""
    if card.kind is Kind.MOVEMENT:
        return f"Movement: move {card.count} {card.direction}"
    spaces = "space" if card.advance == 1 else "spaces"
    return f"{kind_name(card.kind)} · ask {card.ask} · {card.advance} {spaces}"


EXAMPLES = 2  # suggested bluffs per card: a start for people stuck for words


def bluff_examples(card: Card) -> list[str]:
    """Bluffs built from HINT #1, each blank filled with one of the card's fillers."""
    examples = []
    for k in range(min(EXAMPLES, max((len(f) for f in card.fills), default=0))):
        text = card.hint1
        for fillers in card.fills:
            text = text.replace(BLANK, fillers[k % len(fillers)], 1)
        examples.append(text)
    return examples


def describe(board: Board, state: State, action: Action) -> str:
    """A short phrase for an action, for pick lists and logs."""
    play = state.play
    match action:
        case Shortest(seat=seat):
            return f"seat {seat} is the shortest"
        case PlayCard(card=card_id):
            return card_label(state.catalog[card_id])
        case Target(seat=seat):
            return f"ask seat {seat} (on {board.name(state.pawns[seat])})"
        case AskQuestion(question=k) if play is not None:
            return state.catalog[play.card].questions[k].text
        case Say(statement=k) if play is not None:
            return state.catalog[play.card].statements[k].text
        case Bluff(text=text):
            return text
        case Claim(direction=direction, count=count):
            return f"claim: move {count} {direction}"
        case Answer(choice=choice) if play is not None and play.question is not None:
            answers = state.catalog[play.card].questions[play.question].answers
            return f"{LETTERS[choice]}. {answers[choice]}"
        case Believe(believe=yes):
            return "I believe it" if yes else "I don't believe it"
        case Dispute():
            return "I do not believe it!"
        case LetStand():
            return "let it stand"
        case Bonus(choice=choice) if play is not None:
            spaces = state.catalog[play.card].count
            if choice == "forward":
                return f"move my pawn {spaces} ahead"
            return f"move seat {play.bonus_other}'s pawn {spaces} back"
        case TakeShortcut(take=take):
            return "take the shortcut" if take else "stay on the path"
        case _:
            return str(msgspec.json.encode(action).decode())


def _options(board: Board, state: State, actions: list[Action]) -> list[Option]:
    return [Option(describe(board, state, a), msgspec.to_builtins(a)) for a in actions]


def prompt(board: Board, state: State, seat: int, actions: list[Action]) -> Prompt:
    """The typed prompt for ``seat``, built from what it may see."""
    play = state.play
    match state.phase:
        case Phase.FIRST:
            question = "Believe it or not, the shortest player goes first. Who is it?"
            return Pick(question=question, options=_options(board, state, actions))
        case Phase.CHOOSE_CARD:
            question = "Your turn: pick a card to play from your hand"
            return Pick(question=question, options=_options(board, state, actions))
        case Phase.TARGET:
            question = "Ask anyone: whom will you ask? Ask someone with little to gain"
            return Pick(question=question, options=_options(board, state, actions))
        case Phase.ASK if play is not None:
            return _ask_prompt(board, state, actions)
        case Phase.ANSWER if play is not None and play.question is not None:
            question = f"Seat {play.asker} asks you: {play.said} Pick A, B, C or D"
            return Pick(question=question, options=_options(board, state, actions))
        case Phase.ANSWER if play is not None:
            return Verdict(
                question=f"Seat {play.asker} says: is it true?",
                subject=play.said,
                accept=Option("I believe it", {"type": "believe", "believe": True}),
                overrule=[Option("I don't believe it", {"type": "believe", "believe": False})],
            )
        case Phase.DISPUTE if play is not None:
            word = "ahead" if play.claim > 0 else "back"
            question = (
                f"Seat {play.asker} says the face-down card moves them {abs(play.claim)} {word}."
                " Dispute it if you think it's a lie!"
            )
            return Race(
                question=question,
                claim=Option("I do not believe it!", {"type": "dispute"}),
                decline=Option("Let it stand", {"type": "let-stand"}),
            )
        case Phase.BONUS:
            question = "You won the dispute! Pick your bonus"
            return Pick(question=question, options=_options(board, state, actions))
        case Phase.SHORTCUT:
            question = "Your pawn passes a shortcut: take it?"
            return Pick(question=question, options=_options(board, state, actions))
        case _:
            return Pick(question="Nothing to do", options=_options(board, state, actions))


def _ask_prompt(board: Board, state: State, actions: list[Action]) -> Prompt:
    play = state.play
    assert play is not None
    card = state.catalog[play.card]
    whom = f"seat {play.answerer}"
    lead = "Challenge! " if play.challenge else ""
    match card.kind:
        case Kind.MULTIPLE_CHOICE:
            question = f"{lead}Pick a question to ask {whom}"
        case Kind.STATEMENT:
            question = f"{lead}Pick a true statement to read to {whom}: make it sound made up"
        case Kind.BLUFF:
            hints = f"HINT #1: {card.hint1} HINT #2: {' / '.join(card.hint2)}"
            return Write(
                question=f"{lead}Make up a false statement to tell {whom}. {hints}",
                purpose="your bluff",
                action={"type": "bluff"},
                max_length=MAX_BLUFF,
                examples=bluff_examples(card),
            )
        case Kind.MOVEMENT:
            question = (
                f"{lead}Your card says move {card.count} {card.direction}. What do you claim?"
                " Tell the truth, or not, and hope nobody disputes"
            )
    return Pick(question=question, options=_options(board, state, actions))
