"""The simulation engine and the simulate command."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

import pytest
from fixture_game import PACKS
from hypothesis import given
from hypothesis import strategies as st
from typer.testing import CliRunner

from talltales.cli import app
from talltales.core.errors import OptionsError
from talltales.simulate import (
    GameResult,
    derive,
    plan,
    play_jobs,
    play_one,
    summarise,
    wilson,
    win_shares,
)

GAME = "would-you-believe-it"
runner = CliRunner()


@given(st.integers(0, 500).flatmap(lambda n: st.tuples(st.integers(0, n), st.just(n))))
def test_wilson_interval_brackets_the_rate(wins_n: tuple[int, int]) -> None:
    wins, n = wins_n
    low, high = wilson(wins, n)
    assert 0.0 <= low <= high <= 1.0
    if n:
        assert low <= wins / n <= high
        other_low, other_high = wilson(n - wins, n)
        assert other_low == pytest.approx(1 - high)
        assert other_high == pytest.approx(1 - low)


def test_wilson_known_values_and_narrowing() -> None:
    assert wilson(0, 0) == (0.0, 1.0)
    low, high = wilson(5, 10)
    assert low == pytest.approx(0.2366, abs=1e-4)
    assert high == pytest.approx(0.7634, abs=1e-4)
    assert wilson(0, 10)[0] == 0.0
    assert wilson(10, 10)[1] == pytest.approx(1.0)
    wide, narrow = wilson(50, 100), wilson(500, 1000)
    assert narrow[1] - narrow[0] < wide[1] - wide[0]


def test_play_one_is_deterministic_and_sane() -> None:
    first = play_one(GAME, ["greedy", "random"], 7)
    assert first == play_one(GAME, ["greedy", "random"], 7)
    assert first.seats == ["greedy", "random"]
    assert len(first.scores) == 2
    assert sorted(s for group in first.ranking for s in group) == [0, 1]
    assert 0 < first.moves < first.actions


def test_plan_rotates_each_bot_through_each_seat() -> None:
    jobs = plan(GAME, ["greedy", "search", "random"], 6, seed=1)
    seats = Counter((seat, spec) for job in jobs for seat, spec in enumerate(job.seats))
    assert set(seats.values()) == {2}
    assert len(seats) == 9
    assert jobs[0].seed == jobs[2].seed != jobs[3].seed  # one layout, played three ways round
    fixed = plan(GAME, ["greedy", "search"], 4, seed=1, rotate=False)
    assert all(job.seats == ["greedy", "search"] for job in fixed)
    assert len({job.seed for job in fixed}) == 4


def test_plan_refuses_bad_runs() -> None:
    with pytest.raises(OptionsError):
        plan(GAME, ["greedy"], 4, seed=1)
    with pytest.raises(OptionsError):
        plan(GAME, ["greedy", "random"], 0, seed=1)
    with pytest.raises(OptionsError):
        plan(GAME, ["greedy", "random"], 2, seed=1, options={"colour": "red"})


def test_derive_gives_distinct_non_negative_seeds() -> None:
    seeds = {derive(s, k) for s in range(20) for k in range(20)}
    assert len(seeds) == 400
    assert all(0 <= s < 2**63 for s in seeds)


def result(seats: list[str], scores: list[int], ranking: list[list[int]]) -> GameResult:
    """A hand-made game result."""
    return GameResult(0, GAME, 1, seats, scores, ranking, actions=10, moves=6)


def test_ties_share_the_win() -> None:
    tie = result(["a", "b", "c"], [5, 5, 1], [[0, 1], [2]])
    assert win_shares(tie) == [0.5, 0.5, 0.0]
    clear = result(["b", "c", "a"], [9, 5, 1], [[0], [1], [2]])
    summary = summarise([tie, clear])
    bots = {b.bot: b for b in summary.bots}
    assert bots["a"].win.wins == 0.5
    assert bots["b"].win.wins == 1.5
    assert bots["c"].win.wins == 0
    assert sum(b.win.wins for b in summary.bots) == 2
    assert [s.win.wins for s in summary.seats] == [1.5, 0.5, 0]
    assert bots["b"].score.mean == 7 and bots["b"].score.min == 5 and bots["b"].score.max == 9
    assert summary.actions.mean == 10 and summary.moves.stdev == 0


def test_summary_of_a_real_chunk() -> None:
    results = play_jobs(plan(GAME, ["greedy", "random"], 4, seed=3))
    assert [r.index for r in results] == [0, 1, 2, 3]
    summary = summarise(results)
    assert summary.games == 4
    assert [b.win.games for b in summary.bots] == [4, 4]
    assert sum(s.win.wins for s in summary.seats) == pytest.approx(4)


def simulate_json(*extra: str) -> dict[str, object]:
    """Run the simulate command with --json and parse what it prints."""
    args = ["simulate", GAME, "-n", "6", "--seat", "bot:greedy", "--seat", "bot:search"]
    outcome = runner.invoke(app, [*args, "--seed", "5", "--json", *extra])
    assert outcome.exit_code == 0, outcome.output
    parsed: dict[str, object] = json.loads(outcome.stdout)
    return parsed


def test_simulate_json_counts_every_game() -> None:
    summary = simulate_json("--workers", "1")
    bots = summary["bots"]
    assert isinstance(bots, list)
    assert [b["bot"] for b in bots] == ["greedy", "search"]
    assert sum(b["win"]["wins"] for b in bots) == pytest.approx(6)
    assert all(b["win"]["games"] == 6 for b in bots)
    assert summary["games"] == 6
    assert summary["settings"] == {
        "seed": 5,
        "rotate": True,
        "lineup": ["greedy", "search"],
        "options": {},
    }


def test_simulate_is_deterministic_across_workers() -> None:
    assert simulate_json("--workers", "1") == simulate_json("--workers", "2")


def test_simulate_tables_and_errors() -> None:
    args = ["simulate", GAME, "-n", "2", "--seat", "random", "--seat", "random", "--workers", "1"]
    tables = runner.invoke(app, [*args, "--no-rotate"])
    assert tables.exit_code == 0, tables.output
    assert "By bot" in tables.stdout and "By seat position" in tables.stdout
    human = runner.invoke(app, ["simulate", GAME, "--seat", "human", "--seat", "random"])
    assert human.exit_code == 1
    assert "no bot called 'human'" in human.stderr


FIB = "fib-off"
QUICK_TIMERS = {
    "dispute_ms": 800,
    "write_ms": 2_500,
}  # the dispute window: shorter than a bot thinks
LINEUP = ["bot:random", "bot:greedy", "bot:search"]


@pytest.mark.usefixtures("fib_off")
def test_timers_run_out_while_bots_think_on_virtual_time() -> None:
    lineup = [spec.removeprefix("bot:") for spec in LINEUP]
    results = [play_one(FIB, lineup, seed, QUICK_TIMERS) for seed in range(4)]
    assert any(r.ticks > 0 for r in results)
    assert all(r.actions == r.moves + r.ticks + 3 for r in results)  # and one die a round
    assert all(r.ticks == 0 for r in (play_one(FIB, lineup, s) for s in range(4)))  # 10 s, 60 s


@pytest.mark.usefixtures("fib_off")
def test_a_pack_given_by_file_plays_as_the_same_shipped_pack() -> None:
    lineup = ["random", "greedy", "random"]
    by_file = play_one(FIB, lineup, 9, None, [str(PACKS / "fib-off-facts.toml")])
    assert by_file == play_one(FIB, lineup, 9, None, ["fib-off-facts"])
    assert by_file == play_one(FIB, lineup, 9)  # the default pack


def fib_json(*extra: str) -> dict[str, Any]:
    """The simulate command on fib-off with quick timers, as parsed JSON."""
    args = ["simulate", FIB, "-n", "6", "--seed", "2", "--json", "--pack", "fib-off-facts"]
    seats = [arg for spec in LINEUP for arg in ("--seat", spec)]
    timers = [arg for k, v in QUICK_TIMERS.items() for arg in ("--option", f"{k}={v}")]
    outcome = runner.invoke(app, [*args, *seats, *timers, *extra])
    assert outcome.exit_code == 0, outcome.output
    parsed: dict[str, Any] = json.loads(outcome.stdout)
    return parsed


@pytest.mark.usefixtures("fib_off")
def test_simulate_plays_fib_off_to_the_end_alike_on_one_or_two_workers() -> None:
    one = fib_json("--workers", "1")
    assert one == fib_json("--workers", "2")
    assert one["games"] == 6
    assert sum(b["win"]["wins"] for b in one["bots"]) == pytest.approx(6)
    assert one["ticks"]["max"] > 0  # timers ran out in some games
    assert one["settings"]["packs"] == ["fib-off-facts"]


@pytest.mark.usefixtures("fib_off")
@pytest.mark.parametrize(
    ("game", "pack", "message"),
    [(FIB, "no-such-pack", "has no pack 'no-such-pack'"), (GAME, "x", "takes no content packs")],
)
def test_simulate_refuses_a_pack_it_cannot_use(game: str, pack: str, message: str) -> None:
    args = ["simulate", game, "-n", "3", "--seat", "random", "--seat", "random", "--seat", "random"]
    result = runner.invoke(app, [*args, "--pack", pack, "--workers", "1"])
    assert result.exit_code == 1
    assert message in result.stderr
