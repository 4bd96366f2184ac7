"""Typed prompts at the keyboard: numbered choices, a line to write, and a timed reader.

The local game and ``talltales join`` both play from prompts alone, so a game needs no
terminal code of its own to be playable: a Pick, Vote, Verdict or Race is a numbered
list, a Write is a line of text (its other options still by number).
"""

from __future__ import annotations

import os
import select
import sys
from collections.abc import Callable
from typing import Any

import msgspec
from rich.console import Console
from rich.markup import escape
from rich.text import Text

from talltales.core.prompt import Option, Pick, Prompt, Race, Verdict, Vote, Write, prompt_options

QUIT_WORDS = frozenset({"q", "quit", "exit"})

Ask = Callable[[str, float | None], str | None]
"""Ask for a line, waiting at most ``timeout`` seconds (None: for ever); None: time ran out."""


class Abandoned(Exception):
    """The person asked to stop the game."""


class Unclear(Exception):
    """An answer that stands for no option; the message says what to type instead."""


def default_ask(console: Console) -> Ask:
    """Read a line from standard input; on a POSIX terminal, give up when time runs out."""

    def ask(prompt: str, timeout: float | None) -> str | None:
        if timeout is None or not can_wait():
            line = console.input(escape(prompt))
            if not sys.stdin.isatty():  # a script's answers would otherwise go unseen
                console.print(line, markup=False, highlight=False)
            return line
        console.print(prompt, end="", markup=False, highlight=False)
        ready, _, _ = select.select([sys.stdin], [], [], max(0.0, timeout))
        if not ready:
            console.print()
            return None
        line = sys.stdin.readline()
        if not line:
            raise EOFError
        return line.rstrip("\n")

    return ask


def can_wait() -> bool:
    """Whether select() can wait on standard input with a timeout.

    Only a POSIX terminal: on Windows select() takes sockets alone, and piped input is
    read ahead into Python's buffer, where select() cannot see it."""
    try:
        return os.name == "posix" and sys.stdin.isatty() and sys.stdin.fileno() >= 0
    except (OSError, ValueError, AttributeError):
        return False


def read_prompt(raw: Any) -> Prompt | None:
    """A prompt sent as JSON (a server's ``state.prompt``), typed; None if there is none."""
    if raw is None:
        return None
    try:
        typed: Prompt = msgspec.convert(raw, Prompt)
    except msgspec.ValidationError:
        return None  # a prompt kind this client does not know: play from ``legal`` instead
    return typed


def option_lines(options: list[Option]) -> list[str]:
    """'  1. label' for each option (markup escaped: labels may hold a player's text)."""
    return [f"  [bold]{n}[/]. {escape(o.label)}" for n, o in enumerate(options, start=1)]


def prompt_lines(prompt: Prompt) -> list[str]:
    """What to print below the question: the subject, the limit, the numbered options."""
    lines: list[str] = []
    match prompt:
        case Vote():
            lines.append("  The answers (whose is secret):")
        case Verdict(subject=subject):
            lines.append(f"  {escape(subject)}")
        case Race():
            lines.append("  First to claim wins.")
        case Write(purpose=purpose, max_length=limit, examples=examples):
            lines.append(f"  Write {escape(purpose)}: at most {limit} characters.")
            if examples:
                said = " / ".join(f"“{escape(e)}”" for e in examples[:3])
                lines.append(f"  [dim]For example: {said}[/]")
        case Pick():
            pass
    return lines + option_lines(prompt_options(prompt))


def show_prompt(console: Console, prompt: Prompt, who: Text) -> None:
    """The question, addressed to ``who``, and everything needed to answer it."""
    console.print(who.append(f": {prompt.question}", style="none"))
    for line in prompt_lines(prompt):
        console.print(line, highlight=False)


def hint(prompt: Prompt, seconds_left: int | None = None) -> str:
    """The line to type after: 'Choose 1-3 (q to quit): ', with the time left if a timer runs."""
    count = len(prompt_options(prompt))
    if isinstance(prompt, Write):
        numbers = f"1-{count}" if count > 1 else "1"
        others = f", or {numbers} for the choice above" if count else ""
        text = f"Type {prompt.purpose}{others} (q to quit): "
    else:
        text = f"Choose 1-{count} (q to quit): "
    return text if seconds_left is None else f"({seconds_left} s left) {text}"


def interpret(prompt: Prompt, raw: str) -> dict[str, Any]:
    """The action an answer stands for; Unclear if none, Abandoned for q.

    For a Write any other text is the text written: the Match checks its length, so the
    refusal a player reads is the same at every table."""
    text = raw.strip()
    if text.lower() in QUIT_WORDS:
        raise Abandoned
    options = prompt_options(prompt)
    if isinstance(prompt, Write):
        if text.isdigit() and 1 <= int(text) <= len(options):
            return options[int(text) - 1].action
        return prompt.fill(text)
    problem = number_problem(text, len(options))
    if problem is not None:
        raise Unclear(problem)
    return options[int(text) - 1].action


def number_problem(raw: str, count: int) -> str | None:
    """Why ``raw`` is not a choice among ``count`` (None: it is one)."""
    if not raw:
        return f"Type the number of your choice, 1 to {count}."
    if not raw.isdigit():
        return f"{raw!r} is not a number: type 1 to {count}."
    if not 1 <= int(raw) <= count:
        return f"{raw} is not one of the choices: type 1 to {count}."
    return None


def said(prompt: Prompt, action: dict[str, Any]) -> str:
    """A person's own answer in words, to confirm it: the option's label, or the text."""
    if isinstance(prompt, Write) and prompt.carries(action):
        return f"{prompt.purpose}: “{action.get(prompt.field, '')}”"
    for option in prompt_options(prompt):
        if option.action == action:
            return option.label
    return str(action.get("type", "?")).replace("-", " ")
