"""What each seat sees, built by allow-list: its own hand, the table, the card in play as far
as it has been shown. Another seat's hand, a face-down card, a right answer before it is
given and whether a statement is a bluff before it is judged are never copied in."""

from __future__ import annotations

from functools import cache

import msgspec

from talltales.games.believe_it_or_not.board import Board
from talltales.games.believe_it_or_not.cards import Card, Kind
from talltales.games.believe_it_or_not.state import Phase, Play, State
from talltales.games.believe_it_or_not.turns import right_answer


class SpaceView(msgspec.Struct, frozen=True):
    """A space as the table screen draws it."""

    index: int
    kind: str
    x: int
    y: int
    move: int = 0
    end: int = 0
    entry: int = 0  # shortcut spaces: the path spaces they join
    exit: int = 0


class BoardView(msgspec.Struct, frozen=True):
    """The board from its file: the path, then the shortcut spaces."""

    id: str
    title: str
    columns: int
    rows: int
    won: int
    spaces: list[SpaceView]


class QuestionView(msgspec.Struct, frozen=True):
    """A question; ``correct`` ('C. Three') only for whoever may know it."""

    text: str
    answers: list[str]
    correct: str = ""
    source: str = ""


class CardView(msgspec.Struct, frozen=True):
    """A card seen face up: in its holder's hand, or revealed on the table."""

    id: str
    kind: str
    ask: str = ""
    advance: int = 0
    questions: list[QuestionView] = []
    statements: list[str] = []
    sources: list[str] = []
    hint1: str = ""
    hint2: list[str] = []
    truth: str = ""
    source: str = ""
    direction: str = ""
    count: int = 0


class PlayView(msgspec.Struct, frozen=True):
    """The card being played, as far as this seat may know it."""

    asker: int
    shown_as: str  # "multiple-choice", "statement" (a statement or a bluff) or "movement"
    challenge: bool
    answerer: int | None
    advance: int  # at stake (0 for movement)
    question: QuestionView | None  # once asked; its answer only once given
    said: str  # the statement or bluff, once told
    claim: int  # a movement claim, spaces (negative: back); 0 before it is made
    disputers: list[int]
    passed: list[int]
    disputer: int | None
    verdict: str
    card: CardView | None  # the card itself: for its player, or once turned face up
    bonus_to: int | None


class View(msgspec.Struct, frozen=True):
    """Everything one seat (None: the table) may see."""

    seat: int | None
    players: int
    board: BoardView
    pawns: list[int]
    places: list[str]
    tern: int
    phase: str
    pending: list[int]
    hand: list[CardView]
    hand_sizes: list[int]
    draw_pile: int
    discards: int
    play: PlayView | None
    last: PlayView | None  # the card played before, as it was left: face up if it was shown
    challenges: int  # challenges waiting to be played
    deadline: int | None
    shortcut: int | None  # the seat deciding on a shortcut
    winner: int | None
    log: list[str]


SHOWN_AS = {Kind.MOVEMENT: "movement", Kind.MULTIPLE_CHOICE: "multiple-choice"}


@cache
def board_view(board: Board) -> BoardView:
    """The board as every view carries it (built once)."""
    spaces = [SpaceView(s.index, s.kind, s.x, s.y, s.move, s.end) for s in board.spaces]
    for k, s in enumerate(board.shortcuts):
        spaces.append(
            SpaceView(board.shortcut_space(k), "shortcut", s.x, s.y, 0, 0, s.entry, s.exit)
        )
    layout = board.layout
    return BoardView(layout.id, layout.title, layout.columns, layout.rows, board.won, spaces)


def card_view(card: Card, *, answers: bool = True, named: bool = True) -> CardView:
    """A card face up; ``answers`` false leaves out which answer is right, ``named`` false
    its id (a card gone back into the pile must not be traceable by it)."""
    questions = [
        QuestionView(
            q.text,
            list(q.answers),
            right_answer(q) if answers else "",
            q.source,
        )
        for q in card.questions
    ]
    return CardView(
        id=card.id if named else "",
        kind=str(card.kind),
        ask=card.ask or "",
        advance=card.advance or 0,
        questions=questions,
        statements=[s.text for s in card.statements],
        sources=[s.source for s in card.statements],
        hint1=card.hint1,
        hint2=list(card.hint2),
        truth=card.truth,
        source=card.source,
        direction=card.direction or "",
        count=card.count or 0,
    )


def play_view(state: State, play: Play, seat: int | None, *, named: bool = True) -> PlayView:
    """The card in play: its player sees it; others see what was said, and the card once
    it is face up (its right answer only then)."""
    card = state.catalog[play.card]
    mine = seat == play.asker
    shown = mine or play.revealed  # the card itself, face up to this seat
    question = None
    if play.question is not None:
        q = card.questions[play.question]
        correct = right_answer(q)
        question = QuestionView(
            q.text, list(q.answers), correct if shown else "", q.source if shown else ""
        )
    shown_as = SHOWN_AS.get(card.kind, "statement")  # a bluff passes for a statement
    return PlayView(
        asker=play.asker,
        shown_as=shown_as,
        challenge=play.challenge,
        answerer=play.answerer,
        advance=(card.advance or 0) if shown or play.question is not None else 0,
        question=question,
        said=play.said,
        claim=play.claim,
        disputers=list(play.disputers),
        passed=list(play.passed),
        disputer=play.disputer,
        verdict=play.verdict,
        card=card_view(card, named=named) if shown else None,
        bonus_to=play.bonus_to,
    )


def build_view(board: Board, state: State, seat: int | None, pending: list[int]) -> View:
    """One seat's view (None: the public table)."""
    players = state.players
    hand = (
        [card_view(state.catalog[c]) for c in state.hands[seat]]
        if seat is not None and 0 <= seat < players
        else []
    )
    deciding = state.motions[0].seat if state.phase is Phase.SHORTCUT and state.motions else None
    return View(
        seat=seat,
        players=players,
        board=board_view(board),
        pawns=list(state.pawns),
        places=[board.name(p) for p in state.pawns],
        tern=state.tern,
        phase=str(state.phase),
        pending=pending,
        hand=hand,
        hand_sizes=[len(h) for h in state.hands],
        draw_pile=state.deck.size,
        discards=len(state.deck.discards),
        play=play_view(state, state.play, seat) if state.play is not None else None,
        last=play_view(state, state.last, seat, named=False) if state.last is not None else None,
        challenges=len(state.challenges),
        deadline=state.deadline,
        shortcut=deciding,
        winner=state.winner,
        log=list(state.log),
    )
