"""The board file: its special spaces as the issue lists them, stepping, and refusals."""

from __future__ import annotations

from collections import Counter

import pytest

from talltales.core.errors import ContentError
from talltales.games.believe_it_or_not.board import MIN_PATH, classic, parse_board
from talltales.games.believe_it_or_not.motion import step

BOARD = classic()


def test_the_path_has_every_special_space_the_rulebook_names() -> None:
    kinds = Counter(s.kind for s in BOARD.spaces)
    assert len(BOARD.spaces) >= MIN_PATH + 2
    assert kinds["start"] == 1 and kinds["won"] == 1
    assert kinds["speed-up"] == 2  # "There are two Speed Up spaces"
    slides = {s.end for s in BOARD.spaces if s.kind == "slide"}
    assert len(slides) == 3  # "three Slides"
    assert len(BOARD.shortcuts) == 2  # "two Shortcut spaces"
    assert kinds["trade"] >= 2
    moves = [s.move for s in BOARD.spaces if s.kind == "move"]
    assert any(m > 0 for m in moves) and any(m < 0 for m in moves)
    assert BOARD.spaces[1].kind == "move" and BOARD.spaces[1].move == 3  # Figure 1


@pytest.mark.parametrize(
    ("start", "steps", "through", "end"),
    [
        (0, 3, -1, 3),
        (60, 9, -1, 63),  # exact count is not needed to win
        (2, -5, -1, 0),  # never back past START
        (17, 3, 18, 32),  # 17 -> 18 -> shortcut space -> 32
        (17, 2, 18, 64),  # landing on the shortcut space itself
        (64, -1, -1, 18),  # back off a shortcut space to its entry
        (33, -2, -1, 31),  # back from the exit follows the path, not the shortcut
        (17, 3, -1, 20),  # not taking it
    ],
)
def test_stepping_along_the_path(start: int, steps: int, through: int, end: int) -> None:
    assert step(BOARD, start, steps, through_at=through) == end


def test_a_shortcut_space_sits_just_past_its_entry() -> None:
    assert BOARD.progress(64) == 18.5
    assert BOARD.name(64) == "the shortcut"
    assert BOARD.name(0) == "START" and BOARD.name(63) == "YOU HAVE WON THE GAME"


BASE = """
[board]
id = "t"
title = "t"
columns = 70
rows = 3
spaces = [{spaces}]

[[shortcuts]]
entry = 5
exit = 9
x = 7
y = 1
"""


def _file(kinds: dict[int, str], length: int = 64) -> bytes:
    spaces = []
    for i in range(length):
        kind = "start" if i == 0 else "won" if i == length - 1 else kinds.get(i, "plain")
        extra = ", move = 3" if kind == "move" else ", end = 20" if kind == "slide" else ""
        x = i if i <= 5 else 14 - i if 5 < i < 9 else i  # fold 6..8 so 5 and 9 sit by (7, 1)
        y = 0 if i <= 5 or i >= 9 else 2
        if i >= 9:
            x = i
        spaces.append(f'{{ index = {i}, kind = "{kind}", x = {x}, y = {y}{extra} }}')
    return BASE.replace("{spaces}", ", ".join(spaces)).encode()


@pytest.mark.parametrize(
    ("kinds", "length", "reason"),
    [
        ({}, 40, "at least"),
        ({30: "won"}, 64, "only the ends"),
        ({12: "move", 15: "trade"}, 64, "a move space leads to a plain space"),
        ({25: "slide"}, 64, "a slide ends further on"),
        ({5: "trade"}, 64, "joins plain spaces"),
    ],
)
def test_a_broken_board_is_refused_with_a_reason(
    kinds: dict[int, str], length: int, reason: str
) -> None:
    with pytest.raises(ContentError, match=reason):
        parse_board(_file(kinds, length))


def test_a_board_that_is_not_toml_is_refused() -> None:
    with pytest.raises(ContentError, match="board file"):
        parse_board(b"[board\n")
