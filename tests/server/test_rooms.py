"""A room builds what it shows a seat once per change: each seat's prompt and legal actions
are shared by every message that needs them, and an action carrying no text is checked
without building a prompt at all (only typed text goes through the family filter)."""

from __future__ import annotations

from typing import Any

import pytest

from talltales.core.registry import get_game
from talltales.server.rooms import Room

from .support import WYBI


def test_a_seats_prompt_is_built_once_per_change_and_never_for_untyped_actions(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game = get_game(WYBI)
    built: list[int] = []
    prompt = game.prompt

    def counted(state: Any, seat: int) -> Any:
        built.append(seat)
        return prompt(state, seat)

    monkeypatch.setattr(game, "prompt", counted)
    room = Room("ABCD", game, {}, 0)
    for name in ("Ann", "Bob"):
        room.join(name, 0)
    room.start(0, 0)
    assert room.match is not None
    for now in (1, 2, 3):  # every socket of every seat, the table, a hello
        room.states_for([0, 1, None], [], now)
        room.state_for(0, [], now)
    assert built == [0]  # Ann decides: her prompt, once
    built.clear()
    room.act(0, "ann-1", {"type": "roll"}, 4)  # no text in it: nothing to screen
    assert built == []
    room.states_for([0, 1, None], [], 5)
    room.states_for([0, 1, None], [], 6)
    assert built == sorted(room.match.pending())  # the new version's, once
