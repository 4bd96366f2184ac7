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

from msgspec.structs import replace

from talltales.core import rng
from talltales.core.game import Secret
from talltales.games.believe_it_or_not.cards import Card, Kind
from talltales.games.believe_it_or_not.state import Play, State
from talltales.games.believe_it_or_not.turns import answer_label

TOLD = (Kind.STATEMENT, Kind.BLUFF)
Slot = tuple[str, int]  # (where, index)


class Fits:
    """What a seat knows of a hidden slot: the card's possible types and, for the card in
    play, the asking its target shows (left, right, or anyone when a target was chosen)."""

    def __init__(self, kinds: tuple[Kind, ...] = (), asks: tuple[str, ...] = ()) -> None:
        self.kinds = kinds
        self.asks = asks

    def __call__(self, card: Card) -> bool:
        if self.kinds and card.kind not in self.kinds:
            return False
        return not self.asks or card.ask in self.asks


def play_fits(state: State, play: Play) -> Fits:
    """What everybody knows of the card in play before it is turned up: its type as
    shown (a bluff passes for a statement) and the asking its target reveals."""
    kinds = TOLD if play.kind in TOLD else (play.kind,)
    if play.kind is Kind.MOVEMENT or play.challenge or state.players == 2:
        return Fits(kinds)  # aimed at the challenged, or with two players at the other one
    if play.chosen:
        return Fits(kinds, ("anyone",))
    if play.answerer is None:  # still choosing: only an "ask anyone" card waits for a target
        return Fits(kinds, ("anyone",))
    side = "left" if play.answerer == (play.asker + 1) % state.players else "right"
    return Fits(kinds, (side,))


def face_down_to(state: State, play: Play, seat: int | None) -> bool:
    """Whether the card in play is unknown to ``seat``: face down, not identified by a
    question read out from it, and not yet among the face-down discards."""
    hidden = not play.revealed and seat != play.asker and play.question is None
    return hidden and play.card not in state.face_down


def secrets(state: State) -> list[Secret]:
    """Every hidden card and who may see it, the right answer in play, the generator."""
    found = [Secret("generator", f"rng:{state.rng}")]
    for seat, hand in enumerate(state.hands):
        mine = frozenset({seat})
        found += [Secret(f"seat {seat} hand card {k}", c, mine) for k, c in enumerate(hand)]
    found += [Secret(f"draw pile card {k}", c) for k, c in enumerate(state.deck.pile)]
    for k, card in enumerate(state.deck.discards):
        if card in state.face_down:
            knower = frozenset({state.face_down[card]})
            found.append(Secret(f"face-down discard {k}", card, knower))
    play = state.play
    if play is not None and not play.revealed:
        asker = frozenset({play.asker})
        if play.question is not None:
            found.append(Secret("right answer in play", answer_label(state), asker))
        elif play.card not in state.face_down:
            found.append(Secret("card in play", play.card, asker | _worked_out(state, play)))
    return found


def _worked_out(state: State, play: Play) -> frozenset[int]:
    """Seats for which only one unseen card fits the card in play: they know it."""
    fits = play_fits(state, play)
    knowing = set()
    for seat in range(state.players):
        if seat != play.asker:
            unseen = _unseen(state, seat, True)
            if sum(1 for c in unseen if fits(state.catalog[c])) == 1:
                knowing.add(seat)
    return frozenset(knowing)


def resample(state: State, seat: int | None, seed: int, clone: State) -> State:
    """``clone`` (a copy of ``state``) with everything ``seat`` cannot see redrawn."""
    slots: list[tuple[Slot, Fits]] = []
    for other, hand in enumerate(state.hands):
        if other != seat:
            slots += [((f"hand{other}", k), Fits()) for k in range(len(hand))]
    slots += [(("pile", k), Fits()) for k in range(len(state.deck.pile))]
    down = [k for k, c in enumerate(state.deck.discards) if state.face_down.get(c, seat) != seat]
    slots += [(("down", k), Fits((Kind.MOVEMENT,))) for k in down]
    play = state.play
    hidden_play = play is not None and face_down_to(state, play, seat)
    if play is not None and hidden_play:
        slots.insert(0, (("play", 0), play_fits(state, play)))
    gen = rng.seed_state(seed)
    pool = sorted(_unseen(state, seat, hidden_play))
    gen = rng.shuffle(gen, pool)
    chosen: dict[Slot, str] = {}
    for slot, fits in sorted(slots, key=lambda s: (not s[1].asks, not s[1].kinds)):
        pick = next(c for c in pool if fits(state.catalog[c]))  # the truth always fits
        pool.remove(pick)
        chosen[slot] = pick
    for other, hand in enumerate(clone.hands):
        if other != seat:
            clone.hands[other] = [chosen[(f"hand{other}", k)] for k in range(len(hand))]
    clone.deck.pile = [chosen[("pile", k)] for k in range(len(clone.deck.pile))]
    for k in down:
        clone.deck.discards[k] = chosen[("down", k)]
    was = state.deck.discards
    clone.face_down = {
        card: state.face_down[was[k]]
        for k, card in enumerate(clone.deck.discards)
        if was[k] in state.face_down
    }
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
    questions[play.question] = replace(questions[play.question], correct=correct)
    clone.changed = {play.card: replace(card, questions=questions)}
    return gen


def _unseen(state: State, seat: int | None, hidden_play: bool) -> list[str]:
    cards = [c for other, hand in enumerate(state.hands) if other != seat for c in hand]
    cards += state.deck.pile
    cards += [c for c in state.deck.discards if state.face_down.get(c, seat) != seat]
    if hidden_play and state.play is not None:
        cards.append(state.play.card)
    return cards
