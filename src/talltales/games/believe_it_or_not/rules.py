"""Believe It or Not! as a state machine: play a card, ask, answer or dispute, move, challenge."""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

import msgspec
from msgspec.structs import replace

from talltales.core import rng
from talltales.core.content import Pack
from talltales.core.deck import Deck, WhenEmpty
from talltales.core.errors import OptionsError
from talltales.core.game import Event, Game, Outcome, Seat, Secret, told_all
from talltales.core.prompt import Prompt
from talltales.games.believe_it_or_not import hidden, prompts, turns
from talltales.games.believe_it_or_not.board import Board, classic
from talltales.games.believe_it_or_not.cards import Card, Kind
from talltales.games.believe_it_or_not.catalogs import catalog_of, register
from talltales.games.believe_it_or_not.checks import check
from talltales.games.believe_it_or_not.overrides import apply_overrides
from talltales.games.believe_it_or_not.state import (
    HAND,
    Action,
    Answer,
    AskQuestion,
    Believe,
    Bluff,
    Bonus,
    Claim,
    Dispute,
    LetStand,
    Options,
    Phase,
    PlayCard,
    Say,
    Shortest,
    State,
    TakeShortcut,
    Target,
)
from talltales.games.believe_it_or_not.view import build_view

# the choices, built once: random playouts and bots ask for them all the time
ANSWERS = tuple(Answer(k) for k in range(4))
BELIEFS = (Believe(True), Believe(False))
DISPUTING = (Dispute(), LetStand())
BONUSES = (Bonus("forward"), Bonus("back"))
SHORTCUTS = (TakeShortcut(True), TakeShortcut(False))
TARGETS = tuple(Target(s) for s in range(6))


@functools.cache
def _play(card_id: str) -> PlayCard:
    return PlayCard(card_id)


@functools.cache
def _ask_actions(deck_id: str, card_id: str) -> tuple[Action, ...]:
    """What the asker may do with the card in play."""
    card = catalog_of(deck_id)[card_id]
    match card.kind:
        case Kind.MULTIPLE_CHOICE:
            return tuple(AskQuestion(k) for k in range(len(card.questions)))
        case Kind.STATEMENT:
            return tuple(Say(k) for k in range(len(card.statements)))
        case Kind.BLUFF:
            return tuple(Bluff(t) for t in prompts.bluff_examples(card))
        case Kind.MOVEMENT:
            return tuple(prompts.CLAIMS)


ONLY = tuple(frozenset({seat}) for seat in range(6))  # pending sets, built once
NOBODY: frozenset[Seat] = frozenset()


class BelieveItOrNot(Game[State, Action]):
    """Race to the last space by asking, bluffing and claiming; meet a pawn and challenge."""

    id = "believe-it-or-not"
    title = "Believe It or Not!"
    min_players = 2
    max_players = 6
    summary = "Ask questions, read true statements, tell bluffs and race your pawn home."
    state_type = State
    action_type = Action
    options_type = Options
    card_type = Card
    default_packs = ("first-deck",)
    writes = ("bluff",)

    def __init__(self, board: Board | None = None) -> None:
        self.board = board or classic()

    # --- setup -----------------------------------------------------------------------------
    def setup(
        self, players: int, options: Any, seed: int, packs: Sequence[Pack[Any]] = ()
    ) -> State:
        """Shuffle one deck, deal five each, pawns on START, the tern token to the first."""
        self.check_players(players)
        assert isinstance(options, Options)
        if len(packs) != 1:  # "Do not mix up the cards from one deck to another!"
            raise OptionsError("Believe It or Not! is played with exactly one deck at a time")
        digest = register(packs[0])
        catalog = catalog_of(digest)
        if len(catalog) < HAND * (players + 1):
            raise OptionsError(f"the deck has {len(catalog)} cards: too few for {players}")
        if options.first == "host" and options.first_seat >= players:
            raise OptionsError(f"there is no seat {options.first_seat} to play first")
        gen, deck = Deck.shuffled(sorted(catalog), rng.seed_state(seed))
        hands = []
        for _ in range(players):
            gen, hand = deck.deal(gen, HAND, WhenEmpty.RESHUFFLE)
            hands.append(hand)
        state = State(options, digest, [0] * players, hands, deck, gen)
        match options.first:
            case "random":
                state.rng, state.tern = rng.below(state.rng, players)
            case "host":
                state.tern = options.first_seat
            case "shortest":
                state.phase = Phase.FIRST
        return state

    def override(self, state: State, overrides: dict[str, Any]) -> None:
        """Scenario set-ups: pawns, hands, the top of the draw pile, the tern token."""
        apply_overrides(self.board, state, overrides)

    # --- decisions -------------------------------------------------------------------------
    def pending(self, state: State) -> frozenset[Seat]:
        """Who decides now: one seat, or every opponent free to dispute a claim."""
        phase, play = state.phase, state.play
        if phase is Phase.CHOOSE_CARD:
            return ONLY[state.tern]
        if play is not None:  # the phases of a card in play, the commonest first
            if phase is Phase.ASK or phase is Phase.TARGET:
                return ONLY[play.asker]
            if phase is Phase.ANSWER and play.answerer is not None:
                return ONLY[play.answerer]
            if phase is Phase.DISPUTE:
                return frozenset(play.disputers).difference(play.passed)
            if phase is Phase.BONUS and play.bonus_to is not None:
                return ONLY[play.bonus_to]
        if phase is Phase.SHORTCUT and state.motions:
            return ONLY[state.motions[0].seat]
        if phase is Phase.FIRST:
            return ONLY[0]  # the host names the shortest player
        return NOBODY

    def legal_actions(self, state: State, seat: Seat) -> list[Action]:
        """Every choice of a pending seat (for a bluff: suggestions from the card's hints)."""
        if seat not in self.pending(state):
            return []
        play = state.play
        match state.phase:
            case Phase.CHOOSE_CARD:
                return [_play(c) for c in state.hands[seat]]
            case Phase.ASK if play is not None:
                return list(_ask_actions(state.deck_id, play.card))
            case Phase.ANSWER if play is not None and play.question is not None:
                return list(ANSWERS)
            case Phase.ANSWER:
                return list(BELIEFS)
            case Phase.DISPUTE:
                return list(DISPUTING)
            case Phase.TARGET:
                return [TARGETS[s] for s in range(state.players) if s != seat]
            case Phase.BONUS:
                return list(BONUSES)
            case Phase.SHORTCUT:
                return list(SHORTCUTS)
            case Phase.FIRST:
                return [Shortest(s) for s in range(state.players)]
            case _:
                return []

    def prompt(self, state: State, seat: Seat) -> Prompt:
        """Typed prompts: picks, a bluff to write, a verdict, a race to dispute."""
        return prompts.prompt(self.board, state, seat, self.legal_actions(state, seat))

    def validate(self, state: State, seat: Seat, action: Action) -> None:
        """Refuse, with the rulebook's reason, anything but a legal action of a pending seat."""
        check(state, seat, action, self.pending(state))

    def apply(self, state: State, seat: Seat, action: Action, now: int = 0) -> list[Event]:
        """Apply a validated action and run its consequences up to the next decision."""
        if now > state.now:  # timers this action opens run from its time
            state.now = now
        return turns.keep_log(state, self._apply(state, seat, action))

    def _apply(self, state: State, seat: Seat, action: Action) -> list[Event]:
        board = self.board
        match action:  # the commonest first: a random playout spends its time here
            case PlayCard(card=card):
                return turns.play_card(board, state, seat, card)
            case LetStand():
                return turns.let_stand(board, state, seat)
            case Believe(believe=yes):
                return turns.believe(board, state, yes)
            case Say(statement=k):
                assert state.play is not None
                return turns.say(state, state.catalog[state.play.card].statements[k].text)
            case Bluff(text=text):
                return turns.say(state, text)
            case AskQuestion(question=k):
                return turns.ask_question(state, k)
            case Answer(choice=choice):
                return turns.answer(board, state, choice)
            case Claim(direction=direction, count=count):
                return turns.claim(state, count if direction == "ahead" else -count, state.now)
            case Target(seat=target):
                return turns.target(state, target)
            case Dispute():
                return turns.dispute(board, state, seat)
            case Bonus(choice=choice):
                return turns.bonus(board, state, choice == "forward")
            case TakeShortcut(take=take):
                return turns.shortcut(board, state, take)
            case Shortest(seat=first):
                state.tern, state.phase = first, Phase.CHOOSE_CARD
                return [told_all("first", f"seat {first} is the shortest and plays first")]

    # --- time ------------------------------------------------------------------------------
    def deadline(self, state: State) -> int | None:
        """The end of the dispute window, while one is open."""
        return state.deadline if state.phase is Phase.DISPUTE else None

    def tick(self, state: State, now: int) -> list[Event]:
        """Once the dispute window closes, the claim stands."""
        state.now = max(state.now, now)
        if state.phase is not Phase.DISPUTE or state.deadline is None or now < state.deadline:
            return []
        return [
            told_all("window", "time is up: nobody disputed"),
            *turns.let_stand(self.board, state, None),
        ]

    # --- views -----------------------------------------------------------------------------
    def view(self, state: State, seat: Seat | None) -> msgspec.Struct:
        """What ``seat`` may see (None: the table screen)."""
        return build_view(self.board, state, seat, sorted(self.pending(state)))

    def secrets(self, state: State) -> list[Secret]:
        """Hands, the draw pile, face-down cards, the right answer in play, the generator."""
        return hidden.secrets(state)

    def resample_hidden(self, state: State, seat: Seat | None, seed: int) -> State:
        """A copy with every card ``seat`` cannot see drawn afresh."""
        return hidden.resample(state, seat, seed, self.clone(state))

    # --- end, tools ------------------------------------------------------------------------
    def outcome(self, state: State) -> Outcome | None:
        """The winner first, then the others by how far their pawns got."""
        if state.winner is None:
            return None
        scores = [int(self.board.progress(p)) for p in state.pawns]
        scores[state.winner] = self.board.won + 1  # first home, whoever else is on the space
        order = sorted(set(scores), reverse=True)
        return Outcome(scores, [[s for s, v in enumerate(scores) if v == top] for top in order])

    def clone(self, state: State) -> State:
        """An independent copy (the catalog and options are never mutated)."""
        play = state.play
        if play is not None:
            play = replace(play, disputers=play.disputers[:], passed=play.passed[:])
        return replace(
            state,
            pawns=state.pawns[:],
            hands=[h[:] for h in state.hands],
            deck=state.deck.copy(),
            play=play,  # the last play is never changed once finished: shared
            motions=[replace(m) for m in state.motions],
            challenges=[c[:] for c in state.challenges],
            face_down=dict(state.face_down),
            log=state.log[:],
        )

    def players(self, state: State) -> int:
        """Seats at the table."""
        return state.players

    def heuristic(self, state: State) -> list[float]:
        """How far each pawn has got (the winner: past the end)."""
        values = [self.board.progress(p) for p in state.pawns]
        if state.winner is not None:
            values[state.winner] = self.board.won + 10.0
        return values

    def facts(self, state: State) -> dict[str, Any]:
        """Positions, hands, the card in play, the tern token and the winner."""
        play = state.play
        return {
            "phase": str(state.phase),
            "tern": state.tern,
            "pawns": state.pawns[:],
            "hands": [h[:] for h in state.hands],
            "hand_sizes": [len(h) for h in state.hands],
            "draw_pile": state.deck.size,
            "discards": len(state.deck.discards),
            "challenges": [c[:] for c in state.challenges],
            "play": msgspec.to_builtins(play) if play is not None else None,
            "deadline": state.deadline,
            "winner": state.winner,
            "turns": state.turns,
        }

    def own_bot(self, seed: int, **params: int) -> Any | None:
        """The rulebook's strategy hints as a bot; ``skill`` (0-100) is how many facts it
        remembers."""
        from talltales.games.believe_it_or_not.bots import Sharp  # bots sit above rules

        return Sharp(seed, skill=params.get("skill", 60) / 100)

    def describe(self, state: State, action: Action) -> str:
        """A short phrase for ``action``."""
        return prompts.describe(self.board, state, action)
