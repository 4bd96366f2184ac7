"""Scenario files: set up a position, play scripted actions, expect facts.

The format is TOML and documented in docs/scenarios.md.
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import msgspec

from talltales.core.errors import ActionRefused, ScenarioError, TallTalesError
from talltales.core.game import CHANCE
from talltales.core.match import Match
from talltales.core.registry import get_game


class Step(msgspec.Struct, forbid_unknown_fields=True):
    """One scripted line: a seat's action, a chance outcome or a tick, then expectations."""

    seat: int | None = None
    do: dict[str, Any] | None = None
    chance: dict[str, Any] | None = None
    tick: int | None = None
    time: int = 0
    refused: str | None = None  # the error code expected, e.g. "illegal", "not-your-turn"
    reason: str | None = None  # a fragment the refusal's reason must contain
    expect: dict[str, Any] = {}
    note: str = ""


class Scenario(msgspec.Struct, forbid_unknown_fields=True):
    """A position, a script and what must be true along the way and at the end."""

    game: str
    players: int
    title: str = ""
    seed: int = 0
    options: dict[str, Any] = {}
    setup: dict[str, Any] = {}
    step: list[Step] = []
    expect: dict[str, Any] = {}


class ScenarioReport(msgspec.Struct):
    """What running one scenario found."""

    path: str
    title: str
    steps: int
    failures: list[str]

    @property
    def passed(self) -> bool:
        """True when every expectation held."""
        return not self.failures


def load_scenario(path: Path | str) -> Scenario:
    """Read and type-check a scenario file."""
    path = Path(path)
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
        return msgspec.convert(raw, Scenario)
    except (OSError, tomllib.TOMLDecodeError, msgspec.ValidationError) as exc:
        raise ScenarioError(f"{path}: {exc}") from exc


def observed(match: Match[Any, Any]) -> dict[str, Any]:
    """The facts a scenario may expect: the game's own plus pending, over, version, legal."""
    game = match.game
    facts = dict(game.facts(match.state))
    facts["pending"] = sorted(match.pending())
    facts["over"] = match.is_over()
    facts["version"] = match.version
    facts["legal"] = {
        str(seat): [msgspec.to_builtins(a) for a in match.legal_actions(seat)]
        for seat in sorted(match.pending())
    }
    return facts


def compare(where: str, expected: dict[str, Any], facts: dict[str, Any]) -> list[str]:
    """One failure line per expected fact that differs from what is observed."""
    failures = []
    for key, want in expected.items():
        if key not in facts:
            failures.append(f"{where}: no fact called {key!r} (known: {', '.join(sorted(facts))})")
        elif facts[key] != want:
            failures.append(f"{where}: {key} is {facts[key]!r}, expected {want!r}")
    return failures


def _where(number: int, step: Step) -> str:
    """How failures name a step: 'step 3 (Red moves ...)'."""
    return f"step {number}" + (f" ({step.note})" if step.note else "")


def check_step(number: int, step: Step) -> None:
    """Refuse a step that is not one clear thing to do or to check."""
    where = _where(number, step)
    actions = [
        name
        for name, given in (
            ("seat+do", step.seat is not None or step.do is not None),
            ("chance", step.chance is not None),
            ("tick", step.tick is not None),
        )
        if given
    ]
    if step.do is not None and step.seat is None:
        raise ScenarioError(f"{where}: `do` needs a `seat` to play it")
    if step.seat is not None and step.do is None:
        raise ScenarioError(f"{where}: `seat` needs a `do`, the action it plays")
    if len(actions) > 1:
        raise ScenarioError(f"{where}: a step does one thing, but this has {' and '.join(actions)}")
    if not actions and (step.refused is not None or step.reason is not None):
        raise ScenarioError(f"{where}: `refused` and `reason` need an action to refuse")
    if step.reason is not None and step.refused is None:
        raise ScenarioError(f"{where}: `reason` needs `refused`, the code it goes with")
    if not actions and not step.expect:
        raise ScenarioError(
            f"{where}: nothing to do or expect (give seat+do, chance, tick or expect)"
        )


def _play(match: Match[Any, Any], step: Step) -> str | None:
    """Perform one step; return the refusal's code and reason, or None if accepted."""
    try:
        if step.chance is not None:
            match.submit_chance(step.chance, step.time)
        elif step.tick is not None:
            match.tick(step.tick)
        elif step.do is not None and step.seat is not None:
            if CHANCE in match.game.pending(match.state):
                match.auto_chance = True  # dice the script leaves open come from the seed
                match.resolve_chance(step.time)
                match.auto_chance = False
            match.submit(step.seat, step.do, step.time)
    except ActionRefused as exc:
        return f"{exc.code}: {exc.reason}"
    return None


def run_scenario(scenario: Scenario, path: str = "<scenario>") -> ScenarioReport:
    """Play the script and check every expectation, collecting all failures.

    A scenario that cannot run at all (a step that is not one clear thing, or a position
    that cannot be set up) raises ScenarioError naming the file."""
    for number, step in enumerate(scenario.step, start=1):
        try:
            check_step(number, step)
        except ScenarioError as exc:
            raise ScenarioError(f"{path}: {exc.reason}") from exc
    try:
        game = get_game(scenario.game)
        match = Match(
            game,
            scenario.players,
            scenario.options,
            scenario.seed,
            overrides=scenario.setup,
            auto_chance=False,
        )
    except TallTalesError as exc:
        raise ScenarioError(f"{path}: cannot set up: {exc.reason}") from exc
    except (ValueError, TypeError) as exc:  # a game's unchecked setup (ValidationError too)
        raise ScenarioError(f"{path}: cannot set up: {exc}") from exc
    failures: list[str] = []
    for number, step in enumerate(scenario.step, start=1):
        where = _where(number, step)
        refusal = _play(match, step)
        if step.refused is None and refusal is not None:
            failures.append(f"{where}: refused unexpectedly: {refusal}")
        elif step.refused is not None:
            if refusal is None:
                failures.append(f"{where}: was accepted, expected refusal {step.refused!r}")
            elif not refusal.startswith(step.refused + ":"):
                failures.append(f"{where}: refused as {refusal!r}, expected {step.refused!r}")
            elif step.reason and step.reason.lower() not in refusal.lower():
                failures.append(f"{where}: reason {refusal!r} lacks {step.reason!r}")
        failures += compare(where, step.expect, observed(match))
    failures += compare("at the end", scenario.expect, observed(match))
    return ScenarioReport(path, scenario.title or Path(path).stem, len(scenario.step), failures)


def run_scenario_file(path: Path | str) -> ScenarioReport:
    """Load and run one scenario file."""
    return run_scenario(load_scenario(path), str(path))
