"""The fixture game's mechanisms, exercised through the Match authority."""

from __future__ import annotations

import msgspec
import pytest
from fixture_game import (
    FIB_OFF,
    FIXTURE_GAMES,
    HIDDEN_BLUFF,
    MAX_BLUFF,
    Accept,
    Action,
    Bluff,
    Claim,
    Die,
    Dispute,
    Pass,
    Phase,
    State,
    Steal,
    Strike,
    Vote,
)

from talltales.core.errors import EmptyText, IllegalAction, NotYourTurn, OptionsError, TextTooLong
from talltales.core.game import CHANCE, CLOCK, Game
from talltales.core.match import Match
from talltales.core.prompt import Race, Verdict, Write
from talltales.core.prompt import Vote as VotePrompt
from talltales.core.record import Entry
from talltales.core.rng import Rng

from .support import play_randomly, refused, snapshot

FibMatch = Match[State, Action]


def start(players: int = 4, die: int = 3, **options: int) -> FibMatch:
    """A match whose dice the test scripts: the first one shows ``die``."""
    match = Match(FIB_OFF, players, dict(options), seed=11, auto_chance=False)
    match.submit_chance(Die(die))
    return match


def claim(match: FibMatch, stake: int) -> str:
    """The reader reads their first card and claims ``stake``; returns the card."""
    reader = match.state.reader
    card = match.state.hands[reader][0]
    match.submit(reader, Claim(card, stake))
    return card


def to_write(match: FibMatch) -> None:
    """Everyone passes on the claim."""
    for seat in sorted(match.pending()):
        match.submit(seat, Pass())
    assert match.state.phase is Phase.WRITE


def to_judge(match: FibMatch) -> dict[int, str]:
    """Every writer writes a distinctive fake."""
    texts = {seat: f"fake number {seat}" for seat in sorted(match.pending())}
    for seat, text in texts.items():
        match.submit(seat, Bluff(text))
    assert match.state.phase is Phase.JUDGE
    return texts


def answer_of(match: FibMatch, text: str) -> str:
    """The anonymous id the answer ``text`` was given."""
    return next(a.id for a in match.state.answers if a.text == text)


def truth_id(match: FibMatch) -> str:
    return next(a.id for a in match.state.answers if a.truth)


def encoded_view(match: FibMatch, seat: int | None) -> bytes:
    return msgspec.json.encode(match.view(seat))


def test_the_fixture_list_holds_the_game() -> None:
    assert FIXTURE_GAMES == [FIB_OFF]
    assert isinstance(FIB_OFF, Game)
    assert FIB_OFF.id == "fib-off"
    assert FIB_OFF.default_packs == ("fib-off-facts",)


def test_player_count_and_options_are_checked() -> None:
    with pytest.raises(OptionsError):
        Match(FIB_OFF, 2)
    with pytest.raises(OptionsError):
        Match(FIB_OFF, 3, {"rounds": 0})
    with pytest.raises(OptionsError):
        Match(FIB_OFF, 3, {"turns": 3})


# --- chance --------------------------------------------------------------------------------------
def test_chance_is_the_chance_seat_and_draws_from_the_state_rng() -> None:
    match = Match(FIB_OFF, 3, seed=5, auto_chance=False)
    assert FIB_OFF.pending(match.state) == {CHANCE}
    assert match.pending() == frozenset()
    assert match.legal_actions(0) == []
    outcomes = FIB_OFF.chance_outcomes(match.state)
    assert [a for a, _ in outcomes] == [Die(v) for v in range(1, 7)]
    assert sum(p for _, p in outcomes) == pytest.approx(1.0)

    before = msgspec.json.encode(match.state)
    die = FIB_OFF.sample_chance(match.state)
    assert FIB_OFF.sample_chance(match.state) == die  # pure: same state, same draw
    assert msgspec.json.encode(match.state) == before

    match.submit_chance(die)
    assert isinstance(die, Die)
    assert match.state.roll == die.value
    assert match.state.phase is Phase.CLAIM
    assert match.record.entries[-1] == Entry(CHANCE, {"type": "die", "value": die.value})
    with pytest.raises(NotYourTurn):
        match.submit_chance(Die(1))

    auto = Match(FIB_OFF, 3, seed=5)  # the driver rolls the same die by itself
    assert auto.state.roll == die.value
    assert msgspec.json.encode(auto.state) == msgspec.json.encode(match.state)
    assert FIB_OFF.chance_outcomes(auto.state) == []


def test_players_cannot_roll_the_die() -> None:
    match = start()
    refused(match, 0, Die(6), IllegalAction)


# --- hidden information --------------------------------------------------------------------------
def test_hidden_hands_appear_only_in_their_own_seat_view() -> None:
    match = start(4)
    hands = match.state.hands
    assert all(len(hand) == 2 for hand in hands)
    for seat in range(4):
        view = encoded_view(match, seat)
        for owner in range(4):
            for card in hands[owner]:
                assert (card.encode() in view) == (owner == seat), (seat, owner, card)
    assert b"fib:" not in encoded_view(match, None)
    secrets = {s.value: s.seats for s in FIB_OFF.secrets(match.state)}
    for owner in range(4):
        for card in hands[owner]:
            assert secrets[card] == {owner}
    assert all(secrets[card] == frozenset() for card in match.state.deck.pile)


def test_the_die_is_seen_by_the_reader_until_a_dispute_reveals_it() -> None:
    match = start(3, die=4)
    assert match.view(0).roll == "die:4"  # type: ignore[attr-defined]
    assert match.view(1).roll is None  # type: ignore[attr-defined]
    assert match.view(None).roll is None  # type: ignore[attr-defined]
    claim(match, 4)
    match.submit(1, Dispute())
    assert match.view(2).roll == "die:4"  # type: ignore[attr-defined]
    assert "die:4" not in {s.value for s in FIB_OFF.secrets(match.state)}


@pytest.mark.parametrize("players", [3, 5])
def test_no_secret_ever_reaches_a_seat_not_allowed_to_see_it(players: int) -> None:
    for seed in range(4):
        match = Match(FIB_OFF, players, seed=seed)
        rng = Rng(seed)
        while not match.is_over():
            for secret in FIB_OFF.secrets(match.state):
                for seat in [None, *range(players)]:
                    shown = secret.value.encode() in encoded_view(match, seat)
                    if seat not in secret.seats:
                        assert not shown, (secret, seat)
                    elif secret.value.startswith("fib:"):
                        assert shown, (secret, seat)  # a hand is shown to its owner
            seat = rng.choice(sorted(match.pending()))
            match.submit(seat, rng.choice(match.legal_actions(seat)))


def test_resample_hidden_redraws_only_what_the_seat_cannot_see() -> None:
    match = start(4, die=2)
    card = claim(match, 5)
    to_write(match)
    match.submit(1, Bluff("mine, all mine"))
    match.submit(2, Bluff("seat two's secret"))
    state = match.state
    before = msgspec.json.encode(state)

    others = [FIB_OFF.resample_hidden(state, 1, seed) for seed in range(12)]
    assert msgspec.json.encode(state) == before  # the real state is untouched
    dealt = sorted([*state.deck.pile, *(c for h in state.hands for c in h)])
    for other in others:
        assert msgspec.json.encode(FIB_OFF.view(other, 1)) == msgspec.json.encode(
            FIB_OFF.view(state, 1)
        )
        assert other.hands[1] == state.hands[1]
        assert sorted([*other.deck.pile, *(c for h in other.hands for c in h)]) == dealt
        assert other.bluffs == {1: "mine, all mine", 2: HIDDEN_BLUFF}
        assert other.card == card
        assert other.truth == other.catalog[card].answer  # a sample is self-consistent
    assert any(other.hands[2] != state.hands[2] for other in others)
    assert any(other.roll != state.roll for other in others)  # the die is the reader's
    assert any(other.truth != state.truth for other in others)  # the answer too
    assert {o.rng for o in others} != {state.rng}

    mine = FIB_OFF.resample_hidden(state, 0, 3)  # the reader knows the die and the answer
    assert (mine.roll, mine.truth) == (2, state.truth)
    assert mine.hands[0] == state.hands[0]
    public = FIB_OFF.resample_hidden(state, None, 3)
    assert msgspec.json.encode(FIB_OFF.view(public, None)) == msgspec.json.encode(
        FIB_OFF.view(state, None)
    )


def test_a_sample_depends_only_on_what_the_seat_sees() -> None:
    match = start(5, die=4)
    claim(match, 4)
    to_write(match)
    to_judge(match)
    state = match.state
    for seat in [None, 0, 1, 3]:
        again = FIB_OFF.resample_hidden(FIB_OFF.resample_hidden(state, seat, 99), seat, 7)
        direct = FIB_OFF.resample_hidden(state, seat, 7)
        assert msgspec.json.encode(again) == msgspec.json.encode(direct), seat


# --- the optional dispute window: first taker wins -----------------------------------------------
def test_first_dispute_is_taken_and_closes_the_window_for_the_others() -> None:
    match = start(4, die=2)
    claim(match, 5)  # a fib
    assert match.pending() == {1, 2, 3}
    assert set(match.legal_actions(3)) == {Dispute(), Pass()}
    match.submit(2, Dispute())
    assert match.state.disputer == 2
    assert match.state.phase is Phase.WRITE
    error = refused(match, 3, Dispute(), IllegalAction)
    assert "seat 2 disputed first" in error.reason
    refused(match, 1, {"type": "dispute"}, IllegalAction)
    assert match.state.disputer == 2


def test_catching_a_fib_costs_the_reader_and_wins_a_steal_card() -> None:
    match = start(4, die=2)
    claim(match, 5)
    match.submit(3, Dispute())
    assert match.state.scores == [-1, 0, 0, 0]
    assert match.state.stake == 2  # the truth stands
    assert match.state.steals[3] == [0]


def test_disputing_an_honest_claim_costs_the_disputer() -> None:
    match = start(4, die=6)
    claim(match, 6)
    match.submit(1, Dispute())
    assert match.state.scores == [0, -1, 0, 0]
    assert match.state.stake == 6
    assert match.state.steals == [[], [], [], []]


def test_a_seat_that_passed_is_out_of_the_window() -> None:
    match = start(4, die=3)
    claim(match, 3)
    match.submit(1, Pass())
    assert match.pending() == {2, 3}
    refused(match, 1, Dispute(), NotYourTurn)
    refused(match, 0, Dispute(), NotYourTurn)  # the reader is not in the window
    match.submit(2, Pass())
    match.submit(3, Pass())
    assert match.state.phase is Phase.WRITE
    assert match.state.disputer is None
    assert match.state.scores == [0, 0, 0, 0]


# --- simultaneous decisions ----------------------------------------------------------------------
def test_every_writer_writes_at_once_and_every_bluff_is_kept() -> None:
    match = start(4)
    claim(match, 3)
    to_write(match)
    assert match.pending() == {1, 2, 3}
    texts = {3: "seat three's fib", 1: "seat one's fib", 2: "seat two's fib"}
    waiting = {1, 2, 3}
    for seat, text in texts.items():
        match.submit(seat, {"type": "bluff", "text": text})
        waiting.discard(seat)
        if waiting:
            assert match.pending() == waiting
            for other in waiting:  # nobody sees another's bluff while writing
                assert text.encode() not in encoded_view(match, other)
            assert match.view(seat).my_bluff == text  # type: ignore[attr-defined]
            assert match.view(seat).done == sorted({1, 2, 3} - waiting)  # type: ignore[attr-defined]
    assert match.state.phase is Phase.JUDGE
    shown = {a.text for a in match.view(None).answers}  # type: ignore[attr-defined]
    assert shown == {*texts.values(), match.state.truth}
    assert match.pending() == {0}


def test_votes_are_cast_at_once_kept_hidden_and_scored_together() -> None:
    match = start(4, die=5)
    claim(match, 5)
    to_write(match)
    to_judge(match)
    match.submit(0, Accept())
    assert match.pending() == {1, 2, 3}
    three, truth = answer_of(match, "fake number 3"), truth_id(match)
    match.submit(1, Vote(three))
    assert match.view(1).my_vote == three  # type: ignore[attr-defined]
    assert match.view(3).my_vote is None  # type: ignore[attr-defined]
    assert f"vote:{three}".encode() not in encoded_view(match, 3)
    assert match.pending() == {2, 3}
    match.submit(3, Vote(truth))
    match.submit(2, Vote(three))
    # two votes for seat 3's fake at stake 5; one for the truth: the voter and reader score
    assert match.state.scores == [1, 0, 0, 11]
    assert match.state.round == 1
    assert match.state.reader == 1
    assert FIB_OFF.pending(match.state) == {CHANCE}
    last = match.view(None).last  # type: ignore[attr-defined]
    assert last.truth_id == truth and last.authors[three] == [3]
    assert last.votes == {1: three, 2: three, 3: truth}


# --- the reader judges ---------------------------------------------------------------------------
def test_the_reader_strikes_a_fake_too_close_to_the_truth() -> None:
    match = start(4)
    claim(match, 3)
    to_write(match)
    to_judge(match)
    two, truth = answer_of(match, "fake number 2"), truth_id(match)
    refused(match, 1, Strike(two), NotYourTurn)
    assert Strike(two) in match.legal_actions(0)
    assert Strike(truth) not in match.legal_actions(0)
    match.submit(0, Strike(two))
    assert match.state.struck == [two]
    assert Strike(two) not in match.legal_actions(0)
    assert "cannot be struck" in refused(match, 0, Strike(two), IllegalAction).reason
    refused(match, 0, Strike(truth), IllegalAction)  # the truth is never struck
    match.submit(0, Accept())
    assert match.state.phase is Phase.VOTE
    assert Vote(two) not in match.legal_actions(1)
    refused(match, 1, Vote(two), IllegalAction)  # struck
    refused(match, 1, Vote(answer_of(match, "fake number 1")), IllegalAction)  # one's own
    for seat in (1, 2, 3):
        match.submit(seat, Vote(truth))
    assert match.state.scores == [3, 1, 0, 1]  # a struck fake costs its writer at the reveal


# --- anonymous answers ---------------------------------------------------------------------------
def test_answers_are_shuffled_under_ids_and_identical_ones_merged() -> None:
    orders = set()
    for seed in range(8):
        match = Match(FIB_OFF, 5, seed=seed, auto_chance=False)
        match.submit_chance(Die(2))
        claim(match, 2)
        to_write(match)
        match.submit(1, Bluff("Same Words"))
        match.submit(2, Bluff("same   words"))
        match.submit(3, Bluff("different"))
        match.submit(4, Bluff(match.state.truth.upper()))  # the real answer: no fake
        answers = match.state.answers
        assert [a.id for a in answers] == ["A", "B", "C"]
        merged = next(a for a in answers if a.authors == [1, 2])
        assert merged.text == "Same Words"  # the spelling shown depends on the texts alone
        assert match.state.scores[4] == 2
        orders.add(tuple(a.text for a in answers))
        view = match.view(None)
        assert [a.id for a in view.answers] == ["A", "B", "C"]  # type: ignore[attr-defined]
        assert b"authors" not in encoded_view(match, None)
    assert len(orders) > 1  # the order comes from the shuffle, not from who wrote


def test_prompts_are_typed_for_each_decision() -> None:
    match = start(4, die=2)
    claim(match, 5)
    race = match.prompt(1)
    assert isinstance(race, Race)
    assert race.claim.action == {"type": "dispute"}
    assert race.decline is not None and race.decline.action == {"type": "pass"}
    to_write(match)
    write = match.prompt(2)
    assert isinstance(write, Write)
    assert write.max_length == MAX_BLUFF and write.fill("x") == {"type": "bluff", "text": "x"}
    assert match.prompt(0) is None  # the reader writes nothing
    to_judge(match)
    verdict = match.prompt(0)
    assert isinstance(verdict, Verdict)
    assert verdict.subject == match.state.truth
    assert len(verdict.overrule) == 3
    match.submit(0, verdict.accept.action)
    vote = match.prompt(1)
    assert isinstance(vote, VotePrompt)
    assert sorted(o.action["answer"] for o in vote.options) == sorted(
        a.id for a in match.state.answers if 1 not in a.authors
    )
    assert all("seat" not in o.action for o in vote.options)


# --- free text: checked once, by Match, from the prompt --------------------------------------
def test_text_longer_than_the_prompt_allows_or_empty_is_refused_and_changes_nothing() -> None:
    match = start(4)
    claim(match, 3)
    to_write(match)
    error = refused(match, 1, Bluff("x" * (MAX_BLUFF + 1)), TextTooLong)
    assert isinstance(error, IllegalAction)
    assert str(MAX_BLUFF) in error.reason
    refused(match, 1, {"type": "bluff", "text": "y" * 5000}, TextTooLong)
    refused(match, 1, Bluff("   "), EmptyText)
    refused(match, 1, Bluff(""), EmptyText)
    for action in match.legal_actions(2):
        assert isinstance(action, Bluff)
        assert 0 < len(action.text) <= MAX_BLUFF
    match.submit(1, Bluff("x" * MAX_BLUFF))
    assert match.state.bluffs[1] == "x" * MAX_BLUFF
    refused(match, 1, Bluff("again"), NotYourTurn)


# --- time ----------------------------------------------------------------------------------------
def test_tick_before_the_deadline_changes_nothing_and_is_not_recorded() -> None:
    match = start(4)
    claim(match, 3)
    due = match.deadline()
    assert due == 10_000  # the dispute window, from the last tick (none yet: 0)
    before = snapshot(match)
    assert match.tick(due - 1) == []
    assert match.tick(0) == []
    assert snapshot(match) == before
    assert FIB_OFF.tick(match.state, due - 1) == []
    assert snapshot(match) == before


def test_tick_at_the_deadline_closes_the_window_then_ends_writing_with_defaults() -> None:
    match = start(4, write_ms=5_000, dispute_ms=2_000)
    claim(match, 3)
    assert match.deadline() == 2_000
    version = match.version
    events = match.tick(2_500)
    assert [e.kind for e in events] == ["timeout", "write"]
    assert match.state.phase is Phase.WRITE
    assert match.state.disputer is None
    assert match.version == version + 1
    assert match.record.entries[-1] == Entry(CLOCK, {"type": "tick", "now": 2_500}, 2_500)
    assert match.deadline() == 7_500  # write_ms after the tick that opened the writing

    match.submit(2, Bluff("only I was quick"))
    assert match.tick(7_499) == []
    match.tick(7_500)
    assert match.state.phase is Phase.JUDGE
    # who wrote nothing in time has no answer: the truth and the one fake are on the table
    assert sorted(a.authors for a in match.state.answers) == [[], [2]]
    assert match.deadline() is None
    before = snapshot(match)
    assert match.tick(10**12) == []
    assert snapshot(match) == before


# --- kept cards ----------------------------------------------------------------------------------
def test_a_kept_steal_card_is_played_in_a_later_round() -> None:
    match = start(3, die=1)
    claim(match, 6)
    match.submit(2, Dispute())  # caught: seat 2 keeps a steal card
    assert match.state.steals[2] == [0]
    assert not any(isinstance(a, Steal) for a in match.legal_actions(2))
    assert "past round" in refused(match, 2, Steal(0), IllegalAction).reason
    to_judge(match)
    match.submit(0, Accept())
    match.submit(1, Vote(truth_id(match)))
    match.submit(2, Vote(truth_id(match)))
    assert match.state.round == 1
    assert match.state.steals[2] == [0]  # kept across the round

    match.submit_chance(Die(4))
    claim(match, 4)
    to_write(match)
    assert Steal(1) in match.legal_actions(2)
    refused(match, 2, Steal(2), IllegalAction)  # not from oneself
    scores = match.state.scores[:]
    match.submit(2, Steal(1))
    assert match.state.scores[2] == scores[2] + 1
    assert match.state.scores[1] == scores[1] - 1
    assert match.state.steals[2] == []
    assert 2 in match.pending()  # stealing is no bluff: seat 2 still has to write
    refused(match, 2, Steal(1), IllegalAction)  # used up
    refused(match, 0, Steal(1), IllegalAction)  # never had one


# --- the whole game ------------------------------------------------------------------------------
@pytest.mark.parametrize("players", [3, 4, 5])
def test_random_play_always_reaches_the_end(players: int) -> None:
    for seed in range(12):
        match = Match(FIB_OFF, players, {"rounds": 1 + seed % 6}, seed=seed)
        play_randomly(match, seed, tick_every=3)
        outcome = match.outcome()
        assert outcome is not None
        assert outcome.scores == match.state.scores
        assert sorted(s for tied in outcome.ranking for s in tied) == list(range(players))
        assert FIB_OFF.facts(match.state)["winners"] == outcome.winners
        assert match.deadline() is None
        assert all(match.legal_actions(s) == [] for s in range(players))
        assert match.state.round == 1 + seed % 6


def test_clone_is_independent_and_facts_are_json_ready() -> None:
    match = start(4)
    claim(match, 3)
    copy = FIB_OFF.clone(match.state)
    assert msgspec.json.encode(copy) == msgspec.json.encode(match.state)
    FIB_OFF.apply(copy, 1, Pass())
    FIB_OFF.apply(copy, 2, Dispute())
    assert match.state.passed == []
    assert match.state.disputer is None
    assert match.state.steals == [[], [], [], []]
    facts = FIB_OFF.facts(copy)
    assert msgspec.json.decode(msgspec.json.encode(facts)) == facts
    assert facts["phase"] == "write"
    assert facts["disputer"] == 2


def test_suggested_fakes_are_unique_and_do_not_name_their_seat() -> None:
    match = start(4)
    claim(match, 3)
    to_write(match)
    suggestions = {seat: match.prompt(seat).examples for seat in (1, 2, 3)}  # type: ignore[union-attr]
    texts = [t for ideas in suggestions.values() for t in ideas]
    assert len(set(texts)) == len(texts)  # no two seats share one
    assert not any("seat" in t for t in texts)  # the mark comes from the seat's hidden hand
    again = FIB_OFF.resample_hidden(match.state, None, 5)  # the others' hands redrawn
    assert FIB_OFF.prompt(again, 2).examples != suggestions[2]  # type: ignore[attr-defined]
