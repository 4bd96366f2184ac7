"""The typed state, actions and options of Would You Believe It!"""

from __future__ import annotations

import enum
from typing import Annotated, Literal

import msgspec


class Phase(enum.StrEnum):
    """Where a turn stands."""

    ROLL = "roll"  # the player to move throws the die
    DIE = "die"  # chance: the die is in the air
    MOVE = "move"  # the player moves one figure or one guard
    OVER = "over"  # every figure has reached Finish


class Options(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """Printed rules by default; the rest are named house rules."""

    layout: Literal["shuffled", "fixed"] = "shuffled"  # "as shown" is not printed: shuffled
    figures: Annotated[int, msgspec.Meta(ge=0, le=3)] = 0  # 0: printed (3 for 2-4, 2 for 5-6)


class Roll(msgspec.Struct, frozen=True, forbid_unknown_fields=True, tag="roll", tag_field="type"):
    """Throw the die."""


class Die(msgspec.Struct, frozen=True, forbid_unknown_fields=True, tag="die", tag_field="type"):
    """Chance: the die shows ``value``."""

    value: Annotated[int, msgspec.Meta(ge=1, le=6)]


class MoveFigure(
    msgspec.Struct, frozen=True, forbid_unknown_fields=True, tag="move-figure", tag_field="type"
):
    """Move one of your own figures (0-based index) by the roll."""

    figure: Annotated[int, msgspec.Meta(ge=0, le=2)]


class MoveGuard(
    msgspec.Struct, frozen=True, forbid_unknown_fields=True, tag="move-guard", tag_field="type"
):
    """Move guard number ``guard`` (0-7) by the roll."""

    guard: Annotated[int, msgspec.Meta(ge=0, le=7)]


Action = Roll | Die | MoveFigure | MoveGuard

ROLL = Roll()
DIE_FACES = tuple(Die(v) for v in range(1, 7))
MOVE_FIGURE = tuple(MoveFigure(i) for i in range(3))
MOVE_GUARD = tuple(MoveGuard(i) for i in range(8))


class State(msgspec.Struct):
    """The whole table. Positions: 0 Start, 1-32 route cards, 33 Finish."""

    route: list[int]  # card value at each route position 1..32 (index 0 is position 1)
    present: list[bool]  # whether that route card is still on the table
    figures: list[list[int]]  # figures[seat][k]: position of that seat's k-th figure
    guards: list[int]  # position of each of the eight guards
    collected: list[list[int]]  # card values each seat has collected, in order
    turn: int = 0  # the seat holding the die
    phase: Phase = Phase.ROLL
    roll: int = 0  # the die's value during MOVE, else 0
    rng: int = 0  # the generator state: future rolls, so never shown
    moves: int = 0  # completed moves, for statistics
