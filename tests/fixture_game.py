"""Fib-off: a FIXTURE game (never shipped) that exercises the machinery real games need.

Each round one seat is the reader. Chance rolls a die only the reader sees; the reader
reads a question card from their hidden hand (drawing a new one from the deck, which is
reshuffled from the discards when it runs out) and claims a stake (maybe a fib). Any
other seat may dispute the claim: the first dispute is taken and closes the window, or
all pass, or the window times out. A seat that catches a fib keeps a steal card to play
in a later round. Then every other seat writes a fake answer at once (timed); the fakes
and the real answer are shown under shuffled ids, identical ones merged; the reader
strikes answers too close to the truth; everyone else votes at once for the answer they
believe; then all is revealed and scored.
"""

from __future__ import annotations

import enum
import hashlib
from pathlib import Path
from typing import Annotated, Any, Final

import msgspec
from fixture_view import AnswerView, CardView, Reveal, View, build_view

from talltales.core import rng
from talltales.core.content import Pack
from talltales.core.deck import Deck, WhenEmpty
from talltales.core.errors import IllegalAction
from talltales.core.game import (
    CHANCE,
    Event,
    Game,
    Outcome,
    Seat,
    Secret,
    rank_by_score,
    told,
    told_all,
)
from talltales.core.prompt import Option, Prompt, Race, Verdict, Write
from talltales.core.prompt import Vote as VotePrompt

HAND: Final = 2
MAX_BLUFF: Final = 80
TRUTH_WRITTEN: Final = 2  # points for writing the real answer as one's fake
HIDDEN_BLUFF: Final = "(a bluff)"
IDEAS: Final = ("a well-kept secret", "more than you would think", "nobody agrees on it")
PACKS: Final = Path(__file__).resolve().parent / "packs"


def ideas(state: State, seat: Seat) -> list[str]:
    """Suggested fakes, each marked so that no two seats or rounds share one (the leak
    checks look for a fake's text, and last round's answers are public).

    The mark is drawn from the seat's own hand and the round: nobody else can work out
    whose suggestion a fake on the table was (a mark naming the seat would undo the
    answers' anonymity)."""
    salt = "|".join([*state.hands[seat], str(state.round), str(seat)])
    mark = hashlib.sha256(salt.encode()).hexdigest()[:5]
    return [f"{idea} ({mark}{k})" for k, idea in enumerate(IDEAS)]


class Card(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A question card: the question, its real answer and where that fact comes from."""

    id: str
    question: str
    answer: str
    source: str


class Phase(enum.StrEnum):
    """Where a round stands."""

    ROLL = "roll"  # chance: the reader's secret die
    CLAIM = "claim"  # the reader reads a card and claims a stake
    DISPUTE = "dispute"  # any other seat may dispute; first taker wins; timed
    WRITE = "write"  # every other seat writes a fake answer at once; timed
    JUDGE = "judge"  # the reader strikes answers too close to the truth
    VOTE = "vote"  # every other seat votes at once for an anonymous answer
    OVER = "over"


class Options(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """Rounds and the two timers (ms)."""

    rounds: Annotated[int, msgspec.Meta(ge=1, le=6)] = 3
    write_ms: Annotated[int, msgspec.Meta(ge=1)] = 60_000
    dispute_ms: Annotated[int, msgspec.Meta(ge=1)] = 10_000


class _Action(msgspec.Struct, frozen=True, tag_field="type", forbid_unknown_fields=True):
    pass


class Die(_Action, frozen=True, tag="die"):
    value: Annotated[int, msgspec.Meta(ge=1, le=6)]


class Claim(_Action, frozen=True, tag="claim"):
    card: str
    stake: Annotated[int, msgspec.Meta(ge=1, le=6)]


class Dispute(_Action, frozen=True, tag="dispute"):
    pass


class Pass(_Action, frozen=True, tag="pass"):
    pass


class Bluff(_Action, frozen=True, tag="bluff"):
    text: str


class Steal(_Action, frozen=True, tag="steal"):
    target: int


class Strike(_Action, frozen=True, tag="strike"):
    answer: str


class Accept(_Action, frozen=True, tag="accept"):
    pass


class Vote(_Action, frozen=True, tag="vote"):
    answer: str


Action = Die | Claim | Dispute | Pass | Bluff | Steal | Strike | Accept | Vote


class Answer(msgspec.Struct):
    """One answer on the table: an anonymous id, its text, and (hidden) who wrote it."""

    id: str
    text: str
    authors: list[int]
    truth: bool = False


class State(msgspec.Struct):
    """The whole table; ``now`` is the latest time an action or tick brought."""

    options: Options
    catalog: dict[str, Card]  # every card of the chosen packs, by id (never changes)
    hands: list[list[str]]
    deck: Deck
    scores: list[int]
    steals: list[list[int]]  # per seat: the round each kept steal card was won
    rng: int
    phase: Phase = Phase.ROLL
    round: int = 0
    roll: int = 0
    card: str | None = None  # the card being read
    truth: str = ""  # its real answer (the reader's secret until the answers are shown)
    stake: int = 0
    passed: list[int] = []
    disputer: int | None = None
    bluffs: dict[int, str] = {}
    answers: list[Answer] = []  # sorted by id, ids drawn at random
    struck: list[str] = []
    votes: dict[int, str] = {}
    last: Reveal | None = None  # what the previous round revealed
    now: int = 0
    deadline: int | None = None

    @property
    def reader(self) -> int:
        return self.round % len(self.scores)

    @property
    def writers(self) -> list[int]:
        return [s for s in range(len(self.scores)) if s != self.reader]


def _need(ok: bool, reason: str) -> None:
    if not ok:
        raise IllegalAction(reason)


def _key(text: str) -> str:
    """Answers that differ only in case and spacing are the same answer."""
    return " ".join(text.casefold().split())


def vote_choices(state: State, seat: Seat) -> list[str]:
    """The answer ids ``seat`` may vote for: not struck, not its own."""
    return [a.id for a in state.answers if a.id not in state.struck and seat not in a.authors]


class FibOff(Game[State, Action]):
    """The fixture game."""

    id = "fib-off"
    title = "Fib-off (test fixture)"
    min_players = 3
    max_players = 5
    state_type = State
    action_type = Action
    options_type = Options
    card_type = Card
    default_packs = ("fib-off-facts",)

    def pack_files(self) -> list[Any]:
        """Its packs live beside it in tests/packs/ (a fixture ships nothing)."""
        return sorted(PACKS.glob("*.toml"))

    def setup(self, players: int, options: Any, seed: int, packs: Any = ()) -> State:
        self.check_players(players)
        assert isinstance(options, Options)
        catalog = {c.id: c for p in packs if isinstance(p, Pack) for c in p.cards}
        _need(len(catalog) >= HAND * players + 2, "the packs hold too few cards for the table")
        gen, deck = Deck.shuffled(sorted(catalog), rng.seed_state(seed))
        hands = []
        for _ in range(players):
            gen, hand = deck.deal(gen, HAND, WhenEmpty.SPENT)
            hands.append(hand)
        return State(
            options=options,
            catalog=catalog,
            hands=hands,
            deck=deck,
            scores=[0] * players,
            steals=[[] for _ in range(players)],
            rng=gen,
        )

    # --- decisions -------------------------------------------------------------------------
    def pending(self, state: State) -> frozenset[Seat]:
        match state.phase:
            case Phase.ROLL:
                return frozenset((CHANCE,))
            case Phase.CLAIM | Phase.JUDGE:
                return frozenset((state.reader,))
            case Phase.DISPUTE:
                return frozenset(s for s in state.writers if s not in state.passed)
            case Phase.WRITE:
                return frozenset(s for s in state.writers if s not in state.bluffs)
            case Phase.VOTE:
                return frozenset(s for s in state.writers if s not in state.votes)
            case Phase.OVER:
                return frozenset()

    def legal_actions(self, state: State, seat: Seat) -> list[Action]:
        if seat not in self.pending(state):
            return []
        match state.phase:
            case Phase.ROLL:
                return [Die(v) for v in range(1, 7)]
            case Phase.CLAIM:
                return [Claim(c, k) for c in state.hands[seat] for k in range(1, 7)]
            case Phase.DISPUTE:
                return [Dispute(), Pass()]
            case Phase.WRITE:
                actions: list[Action] = [Bluff(t) for t in ideas(state, seat)]
                if self._steal_ready(state, seat):
                    actions += [Steal(t) for t in range(len(state.scores)) if t != seat]
                return actions
            case Phase.JUDGE:
                judge: list[Action] = [Strike(a) for a in self._strikable(state)]
                return [*judge, Accept()]
            case Phase.VOTE:
                return [Vote(a) for a in vote_choices(state, seat)]
            case Phase.OVER:
                return []

    def prompt(self, state: State, seat: Seat) -> Prompt:
        """Typed prompts: a race to dispute, a text to write, a verdict, an anonymous vote."""
        text = {a.id: a.text for a in state.answers}
        match state.phase:
            case Phase.DISPUTE:
                return Race(
                    question=f"Seat {state.reader} claims the die shows {state.stake}. Fib?",
                    claim=Option("Dispute it!", {"type": "dispute"}),
                    decline=Option("Let it stand", {"type": "pass"}),
                )
            case Phase.WRITE:
                steals = [a for a in self.legal_actions(state, seat) if isinstance(a, Steal)]
                return Write(
                    question=self._question(state),
                    purpose="a fake answer",
                    action={"type": "bluff"},
                    max_length=MAX_BLUFF,
                    examples=ideas(state, seat),
                    options=[Option(f"Steal a point from seat {a.target}", _b(a)) for a in steals],
                )
            case Phase.JUDGE:
                return Verdict(
                    question="Is any fake too close to the truth?",
                    subject=state.truth,
                    accept=Option("Keep every answer", {"type": "accept"}),
                    overrule=[
                        Option(f"Strike “{text[a]}”", _b(Strike(a))) for a in self._strikable(state)
                    ],
                )
            case Phase.VOTE:
                return VotePrompt(
                    question=self._question(state),
                    options=[Option(text[a], _b(Vote(a))) for a in vote_choices(state, seat)],
                )
            case _:
                return super().prompt(state, seat)

    @staticmethod
    def _question(state: State) -> str:
        return state.catalog[state.card].question if state.card else ""

    @staticmethod
    def _strikable(state: State) -> list[str]:
        return [a.id for a in state.answers if not a.truth and a.id not in state.struck]

    @staticmethod
    def _steal_ready(state: State, seat: Seat) -> bool:
        return bool(state.steals[seat]) and state.steals[seat][0] < state.round

    def validate(self, state: State, seat: Seat, action: Action) -> None:
        _need(state.phase is not Phase.OVER, "the game is over")
        _need(seat == CHANCE or 0 <= seat < len(state.scores), f"there is no seat {seat}")
        _need((seat == CHANCE) == isinstance(action, Die), "only chance rolls the die")
        phase, reader = state.phase, state.reader
        match action:
            case Die():
                _need(phase is Phase.ROLL, "the die is rolled only at the start of a round")
            case Claim(card=card):
                _need(phase is Phase.CLAIM and seat == reader, "only the reader claims, once")
                _need(card in state.hands[seat], "you do not hold that card")
            case Dispute():
                if phase is not Phase.DISPUTE and state.disputer is not None:
                    raise IllegalAction(f"too late: seat {state.disputer} disputed first")
                _need(phase is Phase.DISPUTE, "there is no claim to dispute now")
                _need(seat != reader, "you cannot dispute your own claim")
                _need(seat not in state.passed, "you have already passed")
            case Pass():
                _need(phase is Phase.DISPUTE and seat != reader, "there is nothing to pass on")
                _need(seat not in state.passed, "you have already passed")
            case Bluff():  # its length and emptiness are checked by Match, from the prompt
                _need(phase is Phase.WRITE, "it is not time to write")
                _need(seat != reader, "the reader knows the truth and writes no fake")
                _need(seat not in state.bluffs, "you have already written your answer")
            case Steal(target=target):
                _need(phase is Phase.WRITE and seat in self.pending(state), "steal while writing")
                _need(self._steal_ready(state, seat), "you hold no steal card from a past round")
                _need(0 <= target < len(state.scores) and target != seat, "steal from another")
            case Strike(answer=answer):
                _need(phase is Phase.JUDGE and seat == reader, "only the reader judges")
                _need(answer in self._strikable(state), f"answer {answer} cannot be struck")
            case Accept():
                _need(phase is Phase.JUDGE and seat == reader, "only the reader judges")
            case Vote(answer=answer):
                _need(phase is Phase.VOTE and seat != reader, "it is not time to vote")
                _need(seat not in state.votes, "you have already voted")
                _need(answer in vote_choices(state, seat), f"you cannot vote for {answer}")

    def apply(self, state: State, seat: Seat, action: Action, now: int = 0) -> list[Event]:
        state.now = max(state.now, now)  # timers this action opens run from its time
        reader = state.reader
        match action:
            case Die(value=value):
                state.rng, _ = rng.below(state.rng, 6)  # sample_chance's draw, used up
                state.roll, state.phase = value, Phase.CLAIM
                return [told([reader], "roll", f"the die shows {value}", value=value)]
            case Claim(card=card, stake=stake):
                return self._claim(state, seat, card, stake)
            case Dispute():
                return self._dispute(state, seat)
            case Pass():
                state.passed.append(seat)
                events = [told_all("pass", f"seat {seat} passes", seat=seat)]
                if len(state.passed) == len(state.writers):
                    events += self._open_write(state)
                return events
            case Bluff(text=text):
                state.bluffs[seat] = text
                done = told_all("bluff", f"seat {seat} has written", seat=seat)
                return [done, *self._maybe_show(state)]
            case Steal(target=target):
                state.steals[seat].pop(0)
                state.scores[target] -= 1
                state.scores[seat] += 1
                return [told_all("steal", f"seat {seat} steals a point from seat {target}")]
            case Strike(answer=answer):
                state.struck.append(answer)
                return [told_all("strike", f"answer {answer} is too close to the truth")]
            case Accept():
                state.phase = Phase.VOTE
                return [told_all("vote", "vote for the answer you believe")]
            case Vote(answer=answer):
                state.votes[seat] = answer
                if len(state.votes) < len(state.writers):
                    return [told_all("voted", f"seat {seat} has voted", seat=seat)]
                return self._reveal(state)

    def _claim(self, state: State, seat: Seat, card: str, stake: int) -> list[Event]:
        state.hands[seat].remove(card)
        state.rng, drawn = state.deck.draw(state.rng, WhenEmpty.RESHUFFLE)
        if drawn is not None:
            state.hands[seat].append(drawn)
        state.card, state.truth = card, state.catalog[card].answer
        state.stake, state.phase = stake, Phase.DISPUTE
        state.deadline = state.now + state.options.dispute_ms
        question = state.catalog[card].question
        return [told_all("claim", f"seat {seat} asks “{question}” and claims {stake}", seat=seat)]

    def _dispute(self, state: State, seat: Seat) -> list[Event]:
        reader = state.reader
        state.disputer = seat
        fib = state.roll != state.stake
        if fib:
            state.scores[reader] -= 1
            state.steals[seat].append(state.round)
            state.stake = state.roll
        else:
            state.scores[seat] -= 1
        text = f"seat {seat} disputes; the die showed {state.roll}"
        return [told_all("dispute", text, fib=fib, seat=seat), *self._open_write(state)]

    def _open_write(self, state: State) -> list[Event]:
        state.phase, state.passed = Phase.WRITE, []
        state.deadline = state.now + state.options.write_ms
        return [told_all("write", "write your fake answers")]

    def _maybe_show(self, state: State) -> list[Event]:
        if len(state.bluffs) < len(state.writers):
            return []
        return self._show_answers(state)

    def _show_answers(self, state: State) -> list[Event]:
        """Merge identical answers, shuffle them under fresh ids: order tells nothing.

        A fake that is the real answer is no fake: its writer scores and it is not shown
        twice (the truth, which every writer may vote for, never has an author)."""
        truth = _key(state.truth)
        groups: dict[str, Answer] = {truth: Answer("", state.truth, [], True)}
        events = []
        for seat, text in sorted(state.bluffs.items()):
            if _key(text) == truth:
                state.scores[seat] += TRUTH_WRITTEN
                events.append(told_all("found", f"seat {seat} wrote the real answer", seat=seat))
                continue
            group = groups.setdefault(_key(text), Answer("", text, []))
            group.authors.append(seat)
            group.text = min(group.text, text)  # the shown spelling depends on texts alone
        answers = [groups[k] for k in sorted(groups)]
        state.rng = rng.shuffle(state.rng, answers)
        for number, answer in enumerate(answers):
            answer.id = chr(ord("A") + number)
        state.answers, state.bluffs = answers, {}
        state.phase, state.deadline = Phase.JUDGE, None
        return [*events, told_all("answers", f"{len(answers)} answers are on the table")]

    def _reveal(self, state: State) -> list[Event]:
        reader = state.reader
        for voter, answer in sorted(state.votes.items()):
            chosen = next(a for a in state.answers if a.id == answer)
            if chosen.truth:
                state.scores[voter] += 1
                state.scores[reader] += 1
            for author in chosen.authors:
                state.scores[author] += state.stake
        for answer in state.answers:
            if answer.id in state.struck:
                for author in answer.authors:
                    state.scores[author] -= 1
        state.last = Reveal(
            question=self._question(state),
            truth=state.truth,
            answers=[AnswerView(a.id, a.text) for a in state.answers],
            truth_id=next(a.id for a in state.answers if a.truth),
            authors={a.id: list(a.authors) for a in state.answers},
            votes=dict(sorted(state.votes.items())),
        )
        assert state.card is not None
        state.deck.discard(state.card)
        truth_id = state.last.truth_id
        events = [told_all("reveal", f"the real answer was {truth_id}: {state.truth}")]
        state.round += 1
        state.phase = Phase.OVER if state.round == state.options.rounds else Phase.ROLL
        state.roll, state.card, state.truth, state.stake, state.disputer = 0, None, "", 0, None
        state.answers, state.struck, state.votes, state.deadline = [], [], {}, None
        return events

    def chance_outcomes(self, state: State) -> list[tuple[Action, float]]:
        return [(Die(v), 1 / 6) for v in range(1, 7)] if state.phase is Phase.ROLL else []

    def sample_chance(self, state: State) -> Action:
        """Pure: the draw is used up by ``apply``, so replays keep the same generator."""
        _need(state.phase is Phase.ROLL, "no die is due")
        return Die(rng.below(state.rng, 6)[1] + 1)

    # --- time ------------------------------------------------------------------------------
    def deadline(self, state: State) -> int | None:
        return state.deadline

    def tick(self, state: State, now: int) -> list[Event]:
        if state.deadline is None or now < state.deadline:
            return []
        state.now = now
        match state.phase:
            case Phase.DISPUTE:
                return [told_all("timeout", "nobody disputed in time"), *self._open_write(state)]
            case Phase.WRITE:  # who wrote nothing in time has no answer on the table
                return [told_all("timeout", "time to stop writing"), *self._show_answers(state)]
            case _:
                return []

    # --- what seats see --------------------------------------------------------------------
    def view(self, state: State, seat: Seat | None) -> msgspec.Struct:
        return build_view(self.id, state, seat)

    def secrets(self, state: State) -> list[Secret]:
        only = [frozenset({s}) for s in range(len(state.scores))]
        found = [
            Secret(f"seat {s}'s card {i}", c, only[s])
            for s, hand in enumerate(state.hands)
            for i, c in enumerate(hand)
        ]
        found += [Secret(f"deck card {i}", c) for i, c in enumerate(state.deck.pile)]
        found.append(Secret("future draws", f"rng:{state.rng}"))
        if state.roll and state.disputer is None:
            found.append(Secret("the die", f"die:{state.roll}", only[state.reader]))
        if state.phase in (Phase.DISPUTE, Phase.WRITE):
            found.append(Secret("the real answer", state.truth, only[state.reader]))
        if state.phase is Phase.WRITE:
            found += [Secret(f"seat {s}'s fake", t, only[s]) for s, t in state.bluffs.items()]
        for s, answer in state.votes.items():
            if len(vote_choices(state, s)) > 1:  # a forced vote is no secret
                found.append(Secret(f"seat {s}'s vote", f"vote:{answer}", only[s]))
        return found + self._answer_secrets(state)

    @staticmethod
    def _answer_secrets(state: State) -> list[Secret]:
        """Which answer is true, and who wrote each fake, until the reveal.

        Listed only where a seat could not work it out: a writer with a single answer
        besides their own knows that one is true; one fake or one writer says who wrote."""
        open_ = [a for a in state.answers if a.id not in state.struck]
        if len(open_) < 2:
            return []
        truth = next(a for a in state.answers if a.truth)
        knows = {state.reader} | {
            s for s in state.writers if sum(s not in a.authors for a in open_) == 1
        }
        found = [Secret("the real answer's id", f"truth:{truth.id}", frozenset(knows))]
        writers = {s for a in state.answers for s in a.authors}
        for fake in (a for a in state.answers if not a.truth):
            knows = set(fake.authors)
            for s in [None, *range(len(state.scores))]:
                truth_fixed = s == state.reader or s in found[0].seats
                if (fake in open_ and not truth_fixed) or len(writers - {s}) != 1:
                    continue  # the fake could turn out true, or another could have written it
                if s is None:
                    break  # the table could work it out: no secret
                knows.add(s)
            else:
                found.append(Secret(f"who wrote {fake.id}", f"by:{fake.authors}", frozenset(knows)))
        return found

    def resample_hidden(self, state: State, seat: Seat | None, seed: int) -> State:
        """Everything ``seat`` cannot see, drawn afresh from ``seed`` and what it sees."""
        from fixture_resample import resample

        return resample(self, state, seat, seed)

    # --- the end, tools --------------------------------------------------------------------
    def outcome(self, state: State) -> Outcome | None:
        if state.phase is not Phase.OVER:
            return None
        return Outcome(list(state.scores), rank_by_score(state.scores))

    def clone(self, state: State) -> State:
        return msgspec.structs.replace(
            state,
            hands=[h[:] for h in state.hands],
            deck=state.deck.copy(),
            scores=state.scores[:],
            steals=[k[:] for k in state.steals],
            passed=state.passed[:],
            bluffs=dict(state.bluffs),
            answers=[Answer(a.id, a.text, a.authors[:], a.truth) for a in state.answers],
            struck=state.struck[:],
            votes=dict(state.votes),
        )

    def players(self, state: State) -> int:
        return len(state.scores)

    def describe(self, state: State, action: Action) -> str:
        """Words for a choice (the terminal and the generic web renderer show these)."""
        match action:
            case Claim(card=card, stake=stake):
                return f"Read “{state.catalog[card].question}” and claim the die shows {stake}"
            case Dispute():
                return "Dispute the claim"
            case Pass():
                return "Let it stand"
            case Bluff(text=text):
                return f"Write “{text}”"
            case Steal(target=target):
                return f"Steal a point from seat {target}"
            case Strike(answer=answer):
                return f"Strike answer {answer}"
            case Accept():
                return "Keep every answer"
            case Vote(answer=answer):
                return f"Vote for answer {answer}"
            case Die(value=value):
                return f"The die shows {value}"

    def facts(self, state: State) -> dict[str, Any]:
        result = self.outcome(state)
        return {
            "phase": str(state.phase),
            "round": state.round,
            "reader": state.reader,
            "stake": state.stake,
            "card": state.card,
            "disputer": state.disputer,
            "deadline": state.deadline,
            "scores": state.scores[:],
            "steals": [len(k) for k in state.steals],
            "hand_sizes": [len(h) for h in state.hands],
            "deck": state.deck.size,
            "discards": len(state.deck.discards),
            "reshuffles": state.deck.reshuffles,
            "written": sorted(state.bluffs),
            "answers": [a.text for a in state.answers],
            "struck": sorted(state.struck),
            "voted": sorted(state.votes),
            "winners": result.winners if result else [],
        }


def _b(action: Action) -> dict[str, Any]:
    built = msgspec.to_builtins(action)
    assert isinstance(built, dict)
    return built


FIB_OFF = FibOff()
FIXTURE_GAMES: list[Game[Any, Any]] = [FIB_OFF]
__all__ = ["FIB_OFF", "FIXTURE_GAMES", "AnswerView", "CardView", "View"]
