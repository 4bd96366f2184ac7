"""Which actions are legal now, with the rulebook's reason when one is not."""

from __future__ import annotations

from talltales.core.errors import IllegalAction, NotYourTurn
from talltales.games.believe_it_or_not.cards import Kind
from talltales.games.believe_it_or_not.state import (
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

# which phase each action belongs to, and what to say when it is out of place
WHEN: dict[type, tuple[Phase, str]] = {
    Shortest: (Phase.FIRST, "the first player is already known"),
    PlayCard: (Phase.CHOOSE_CARD, "it is not the moment to play a card from your hand"),
    Target: (Phase.TARGET, "there is no 'ask anyone' card waiting for a target"),
    AskQuestion: (Phase.ASK, "there is no question to ask now"),
    Say: (Phase.ASK, "there is no statement to read now"),
    Bluff: (Phase.ASK, "there is no bluff to tell now"),
    Claim: (Phase.ASK, "there is no movement card to claim now"),
    Answer: (Phase.ANSWER, "no question is waiting for an answer"),
    Believe: (Phase.ANSWER, "no statement is waiting for a verdict"),
    Dispute: (Phase.DISPUTE, "there is no claim to dispute now"),
    LetStand: (Phase.DISPUTE, "there is no claim to let stand now"),
    Bonus: (Phase.BONUS, "there is no bonus to take"),
    TakeShortcut: (Phase.SHORTCUT, "no pawn is at a shortcut"),
}
ASK_KIND = {AskQuestion: Kind.MULTIPLE_CHOICE, Say: Kind.STATEMENT, Bluff: Kind.BLUFF}
NOTHING_MORE = frozenset({Dispute, LetStand, Bonus, TakeShortcut})


def check(state: State, seat: int, action: Action, pending: frozenset[int]) -> None:
    """Raise IllegalAction (NotYourTurn for a seat with nothing to decide) unless legal."""
    if state.phase is Phase.OVER:
        raise IllegalAction(f"the game is over: seat {state.winner} has won")
    phase, reason = WHEN[type(action)]
    if state.phase is not phase:
        if (
            isinstance(action, Dispute)
            and state.play is not None
            and state.play.disputer is not None
        ):
            raise IllegalAction(f"too late: seat {state.play.disputer} disputed first")
        raise IllegalAction(reason)
    if seat not in pending:
        raise NotYourTurn(f"seat {seat} has nothing to decide now")
    if type(action) in NOTHING_MORE:
        return  # the phase and the seat were all there was to check
    play = state.play
    match action:
        case PlayCard(card=card):
            if card not in state.hands[seat]:
                raise IllegalAction("you do not hold that card")
        case Shortest(seat=first) | Target(seat=first) if not 0 <= first < state.players:
            raise IllegalAction(f"there is no seat {first}")
        case Target(seat=target) if target == seat:
            raise IllegalAction("ask an opponent, not yourself")
        case AskQuestion() | Say() | Bluff() | Claim():
            assert play is not None
            _check_ask(state, action, state.catalog[play.card].kind)
        case Answer() if play is None or play.question is None:
            raise IllegalAction("this card is judged with 'I believe it' or 'I don't believe it'")
        case Believe() if play is None or play.question is not None:
            raise IllegalAction("this question is answered with A, B, C or D")
        case _:
            pass


def _check_ask(state: State, action: Action, kind: Kind) -> None:
    play = state.play
    assert play is not None
    wanted = Kind.MOVEMENT if isinstance(action, Claim) else ASK_KIND[type(action)]
    if kind is not wanted:
        raise IllegalAction(f"your card is a {kind} card, not a {wanted} card")
    card = state.catalog[play.card]
    match action:
        case AskQuestion(question=k) if k >= len(card.questions):
            raise IllegalAction(f"the card has {len(card.questions)} questions")
        case Say(statement=k) if k >= len(card.statements):
            raise IllegalAction(f"the card has {len(card.statements)} statements")
        case _:
            pass
