"""Typed prompts: what each pending seat is asked, so any client can play any game.

A prompt is built from what its seat may see, like a view. Each offers actions as
``Option``s (a label for people, the action as JSON-ready builtins); a ``Write`` prompt
also describes the text the seat types. The terminal, the generic web renderer and the
bots can play a game from its prompts alone, before it has a renderer of its own.
"""

from __future__ import annotations

from typing import Any

import msgspec

from talltales.core.errors import EmptyText, IllegalAction, TextTooLong


class Option(msgspec.Struct, frozen=True):
    """One thing a seat may do: what it says, and the action that does it."""

    label: str
    action: dict[str, Any]


class _Prompt(msgspec.Struct, frozen=True, kw_only=True, tag_field="kind"):
    """What every prompt has: the question put to the seat, in words."""

    question: str


class Pick(_Prompt, frozen=True, tag="pick"):
    """Pick one of these."""

    options: list[Option]


class Write(_Prompt, frozen=True, tag="write"):
    """Type a text: what it is for, its limit, and the action that carries it.

    The typed text goes in ``action[field]``; ``options`` are other things the seat may
    do instead (play a kept card, say). ``examples`` are suggestions built from what the
    seat may see, for bots and for people stuck for words.
    """

    purpose: str
    action: dict[str, Any]
    max_length: int
    field: str = "text"
    examples: list[str] = []
    options: list[Option] = []

    def fill(self, text: str) -> dict[str, Any]:
        """The action carrying ``text``."""
        return {**self.action, self.field: text}

    def carries(self, action: dict[str, Any]) -> bool:
        """Whether ``action`` is this prompt's text action (rather than an option)."""
        tag = self.action.get("type")
        return action.get("type") == tag and self.field in action


class Vote(_Prompt, frozen=True, tag="vote"):
    """Vote among anonymous options: labels are the answers, ids say nothing of authors."""

    options: list[Option]


class Verdict(_Prompt, frozen=True, tag="verdict"):
    """Accept a claim or answer as it stands, or overrule it in one of the listed ways."""

    subject: str
    accept: Option
    overrule: list[Option]


class Race(_Prompt, frozen=True, tag="race"):
    """Be the first to claim: the first seat to take ``claim`` wins it for everyone."""

    claim: Option
    decline: Option | None = None


Prompt = Pick | Write | Vote | Verdict | Race


def prompt_options(prompt: Prompt) -> list[Option]:
    """Every ready-made option of a prompt (a Write's text action is not one)."""
    match prompt:
        case Pick(options=options) | Vote(options=options) | Write(options=options):
            return list(options)
        case Verdict(accept=accept, overrule=overrule):
            return [accept, *overrule]
        case Race(claim=claim, decline=decline):
            return [claim] if decline is None else [claim, decline]


def check_text(prompt: Prompt, action: dict[str, Any]) -> str | None:
    """Refuse an empty or over-long text for a Write prompt; return the text (or None)."""
    if not isinstance(prompt, Write) or not prompt.carries(action):
        return None
    text = action.get(prompt.field)
    if not isinstance(text, str):
        raise IllegalAction(f"{prompt.field!r} must be text")
    if len(text) > prompt.max_length:
        raise TextTooLong(
            f"{prompt.purpose} is at most {prompt.max_length} characters; yours has {len(text)}"
        )
    if not text.strip():
        raise EmptyText(f"write {prompt.purpose} first: it cannot be empty")
    return text
