"""Secrets and resampling: which cards each seat cannot see, and a redraw of them.

A seat knows its own hand, every card turned face up, and the face-down cards it played
itself. Every other card (other hands, the draw pile, undisputed discards, a card in play
still face down) is drawn afresh, keeping what the seat does know of each slot: a face-down
movement card is a movement card; a card in play shows its type (a bluff passing for a
statement), whom it asks and how far it moves a pawn. The right answer of a question
asked but not yet answered is redrawn too: to everyone but the asker it could be any of
the four.
"""

from __future__ import annotations

from talltales.core import rng
from talltales.core.game import Secret
from talltales.games.believe_it_or_not.cards import Card, Kind
from talltales.games.believe_it_or_not.state import Play, State
from talltales.games.believe_it_or_not.turns import answer_label

TOLD = (Kind.STATEMENT, Kind.BLUFF)
Slot = tuple[str, int]  # (where, index)


class Fits:
    """What a seat knows of a hidden slot: the card's possible types, asking and advance."""

    def __init__(self, kinds: tuple[Kind, ...] = (), card: Card | None = None) -> None:
        self.kinds = kinds
        self.shown = (card.ask, card.advance) if card is not None else None

    def __call__(self, card: Card) -> bool:
        if self.kinds and card.kind not in self.kinds:
            return False
        return self.shown is None or (card.ask, card.advance) == self.shown


def face_down_to(play: Play, seat: int | None) -> bool:
    """Whether the card in play is unknown to ``seat``: face down, and not identified by
    a question read out from it."""
    return not play.revealed and seat != play.asker and play.question is None


def secrets(state: State) -> list[Secret]:
    """Every hidden card and who may see it, the right answer in play, the generator."""
    found = [Secret("generator", f"rng:{state.rng}")]
    for seat, hand in enumerate(state.hands):
        mine = frozenset({seat})
        found += [Secret(f"seat {seat} hand card {k}", c, mine) for k, c in enumerate(hand)]
    found += [Secret(f"draw pile card {k}", c) for k, c in enumerate(state.deck.pile)]
    for card, seat in state.face_down.items():
        found.append(Secret(f"face-down discard {card}", card, frozenset({seat})))
    play = state.play
    if play is not None and not play.revealed:
        asker = frozenset({play.asker})
        if play.question is not None:
            found.append(Secret("right answer in play", answer_label(state), asker))
        elif play.card not in state.face_down:
            found.append(Secret("card in play", play.card, asker))
    return found


def resample(state: State, seat: int | None, seed: int, clone: State) -> State:
    """``clone`` (a copy of ``state``) with everything ``seat`` cannot see redrawn."""
    slots: list[tuple[Slot, Fits]] = []
    for other, hand in enumerate(state.hands):
        if other != seat:
            slots += [((f"hand{other}", k), Fits()) for k in range(len(hand))]
    slots += [(("pile", k), Fits()) for k in range(len(state.deck.pile))]
    knowers = sorted(s for s in state.face_down.values() if s != seat)
    slots += [(("down", k), Fits((Kind.MOVEMENT,))) for k in range(len(knowers))]
    play = state.play
    hidden_play = play is not None and face_down_to(play, seat)
    if play is not None and hidden_play:
        kinds = TOLD if play.kind in TOLD else (play.kind,)
        slots.insert(0, (("play", 0), Fits(kinds, state.catalog[play.card])))
    gen = rng.seed_state(seed)
    pool = sorted(_unseen(state, seat, hidden_play))
    gen = rng.shuffle(gen, pool)
    chosen: dict[Slot, str] = {}
    for slot, fits in sorted(slots, key=lambda s: (s[1].shown is None, not s[1].kinds)):
        pick = next(c for c in pool if fits(state.catalog[c]))  # the truth always fits
        pool.remove(pick)
        chosen[slot] = pick
    for other, hand in enumerate(clone.hands):
        if other != seat:
            clone.hands[other] = [chosen[(f"hand{other}", k)] for k in range(len(hand))]
    clone.deck.pile = [chosen[("pile", k)] for k in range(len(clone.deck.pile))]
    known = [(c, s) for c, s in state.face_down.items() if s == seat]
    redrawn = [(chosen[("down", k)], s) for k, s in enumerate(knowers)]
    clone.face_down = dict(sorted(known + redrawn))
    if clone.play is not None and hidden_play:
        clone.play.card = chosen[("play", 0)]
        clone.play.kind = clone.catalog[clone.play.card].kind
    if play is not None and not play.revealed and play.question is not None and seat != play.asker:
        gen = _redraw_answer(clone, gen)
    clone.rng = rng.seed_state(rng.below(gen, 1 << 62)[1])
    return clone


def _redraw_answer(clone: State, gen: int) -> int:
    """The question in play gets a right answer drawn at random (a copy of its card)."""
    play = clone.play
    assert play is not None and play.question is not None
    card = clone.catalog[play.card]
    gen, correct = rng.below(gen, 4)
    questions = list(card.questions)
    question = questions[play.question]
    questions[play.question] = type(question)(
        question.text, question.answers, correct, question.source
    )
    clone.catalog = {**clone.catalog, play.card: _with_questions(card, questions)}
    return gen


def _with_questions(card: Card, questions: list) -> Card:  # type: ignore[type-arg]
    import msgspec

    return msgspec.structs.replace(card, questions=questions)


def _unseen(state: State, seat: int | None, hidden_play: bool) -> list[str]:
    cards = [c for other, hand in enumerate(state.hands) if other != seat for c in hand]
    cards += state.deck.pile
    cards += [c for c, s in state.face_down.items() if s != seat]
    if hidden_play and state.play is not None:
        cards.append(state.play.card)
    return cards
