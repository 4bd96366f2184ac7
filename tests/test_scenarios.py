"""Every scenario file under tests/scenarios/ passes, and a broken expectation is caught."""

from __future__ import annotations

from pathlib import Path

import pytest

from talltales.core.errors import ScenarioError
from talltales.core.scenario import load_scenario, run_scenario, run_scenario_file

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
