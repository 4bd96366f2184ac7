"""Fib-off's determinisation: everything a seat cannot see, drawn afresh.

The result depends only on what the seat may see and on the seed (never on the hidden
values themselves), so a bot given a sample decides the same whatever the secrets are.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import msgspec

from talltales.core import rng

if TYPE_CHECKING:
    from fixture_game import FibOff, State

TRUTH_PHASES = ("dispute", "write", "judge", "vote")


def resample(game: FibOff, state: State, seat: int | None, seed: int) -> State:
    """A copy of ``state`` with what ``seat`` cannot see redrawn from ``seed``."""
    from fixture_game import HIDDEN_BLUFF, Phase, vote_choices

    other = game.clone(state)
    gen = rng.seed_state(seed)
    gen = _redeal(other, seat, gen)
    reader_sees = seat == other.reader and str(other.phase) in TRUTH_PHASES
    gen = _rewrite_answers(other, reader_sees, gen)
    if other.roll and other.disputer is None and seat != other.reader:
        gen, face = rng.below(gen, 6)
        other.roll = face + 1
    if other.phase is Phase.WRITE:
        other.bluffs = {s: t if s == seat else HIDDEN_BLUFF for s, t in other.bluffs.items()}
    if other.answers:
        gen = _reassign(other, seat, reader_sees, gen)
    if other.card is not None:
        other.truth = other.catalog[other.card].answer
    for voter in sorted(other.votes):
        if voter != seat:
            choices = vote_choices(other, voter)
            gen, i = rng.below(gen, len(choices))
            other.votes[voter] = choices[i]
    other.rng = gen
    return other


def _redeal(other: State, seat: int | None, gen: int) -> int:
    """Shuffle the deck with every hand the seat cannot see, then deal them back."""
    unseen = [s for s in range(len(other.scores)) if s != seat]
    pool = sorted(other.deck.pile + [c for s in unseen for c in other.hands[s]])
    gen = rng.shuffle(gen, pool)
    for s in unseen:
        size = len(other.hands[s])
        other.hands[s], pool = pool[:size], pool[size:]
    other.deck.pile = pool
    return gen


def _rewrite_answers(other: State, reader_sees: bool, gen: int) -> int:
    """Real answers on cards nobody has revealed are unknown: permute them."""
    shown = set(other.deck.discards)
    if other.card is not None and (reader_sees or other.answers):
        shown.add(other.card)  # known, or one of the answers on the table (see _reassign)
    hidden = sorted(c for c in other.catalog if c not in shown)
    answers = sorted(other.catalog[c].answer for c in hidden)
    gen = rng.shuffle(gen, answers)
    catalog = dict(other.catalog)
    for card, answer in zip(hidden, answers, strict=True):
        catalog[card] = msgspec.structs.replace(catalog[card], answer=answer)
    other.catalog = catalog
    return gen


def _reassign(other: State, seat: int | None, reader_sees: bool, gen: int) -> int:
    """Who wrote which answer (and, for all but the reader, which is true), redrawn."""
    bluffers = sorted(s for a in other.answers for s in a.authors if s != seat)
    for answer in other.answers:
        answer.authors = [seat] if seat is not None and seat in answer.authors else []
        answer.truth = answer.truth and reader_sees
    if not reader_sees:
        open_ = [a for a in other.answers if a.id not in other.struck]
        candidates = [a for a in open_ if not a.authors]  # the truth is never anyone's
        gen, i = rng.below(gen, len(candidates))
        candidates[i].truth = True
    needy = [a for a in other.answers if not a.authors and not a.truth]
    gen = rng.shuffle(gen, bluffers)
    for answer, author in zip(needy, bluffers, strict=False):
        answer.authors.append(author)
    fakes = [a for a in other.answers if not a.truth]
    for author in bluffers[len(needy) :]:  # merged fakes: more writers than answers
        gen, i = rng.below(gen, len(fakes))
        fakes[i].authors.append(author)
    for answer in other.answers:
        answer.authors.sort()
        if answer.truth:
            other.catalog[other.card or ""] = msgspec.structs.replace(
                other.catalog[other.card or ""], answer=answer.text
            )
    return gen
