"""Every scenario file under tests/scenarios/ passes, and a broken expectation is caught."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from talltales.core.errors import ScenarioError
from talltales.core.scenario import load_scenario, run_scenario, run_scenario_file
from talltales.games.would_you_believe_it import GAME

SCENARIOS = sorted(Path(__file__).parent.joinpath("scenarios").rglob("*.toml"))


def test_there_are_scenarios_for_the_rulebook_examples() -> None:
    names = {p.name for p in SCENARIOS}
    assert "rulebook-examples-of-moves.toml" in names


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_scenario_passes(path: Path) -> None:
    report = run_scenario_file(path)
    assert report.failures == []
    assert report.steps > 0


def test_a_wrong_expectation_is_reported() -> None:
    scenario = load_scenario(SCENARIOS[0])
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
            '[[step]]\nseat = 0\ndo = { type = "roll" }\nchance = { type = "die", value = 1 }\n',
            "step 1: a step does one thing, but this has seat+do and chance",
        ),
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
