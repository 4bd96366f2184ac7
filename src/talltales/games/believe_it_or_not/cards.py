"""The cards of Believe It or Not!, as a content pack's schema: four kinds, checked on load."""

from __future__ import annotations

import enum
from typing import Annotated, Literal

import msgspec

SUFFIX = "believe it or not."
BLANK = "____"
ADVANCE = Annotated[int, msgspec.Meta(ge=1, le=5)]
SOURCE = Annotated[str, msgspec.Meta(min_length=8, max_length=300)]
TEXT = Annotated[str, msgspec.Meta(min_length=8, max_length=240)]


class Kind(enum.StrEnum):
    """The four types of card ("The Cards")."""

    MULTIPLE_CHOICE = "multiple-choice"
    STATEMENT = "statement"
    BLUFF = "bluff"
    MOVEMENT = "movement"


Ask = Literal["left", "right", "anyone"]
Direction = Literal["ahead", "back"]


class Question(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A multiple-choice question: four answers, one of them right."""

    text: TEXT
    answers: Annotated[
        list[Annotated[str, msgspec.Meta(min_length=1, max_length=80)]],
        msgspec.Meta(min_length=4, max_length=4),
    ]
    correct: Annotated[int, msgspec.Meta(ge=0, le=3)]
    source: SOURCE

    def __post_init__(self) -> None:
        if len({a.casefold() for a in self.answers}) != 4:
            raise ValueError("the four answers must differ")


class Statement(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A true statement, ending "believe it or not"."""

    text: TEXT
    source: SOURCE

    def __post_init__(self) -> None:
        if not self.text.casefold().endswith(SUFFIX):
            raise ValueError(f'a statement ends with "{SUFFIX}"')


class Card(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """One card. Which fields it carries depends on its kind; __post_init__ checks them."""

    id: Annotated[str, msgspec.Meta(pattern=r"^[a-z0-9][a-z0-9-]{0,31}$")]
    kind: Kind
    ask: Ask | None = None  # whom to ask (not on movement cards)
    advance: ADVANCE | None = None  # spaces a pawn advances (not on movement cards)
    questions: list[Question] = []
    statements: list[Statement] = []
    hint1: str = ""  # bluff: a statement with blanks
    fills: list[list[str]] = []  # bluff: plausible fillers for each blank, in order
    hint2: list[str] = []  # bluff: three key words
    truth: str = ""  # bluff: the real fact behind the key words
    source: str = ""  # bluff: where that fact comes from
    direction: Direction | None = None  # movement
    count: Annotated[int, msgspec.Meta(ge=1, le=5)] | None = None  # movement

    def __post_init__(self) -> None:
        match self.kind:
            case Kind.MOVEMENT:
                _require(
                    self.direction is not None and self.count is not None,
                    "a movement card has a direction and a count",
                )
                _require(self.ask is None and self.advance is None, "a movement card asks nobody")
            case _:
                _require(
                    self.ask is not None and self.advance is not None,
                    "the card says whom to ask and how far a pawn advances",
                )
                _require(
                    self.direction is None and self.count is None,
                    "only movement cards have a direction",
                )
        match self.kind:
            case Kind.MULTIPLE_CHOICE:
                _require(
                    2 <= len(self.questions) <= 4, "a multiple-choice card has 2 to 4 questions"
                )
            case Kind.STATEMENT:
                _require(4 <= len(self.statements) <= 6, "a statement card has 4 to 6 statements")
            case Kind.BLUFF:
                self._check_bluff()
            case Kind.MOVEMENT:
                pass
        if self.kind is not Kind.MULTIPLE_CHOICE:
            _require(not self.questions, "only multiple-choice cards have questions")
        if self.kind is not Kind.STATEMENT:
            _require(not self.statements, "only statement cards have statements")

    def _check_bluff(self) -> None:
        blanks = self.hint1.count(BLANK)
        _require(blanks >= 1, f"HINT #1 has at least one blank written {BLANK}")
        _require(self.hint1.casefold().endswith(SUFFIX), f'HINT #1 ends with "{SUFFIX}"')
        _require(len(self.fills) == blanks, "fills has one list of fillers per blank")
        _require(all(self.fills), "each blank has at least one filler")
        _require(len(self.hint2) == 3, "HINT #2 is three key words")
        _require(
            len(self.source) >= 8 and bool(self.truth),
            "a bluff card names its real fact and source",
        )

    @property
    def moves(self) -> int:
        """A movement card's move: positive ahead, negative back."""
        count = self.count or 0
        return count if self.direction == "ahead" else -count


def _require(ok: bool, reason: str) -> None:
    if not ok:
        raise ValueError(reason)


def kind_name(kind: Kind) -> str:
    """'Multiple Choice' and the like, as printed on the cards."""
    return {
        Kind.MULTIPLE_CHOICE: "Multiple Choice",
        Kind.STATEMENT: "Statement",
        Kind.BLUFF: "Bluff",
        Kind.MOVEMENT: "Movement",
    }[kind]
