"""The protocol every game implements: a state machine with no I/O and no wall clock."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable, Sequence
from importlib import resources
from importlib.resources.abc import Traversable
from typing import Any, ClassVar, Final, Generic, TypeVar

import msgspec

from talltales.core.content import Pack
from talltales.core.errors import IllegalAction, OptionsError
from talltales.core.prompt import Option, Pick, Prompt

Seat = int
CHANCE: Final[Seat] = -1  # chance is an explicit player: dice and draws the driver resolves
CLOCK: Final[Seat] = -2  # the driver's clock: ticks carry the time into the game

S = TypeVar("S")
A = TypeVar("A")


class Tick(msgspec.Struct, frozen=True, forbid_unknown_fields=True, tag="tick", tag_field="type"):
    """Time enters a game only as this action, applied by the driver at ``now`` (ms)."""

    now: int


class Event(msgspec.Struct, frozen=True):
    """Something that happened, told only to ``audience`` unless declared ``public``.

    Like views, events are private by allow-list: an event nobody was named for reaches
    nobody, so a forgotten audience can never leak a secret to the table.
    """

    kind: str
    text: str
    audience: tuple[Seat, ...] = ()
    data: dict[str, str | int | bool | None] = {}
    public: bool = False

    def visible_to(self, seat: Seat | None) -> bool:
        """Whether this event may be shown to ``seat`` (None: the public table)."""
        return self.public or (seat is not None and seat in self.audience)


def told_all(kind: str, text: str, **data: str | int | bool | None) -> Event:
    """A public event: everyone, the table and spectators included, is told."""
    return Event(kind, text, data=data, public=True)


def told(seats: Iterable[Seat], kind: str, text: str, **data: str | int | bool | None) -> Event:
    """A private event, told to ``seats`` alone."""
    return Event(kind, text, tuple(sorted(set(seats))), data)


class Secret(msgspec.Struct, frozen=True):
    """A hidden value and the seats allowed to see it."""

    what: str
    value: str
    seats: frozenset[Seat] = frozenset()


class Outcome(msgspec.Struct, frozen=True):
    """The end of a game: final scores and the ranking, tied seats grouped, best first."""

    scores: list[int]
    ranking: list[list[Seat]]

    @property
    def winners(self) -> list[Seat]:
        """The seats sharing first place."""
        return list(self.ranking[0]) if self.ranking else []


def rank_by_score(scores: list[int]) -> list[list[Seat]]:
    """Group seats by score, highest first; equal scores share a place."""
    groups: dict[int, list[Seat]] = {}
    for seat, score in enumerate(scores):
        groups.setdefault(score, []).append(seat)
    return [groups[s] for s in sorted(groups, reverse=True)]


class Game(ABC, Generic[S, A]):
    """One game's rules. Every method is pure except ``apply`` and ``tick``, which mutate."""

    id: ClassVar[str]
    title: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    summary: ClassVar[str] = ""
    state_type: ClassVar[type[Any]]
    action_type: ClassVar[Any]  # the tagged union of the game's actions
    options_type: ClassVar[type[msgspec.Struct]]
    card_type: ClassVar[type[msgspec.Struct] | None] = None  # schema of content packs, if any
    default_packs: ClassVar[tuple[str, ...]] = ()  # shipped pack ids used when none is chosen
    # the action tags that carry typed text (Write prompts); None: any action with a text
    # field might, so Match builds the prompt to check it
    writes: ClassVar[tuple[str, ...] | None] = None

    # --- setup -------------------------------------------------------------------------
    def options(self, raw: dict[str, Any] | None = None) -> Any:
        """Typed options from builtins; defaults are the printed rules."""
        try:
            return msgspec.convert(raw or {}, self.options_type)
        except msgspec.ValidationError as exc:
            raise OptionsError(f"{self.title}: bad option: {exc}") from exc

    def check_players(self, players: int) -> None:
        """Refuse a player count the rulebook does not allow."""
        if not self.min_players <= players <= self.max_players:
            raise OptionsError(
                f"{self.title} is for {self.min_players} to {self.max_players} players,"
                f" not {players}"
            )

    @abstractmethod
    def setup(self, players: int, options: Any, seed: int, packs: Sequence[Pack[Any]] = ()) -> S:
        """A fresh state; all chance is drawn from an RNG seeded by ``seed`` and held in it.

        ``packs`` are the content packs chosen for this game, their cards already typed by
        ``card_type`` (games without cards get none).
        """

    def pack_files(self) -> list[Traversable]:
        """The pack files this game ships: ``packs/*.toml|json`` beside its module (or, for
        a subclass defined elsewhere, beside the nearest base class that has them)."""
        for cls in type(self).__mro__:
            if cls is Game or not issubclass(cls, Game):
                break
            found = _packs_beside(cls.__module__)
            if found:
                return found
        return []

    def override(self, state: S, overrides: dict[str, Any]) -> None:
        """Set up a position for a scenario (layout, who stands where)."""
        if overrides:
            raise IllegalAction(f"{self.title} takes no scenario overrides")

    # --- whose decision ------------------------------------------------------------------
    @abstractmethod
    def pending(self, state: S) -> frozenset[Seat]:
        """Seats with a decision pending now (CHANCE when a die or draw is due)."""

    @abstractmethod
    def legal_actions(self, state: S, seat: Seat) -> list[A]:
        """The actions this seat may take now (for free text: representative examples)."""

    def prompt(self, state: S, seat: Seat) -> Prompt:
        """What ``seat`` is asked now, typed; by default a pick among its legal actions.

        Games override this for text to write, anonymous votes, verdicts and races. It
        must be built from what the seat may see, like a view.
        """
        return Pick(
            question="Your move",
            options=[
                Option(self.describe(state, a), msgspec.to_builtins(a))
                for a in self.legal_actions(state, seat)
            ],
        )

    @abstractmethod
    def validate(self, state: S, seat: Seat, action: A) -> None:
        """Raise IllegalAction with a reason unless ``action`` is legal for ``seat`` now."""

    @abstractmethod
    def apply(self, state: S, seat: Seat, action: A, now: int = 0) -> list[Event]:
        """Apply a validated action in place and say what happened.

        ``now`` is the driver's time of the action (ms), recorded with it, so a timer the
        action opens can set its deadline; games without timers ignore it.
        """

    def chance_outcomes(self, state: S) -> list[tuple[A, float]]:
        """The chance actions possible now with their probabilities."""
        return []

    def sample_chance(self, state: S) -> A:
        """Draw the pending chance action from the RNG held in the state."""
        raise IllegalAction(f"{self.title} has no chance event pending")

    # --- time ----------------------------------------------------------------------------
    def deadline(self, state: S) -> int | None:
        """When (ms, driver's clock) the next tick changes something, if ever."""
        return None

    def tick(self, state: S, now: int) -> list[Event]:
        """Let time ``now`` pass; only what a deadline demands changes."""
        return []

    # --- what seats see ---------------------------------------------------------------------
    @abstractmethod
    def view(self, state: S, seat: Seat | None) -> msgspec.Struct:
        """Everything ``seat`` may see (None: the public table view), built by allow-list."""

    def views(self, state: S, seats: Iterable[Seat | None]) -> dict[Seat | None, msgspec.Struct]:
        """The views of several seats at once; a game may share the work between them, but
        each must equal ``view(state, seat)``."""
        return {seat: self.view(state, seat) for seat in seats}

    @abstractmethod
    def secrets(self, state: S) -> list[Secret]:
        """Every hidden value now and who may see it."""

    @abstractmethod
    def resample_hidden(self, state: S, seat: Seat | None, seed: int) -> S:
        """A copy of the state with everything ``seat`` cannot see drawn afresh."""

    # --- the end -------------------------------------------------------------------------
    @abstractmethod
    def outcome(self, state: S) -> Outcome | None:
        """Scores and ranking once the game is over, else None."""

    # --- tools ---------------------------------------------------------------------------
    @abstractmethod
    def clone(self, state: S) -> S:
        """An independent copy, cheap enough for search bots."""

    def heuristic(self, state: S) -> list[float]:
        """A rough value of the position per seat, for search bots (higher is better)."""
        result = self.outcome(state)
        if result is None:
            return [0.0] * self.players(state)
        return [float(s) for s in result.scores]

    @abstractmethod
    def players(self, state: S) -> int:
        """How many seats the game has."""

    @abstractmethod
    def facts(self, state: S) -> dict[str, Any]:
        """Named, JSON-ready facts about the state, for scenario expectations."""

    def own_bot(self, seed: int, **params: int) -> Any | None:
        """This game's own strongest bot (the 'smart' kind), if it has one; None: the
        smart bot falls back to search."""
        return None

    def describe(self, state: S, action: A) -> str:
        """A short human phrase for an action, for prompts and logs."""
        return msgspec.json.encode(action).decode()


def _packs_beside(module: str) -> list[Traversable]:
    """The pack files in the ``packs`` folder of ``module``'s package."""
    package = module.rpartition(".")[0] or module
    try:
        folder = resources.files(package) / "packs"
    except (ModuleNotFoundError, TypeError):
        return []
    if not folder.is_dir():
        return []
    found = [f for f in folder.iterdir() if f.name.endswith((".toml", ".json"))]
    return sorted(found, key=lambda f: f.name)
