"""Playing a card, from choosing it to its last move: the four kinds, disputes, challenges.

Each function applies one validated action and runs the consequences until somebody must
decide again; ``settle`` is where every play ends up: moves, the bonus, then the card is
discarded, the tern token passes, and waiting challenges are played in turn.
"""

from __future__ import annotations

from talltales.core.deck import WhenEmpty
from talltales.core.game import Event, told, told_all
from talltales.games.believe_it_or_not.board import Board
from talltales.games.believe_it_or_not.cards import SUFFIX, Kind, Question
from talltales.games.believe_it_or_not.motion import decide_shortcut, run_motions
from talltales.games.believe_it_or_not.state import HAND, Motion, Phase, Play, State

LETTERS = "ABCD"
LOG = 8  # lines of recent happenings kept for the table


def seat_to(state: State, seat: int, ask: str) -> int | None:
    """Whom a card asks: the next seat to the left, to the right, or (anyone) not yet known."""
    players = state.players
    match ask:
        case "left":
            return (seat + 1) % players
        case "right":
            return (seat - 1) % players
        case _:
            return (seat + 1) % players if players == 2 else None


def right_answer(question: Question) -> str:
    """'right answer: C. Three', as views and the reveal say it (and the secret is kept)."""
    return f"right answer: {LETTERS[question.correct]}. {question.answers[question.correct]}"


def answer_label(state: State) -> str:
    """The right answer of the question in play."""
    play = state.play
    assert play is not None and play.question is not None
    return right_answer(state.catalog[play.card].questions[play.question])


def play_card(board: Board, state: State, seat: int, card_id: str) -> list[Event]:
    """What To Do On Your Turn: the chosen card leaves the hand and is played."""
    state.hands[seat].remove(card_id)
    card = state.catalog[card_id]
    state.play = Play(asker=seat, card=card_id, kind=card.kind)
    shown = "Movement" if card.kind is Kind.MOVEMENT else "a card"
    events = [told_all("play", f"seat {seat} plays {shown}", seat=seat)]
    if card.kind is not Kind.MOVEMENT:
        state.play.answerer = seat_to(state, seat, card.ask or "left")
    state.phase = (
        Phase.ASK if state.play.answerer is not None or card.kind is Kind.MOVEMENT else Phase.TARGET
    )
    return events


def target(state: State, seat: int) -> list[Event]:
    """An "Ask Anyone" card is aimed at ``seat``."""
    assert state.play is not None
    state.play.answerer, state.play.chosen = seat, True
    state.phase = Phase.ASK
    return [told_all("target", f"seat {state.play.asker} asks seat {seat}", seat=seat)]


def ask_question(state: State, index: int) -> list[Event]:
    """How To Play A Multiple Choice Card: one question, its four answers, aloud."""
    play = state.play
    assert play is not None and play.answerer is not None
    play.question = index
    play.said = state.catalog[play.card].questions[index].text
    state.phase = Phase.ANSWER
    return [told_all("ask", play.said, seat=play.asker, answerer=play.answerer)]


def say(state: State, text: str) -> list[Event]:
    """A statement read, or a bluff told: either way it ends "believe it or not"."""
    play = state.play
    assert play is not None and play.answerer is not None
    text = " ".join(text.split())
    if not text.casefold().rstrip(" .!").endswith(SUFFIX.rstrip(".")):
        text = text.rstrip(" .!") + ", " + SUFFIX
    play.said = text
    state.phase = Phase.ANSWER
    return [told_all("say", text, seat=play.asker, answerer=play.answerer)]


def claim(state: State, moves: int, now: int) -> list[Event]:
    """How To Play A Movement Card: face down, a claim, and a window to dispute it. In a
    challenge only the challenged player may dispute ("the only two players")."""
    play = state.play
    assert play is not None
    play.claim = moves
    others = [s for s in range(state.players) if s != play.asker]
    play.disputers = [play.answerer] if play.challenge and play.answerer is not None else others
    state.phase = Phase.DISPUTE
    state.deadline = now + state.options.dispute_seconds * 1000
    word = "ahead" if moves > 0 else "back"
    text = f"seat {play.asker}: believe it or not, this card moves me {abs(moves)} {word}"
    return [told_all("claim", text, seat=play.asker, count=abs(moves), direction=word)]


def answer(board: Board, state: State, choice: int) -> list[Event]:
    """Right: the answering player advances; wrong: the asker does, and says the answer."""
    play = state.play
    assert play is not None and play.answerer is not None and play.question is not None
    question = state.catalog[play.card].questions[play.question]
    right = choice == question.correct
    mover = play.answerer if right else play.asker
    play.revealed = True
    play.verdict = f"{LETTERS[choice]}: {'right' if right else 'wrong'}"
    word = "right" if right else "wrong"
    text = f"seat {play.answerer} answers {LETTERS[choice]}: {word}. The {answer_label(state)}"
    state.motions.append(Motion(mover, _advance(state)))
    event = told_all(
        "answer",
        text,
        seat=play.answerer,
        choice=LETTERS[choice],
        right=right,
        answer=answer_label(state),
    )
    return [event, *settle(board, state)]


def believe(board: Board, state: State, believes: bool) -> list[Event]:
    """Statement and Bluff cards: judging right moves the answering player; wrong, the asker."""
    play = state.play
    assert play is not None and play.answerer is not None
    true = play.kind is Kind.STATEMENT
    mover = play.answerer if believes == true else play.asker
    play.revealed = True
    said = "I believe it" if believes else "I don't believe it"
    play.verdict = said
    truth = "true" if true else "a bluff"
    text = f"seat {play.answerer}: {said}. It was {truth}!"
    state.motions.append(Motion(mover, _advance(state)))
    return [told_all("verdict", text, believed=believes, true=true), *settle(board, state)]


def dispute(board: Board, state: State, seat: int) -> list[Event]:
    """A dispute turns the card up; the player moves as it says; the winner earns a bonus."""
    play = state.play
    assert play is not None
    card = state.catalog[play.card]
    play.disputer, play.revealed = seat, True
    state.deadline = None
    honest = play.claim == card.moves
    play.bonus_to, play.bonus_other = (play.asker, seat) if honest else (seat, play.asker)
    word = "ahead" if card.moves > 0 else "back"
    truth = "the truth" if honest else "not the truth"
    text = f"seat {seat} disputes! The card says move {card.count} {word}: {truth}"
    state.motions.append(Motion(play.asker, card.moves))
    event = told_all(
        "dispute", text, seat=seat, honest=honest, direction=word, count=card.count or 0
    )
    return [event, *settle(board, state)]


def let_stand(board: Board, state: State, seat: int | None) -> list[Event]:
    """One opponent passes (None: the window closed); with nobody left, the claim stands
    and the card goes face down on the discards, never shown."""
    play = state.play
    assert play is not None
    events: list[Event] = []
    if seat is not None:
        play.passed.append(seat)
        events.append(told_all("let-stand", f"seat {seat} lets it stand", seat=seat))
        if len(play.passed) < len(play.disputers):
            return events
    state.deadline = None
    state.motions.append(Motion(play.asker, play.claim))
    told_owner = told([play.asker], "undisputed", "nobody disputed: your card stays secret")
    return [*events, told_owner, *settle(board, state)]


def bonus(board: Board, state: State, forward: bool) -> list[Event]:
    """The bonus: the winner's pawn forward the card's count, or the other pawn back."""
    play = state.play
    assert play is not None and play.bonus_to is not None and play.bonus_other is not None
    count = state.catalog[play.card].count or 0
    if forward:
        state.motions.append(Motion(play.bonus_to, count))
        text = f"bonus: seat {play.bonus_to} moves {count} ahead"
    else:
        state.motions.append(Motion(play.bonus_other, -count))
        text = f"bonus: seat {play.bonus_to} sends seat {play.bonus_other} {count} back"
    play.bonus_to = None
    return [told_all("bonus", text, forward=forward), *settle(board, state)]


def shortcut(board: Board, state: State, take: bool) -> list[Event]:
    """The mover takes the shortcut or stays on the path; the move goes on."""
    seat = state.motions[0].seat
    decide_shortcut(board, state, take)
    word = "takes the shortcut" if take else "stays on the path"
    event = told_all("shortcut", f"seat {seat} {word}", seat=seat, take=take)
    return [event, *settle(board, state)]


def settle(board: Board, state: State) -> list[Event]:
    """Run what follows a decision until the next one: moves, a bonus, the end of the
    play, waiting challenges ("an extra turn"), then the tern holder's turn."""
    events: list[Event] = []
    while state.winner is None:
        if state.motions:
            events += run_motions(board, state)
            if state.motions or state.winner is not None:
                break  # a pawn's owner decides on a shortcut, or the game is won
        elif state.play is not None and state.play.bonus_to is not None:
            state.phase = Phase.BONUS
            break
        elif state.play is not None:
            events += _finish_play(state)
        elif state.challenges:
            if _start_challenge(state, events):
                break
        else:
            _begin_turn(state)
            break
    return events


def _finish_play(state: State) -> list[Event]:
    """Discard the card; after a regular turn, refill an empty hand and pass the token."""
    play = state.play
    assert play is not None
    state.play, state.last = None, play
    state.turns += 1
    state.deck.discard(play.card)  # face down or up, every card goes on the discard pile
    if play.kind is Kind.MOVEMENT and not play.revealed:
        state.face_down[play.card] = play.asker  # undisputed: only its player saw it
    if play.challenge:
        return []
    if not state.hands[play.asker]:  # Replenishing Your Hand: all five played, take five
        state.hands[play.asker] = deal(state, HAND)
    state.tern = (state.tern + 1) % state.players
    return [told_all("tern", f"the tern token passes to seat {state.tern}", seat=state.tern)]


def _start_challenge(state: State, events: list[Event]) -> bool:
    """The next challenge, if both pawns still share the space: the challenger draws the
    top card and plays it at the challenged player. False if it lapsed."""
    challenger, challenged = state.challenges.pop(0)
    if state.pawns[challenger] != state.pawns[challenged] or state.pawns[challenger] == 0:
        return False
    drawn = deal(state, 1)
    card_id = drawn[0] if drawn else None
    if card_id is None:
        events.append(told_all("no-card", "no card is left to draw: the challenge lapses"))
        return False
    card = state.catalog[card_id]
    state.play = Play(challenger, card_id, card.kind, challenge=True, answerer=challenged)
    state.phase = Phase.ASK
    text = f"challenge! seat {challenger} draws a card to play at seat {challenged}"
    events.append(told_all("challenge", text, challenger=challenger, challenged=challenged))
    return True


def _begin_turn(state: State) -> None:
    """The tern holder plays next; an empty hand (the deck ran dry) draws first."""
    seat = state.tern
    if not state.hands[seat]:
        state.hands[seat] = deal(state, HAND)
    state.phase = Phase.CHOOSE_CARD


def deal(state: State, count: int) -> list[str]:
    """Draw ``count`` cards, reshuffling the discards into a new pile when it runs out
    ("Replenishing Your Hand"); face-down discards shuffled back are nobody's secret now."""
    state.rng, drawn = state.deck.deal(state.rng, count, WhenEmpty.RESHUFFLE)
    if state.face_down and not state.deck.discards:
        state.face_down = {}
    return drawn


def _advance(state: State) -> int:
    assert state.play is not None
    return state.catalog[state.play.card].advance or 0


def keep_log(state: State, events: list[Event]) -> list[Event]:
    """Keep the last few public happenings for the table screen; returns ``events``."""
    public = [e.text for e in events if e.public]
    if public:
        state.log = [*state.log, *public][-LOG:]
    return events
