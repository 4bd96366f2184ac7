"""Every scenario file under tests/scenarios/ passes, and a broken expectation is caught."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from talltales.core.errors import ScenarioError
from talltales.core.game import Event, Seat
from talltales.core.registry import register, unregister
from talltales.core.scenario import load_scenario, run_scenario, run_scenario_file
from talltales.games.would_you_believe_it import GAME, WouldYouBelieveIt
from talltales.games.would_you_believe_it.state import Action, Die, Phase, State

SCENARIOS = sorted(Path(__file__).parent.joinpath("scenarios").rglob("*.toml"))


def test_there_are_scenarios_for_the_rulebook_examples() -> None:
    names = {p.name for p in SCENARIOS}
    assert "rulebook-examples-of-moves.toml" in names


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_scenario_passes(path: Path) -> None:
    report = run_scenario_file(path)
    assert report.failures == []
    assert report.steps > 0 or load_scenario(path).setup_refused  # a refused setup plays nothing


def test_there_are_scenarios_using_every_feature() -> None:
    texts = [p.read_text() for p in SCENARIOS]
    assert any("setup_refused" in t for t in texts)
    assert any('"figures.0"' in t for t in texts)
    assert any("do = " in t and "chance = [" in t for t in texts)


def test_a_wrong_expectation_is_reported() -> None:
    example = next(p for p in SCENARIOS if p.name == "rulebook-examples-of-moves.toml")
    scenario = load_scenario(example)
    scenario.expect = {"figures": [[99]], "no_such_fact": 1}
    failures = run_scenario(scenario).failures
    assert any("figures is" in f for f in failures)
    assert any("no fact called 'no_such_fact'" in f for f in failures)


def test_an_unexpected_acceptance_is_reported(tmp_path: Path) -> None:
    path = tmp_path / "s.toml"
    path.write_text(
        'game = "would-you-believe-it"\nplayers = 2\n'
        '[[step]]\nseat = 0\ndo = { type = "roll" }\nrefused = "illegal"\n'
    )
    assert run_scenario_file(path).failures == ["step 1: was accepted, expected refusal 'illegal'"]


@pytest.mark.parametrize(
    "text",
    [
        "game = 1\nplayers = 2\n",  # wrong type
        'game = "would-you-believe-it"\n',  # players missing
        'game = "would-you-believe-it"\nplayers = 2\nbogus = 1\n',  # unknown key
        "not toml [",
    ],
)
def test_malformed_scenarios_are_refused(tmp_path: Path, text: str) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(text)
    with pytest.raises(ScenarioError, match=r"bad\.toml"):
        load_scenario(path)


def test_unknown_game_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "s.toml"
    path.write_text('game = "chess"\nplayers = 2\n')
    with pytest.raises(ScenarioError, match="no game called 'chess'"):
        run_scenario_file(path)


HEADER = 'game = "would-you-believe-it"\nplayers = 2\n'


@pytest.mark.parametrize(
    ("steps", "problem"),
    [
        ('[[step]]\ndo = { type = "roll" }\n', "step 1: `do` needs a `seat`"),
        ("[[step]]\nseat = 0\n", "step 1: `seat` needs a `do`"),
        (
            '[[step]]\nseat = 0\ndo = { type = "roll" }\n[[step]]\nnote = "idle"\n',
            "step 2 (idle): nothing to do or expect",
        ),
        (
            '[[step]]\nseat = 0\ndo = { type = "roll" }\ntick = 5\n',
            "step 1: a tick is a step of its own, but this has seat+do too",
        ),
        (
            '[[step]]\nseat = 0\ndo = { type = "roll" }\nchance = { type = "die", value = 1 }\n'
            "tick = 5\n",
            "step 1: a tick is a step of its own, but this has seat+do and chance too",
        ),
        ("[[step]]\nchance = []\n", "step 1: `chance` lists no outcomes"),
        ('[[step]]\nrefused = "illegal"\n', "step 1: `refused` and `reason` need an action"),
        (
            '[[step]]\nseat = 0\ndo = { type = "roll" }\nreason = "x"\n',
            "step 1: `reason` needs `refused`",
        ),
    ],
)
def test_a_step_that_is_not_one_clear_thing_is_refused(
    tmp_path: Path, steps: str, problem: str
) -> None:
    path = tmp_path / "s.toml"
    path.write_text(HEADER + steps)
    with pytest.raises(ScenarioError) as refused:
        run_scenario_file(path)
    assert refused.value.reason.startswith(f"{path}: {problem}")


@pytest.mark.parametrize(
    ("setup", "problem"),
    [
        ("figures = 5", "override figures: Expected `array`, got `int`"),
        ('turn = "1"', "override turn: Expected `int`, got `str`"),
        ('collected = [["0"], []]', "seat 0's card 0 is '0', not a card"),
        ("guards = [1, 2]", "override guards: 2 given, expected 8"),
        ("colour = 1", "unknown overrides: ['colour']"),
    ],
)
def test_a_bad_setup_cannot_set_up(tmp_path: Path, setup: str, problem: str) -> None:
    path = tmp_path / "s.toml"
    path.write_text(HEADER + f"[setup]\n{setup}\n")
    with pytest.raises(ScenarioError, match="cannot set up: ") as refused:
        run_scenario_file(path)
    assert problem in refused.value.reason


@pytest.mark.parametrize("error", [ValueError("bad label"), TypeError("not a list")])
def test_a_game_whose_override_fails_raw_still_cannot_set_up(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, error: Exception
) -> None:
    def override(state: object, overrides: dict[str, Any]) -> None:
        raise error

    monkeypatch.setattr(GAME, "override", override)
    path = tmp_path / "s.toml"
    path.write_text(HEADER + "[setup]\nturn = 1\n")
    with pytest.raises(ScenarioError, match=f"s.toml: cannot set up: {error}"):
        run_scenario_file(path)


def run(tmp_path: Path, text: str) -> list[str]:
    """The failures of a scenario written as text."""
    path = tmp_path / "s.toml"
    path.write_text(text)
    return run_scenario_file(path).failures


# --- a setup that must be refused ------------------------------------------------------------

ON_A_GAP = (
    HEADER + '[options]\nlayout = "fixed"\n[setup]\n'
    "present = [true, true, true, false" + ", true" * 28 + "]\n"
    'figures = [[6, 0, 0], [4, 0, 0]]\ncollected = [["-4"], []]\n'
)


@pytest.mark.parametrize("fragment", ["a card already taken", "SEAT 1'S FIGURE 0 STANDS ON 4"])
def test_a_refused_setup_passes_when_the_reason_fits(tmp_path: Path, fragment: str) -> None:
    path = tmp_path / "s.toml"
    path.write_text(f'setup_refused = "{fragment}"\n' + ON_A_GAP)
    report = run_scenario_file(path)
    assert report.failures == [] and report.steps == 0


@pytest.mark.parametrize(
    ("text", "failure"),
    [
        (
            'setup_refused = "taken"\n' + HEADER,
            "setup: was accepted, expected a refusal with 'taken'",
        ),
        (
            'setup_refused = "off the board"\n' + ON_A_GAP,
            "setup: refused with \"override figures: seat 1's figure 0 stands on 4, a card "
            'already taken (a gap): pieces land only on cards still on the route", which '
            "lacks 'off the board'",
        ),
        (  # any refusal of setting up counts, not only the game's own
            'setup_refused = "seven"\ngame = "would-you-believe-it"\nplayers = 7\n',
            "setup: refused with 'Would You Believe It! is for 2 to 6 players, not 7', which "
            "lacks 'seven'",
        ),
    ],
)
def test_a_setup_not_refused_as_expected_fails(tmp_path: Path, text: str, failure: str) -> None:
    assert run(tmp_path, text) == [failure]


def test_a_refused_setup_by_a_raw_error_is_no_refusal(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def override(state: object, overrides: dict[str, Any]) -> None:
        raise ValueError("bad label")

    monkeypatch.setattr(GAME, "override", override)
    text = 'setup_refused = "label"\n' + HEADER + "[setup]\nturn = 1\n"
    assert run(tmp_path, text) == [
        "setup: failed with ValueError: bad label, not refused with 'label'"
    ]


@pytest.mark.parametrize(
    ("extra", "problem"),
    [
        ('[[step]]\nseat = 0\ndo = { type = "roll" }\n', "`setup_refused` expects no game to play"),
        ("[expect]\nturn = 0\n", "`setup_refused` expects no game to play"),
    ],
)
def test_a_refused_setup_takes_no_steps(tmp_path: Path, extra: str, problem: str) -> None:
    path = tmp_path / "s.toml"
    path.write_text('setup_refused = "taken"\n' + ON_A_GAP + extra)
    with pytest.raises(ScenarioError, match=problem):
        run_scenario_file(path)


def test_an_empty_fragment_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "s.toml"
    path.write_text('setup_refused = ""\n' + HEADER)
    with pytest.raises(ScenarioError, match=r"length >= 1 - at `\$.setup_refused`"):
        load_scenario(path)


def test_a_setup_refused_unexpectedly_still_cannot_set_up(tmp_path: Path) -> None:
    path = tmp_path / "s.toml"
    path.write_text(ON_A_GAP + '[[step]]\nseat = 0\ndo = { type = "roll" }\n')
    with pytest.raises(ScenarioError, match="cannot set up: override figures: seat 1's figure 0"):
        run_scenario_file(path)


# --- facts by path and in part ---------------------------------------------------------------

FIXED = HEADER + '[options]\nlayout = "fixed"\n[setup]\nfigures = [[2, 0, 0], [0, 0, 0]]\n'


@pytest.mark.parametrize(
    "expect",
    [
        '"figures.0" = [2, 0, 0]',
        '"figures.0.0" = 2',
        "figures.1 = [0, 0, 0]",  # bare dotted keys: TOML's nested tables
        'figures = { "0" = [2, 0, 0] }',
        '"legal.0" = [{ type = "roll" }]',
        'legal = { "0" = [{ type = "roll" }] }',
        "'scores.1' = 0",
        'present = { "1" = true, "3" = true }',
        "pending = [0]",
    ],
)
def test_facts_by_path_and_in_part(tmp_path: Path, expect: str) -> None:
    assert run(tmp_path, FIXED + f"[expect]\n{expect}\n") == []


@pytest.mark.parametrize(
    ("expect", "failure"),
    [
        ('"figures.0" = [3, 0, 0]', "figures.0 is [2, 0, 0], expected [3, 0, 0]"),
        ("figures.0.1 = 5", "figures.0.1 is 0, expected 5"),
        ('"figures.5" = []', "figures.5 does not exist: figures is a list of 2 (0 to 1)"),
        ('"figures.x" = []', "figures.x does not exist: figures is a list of 2 (0 to 1)"),
        ('"legal.1" = []', "legal.1 does not exist: legal has keys '0'"),
        ('"scores.0.1" = 0', "scores.0.1 does not exist: scores.0 is 0, not a list or a table"),
        ('"collected.0.0" = "-2"', "collected.0.0 does not exist: collected.0 is an empty list"),
        ('"figurez.0" = 1', "no fact called 'figurez'"),
        ("figures = [[2, 0, 0]]", "figures is [[2, 0, 0], [0, 0, 0]], expected [[2, 0, 0]]"),
        ("legal = {}", "legal is {'0': [{'type': 'roll'}]}, expected {}"),  # {} is compared whole
        (
            'legal = { "0" = [] }',
            "legal.0 is [{'type': 'roll'}], expected []",
        ),
    ],
)
def test_a_fact_that_differs_names_its_path(tmp_path: Path, expect: str, failure: str) -> None:
    failures = run(tmp_path, FIXED + f"[[step]]\nnote = 'look'\nexpect = {{ {expect} }}\n")
    assert len(failures) == 1
    assert failures[0].startswith("step 1 (look): " + failure)


# --- chance given with the action that causes it --------------------------------------------


def test_a_die_given_with_the_roll(tmp_path: Path) -> None:
    text = FIXED + (
        '[[step]]\nseat = 0\ndo = { type = "roll" }\nchance = { type = "die", value = 4 }\n'
        'expect = { roll = 4, phase = "move", version = 2 }\n'
    )
    assert run(tmp_path, text) == []


@pytest.mark.parametrize(
    ("step", "failure"),
    [
        (  # the action is refused: the die is not tried
            'seat = 1\ndo = { type = "roll" }\nchance = { type = "die", value = 4 }\n',
            "step 1: `do` refused unexpectedly: not-your-turn: seat 1 has nothing to decide",
        ),
        (
            'seat = 0\ndo = { type = "roll" }\nchance = { type = "die", value = 9 }\n',
            "step 1: `chance` refused unexpectedly: malformed: ",
        ),
        (
            'seat = 0\ndo = { type = "roll" }\n'
            'chance = [{ type = "die", value = 4 }, { type = "die", value = 2 }]\n',
            "step 1: `chance 2` refused unexpectedly: not-your-turn: no chance event is pending",
        ),
        (
            'seat = 0\ndo = { type = "roll" }\nchance = { type = "die", value = 9 }\n'
            'refused = "illegal"\n',
            "step 1: `chance` refused as 'malformed: ",
        ),
        (
            'seat = 0\ndo = { type = "roll" }\nchance = [{ type = "die", value = 4 }]\n'
            'refused = "not-your-turn"\n',
            "step 1: was accepted, expected refusal 'not-your-turn'",
        ),
        (
            'seat = 0\ndo = { type = "roll" }\n'
            'chance = [{ type = "die", value = 4 }, { type = "die", value = 2 }]\n'
            'refused = "not-your-turn"\nreason = "six"\n',
            "step 1: `chance 2` reason 'not-your-turn: no chance event is pending' lacks 'six'",
        ),
    ],
)
def test_a_refused_part_of_a_step_is_named(tmp_path: Path, step: str, failure: str) -> None:
    failures = run(tmp_path, FIXED + "[[step]]\n" + step)
    assert len(failures) == 1
    assert failures[0].startswith(failure)


def test_the_parts_before_a_refused_chance_stay_played(tmp_path: Path) -> None:
    text = FIXED + (
        '[[step]]\nseat = 0\ndo = { type = "roll" }\n'
        'chance = [{ type = "die", value = 4 }, { type = "die", value = 2 }]\n'
        'refused = "not-your-turn"\nreason = "no chance event"\n'
        "expect = { roll = 4, version = 2 }\n"
    )
    assert run(tmp_path, text) == []


class SixesAgain(WouldYouBelieveIt):
    """Would You Believe It! where a six is thrown again: several dice in a row."""

    id = "sixes-again"

    def apply(self, state: State, seat: Seat, action: Action, now: int = 0) -> list[Event]:
        events = super().apply(state, seat, action, now)
        if isinstance(action, Die) and action.value == 6:
            state.phase = Phase.DIE
        return events


@pytest.fixture
def sixes_again() -> Iterator[None]:
    register(SixesAgain())
    try:
        yield
    finally:
        unregister(SixesAgain.id)


@pytest.mark.usefixtures("sixes_again")
@pytest.mark.parametrize(
    "steps",
    [
        '[[step]]\nseat = 0\ndo = { type = "roll" }\n'
        'chance = [{ type = "die", value = 6 }, { type = "die", value = 6 }, '
        '{ type = "die", value = 3 }]\n',
        '[[step]]\nseat = 0\ndo = { type = "roll" }\n'
        '[[step]]\nchance = [{ type = "die", value = 6 }, { type = "die", value = 6 }]\n'
        '[[step]]\nchance = [{ type = "die", value = 3 }]\n',
    ],
)
def test_several_dice_in_a_row(tmp_path: Path, steps: str) -> None:
    text = 'game = "sixes-again"\nplayers = 2\n' + steps
    assert run(tmp_path, text + '[expect]\nroll = 3\nversion = 4\nphase = "move"\n') == []


def test_a_die_left_open_is_drawn_before_the_next_action(tmp_path: Path) -> None:
    text = FIXED + (
        '[[step]]\nseat = 0\ndo = { type = "roll" }\n'
        '[[step]]\nseat = 0\ndo = { type = "move-figure", figure = 1 }\n'
        "expect = { version = 3, turn = 1 }\n"
    )
    assert run(tmp_path, text) == []


# --- virtual time: the driver's clock runs in scenarios ------------------------------------------
FIXTURE_SCENARIOS = Path(__file__).resolve().parent / "fixture_scenarios"


@pytest.mark.usefixtures("fib_off")
@pytest.mark.parametrize("path", sorted(FIXTURE_SCENARIOS.glob("*.toml")), ids=lambda p: p.stem)
def test_the_fixture_game_s_timed_scenarios_pass(path: Path) -> None:
    report = run_scenario_file(path)
    assert report.passed, report.failures


@pytest.mark.usefixtures("fib_off")
def test_a_wait_that_ends_before_the_deadline_ticks_nothing(tmp_path: Path) -> None:
    text = (FIXTURE_SCENARIOS / "fib-off-timers.toml").read_text(encoding="utf-8")
    early = text.replace("wait = 2000", "wait = 400")
    path = tmp_path / "early.toml"
    path.write_text(early, encoding="utf-8")
    failures = run_scenario_file(path).failures
    assert any("phase is 'dispute', expected 'write'" in f for f in failures), failures
