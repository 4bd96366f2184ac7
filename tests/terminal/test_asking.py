"""Typed prompts at the keyboard: choices by number, text to write, a reader with a timeout."""

from __future__ import annotations

import io
import os
import sys
from collections.abc import Iterator

import msgspec
import pytest
from rich.console import Console

from talltales.core.prompt import Option, Pick, Race, Verdict, Vote, Write
from talltales.terminal.asking import (
    Abandoned,
    Unclear,
    default_ask,
    hint,
    interpret,
    prompt_lines,
    read_prompt,
    said,
)

CLAIM = Option("Dispute it!", {"type": "dispute"})
PASS = Option("Let it stand", {"type": "pass"})
STEAL = Option("Steal a point from seat 1", {"type": "steal", "target": 1})
WRITE = Write(
    question="What do bees make wax from?",
    purpose="a fake answer",
    action={"type": "bluff"},
    max_length=80,
    examples=["old honey"],
    options=[STEAL],
)
VOTE = Vote(
    question="Which is true?",
    options=[
        Option("Old honey", {"type": "vote", "answer": "A"}),
        Option("Glands", {"type": "vote", "answer": "B"}),
    ],
)
VERDICT = Verdict(
    question="Too close?",
    subject="Glands on their abdomens",
    accept=Option("Keep every answer", {"type": "accept"}),
    overrule=[Option("Strike “Glands”", {"type": "strike", "answer": "B"})],
)


def test_choices_are_numbered_in_the_order_shown() -> None:
    race = Race(question="Seat 1 claims 4. Fib?", claim=CLAIM, decline=PASS)
    assert interpret(race, " 2 ") == {"type": "pass"}
    assert interpret(VERDICT, "2") == {"type": "strike", "answer": "B"}
    assert interpret(VOTE, "1") == {"type": "vote", "answer": "A"}
    lines = prompt_lines(race)
    assert "First to claim wins." in lines[0]
    assert lines[1].endswith("Dispute it!") and lines[2].endswith("Let it stand")
    assert "Glands on their abdomens" in prompt_lines(VERDICT)[0]
    assert "whose is secret" in prompt_lines(VOTE)[0]


@pytest.mark.parametrize(
    ("raw", "problem"),
    [
        ("", "Type the number of your choice, 1 to 2."),
        ("x", "'x' is not a number: type 1 to 2."),
        ("3", "3 is not one of the choices: type 1 to 2."),
        ("0", "0 is not one of the choices: type 1 to 2."),
    ],
)
def test_an_unclear_choice_says_what_to_type(raw: str, problem: str) -> None:
    with pytest.raises(Unclear, match=problem):
        interpret(VOTE, raw)


def test_a_write_takes_text_or_the_number_of_another_option() -> None:
    assert interpret(WRITE, "  Royal jelly ") == {"type": "bluff", "text": "Royal jelly"}
    assert interpret(WRITE, "1") == STEAL.action
    assert interpret(WRITE, "7") == {"type": "bluff", "text": "7"}  # no option 7: it is text
    assert interpret(WRITE, "") == {"type": "bluff", "text": ""}  # the Match refuses it
    lines = prompt_lines(WRITE)
    assert "Write a fake answer: at most 80 characters." in lines[0]
    assert "old honey" in lines[1]
    assert lines[2].endswith("Steal a point from seat 1")


def test_quitting_works_at_every_prompt() -> None:
    for prompt in (VOTE, WRITE):
        with pytest.raises(Abandoned):
            interpret(prompt, "Q")


def test_the_hint_tells_the_time_left_when_a_timer_runs() -> None:
    assert hint(VOTE) == "Choose 1-2 (q to quit): "
    assert hint(VOTE, 12) == "(12 s left) Choose 1-2 (q to quit): "
    assert hint(WRITE, 60) == (
        "(60 s left) Type a fake answer, or 1 for the choice above (q to quit): "
    )
    alone = msgspec.structs.replace(WRITE, options=[])
    assert hint(alone) == "Type a fake answer (q to quit): "


def test_a_confirmation_repeats_the_label_or_the_text() -> None:
    assert said(VOTE, {"type": "vote", "answer": "B"}) == "Glands"
    assert said(WRITE, {"type": "bluff", "text": "wax"}) == "a fake answer: “wax”"
    assert said(WRITE, STEAL.action) == STEAL.label


def test_prompts_sent_as_json_are_typed_and_unknown_ones_ignored() -> None:
    wire = msgspec.to_builtins(WRITE)
    assert wire["kind"] == "write"
    assert read_prompt(wire) == WRITE
    assert read_prompt(msgspec.to_builtins(VERDICT)) == VERDICT
    assert read_prompt(None) is None
    assert read_prompt({"kind": "auction", "question": "?"}) is None
    pick = read_prompt({"kind": "pick", "question": "Your move", "options": []})
    assert isinstance(pick, Pick)


@pytest.fixture
def terminal_stdin(monkeypatch: pytest.MonkeyPatch) -> Iterator[int]:
    """Standard input is a pseudo-terminal; yields the end the test types into."""
    if os.name != "posix":
        pytest.fail("the timed reader is for POSIX terminals")
    typed, tty = os.openpty()
    stdin = os.fdopen(tty, "r")
    monkeypatch.setattr(sys, "stdin", stdin)
    try:
        yield typed
    finally:
        stdin.close()
        os.close(typed)


def test_the_reader_gives_up_when_time_runs_out_and_reads_a_line_in_time(
    terminal_stdin: int,
) -> None:
    out = io.StringIO()
    ask = default_ask(Console(file=out))
    assert ask("(0 s left) Choose 1-2: ", 0.0) is None  # nothing typed: time ran out
    os.write(terminal_stdin, b"2\n")
    assert ask("(9 s left) Choose 1-2: ", 30.0) == "2"
    assert "(0 s left) Choose 1-2: " in out.getvalue()
