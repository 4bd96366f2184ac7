"""Fib-off: a FIXTURE game (never shipped) that exercises the machinery real games need.

Each round one seat is the reader. Chance rolls a die only the reader sees; the reader reads
a prompt card from their hidden hand and claims a stake (maybe a fib). Any other seat may
dispute the claim: the first dispute is taken and closes the window, or all pass, or the
window times out. A seat that catches a fib keeps a steal card to play in a later round.
Then every other seat writes a bluff at once (free text, timed), the reader strikes bluffs
too close to the truth, and everyone votes at once for the best bluff.
"""

from __future__ import annotations

import enum
from typing import Annotated, Any, Final

import msgspec

from talltales.core import rng
from talltales.core.errors import IllegalAction, TextTooLong
from talltales.core.game import CHANCE, Event, Game, Outcome, Seat, Secret, rank_by_score

HAND: Final = 2
DECK: Final = tuple(f"card:Q{i:02d}" for i in range(1, 41))
DEFAULT_BLUFF: Final = "(no answer)"
HIDDEN_BLUFF: Final = "(a bluff)"


class Phase(enum.StrEnum):
    """Where a round stands."""

    ROLL = "roll"  # chance: the reader's secret die
    CLAIM = "claim"  # the reader reads a card and claims a stake
    DISPUTE = "dispute"  # any other seat may dispute; first taker wins; timed
    WRITE = "write"  # every other seat writes a bluff at once; timed
    JUDGE = "judge"  # the reader strikes bluffs too close to the truth
    VOTE = "vote"  # every other seat votes at once
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
    seat: int


class Accept(_Action, frozen=True, tag="accept"):
    pass


class Vote(_Action, frozen=True, tag="vote"):
    seat: int


Action = Die | Claim | Dispute | Pass | Bluff | Steal | Strike | Accept | Vote


class State(msgspec.Struct):
    """The whole table; ``now`` is the latest time an action or tick brought."""

    options: Options
    hands: list[list[str]]
    deck: list[str]
    scores: list[int]
    steals: list[list[int]]  # per seat: the round each kept steal card was won
    rng: int
    phase: Phase = Phase.ROLL
    round: int = 0
    roll: int = 0
    prompt: str | None = None
    stake: int = 0
    passed: list[int] = []
    disputer: int | None = None
    bluffs: dict[int, str] = {}
    struck: list[int] = []
    votes: dict[int, int] = {}
    now: int = 0
    deadline: int | None = None

    @property
    def reader(self) -> int:
        return self.round % len(self.scores)

    @property
    def writers(self) -> list[int]:
        return [s for s in range(len(self.scores)) if s != self.reader]


class View(msgspec.Struct, frozen=True):
    game: str
    seat: int | None
    phase: str
    round: int
    rounds: int
    reader: int
    stake: int
    prompt: str | None
    disputer: int | None
    deadline: int | None
    hand: list[str]
    roll: str | None
    my_bluff: str | None
    my_vote: int | None
    bluffs: dict[int, str]
    struck: list[int]
    scores: list[int]
    hand_sizes: list[int]
    steals: list[int]  # kept steal cards per seat (face up)
    done: list[int]  # seats that have acted in the current simultaneous phase


def _need(ok: bool, reason: str) -> None:
    if not ok:
        raise IllegalAction(reason)


class FibOff(Game[State, Action]):
    """The fixture game."""

    id = "fib-off"
    title = "Fib-off (test fixture)"
    min_players = 3
    max_players = 5
    state_type = State
    action_type = Action
    options_type = Options
    max_text = 80

    def setup(self, players: int, options: Any, seed: int, content: Any = None) -> State:
        self.check_players(players)
        assert isinstance(options, Options)
        deck = list(DECK)
        state = rng.shuffle(rng.seed_state(seed), deck)
        hands = [deck[HAND * s : HAND * (s + 1)] for s in range(players)]
        return State(
            options=options,
            hands=hands,
            deck=deck[HAND * players :],
            scores=[0] * players,
            steals=[[] for _ in range(players)],
            rng=state,
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

    def _vote_targets(self, state: State, seat: Seat) -> list[int]:
        others = [w for w in state.writers if w != seat and w not in state.struck]
        return [state.reader, *others]

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
                texts = [f"seat {seat}'s tall tale", f"a llama ate seat {seat}'s homework"]
                texts.append((f"seat {seat} swears it was " + "very " * 20)[: self.max_text])
                actions: list[Action] = [Bluff(t) for t in texts]
                if self._steal_ready(state, seat):
                    actions += [Steal(t) for t in range(len(state.scores)) if t != seat]
                return actions
            case Phase.JUDGE:
                judge: list[Action] = [Strike(s) for s in state.bluffs if s not in state.struck]
                return [*judge, Accept()]
            case Phase.VOTE:
                return [Vote(t) for t in self._vote_targets(state, seat)]
            case Phase.OVER:
                return []

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
                _need(card in state.hands[seat], f"you do not hold {card}")
            case Dispute():
                if phase is not Phase.DISPUTE and state.disputer is not None:
                    raise IllegalAction(f"too late: seat {state.disputer} disputed first")
                _need(phase is Phase.DISPUTE, "there is no claim to dispute now")
                _need(seat != reader, "you cannot dispute your own claim")
                _need(seat not in state.passed, "you have already passed")
            case Pass():
                _need(phase is Phase.DISPUTE and seat != reader, "there is nothing to pass on")
                _need(seat not in state.passed, "you have already passed")
            case Bluff(text=text):
                _need(phase is Phase.WRITE, "it is not time to write")
                _need(seat != reader, "the reader knows the truth and writes no bluff")
                _need(seat not in state.bluffs, "you have already written your bluff")
                if len(text) > self.max_text:
                    raise TextTooLong(
                        f"a bluff is at most {self.max_text} characters; yours has {len(text)}"
                    )
                _need(bool(text.strip()), "write something")
            case Steal(target=target):
                _need(phase is Phase.WRITE and seat in self.pending(state), "steal while writing")
                _need(self._steal_ready(state, seat), "you hold no steal card from a past round")
                _need(0 <= target < len(state.scores) and target != seat, "steal from another")
            case Strike(seat=target):
                _need(phase is Phase.JUDGE and seat == reader, "only the reader judges")
                _need(target in state.bluffs, f"seat {target} wrote no bluff")
                _need(target not in state.struck, f"seat {target}'s bluff is already struck")
            case Accept():
                _need(phase is Phase.JUDGE and seat == reader, "only the reader judges")
            case Vote(seat=target):
                _need(phase is Phase.VOTE and seat != reader, "it is not time to vote")
                _need(seat not in state.votes, "you have already voted")
                _need(target in self._vote_targets(state, seat), f"you cannot vote for {target}")

    def apply(self, state: State, seat: Seat, action: Action, now: int = 0) -> list[Event]:
        state.now = max(state.now, now)  # timers this action opens run from its time
        reader = state.reader
        match action:
            case Die(value=value):
                state.rng, _ = rng.below(state.rng, 6)  # sample_chance's draw, used up
                state.roll, state.phase = value, Phase.CLAIM
                return [Event("roll", f"the die shows {value}", (reader,), {"value": value})]
            case Claim(card=card, stake=stake):
                state.hands[seat].remove(card)
                state.prompt, state.stake, state.phase = card, stake, Phase.DISPUTE
                state.deadline = state.now + state.options.dispute_ms
                return [Event("claim", f"seat {seat} reads {card}, claims {stake}")]
            case Dispute():
                state.disputer = seat
                fib = state.roll != state.stake
                if fib:
                    state.scores[reader] -= 1
                    state.steals[seat].append(state.round)
                    state.stake = state.roll
                else:
                    state.scores[seat] -= 1
                text = f"seat {seat} disputes; the die showed {state.roll}"
                return [Event("dispute", text, data={"fib": fib}), *self._open_write(state)]
            case Pass():
                state.passed.append(seat)
                events = [Event("pass", f"seat {seat} passes")]
                if len(state.passed) == len(state.writers):
                    events += self._open_write(state)
                return events
            case Bluff(text=text):
                state.bluffs[seat] = text
                return [Event("bluff", f"seat {seat} has written"), *self._maybe_judge(state)]
            case Steal(target=target):
                state.steals[seat].pop(0)
                state.scores[target] -= 1
                state.scores[seat] += 1
                return [Event("steal", f"seat {seat} steals a point from seat {target}")]
            case Strike(seat=target):
                state.struck.append(target)
                state.scores[target] -= 1
                return [Event("strike", f"seat {target}'s bluff is too close to the truth")]
            case Accept():
                state.phase = Phase.VOTE
                return [Event("vote", "vote for the best bluff")]
            case Vote(seat=target):
                state.votes[seat] = target
                if len(state.votes) < len(state.writers):
                    return [Event("voted", f"seat {seat} has voted")]
                return self._end_round(state)

    def _open_write(self, state: State) -> list[Event]:
        state.phase, state.passed = Phase.WRITE, []
        state.deadline = state.now + state.options.write_ms
        return [Event("write", "write your bluffs")]

    def _maybe_judge(self, state: State) -> list[Event]:
        if len(state.bluffs) < len(state.writers):
            return []
        state.phase, state.deadline = Phase.JUDGE, None
        return [Event("judge", f"seat {state.reader} judges the bluffs")]

    def _end_round(self, state: State) -> list[Event]:
        reader = state.reader
        for target in state.votes.values():
            state.scores[target] += 1 if target == reader else state.stake
        events = [Event("votes", "votes: " + msgspec.json.encode(state.votes).decode())]
        state.round += 1
        state.phase = Phase.OVER if state.round == state.options.rounds else Phase.ROLL
        state.roll, state.prompt, state.stake, state.disputer = 0, None, 0, None
        state.bluffs, state.struck, state.votes, state.deadline = {}, [], {}, None
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
                return [Event("timeout", "nobody disputed in time"), *self._open_write(state)]
            case Phase.WRITE:
                for s in state.writers:
                    state.bluffs.setdefault(s, DEFAULT_BLUFF)
                return [Event("timeout", "time to stop writing"), *self._maybe_judge(state)]
            case _:
                return []

    # --- what seats see --------------------------------------------------------------------
    def view(self, state: State, seat: Seat | None) -> msgspec.Struct:
        hand = state.hands[seat] if seat is not None and 0 <= seat < len(state.hands) else []
        public_bluffs = state.phase in (Phase.JUDGE, Phase.VOTE)
        see_roll = state.roll > 0 and (seat == state.reader or state.disputer is not None)
        done = {Phase.DISPUTE: state.passed, Phase.WRITE: state.bluffs, Phase.VOTE: state.votes}
        return View(
            game=self.id,
            seat=seat,
            phase=str(state.phase),
            round=state.round,
            rounds=state.options.rounds,
            reader=state.reader,
            stake=state.stake,
            prompt=state.prompt,
            disputer=state.disputer,
            deadline=state.deadline,
            hand=list(hand),
            roll=f"die:{state.roll}" if see_roll else None,
            my_bluff=state.bluffs.get(seat) if seat is not None else None,
            my_vote=state.votes.get(seat) if seat is not None else None,
            bluffs=dict(state.bluffs) if public_bluffs else {},
            struck=sorted(state.struck),
            scores=state.scores[:],
            hand_sizes=[len(h) for h in state.hands],
            steals=[len(k) for k in state.steals],
            done=sorted(done.get(state.phase, [])),
        )

    def secrets(self, state: State) -> list[Secret]:
        only = [frozenset({s}) for s in range(len(state.scores))]
        found = [
            Secret(f"seat {s}'s hand", c, only[s]) for s, h in enumerate(state.hands) for c in h
        ]
        found += [Secret("undealt card", c) for c in state.deck]
        found.append(Secret("future rolls", f"rng:{state.rng}"))
        if state.roll and state.disputer is None:
            found.append(Secret("the die", f"die:{state.roll}", only[state.reader]))
        if state.phase is Phase.WRITE:
            found += [Secret(f"seat {s}'s bluff", t, only[s]) for s, t in state.bluffs.items()]
        found += [Secret(f"seat {s}'s vote", f"vote:{t}", only[s]) for s, t in state.votes.items()]
        return found

    def resample_hidden(self, state: State, seat: Seat | None, seed: int) -> State:
        other = self.clone(state)
        gen = rng.seed_state(seed)
        unseen = [s for s in range(len(state.scores)) if s != seat]
        pool = other.deck + [c for s in unseen for c in other.hands[s]]
        gen = rng.shuffle(gen, pool)
        for s in unseen:
            other.hands[s], pool = pool[: len(other.hands[s])], pool[len(other.hands[s]) :]
        other.deck = pool
        if other.roll and other.disputer is None and seat != other.reader:
            gen, face = rng.below(gen, 6)
            other.roll = face + 1
        if other.phase is Phase.WRITE:
            other.bluffs = {s: t if s == seat else HIDDEN_BLUFF for s, t in other.bluffs.items()}
        for s in other.votes:
            if s != seat:
                targets = self._vote_targets(other, s)
                gen, i = rng.below(gen, len(targets))
                other.votes[s] = targets[i]
        other.rng = gen
        return other

    # --- the end, tools --------------------------------------------------------------------
    def outcome(self, state: State) -> Outcome | None:
        if state.phase is not Phase.OVER:
            return None
        return Outcome(list(state.scores), rank_by_score(state.scores))

    def clone(self, state: State) -> State:
        return msgspec.structs.replace(
            state,
            hands=[h[:] for h in state.hands],
            deck=state.deck[:],
            scores=state.scores[:],
            steals=[k[:] for k in state.steals],
            passed=state.passed[:],
            bluffs=dict(state.bluffs),
            struck=state.struck[:],
            votes=dict(state.votes),
        )

    def players(self, state: State) -> int:
        return len(state.scores)

    def facts(self, state: State) -> dict[str, Any]:
        result = self.outcome(state)
        return {
            "phase": str(state.phase),
            "round": state.round,
            "reader": state.reader,
            "stake": state.stake,
            "prompt": state.prompt,
            "disputer": state.disputer,
            "deadline": state.deadline,
            "scores": state.scores[:],
            "steals": [len(k) for k in state.steals],
            "hand_sizes": [len(h) for h in state.hands],
            "written": sorted(state.bluffs),
            "struck": sorted(state.struck),
            "voted": sorted(state.votes),
            "winners": result.winners if result else [],
        }


FIB_OFF = FibOff()
FIXTURE_GAMES: list[Game[Any, Any]] = [FIB_OFF]
