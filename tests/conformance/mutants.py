"""Mutants: the fixture game and two real games, each with one planted leak.

A check that never fails proves nothing. Each mutant below differs from its real game in
one place, leaking one way, and test_mutants.py runs the conformance checks on it: the
check named in ``MUTANTS`` must catch it, and exactly the checks listed there fail. The
table is mirrored in docs/architecture.md ("Hidden information"). Mutants are never
registered as games.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, NamedTuple

import msgspec
from fixture_game import Action, Die, FibOff, State, Vote
from fixture_view import AnswerView, CardView

from talltales.core import rng
from talltales.core.game import Event, Game, Seat, told_all
from talltales.core.prompt import Option, Prompt
from talltales.core.prompt import Vote as VotePrompt
from talltales.games.believe_it_or_not.rules import BelieveItOrNot
from talltales.games.believe_it_or_not.state import Claim as BionClaim
from talltales.games.believe_it_or_not.state import State as BionState
from talltales.games.believe_it_or_not.turns import right_answer
from talltales.games.believe_it_or_not.view import QuestionView, card_view
from talltales.games.believe_it_or_not.view import View as BionView
from talltales.games.would_you_believe_it.rules import WouldYouBelieveIt
from talltales.games.would_you_believe_it.state import State as WybiState
from talltales.games.would_you_believe_it.view import View as WybiView

# --- Would You Believe It! ----------------------------------------------------------------


class RngView(WybiView, frozen=True):
    """The real view plus the generator state."""

    rng: int = 0


class RngInView(WouldYouBelieveIt):
    """The view carries the raw generator state, so the future die rolls."""

    def view(self, state: WybiState, seat: Seat | None) -> msgspec.Struct:
        view = super().view(state, seat)
        return RngView(**msgspec.structs.asdict(view), rng=state.rng)

    def views(
        self, state: WybiState, seats: Iterable[Seat | None]
    ) -> dict[Seat | None, msgspec.Struct]:
        return {seat: self.view(state, seat) for seat in seats}


class WybiResampleClone(WouldYouBelieveIt):
    """resample_hidden redraws nothing: a bot's sample is the truth."""

    def resample_hidden(self, state: WybiState, seat: Seat | None, seed: int) -> WybiState:
        return self.clone(state)


class WybiResampleFromTruth(WouldYouBelieveIt):
    """The sample's generator is seeded from the seed mixed with the true generator."""

    def resample_hidden(self, state: WybiState, seat: Seat | None, seed: int) -> WybiState:
        other = self.clone(state)
        other.rng = rng.seed_state(seed ^ state.rng)
        return other


# --- the fixture game, fib-off --------------------------------------------------------------


class FibResampleClone(FibOff):
    """resample_hidden redraws nothing: hands, die, truth, fakes and votes stay true."""

    def resample_hidden(self, state: State, seat: Seat | None, seed: int) -> State:
        return self.clone(state)


class NeighbourHand(FibOff):
    """A seat's view shows the next seat's hand beside its own."""

    def view(self, state: State, seat: Seat | None) -> msgspec.Struct:
        view = super().view(state, seat)
        if seat is None:
            return view
        other = state.hands[(seat + 1) % len(state.scores)]
        extra = [CardView(card, state.catalog[card].question) for card in other]
        return msgspec.structs.replace(view, hand=[*view.hand, *extra])


class TruthOnTable(FibOff):
    """The public view shows the real answer as soon as a card is read."""

    def view(self, state: State, seat: Seat | None) -> msgspec.Struct:
        view = super().view(state, seat)
        return view if seat is not None else msgspec.structs.replace(view, truth=state.truth)


class TruthToldAll(FibOff):
    """Reading a card tells everyone its real answer, in a public event."""

    def _claim(self, state: State, seat: Seat, card: str, stake: int) -> list[Event]:
        events = super()._claim(state, seat, card, stake)
        return [*events, told_all("hint", f"the answer is {state.truth}")]


class RollToldAll(FibOff):
    """The reader's secret die is told to everyone, in the roll event."""

    # The event says 'the die shows 4', never the secret's value 'die:4', so no search for
    # secret values finds it: only comparing events with views (events_follow_views) does.

    def apply(self, state: State, seat: Seat, action: Action, now: int = 0) -> list[Event]:
        events = super().apply(state, seat, action, now)
        if isinstance(action, Die):
            return [msgspec.structs.replace(e, public=True) for e in events]
        return events


class AnswersByAuthor(FibOff):
    """The view lists the answers in their authors' seat order, the truth first."""

    def view(self, state: State, seat: Seat | None) -> msgspec.Struct:
        view = super().view(state, seat)
        ordered = sorted(state.answers, key=lambda a: a.authors or [-1])
        return msgspec.structs.replace(view, answers=[AnswerView(a.id, a.text) for a in ordered])


class VoteForSeat(FibOff):
    """A vote names the seat that wrote the answer, not the answer's anonymous id."""

    def legal_actions(self, state: State, seat: Seat) -> list[Action]:
        return [_by_seat(state, a) for a in super().legal_actions(state, seat)]

    def prompt(self, state: State, seat: Seat) -> Prompt:
        prompt = super().prompt(state, seat)
        if not isinstance(prompt, VotePrompt):
            return prompt
        options = [
            Option(o.label, msgspec.to_builtins(_by_seat(state, Vote(o.action["answer"]))))
            for o in prompt.options
        ]
        return msgspec.structs.replace(prompt, options=options)

    def validate(self, state: State, seat: Seat, action: Action) -> None:
        super().validate(state, seat, _by_id(state, action))

    def apply(self, state: State, seat: Seat, action: Action, now: int = 0) -> list[Event]:
        return super().apply(state, seat, _by_id(state, action), now)


def _by_seat(state: State, action: Any) -> Any:
    """A vote for an answer, named by its first author's seat (the truth keeps its id)."""
    if not isinstance(action, Vote):
        return action
    answer = next(a for a in state.answers if a.id == action.answer)
    return Vote(str(min(answer.authors))) if answer.authors else action


def _by_id(state: State, action: Any) -> Any:
    """The vote back under the answer's id."""
    if not isinstance(action, Vote):
        return action
    for answer in state.answers:
        if answer.authors and str(min(answer.authors)) == action.answer:
            return Vote(answer.id)
    return action


class FibResampleFromTruth(FibOff):
    """The sample's draws are seeded from the seed mixed with the true generator, so a
    bot's sample of hands, die and truth depends on the real ones."""

    def resample_hidden(self, state: State, seat: Seat | None, seed: int) -> State:
        return super().resample_hidden(state, seat, seed ^ state.rng)


class VotesKept(FibOff):
    """The sample keeps the other seats' real votes."""

    def resample_hidden(self, state: State, seat: Seat | None, seed: int) -> State:
        other = super().resample_hidden(state, seat, seed)
        other.votes = dict(state.votes)
        return other


class AnswersKept(FibOff):
    """The sample keeps the real answers: which one is true, and who wrote each fake."""

    def resample_hidden(self, state: State, seat: Seat | None, seed: int) -> State:
        other = super().resample_hidden(state, seat, seed)
        other.answers = self.clone(state).answers
        if state.card is not None:
            other.catalog = {**other.catalog, state.card: state.catalog[state.card]}
            other.truth = state.truth
        return other


# --- Believe It or Not! ----------------------------------------------------------------------


class BionNeighbourHand(BelieveItOrNot):
    """A seat's view shows the next seat's hand as its own."""

    def view(self, state: BionState, seat: Seat | None) -> msgspec.Struct:
        view = super().view(state, seat)
        if seat is None or not isinstance(view, BionView):
            return view
        neighbour = (seat + 1) % state.players
        hand = [card_view(state.catalog[c]) for c in state.hands[neighbour]]
        return msgspec.structs.replace(view, hand=hand)


class BionAnswerOnTable(BelieveItOrNot):
    """The question in play shows its right answer to everyone before it is answered."""

    def view(self, state: BionState, seat: Seat | None) -> msgspec.Struct:
        view = super().view(state, seat)
        play = state.play
        if not isinstance(view, BionView) or play is None or play.question is None:
            return view
        question = state.catalog[play.card].questions[play.question]
        shown = QuestionView(question.text, list(question.answers), right_answer(question))
        assert view.play is not None
        return msgspec.structs.replace(
            view, play=msgspec.structs.replace(view.play, question=shown)
        )


class BionClaimToldAll(BelieveItOrNot):
    """A movement claim is announced with the face-down card it was made from."""

    def apply(self, state: BionState, seat: Seat, action: Any, now: int = 0) -> list[Event]:
        card = state.play.card if state.play is not None else ""
        events = super().apply(state, seat, action, now)
        if isinstance(action, BionClaim):
            events.append(told_all("card", f"the card was {card}"))
        return events


class BionPlayKept(BelieveItOrNot):
    """resample_hidden redraws everything but the card in play (a bluff stays a bluff)."""

    def resample_hidden(self, state: BionState, seat: Seat | None, seed: int) -> BionState:
        other = super().resample_hidden(state, seat, seed)
        if state.play is not None and other.play is not None:
            other.play.card, other.play.kind = state.play.card, state.play.kind
        return other


# --- the table --------------------------------------------------------------------------------


class Mutant(NamedTuple):
    """A game with one planted leak, the check that must catch it, and the others that
    fail on it too."""

    name: str
    leak: str
    game: Game[Any, Any]
    players: int
    caught_by: str
    also: tuple[str, ...] = ()

    @property
    def failing(self) -> set[str]:
        return {self.caught_by, *self.also}


def _leak(cls: type) -> str:
    """A mutant's leak, in words: its class's docstring on one line."""
    return " ".join((cls.__doc__ or "").split())


SECRETS, KEEPS, REDRAWS = (
    "secrets_do_not_leak",
    "resample_keeps_what_seat_sees",
    "resample_redraws_secrets",
)
CANONICAL, EVENTS, BOTS = "resample_is_canonical", "events_follow_views", "bots_are_blind"
MUTANTS: tuple[Mutant, ...] = tuple(
    Mutant(name, _leak(cls), cls(), players, caught_by, also)
    for name, cls, players, caught_by, also in (
        ("rng-in-view", RngInView, 2, SECRETS, (KEEPS, EVENTS)),
        ("wybi-resample-clone", WybiResampleClone, 2, REDRAWS, ()),
        ("wybi-resample-from-truth", WybiResampleFromTruth, 2, CANONICAL, ()),
        ("fib-resample-clone", FibResampleClone, 3, REDRAWS, ()),
        ("neighbour-hand", NeighbourHand, 3, SECRETS, (KEEPS,)),
        ("truth-on-table", TruthOnTable, 3, SECRETS, (KEEPS,)),
        ("truth-told-all", TruthToldAll, 3, SECRETS, (EVENTS,)),
        ("roll-told-all", RollToldAll, 3, EVENTS, ()),
        ("answers-by-author", AnswersByAuthor, 3, KEEPS, ()),
        ("vote-for-seat", VoteForSeat, 3, KEEPS, ()),
        # five players: fewer forced votes, so a bot's choice can hinge on its sample
        ("fib-resample-from-truth", FibResampleFromTruth, 5, CANONICAL, (BOTS,)),
        ("votes-kept", VotesKept, 3, REDRAWS, ()),
        ("answers-kept", AnswersKept, 3, REDRAWS, (CANONICAL,)),
        ("bion-neighbour-hand", BionNeighbourHand, 3, SECRETS, (KEEPS,)),
        ("bion-answer-on-table", BionAnswerOnTable, 3, SECRETS, (KEEPS,)),
        ("bion-claim-told-all", BionClaimToldAll, 3, SECRETS, (EVENTS,)),
        ("bion-play-kept", BionPlayKept, 3, REDRAWS, (CANONICAL,)),
    )
)


def table(rows: Iterable[tuple[Mutant, Iterable[str]]]) -> str:
    """The mutant table in Markdown: each planted leak, the check that catches it, and the
    other checks that fail on it too."""
    lines = [
        "| Mutant | Game | Planted leak | Caught by | Also failing |",
        "| --- | --- | --- | --- | --- |",
    ]
    for mutant, failing in rows:
        others = sorted(set(failing) - {mutant.caught_by})
        also = ", ".join(f"`{name}`" for name in others) or "none"
        game = f"{mutant.game.id}, {mutant.players}p"
        lines.append(
            f"| `{mutant.name}` | {game} | {mutant.leak} | `{mutant.caught_by}` | {also} |"
        )
    return "\n".join(lines)


def expected_table() -> str:
    """The table as MUTANTS declares it (the one docs/architecture.md shows)."""
    return table((m, m.failing) for m in MUTANTS)
