"""Fib-off's views: what each seat may see, built field by field (an allow-list)."""

from __future__ import annotations

from typing import Any

import msgspec


class CardView(msgspec.Struct, frozen=True):
    """A card in the seat's own hand."""

    id: str
    question: str


class AnswerView(msgspec.Struct, frozen=True):
    """An answer on the table, under its anonymous id."""

    id: str
    text: str


class Reveal(msgspec.Struct, frozen=True):
    """What a round's end made public: the truth, who wrote what, who voted for what."""

    question: str
    truth: str
    answers: list[AnswerView]
    truth_id: str
    authors: dict[str, list[int]]
    votes: dict[int, str]


class View(msgspec.Struct, frozen=True):
    game: str
    seat: int | None
    phase: str
    round: int
    rounds: int
    reader: int
    stake: int
    question: str | None
    disputer: int | None
    deadline: int | None
    hand: list[CardView]
    roll: str | None
    truth: str | None  # the reader's, once a card is read
    my_bluff: str | None
    my_answer: str | None  # the id of the seat's own answer, once the answers are shown
    my_vote: str | None
    answers: list[AnswerView]
    struck: list[str]
    scores: list[int]
    hand_sizes: list[int]
    steals: list[int]  # kept steal cards per seat (face up)
    done: list[int]  # seats that have acted in the current simultaneous phase
    deck: int
    discards: int
    last: Reveal | None


def build_view(game_id: str, state: Any, seat: int | None) -> View:
    """Everything ``seat`` may see (None: the table)."""
    mine = seat is not None and 0 <= seat < len(state.scores)
    reader = mine and seat == state.reader
    hand = [CardView(c, state.catalog[c].question) for c in state.hands[seat]] if mine else []
    see_roll = state.roll > 0 and (reader or state.disputer is not None)
    done = {"dispute": state.passed, "write": state.bluffs, "vote": state.votes}
    own = [a.id for a in state.answers if mine and seat in a.authors]
    return View(
        game=game_id,
        seat=seat,
        phase=str(state.phase),
        round=state.round,
        rounds=state.options.rounds,
        reader=state.reader,
        stake=state.stake,
        question=state.catalog[state.card].question if state.card else None,
        disputer=state.disputer,
        deadline=state.deadline,
        hand=hand,
        roll=f"die:{state.roll}" if see_roll else None,
        truth=state.truth if reader and state.truth else None,
        my_bluff=state.bluffs.get(seat) if mine else None,
        my_answer=own[0] if own else None,
        my_vote=state.votes.get(seat) if mine else None,
        answers=[AnswerView(a.id, a.text) for a in state.answers],
        struck=sorted(state.struck),
        scores=state.scores[:],
        hand_sizes=[len(h) for h in state.hands],
        steals=[len(k) for k in state.steals],
        done=sorted(done.get(str(state.phase), [])),
        deck=state.deck.size,
        discards=len(state.deck.discards),
        last=state.last,
    )
