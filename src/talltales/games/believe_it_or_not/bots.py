"""The game's own bot: plays by the rulebook's strategy hints, from its seat's knowledge.

It reads the shipped decks once, as a keen player would have ("memory"), and remembers
each fact with probability ``skill``; what is on the table it sees through its seat's
resampled state only. It asks the player with least to gain, values a move by where the
pawn really ends (slides, move spaces, shortcuts), bluffs from the card's hints, claims
movement truthfully or not by weighing the risk of a dispute, and disputes when the
claim is more likely a lie than the deck's unseen movement cards make it the truth.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from typing import Any

from talltales.core.game import Game, Seat
from talltales.core.packs import shipped_packs
from talltales.core.rng import Rng
from talltales.games.believe_it_or_not.board import SPEED_UP, Board
from talltales.games.believe_it_or_not.cards import BLANK, Card, Kind
from talltales.games.believe_it_or_not.motion import ahead_of, step
from talltales.games.believe_it_or_not.prompts import CLAIMS
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
from talltales.games.believe_it_or_not.turns import seat_to

WIN = 40.0  # what reaching the last space is worth beyond its spaces
DISPUTE_RISK = 0.35  # how often the bot expects a bold claim to be disputed
HONEST_WHEN_AHEAD = 0.85  # how often players claim a forward card truthfully


class Memory:
    """Facts the bot has read: right answers by question, true statements by text."""

    def __init__(self, game: Game[Any, Any]) -> None:
        self.answers: dict[str, int] = {}
        self.statements: set[str] = set()
        for pack in shipped_packs(game):
            for card in pack.cards:
                for q in card.questions:
                    self.answers[_key(q.text)] = q.correct
                self.statements |= {_key(s.text) for s in card.statements}


def _key(text: str) -> str:
    return " ".join(text.casefold().split())


class Sharp:
    """The strongest bot of Believe It or Not!"""

    name = "smart"

    def __init__(self, seed: int = 0, skill: float = 0.6) -> None:
        self.rng = Rng(seed)
        self.seed = seed
        self.skill = skill
        self.memory: Memory | None = None

    def knows(self, text: str) -> bool:
        """Whether this bot remembers the fact: fixed per fact, so asking twice agrees."""
        digest = hashlib.sha256(f"{self.seed}|{_key(text)}".encode()).digest()
        return int.from_bytes(digest[:4]) / 2**32 < self.skill

    def choose(
        self, game: Game[Any, Any], state: Any, seat: Seat, *, budget: float | None = None
    ) -> Action:
        """A decision for ``seat`` from its sample of the table."""
        if self.memory is None:
            self.memory = Memory(game)
        board: Board = game.board  # type: ignore[attr-defined]
        legal: list[Action] = game.legal_actions(state, seat)
        play = state.play
        match state.phase:
            case Phase.FIRST:
                return Shortest(seat)
            case Phase.CHOOSE_CARD:
                return max(legal, key=lambda a: self._card_value(board, state, seat, a))
            case Phase.TARGET:
                return Target(self._least_to_gain(board, state, seat))
            case Phase.ASK if play is not None:
                return self._ask(board, state, seat, legal)
            case Phase.ANSWER if play is not None and play.question is not None:
                return self._answer(play.said)
            case Phase.ANSWER if play is not None:
                return Believe(self._believes(state, seat, play.said))
            case Phase.DISPUTE if play is not None:
                return Dispute() if self._lie_likely(state, seat, play.claim) else LetStand()
            case Phase.BONUS if play is not None:
                return self._bonus(board, state, seat)
            case Phase.SHORTCUT:
                return TakeShortcut(True)
            case _:
                return self.rng.choice(legal)

    # --- asking ------------------------------------------------------------------------------
    def _card_value(self, board: Board, state: State, seat: int, action: Action) -> float:
        assert isinstance(action, PlayCard)
        card = state.catalog[action.card]
        if card.kind is Kind.MOVEMENT:
            return max(self._claim_value(board, state, seat, card, c) for c in CLAIMS)
        target = seat_to(state, seat, card.ask or "left")
        if target is None:
            target = self._least_to_gain(board, state, seat)
        advance = card.advance or 0
        win_chance = {Kind.MULTIPLE_CHOICE: 0.5, Kind.STATEMENT: 0.45, Kind.BLUFF: 0.5}[card.kind]
        mine = gain(board, state, seat, advance)
        theirs = gain(board, state, target, advance) * threat(board, state, target)
        return win_chance * mine - (1 - win_chance) * theirs

    def _least_to_gain(self, board: Board, state: State, seat: int) -> int:
        """Strategy Hints: ask the player who is falling behind."""
        others = [s for s in range(state.players) if s != seat]
        return min(others, key=lambda s: (gain(board, state, s, 3) * threat(board, state, s), s))

    def _ask(self, board: Board, state: State, seat: int, legal: list[Action]) -> Action:
        play = state.play
        assert play is not None
        card = state.catalog[play.card]
        match card.kind:
            case Kind.MOVEMENT:
                return max(CLAIMS, key=lambda c: self._claim_value(board, state, seat, card, c))
            case Kind.BLUFF:
                return Bluff(self._bluff(card))
            case Kind.MULTIPLE_CHOICE:
                return AskQuestion(self.rng.below(len(card.questions)))
            case _:
                return Say(self.rng.below(len(card.statements)))

    def _bluff(self, card: Card) -> str:
        """HINT #1 with each blank filled by a filler drawn at random."""
        text = card.hint1
        for fillers in card.fills:
            text = text.replace(BLANK, self.rng.choice(fillers), 1)
        return text

    def _claim_value(
        self, board: Board, state: State, seat: int, card: Card, claim: Claim
    ) -> float:
        said = claim.count if claim.direction == "ahead" else -claim.count
        true = card.moves
        if said == true:  # disputed or not, the truth moves as said; a dispute earns a bonus
            return gain(board, state, seat, true) + DISPUTE_RISK * 0.5 * (card.count or 0)
        risk = min(0.9, DISPUTE_RISK + 0.08 * max(said, 0) + 0.1 * (said - true > 4))
        caught = gain(board, state, seat, true) - (card.count or 0)
        return (1 - risk) * gain(board, state, seat, said) + risk * caught

    # --- answering -----------------------------------------------------------------------------
    def _answer(self, question: str) -> Answer:
        assert self.memory is not None
        right = self.memory.answers.get(_key(question))
        if right is not None and self.knows(question):
            return Answer(right)
        return Answer(self.rng.below(4))

    def _believes(self, state: State, seat: int, said: str) -> bool:
        """True if remembered; otherwise weigh the unseen statements against the bluffs."""
        assert self.memory is not None
        if _key(said) in self.memory.statements and self.knows(said):
            return True
        unseen = unseen_kinds(state, seat)
        statements = unseen[Kind.STATEMENT] * (1 - self.skill)
        return statements > unseen[Kind.BLUFF]

    def _lie_likely(self, state: State, seat: int, claim: int) -> bool:
        """Dispute when a lie is likelier than the truth, judging by the unseen movement
        cards and how people claim: forward cards mostly truthfully, back cards not."""
        cards = [state.catalog[c] for c in unseen_cards(state, seat)]
        moves = [c.moves for c in cards if c.kind is Kind.MOVEMENT] or [claim]
        truth = lie = 0.0
        for m in moves:
            honest = HONEST_WHEN_AHEAD if m > 0 else 1 - HONEST_WHEN_AHEAD
            if m == claim:
                truth += honest
            elif claim > 0:
                lie += (1 - honest) / 5  # a lie claims one of five forward moves
        return lie > truth

    def _bonus(self, board: Board, state: State, seat: int) -> Bonus:
        play = state.play
        assert play is not None and play.bonus_other is not None
        count = state.catalog[play.card].count or 0
        forward = gain(board, state, seat, count)
        other = play.bonus_other
        back = -gain(board, state, other, -count) * threat(board, state, other)
        return Bonus("forward" if forward >= back else "back")


def gain(board: Board, state: State, seat: int, steps: int) -> float:
    """How much further along ``seat``'s pawn ends after ``steps``: move spaces, slides
    and speed-ups counted, a shortcut taken if allowed, the last space worth a bonus."""
    start = state.pawns[seat]
    ends = [step(board, start, steps)]
    if steps > 0 and ahead_of(board, state, seat) >= 2:
        ends += [step(board, start, steps, through_at=e) for e in board.entries]
    best = max(landing(board, e, forward=steps > 0) for e in ends)
    value = board.progress(best) - board.progress(start)
    return value + (WIN if best == board.won else 0.0)


def landing(board: Board, position: int, *, forward: bool) -> int:
    """Where a pawn comes to rest once the space it lands on has acted."""
    space = board.space(position)
    if space is None:
        return position
    match space.kind:
        case "move":
            return step(board, position, space.move)
        case "slide" if forward:
            return space.end
        case "speed-up":
            return step(board, position, SPEED_UP)
        case _:
            return position


def threat(board: Board, state: State, seat: int) -> float:
    """How much helping ``seat`` hurts: more the nearer it is to winning."""
    return 0.5 + board.progress(state.pawns[seat]) / board.won


def unseen_cards(state: State, seat: int) -> list[str]:
    """The cards ``seat`` has not seen: everything but its hand, the face-up discards, its
    own face-down cards and the card in play if it is its own."""
    down = {c for c, s in state.face_down.items() if s != seat}
    seen = set(state.hands[seat]) | {c for c in state.deck.discards if c not in down}
    if state.play is not None and (state.play.asker == seat or state.play.revealed):
        seen.add(state.play.card)
    return [c for c in state.catalog if c not in seen]


def unseen_kinds(state: State, seat: int) -> Counter[Kind]:
    """How many unseen cards of each kind remain."""
    return Counter(state.catalog[c].kind for c in unseen_cards(state, seat))
