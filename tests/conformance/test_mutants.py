"""Every mutant (mutants.py) is caught: the check its row names fails with an
AssertionError, and exactly the checks its row lists fail, so the table in
docs/architecture.md says what really happens."""

from __future__ import annotations

from pathlib import Path

import pytest

from .checks import CHECKS
from .mutants import MUTANTS, Mutant, expected_table, table

ARCHITECTURE = Path(__file__).resolve().parents[2] / "docs" / "architecture.md"
MUTANT_GAMES = 3  # random games per check: enough to meet every planted leak
# Every check but the refusals: a leak changes nothing Match refuses, and those checks,
# which gather every action a game makes, would double the time this test takes.
BATTERY = [check for check in CHECKS if check.family != "refusals"]


def _failures(mutant: Mutant) -> dict[str, Exception]:
    """The checks that fail on the mutant, with what they raised."""
    found: dict[str, Exception] = {}
    for check in BATTERY:
        try:
            check(mutant.game, mutant.players, MUTANT_GAMES)
        except Exception as exc:  # a crash is recorded too, to be reported below
            found[check.name] = exc
    return found


@pytest.mark.parametrize("mutant", MUTANTS, ids=[m.name for m in MUTANTS])
def test_mutant_is_caught(mutant: Mutant) -> None:
    failed = _failures(mutant)
    now = f"{mutant.leak}\nIts row as it stands:\n{table([(mutant, failed)])}"
    caught = failed.get(mutant.caught_by)
    assert isinstance(caught, AssertionError), f"{mutant.caught_by} misses {mutant.name}: {now}"
    crashed = {name: repr(exc) for name, exc in failed.items() if type(exc) is not AssertionError}
    assert not crashed, f"checks crashed on {mutant.name} instead of failing: {crashed}"
    assert set(failed) == mutant.failing, f"other checks fail on {mutant.name}: {now}"


def test_mutants_differ_from_the_real_games() -> None:
    """No mutant is registered or shares a class with a conformance game."""
    from .conftest import conformance_games

    real = {type(game) for game in conformance_games()}
    assert all(type(m.game) not in real for m in MUTANTS)
    names = [m.name for m in MUTANTS]
    assert len(names) == len(set(names))
    assert {m.caught_by for m in MUTANTS} <= {c.name for c in BATTERY if c.family == "hidden"}


def test_architecture_doc_shows_the_mutant_table() -> None:
    assert expected_table() in ARCHITECTURE.read_text(encoding="utf-8"), (
        f"docs/architecture.md (Hidden information) must show the mutant table:\n{expected_table()}"
    )
