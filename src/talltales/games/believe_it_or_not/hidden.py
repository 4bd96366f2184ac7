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


def face_down_to(play: Play, seat: int | None) -> bool:
    """Whether the card in play is unknown to ``seat``: face down, and not identified by a
    question read out from it."""
    return not play.revealed and seat != play.asker and play.question is None


def secrets(state: State) -> list[Secret]:
    """Every hidden card and who may know it, the right answer in play, the generator.

    A card a seat can work out by elimination (the one unseen card that fits) counts as
    known to it; one the table itself can work out is no secret at all."""
    found = [Secret("generator", f"rng:{state.rng}")]
    public = known_slots(state, None)
    knows = [known_slots(state, seat) for seat in range(state.players)]

    def secret(what: str, slot: Slot, card: str, owner: int | None = None) -> None:
        if slot not in public:
            seats = {s for s in range(state.players) if slot in knows[s] or s == owner}
            found.append(Secret(what, card, frozenset(seats)))

    for seat, hand in enumerate(state.hands):
        for k, card in enumerate(hand):
            secret(f"seat {seat} hand card {k}", (f"hand{seat}", k), card, seat)
    for k, card in enumerate(state.deck.pile):
        secret(f"draw pile card {k}", ("pile", k), card)
    for k, card in enumerate(state.deck.discards):
        if card in state.face_down:
            secret(f"face-down discard {k}", ("down", k), card, state.face_down[card])
    play = state.play
    if play is not None and not play.revealed:
        if play.question is not None:
            asker = frozenset({play.asker})
            found.append(Secret("right answer in play", answer_label(state), asker))
        else:
            secret("card in play", ("play", 0), play.card, play.asker)
    return found


def hidden_slots(state: State, seat: int | None) -> tuple[list[tuple[Slot, Fits]], list[str]]:
    """The places of the cards ``seat`` cannot see, what it knows of each, and the cards
    that fill them (in no meaningful order)."""
    slots: list[tuple[Slot, Fits]] = []
    for other, hand in enumerate(state.hands):
        if other != seat:
            slots += [((f"hand{other}", k), Fits()) for k in range(len(hand))]
    slots += [(("pile", k), Fits()) for k in range(len(state.deck.pile))]
    for k, card in enumerate(state.deck.discards):
        if state.face_down.get(card, seat) != seat:
            slots.append((("down", k), Fits((Kind.MOVEMENT,))))
    play = state.play
    hidden_play = play is not None and face_down_to(play, seat)
    if play is not None and hidden_play:
        slots.insert(0, (("play", 0), play_fits(state, play)))
    return slots, _unseen(state, seat, hidden_play)


def known_slots(state: State, seat: int | None) -> set[Slot]:
    """Hidden places whose card ``seat`` can work out: a constraint only one card meets,
    or the last free place once the constrained ones have taken the cards they must."""
    slots, pool = hidden_slots(state, seat)
    catalog = state.catalog
    groups: dict[tuple[tuple[Kind, ...], tuple[str, ...]], list[Slot]] = {}
    free = []
    for slot, fits in slots:
        if fits.kinds or fits.asks:
            groups.setdefault((fits.kinds, fits.asks), []).append(slot)
        else:
            free.append(slot)
    known, forced = set(), set()
    for (kinds, asks), members in groups.items():
        fits = Fits(kinds, asks)
        fitting = [c for c in pool if fits(catalog[c])]
        if len(fitting) == len(members):
            forced |= set(fitting)
            if len(members) == 1:
                known.add(members[0])
    if len(free) == 1 and len(pool) - len(forced) == 1:
        known.add(free[0])
    return known


def resample(state: State, seat: int | None, seed: int, clone: State) -> State:
    """``clone`` (a copy of ``state``) with everything ``seat`` cannot see redrawn."""
    slots, unseen = hidden_slots(state, seat)
    gen = rng.seed_state(seed)
    pool = sorted(unseen)
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
    was = state.deck.discards
    for slot in chosen:
        if slot[0] == "down":
            clone.deck.discards[slot[1]] = chosen[slot]
    clone.face_down = {
        card: state.face_down[was[k]]
        for k, card in enumerate(clone.deck.discards)
        if was[k] in state.face_down
    }
    play = state.play
    if clone.play is not None and ("play", 0) in chosen:
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
