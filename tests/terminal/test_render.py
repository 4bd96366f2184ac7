"""Terminal event lines tell players by name."""

from __future__ import annotations

from talltales.terminal.render import event_text


def test_event_lines_name_the_seats() -> None:
    line = event_text("seat 0 throws the die; seat 1 collects -4", ["Ann", "Bob"])
    assert line.plain == "   Ann throws the die; Bob collects -4"


def test_an_unknown_seat_number_is_left_as_it_is() -> None:
    assert event_text("seat 7 moves", ["Ann"]).plain == "   seat 7 moves"
    assert event_text("seats 10 and more", ["Ann"]).plain == "   seats 10 and more"
