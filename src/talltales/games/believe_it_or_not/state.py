"""The typed state, actions and options of Believe It or Not!"""

from __future__ import annotations

import enum
from typing import Annotated, Literal

import msgspec

from talltales.core.deck import Deck
from talltales.games.believe_it_or_not.cards import Card, Direction, Kind
from talltales.games.believe_it_or_not.catalogs import CATALOGS, catalog_of

HAND = 5  # "Deal five cards face-down to each player"
MAX_BLUFF = 200  # characters in a bluff: a sentence or two, as said aloud


class Phase(enum.StrEnum):
    """Where a turn stands."""

    FIRST = "first"  # the table names its shortest player (option first = "shortest")
    CHOOSE_CARD = "choose-card"  # the tern holder picks a card from the hand
    TARGET = "target"  # an "Ask Anyone" card: the asker picks whom to ask
    ASK = "ask"  # the asker picks a question or statement, writes a bluff, or claims a move
    ANSWER = "answer"  # the answering player picks A-D, or believes it or not
    DISPUTE = "dispute"  # opponents may dispute a movement claim; first taker; timed
    BONUS = "bonus"  # the winner of a dispute picks a bonus
    SHORTCUT = "shortcut"  # a pawn passing a shortcut may take it
    OVER = "over"  # a pawn has reached YOU HAVE WON THE GAME


class Options(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """Printed rules by default; the rest are named house rules."""

    # Who Plays First?: the rulebook's "shortest player" (named at the table), or a seat
    # the host picks, or one drawn at random (the default: nobody need stand up).
    first: Literal["random", "host", "shortest"] = "random"
    first_seat: Annotated[int, msgspec.Meta(ge=0, le=5)] = 0  # with first = "host"
    dispute_seconds: Annotated[int, msgspec.Meta(ge=3, le=120)] = 10  # the dispute window


class _Action(msgspec.Struct, frozen=True, forbid_unknown_fields=True, tag_field="type"):
    pass


class Shortest(_Action, frozen=True, tag="shortest"):
    """Name the shortest player, who plays first."""

    seat: Annotated[int, msgspec.Meta(ge=0, le=5)]


class PlayCard(_Action, frozen=True, tag="play"):
    """Play a card from your hand."""

    card: Annotated[str, msgspec.Meta(max_length=32)]


class Target(_Action, frozen=True, tag="target"):
    """Whom an "Ask Anyone" card is asked of."""

    seat: Annotated[int, msgspec.Meta(ge=0, le=5)]


class AskQuestion(_Action, frozen=True, tag="ask"):
    """Ask one question of a multiple-choice card (0-based)."""

    question: Annotated[int, msgspec.Meta(ge=0, le=3)]


class Say(_Action, frozen=True, tag="say"):
    """Read one statement of a statement card (0-based)."""

    statement: Annotated[int, msgspec.Meta(ge=0, le=5)]


class Bluff(_Action, frozen=True, tag="bluff"):
    """Tell a made-up statement (checked for length by Match from the prompt)."""

    text: str


class Claim(_Action, frozen=True, tag="claim"):
    """Say what a face-down movement card does (true or not)."""

    direction: Direction
    count: Annotated[int, msgspec.Meta(ge=1, le=5)]


class Answer(_Action, frozen=True, tag="answer"):
    """Pick A-D (0-3)."""

    choice: Annotated[int, msgspec.Meta(ge=0, le=3)]


class Believe(_Action, frozen=True, tag="believe"):
    """ "I believe it" (true) or "I don't believe it" (false)."""

    believe: bool


class Dispute(_Action, frozen=True, tag="dispute"):
    """ "I do not believe it": dispute a movement claim."""


class LetStand(_Action, frozen=True, tag="let-stand"):
    """Let a movement claim stand."""


class Bonus(_Action, frozen=True, tag="bonus"):
    """The dispute winner's bonus: own pawn forward, or the other pawn back."""

    choice: Literal["forward", "back"]


class TakeShortcut(_Action, frozen=True, tag="shortcut"):
    """Take the shortcut (true) or stay on the path (false)."""

    take: bool


Action = (
    Shortest
    | PlayCard
    | Target
    | AskQuestion
    | Say
    | Bluff
    | Claim
    | Answer
    | Believe
    | Dispute
    | LetStand
    | Bonus
    | TakeShortcut
)


class Play(msgspec.Struct):
    """The card being played: by whom, at whom, and how far it has gone."""

    asker: int
    card: str
    kind: Kind
    challenge: bool = False  # drawn from the pile in a challenge, aimed at the challenged
    answerer: int | None = None
    chosen: bool = False  # the asker chose the answerer (an "ask anyone" card)
    question: int | None = None
    said: str = ""  # the statement or bluff as told
    claim: int = 0  # a movement claim: spaces, negative for back
    disputers: list[int] = []  # who may dispute the claim
    passed: list[int] = []
    disputer: int | None = None
    revealed: bool = False  # the card is face up (answered, judged or disputed)
    verdict: str = ""  # what the answer was, once given
    bonus_to: int | None = None  # the dispute winner, until the bonus is taken
    bonus_other: int | None = None  # whose pawn a "back" bonus moves


class Motion(msgspec.Struct):
    """A pawn about to move ``steps`` spaces (negative: back)."""

    seat: int
    steps: int
    eligible: bool | None = None  # may use a shortcut: two or more pawns ahead at its start
    entry: int = -1  # the shortcut entry where the mover has decided
    through: bool = False  # ...and the decision: take it


class State(msgspec.Struct):
    """The whole table."""

    options: Options
    deck_id: str  # the digest of the deck's pack: its cards are looked up by it
    pawns: list[int]  # each seat's position (0 START)
    hands: list[list[str]]
    deck: Deck
    rng: int
    tern: int = 0  # who holds the tern token: the regular turn
    phase: Phase = Phase.CHOOSE_CARD
    play: Play | None = None
    last: Play | None = None  # the card played before, as it was left (for the table)
    motions: list[Motion] = []
    challenges: list[list[int]] = []  # [challenger, challenged], waiting their turn
    face_down: dict[str, int] = {}  # discards only their player saw (undisputed claims)
    winner: int | None = None
    now: int = 0
    deadline: int | None = None
    turns: int = 0  # plays finished, challenges included
    log: list[str] = []  # the last few things that happened, for the table
    changed: dict[str, Card] = {}  # cards a resample redrew (a question's right answer)

    @property
    def catalog(self) -> dict[str, Card]:
        """Every card of the deck, by id (public content)."""
        cards = CATALOGS.get(self.deck_id) or catalog_of(self.deck_id)
        return {**cards, **self.changed} if self.changed else cards

    @property
    def players(self) -> int:
        return len(self.pawns)
