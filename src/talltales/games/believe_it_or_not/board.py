"""The board, read from board.toml: a path of spaces with special ones, and two shortcuts.

Positions are indices: 0 is START, the last path index is YOU HAVE WON THE GAME, and each
shortcut space comes after the path (path length + k). The file is checked on load, so a
board that would trap a pawn in a loop or strand a shortcut is refused with a reason.
"""

from __future__ import annotations

import tomllib
from functools import cache
from importlib import resources
from typing import Literal

import msgspec

from talltales.core.errors import ContentError

SpaceKind = Literal["start", "plain", "won", "move", "trade", "speed-up", "slide"]
SPEED_UP = 2  # "move your pawn ahead two spaces" (Speed Up Spaces)
MIN_PATH = 60


class Space(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """One space of the path and where the table screen draws it."""

    index: int
    kind: SpaceKind
    x: int
    y: int
    move: int = 0  # move spaces: ahead (positive) or back (negative)
    end: int = 0  # slide spaces: where the slide ends


class Shortcut(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A shortcut space between two path spaces that lie on either side of it."""

    entry: int
    exit: int
    x: int
    y: int


class Layout(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """The [board] table."""

    id: str
    title: str
    columns: int
    rows: int
    spaces: list[Space]


class BoardFile(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """The whole file."""

    board: Layout
    shortcuts: list[Shortcut]


class Board:
    """The path with its special spaces, and how pawns step along it."""

    def __init__(self, layout: Layout, shortcuts: list[Shortcut]) -> None:
        self.layout = layout
        self.spaces = layout.spaces
        self.shortcuts = shortcuts
        self.won = len(self.spaces) - 1
        self.size = len(self.spaces) + len(shortcuts)  # every position, shortcut spaces included
        self.entries = {s.entry: k for k, s in enumerate(shortcuts)}
        _check(self)
        self._tables()

    def shortcut_space(self, k: int) -> int:
        """The position of shortcut ``k``'s own space."""
        return len(self.spaces) + k

    def on_shortcut(self, position: int) -> Shortcut | None:
        """The shortcut whose space this is, if any."""
        k = position - len(self.spaces)
        return self.shortcuts[k] if 0 <= k < len(self.shortcuts) else None

    def ahead(self, position: int, *, through: bool = False) -> int:
        """The next space forward; from a shortcut entry, ``through`` enters the shortcut."""
        if through and position in self.entries:
            return self.shortcut_space(self.entries[position])
        return self._ahead[position]

    def back(self, position: int) -> int:
        """The previous space: off a shortcut space, back to its entry; never before START."""
        return self._back[position]

    def progress(self, position: int) -> float:
        """How far along a pawn is, for "ahead of" and "nearest": a shortcut space sits
        just past its entry."""
        return self._progress[position]

    def entries_ahead(self, position: int) -> list[tuple[int, int]]:
        """(steps to it, entry) of each shortcut entry ahead on the path, nearest first."""
        return self._entries_ahead[position]

    def _tables(self) -> None:
        """Each position's neighbours and progress, worked out once (pawns step a lot)."""
        path = range(len(self.spaces))
        self._ahead = [min(p + 1, self.won) for p in path] + [s.exit for s in self.shortcuts]
        self._back = [max(p - 1, 0) for p in path] + [s.entry for s in self.shortcuts]
        self._progress = [float(p) for p in path] + [s.entry + 0.5 for s in self.shortcuts]
        entries = sorted(self.entries)
        self._entries_ahead = [[(e - p, e) for e in entries if e >= p] for p in path]
        for s in self.shortcuts:  # from a shortcut space: one step to its exit, then on
            self._entries_ahead.append([(1 + e - s.exit, e) for e in entries if e >= s.exit])

    def space(self, position: int) -> Space | None:
        """The path space at ``position`` (None for a shortcut space)."""
        return self.spaces[position] if position < len(self.spaces) else None

    def name(self, position: int) -> str:
        """A short name for people: 'START', 'space 12', 'the shortcut'."""
        if position == 0:
            return "START"
        if position == self.won:
            return "YOU HAVE WON THE GAME"
        if self.on_shortcut(position) is not None:
            return "the shortcut"
        return f"space {position}"


def _check(board: Board) -> None:
    """Refuse a board the rules cannot play on."""
    spaces = board.spaces
    problems = []
    if len(spaces) < MIN_PATH + 2:
        problems.append(f"the path has {len(spaces)} spaces; at least {MIN_PATH + 2} are needed")
    if [s.index for s in spaces] != list(range(len(spaces))):
        problems.append("spaces are listed in path order with indices 0, 1, 2, ...")
    if spaces and (spaces[0].kind != "start" or spaces[-1].kind != "won"):
        problems.append("the path runs from a start space to a won space")
    plain = {s.index for s in spaces if s.kind == "plain"}
    for s in spaces[1:-1]:
        match s.kind:
            case "move" if not (s.move and s.index + s.move in plain):
                problems.append(f"space {s.index}: a move space leads to a plain space")
            case "slide" if not (s.index < s.end and s.end in plain):
                problems.append(f"space {s.index}: a slide ends further on, on a plain space")
            case "speed-up" if s.index + SPEED_UP not in plain:
                problems.append(f"space {s.index}: a speed-up moves two to a plain space")
            case "start" | "won":
                problems.append(f"space {s.index}: only the ends are start and won")
    for cut in board.shortcuts:
        name = f"shortcut {cut.entry}->{cut.exit}"
        if not (cut.entry in plain and cut.exit in plain and cut.entry + 2 < cut.exit):
            problems.append(f"{name}: joins plain spaces further apart")
            continue
        for end in (spaces[cut.entry], spaces[cut.exit]):
            if abs(end.x - cut.x) + abs(end.y - cut.y) != 1:
                problems.append(f"{name}: space {end.index} is not beside it")
    places = [(s.x, s.y) for s in spaces] + [(s.x, s.y) for s in board.shortcuts]
    if len(set(places)) != len(places):
        problems.append("two spaces share a place on the grid")
    if problems:
        raise ContentError(f"board {board.layout.id!r}: " + "; ".join(problems))


def parse_board(data: bytes) -> Board:
    """A board from the bytes of a board file, checked."""
    try:
        raw = tomllib.loads(data.decode("utf-8"))
        parsed = msgspec.convert(raw, BoardFile)
    except (tomllib.TOMLDecodeError, UnicodeDecodeError, msgspec.ValidationError) as exc:
        raise ContentError(f"board file: {exc}") from exc
    return Board(parsed.board, parsed.shortcuts)


@cache
def classic() -> Board:
    """The board that ships with the game."""
    here = resources.files("talltales.games.believe_it_or_not")
    return parse_board((here / "board.toml").read_bytes())
