"""Scenario files: set up a position, play scripted actions, expect facts.

The format is TOML and documented in docs/scenarios.md.
"""

from __future__ import annotations

import tomllib
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Annotated, Any

import msgspec

from talltales.core.driver import Driver, VirtualClock
from talltales.core.errors import ActionRefused, ScenarioError, TallTalesError
from talltales.core.game import CHANCE
from talltales.core.match import Match
from talltales.core.registry import get_game

Fragment = Annotated[str, msgspec.Meta(min_length=1)]


class Step(msgspec.Struct, forbid_unknown_fields=True):
    """One scripted line: a seat's action and/or chance outcomes, or a tick; then expectations."""

    seat: int | None = None
    do: dict[str, Any] | None = None
    chance: dict[str, Any] | list[dict[str, Any]] | None = None  # one outcome, or several
    tick: int | None = None
    wait: int | None = None  # ms of virtual time to let pass, ticking each deadline reached
    time: int = 0
    refused: str | None = None  # the error code expected, e.g. "illegal", "not-your-turn"
    reason: str | None = None  # a fragment the refusal's reason must contain
    expect: dict[str, Any] = {}
    note: str = ""

    def outcomes(self) -> list[dict[str, Any]]:
        """The chance outcomes this step forces, in order."""
        if self.chance is None:
            return []
        return [self.chance] if isinstance(self.chance, dict) else self.chance


class Scenario(msgspec.Struct, forbid_unknown_fields=True):
    """A position, a script and what must be true along the way and at the end."""

    game: str
    players: int
    title: str = ""
    seed: int = 0
    options: dict[str, Any] = {}
    setup: dict[str, Any] = {}
    setup_refused: Fragment | None = None  # setting up must fail, with this in the reason
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


_MISSING = object()


def compare(where: str, expected: dict[str, Any], facts: dict[str, Any]) -> list[str]:
    """One failure line per expected fact that differs from what is observed.

    A key may be a dotted path into a fact (``figures.0``, ``legal.1``), and a non-empty
    table is compared in part: only its keys are checked, each as a path."""
    failures = []
    for key, want in expected.items():
        name, _, rest = str(key).partition(".")
        if name not in facts:
            failures.append(f"{where}: no fact called {name!r} (known: {', '.join(sorted(facts))})")
        else:
            failures += _compare_at(where, name, rest.split(".") if rest else [], want, facts[name])
    return failures


def _compare_at(where: str, path: str, parts: list[str], want: Any, have: Any) -> list[str]:
    """Follow ``parts`` down from ``have`` (found at ``path``), then compare with ``want``."""
    for part in parts:
        found = _child(have, part)
        if found is _MISSING:
            return [f"{where}: {path}.{part} does not exist: {path} {_shape(have)}"]
        path, have = f"{path}.{part}", found
    # TOML makes `figures.0 = …` a nested table, so a table checks lists by index too;
    # an empty table still means "empty", compared whole
    if isinstance(want, dict) and want and isinstance(have, dict | list | tuple):
        failures = []
        for key, value in want.items():
            failures += _compare_at(where, path, str(key).split("."), value, have)
        return failures
    return [] if have == want else [f"{where}: {path} is {have!r}, expected {want!r}"]


def _child(node: Any, part: str) -> Any:
    """The list entry or table value ``part`` names, or _MISSING."""
    if isinstance(node, list | tuple):
        return node[int(part)] if part.isdigit() and int(part) < len(node) else _MISSING
    if isinstance(node, dict):
        if part in node:
            return node[part]
        key = int(part) if part.lstrip("-").isdigit() else None  # a game's facts may use ints
        return node.get(key, _MISSING)
    return _MISSING


def _shape(node: Any) -> str:
    """What a path can go into at ``node``, for a failure naming a path that is not there."""
    if isinstance(node, list | tuple):
        return f"is a list of {len(node)} (0 to {len(node) - 1})" if node else "is an empty list"
    if isinstance(node, dict):
        return f"has keys {', '.join(repr(str(k)) for k in node)}" if node else "is an empty table"
    return f"is {node!r}, not a list or a table"


def _where(number: int, step: Step) -> str:
    """How failures name a step: 'step 3 (Red moves ...)'."""
    return f"step {number}" + (f" ({step.note})" if step.note else "")


def check_step(number: int, step: Step) -> None:
    """Refuse a step that is not one clear thing to do or to check."""
    where = _where(number, step)
    acts = step.seat is not None or step.do is not None
    if step.do is not None and step.seat is None:
        raise ScenarioError(f"{where}: `do` needs a `seat` to play it")
    if step.seat is not None and step.do is None:
        raise ScenarioError(f"{where}: `seat` needs a `do`, the action it plays")
    if step.chance == []:
        raise ScenarioError(f"{where}: `chance` lists no outcomes")
    if step.wait is not None and step.wait < 0:
        raise ScenarioError(f"{where}: `wait` is a number of ms, not {step.wait}")
    for name, given in (("tick", step.tick is not None), ("wait", step.wait is not None)):
        others = (
            ("seat+do", acts),
            ("chance", step.chance is not None),
            ("tick", name != "tick" and step.tick is not None),
            ("wait", name != "wait" and step.wait is not None),
        )
        also = " and ".join(n for n, g in others if g)
        if given and also:
            raise ScenarioError(f"{where}: a {name} is a step of its own, but this has {also} too")
    nothing = not acts and step.chance is None and step.tick is None and step.wait is None
    if nothing and (step.refused is not None or step.reason is not None):
        raise ScenarioError(f"{where}: `refused` and `reason` need an action to refuse")
    if step.reason is not None and step.refused is None:
        raise ScenarioError(f"{where}: `reason` needs `refused`, the code it goes with")
    if nothing and not step.expect:
        raise ScenarioError(
            f"{where}: nothing to do or expect (give seat+do, chance, tick, wait or expect)"
        )


def _parts(driver: Driver[Any, Any], step: Step) -> list[tuple[str, Callable[[], object]]]:
    """What the step does, in order, each with the name a failure gives it."""
    match = driver.match
    parts: list[tuple[str, Callable[[], object]]] = []
    if step.tick is not None:
        parts.append(("tick", partial(_tick, driver, step.tick)))
    if step.wait is not None:
        parts.append(("wait", partial(driver.wait, step.wait)))
    if step.do is not None and step.seat is not None:
        parts.append(("do", partial(_act, driver, step.seat, step.do, step.time)))
    outcomes = step.outcomes()
    for k, outcome in enumerate(outcomes, start=1):
        name = f"chance {k}" if len(outcomes) > 1 else "chance"
        parts.append((name, partial(match.submit_chance, outcome, step.time)))
    return parts


def _tick(driver: Driver[Any, Any], now: int) -> None:
    """The clock reads ``now`` (it may be scripted back in time) and ticks if a deadline
    has passed."""
    assert isinstance(driver.clock, VirtualClock)
    driver.clock.time = now
    driver.match.tick(now)


def _act(driver: Driver[Any, Any], seat: int, action: dict[str, Any], time: int) -> None:
    """The seat plays its action at ``time`` (a deadline passed by then is ticked first),
    after any die the script left open is drawn."""
    match = driver.match
    if time > driver.clock.now():
        driver.wait(time - driver.clock.now())
    if CHANCE in match.game.pending(match.state):
        match.auto_chance = True  # dice the script leaves open come from the seed
        match.resolve_chance(time)
        match.auto_chance = False
    match.submit(seat, action, time)


def _play(driver: Driver[Any, Any], step: Step) -> tuple[str, ActionRefused] | None:
    """Perform one step; on a refusal, which part was refused ('' if the only one) and why.

    A refused part ends the step: the parts after it are not tried."""
    parts = _parts(driver, step)
    for name, perform in parts:
        try:
            perform()
        except ActionRefused as exc:
            return (f"`{name}` " if len(parts) > 1 else "", exc)
    return None


def _check_refusal(where: str, step: Step, refusal: tuple[str, ActionRefused] | None) -> list[str]:
    """A failure line if the step was refused and should not be, or the other way round."""
    if refusal is None:
        return [f"{where}: was accepted, expected refusal {step.refused!r}"] if step.refused else []
    part, exc = refusal
    said = f"{exc.code}: {exc.reason}"
    if step.refused is None:
        return [f"{where}: {part}refused unexpectedly: {said}"]
    if exc.code != step.refused:
        return [f"{where}: {part}refused as {said!r}, expected {step.refused!r}"]
    if step.reason and step.reason.lower() not in exc.reason.lower():
        return [f"{where}: {part}reason {said!r} lacks {step.reason!r}"]
    return []


def _set_up(scenario: Scenario) -> Match[Any, Any]:
    """The scenario's match, with dice left for the script to give."""
    return Match(
        get_game(scenario.game),
        scenario.players,
        scenario.options,
        scenario.seed,
        overrides=scenario.setup,
        auto_chance=False,
    )


def _refused_setup(scenario: Scenario) -> list[str]:
    """Failures of a scenario whose setting up must be refused with ``setup_refused``."""
    fragment = scenario.setup_refused or ""
    try:
        _set_up(scenario)
    except TallTalesError as exc:
        if fragment.lower() in exc.reason.lower():
            return []
        return [f"setup: refused with {exc.reason!r}, which lacks {fragment!r}"]
    except (ValueError, TypeError) as exc:  # a game's unchecked setup: a bug, not a refusal
        return [f"setup: failed with {type(exc).__name__}: {exc}, not refused with {fragment!r}"]
    return [f"setup: was accepted, expected a refusal with {fragment!r}"]


def run_scenario(scenario: Scenario, path: str = "<scenario>") -> ScenarioReport:
    """Play the script and check every expectation, collecting all failures.

    A scenario that cannot run at all (a step that is not one clear thing, or a position
    that cannot be set up when no refusal is expected) raises ScenarioError naming the file."""
    title = scenario.title or Path(path).stem
    if scenario.setup_refused is not None:
        if scenario.step or scenario.expect:
            raise ScenarioError(
                f"{path}: `setup_refused` expects no game to play: it takes no steps or expect"
            )
        return ScenarioReport(path, title, 0, _refused_setup(scenario))
    for number, step in enumerate(scenario.step, start=1):
        try:
            check_step(number, step)
        except ScenarioError as exc:
            raise ScenarioError(f"{path}: {exc.reason}") from exc
    try:
        match = _set_up(scenario)
    except TallTalesError as exc:
        raise ScenarioError(f"{path}: cannot set up: {exc.reason}") from exc
    except (ValueError, TypeError) as exc:  # a game's unchecked setup (ValidationError too)
        raise ScenarioError(f"{path}: cannot set up: {exc}") from exc
    failures: list[str] = []
    driver: Driver[Any, Any] = Driver(match, {}, VirtualClock())  # every seat is scripted
    for number, step in enumerate(scenario.step, start=1):
        where = _where(number, step)
        failures += _check_refusal(where, step, _play(driver, step))
        failures += compare(where, step.expect, observed(match))
    failures += compare("at the end", scenario.expect, observed(match))
    return ScenarioReport(path, title, len(scenario.step), failures)


def run_scenario_file(path: Path | str) -> ScenarioReport:
    """Load and run one scenario file."""
    return run_scenario(load_scenario(path), str(path))
