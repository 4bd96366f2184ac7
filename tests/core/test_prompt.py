"""Typed prompts: the default pick, text checked once by Match, and every option listed."""

from __future__ import annotations

import msgspec
import pytest

from talltales.core.errors import EmptyText, IllegalAction, TextTooLong
from talltales.core.match import Match
from talltales.core.prompt import (
    Option,
    Pick,
    Prompt,
    Race,
    Verdict,
    Vote,
    Write,
    check_text,
    prompt_options,
)
from talltales.games.would_you_believe_it import GAME as WYBI

WRITE = Write(
    question="What is a snollygoster?",
    purpose="a fake definition",
    action={"type": "bluff"},
    max_length=10,
    options=[Option("Pass", {"type": "pass"})],
)


def test_a_game_without_prompts_of_its_own_asks_for_a_pick_among_its_legal_actions() -> None:
    match = Match(WYBI, 3, seed=1)
    seat = min(match.pending())
    prompt = match.prompt(seat)
    assert isinstance(prompt, Pick)
    legal = [msgspec.to_builtins(a) for a in match.legal_actions(seat)]
    assert [o.action for o in prompt.options] == legal
    assert all(o.label for o in prompt.options)
    assert match.prompt((seat + 1) % 3) is None  # nothing pending, nothing asked


@pytest.mark.parametrize(
    ("text", "error"), [("x" * 11, TextTooLong), ("", EmptyText), ("  \n ", EmptyText)]
)
def test_text_over_the_limit_or_empty_is_refused_with_the_prompt_s_words(
    text: str, error: type[IllegalAction]
) -> None:
    with pytest.raises(error) as caught:
        check_text(WRITE, {"type": "bluff", "text": text})
    assert "fake definition" in caught.value.reason


def test_text_within_the_limit_passes_and_other_actions_are_not_text() -> None:
    assert check_text(WRITE, WRITE.fill("x" * 10)) == "x" * 10
    assert check_text(WRITE, {"type": "pass"}) is None
    assert check_text(Pick(question="?", options=[]), {"type": "bluff", "text": ""}) is None
    with pytest.raises(IllegalAction, match="must be text"):
        check_text(WRITE, {"type": "bluff", "text": 5})


def test_every_ready_made_option_of_each_kind_is_listed() -> None:
    a, b, c = (Option(x, {"type": x}) for x in "abc")
    prompts: list[tuple[Prompt, list[Option]]] = [
        (Pick(question="?", options=[a, b]), [a, b]),
        (Vote(question="?", options=[c]), [c]),
        (WRITE, list(WRITE.options)),
        (Verdict(question="?", subject="s", accept=a, overrule=[b, c]), [a, b, c]),
        (Race(question="?", claim=a, decline=b), [a, b]),
        (Race(question="?", claim=a), [a]),
    ]
    for prompt, options in prompts:
        assert prompt_options(prompt) == options


def test_prompts_encode_with_their_kind() -> None:
    encoded = msgspec.json.decode(msgspec.json.encode(WRITE))
    assert encoded["kind"] == "write"
    assert msgspec.json.decode(msgspec.json.encode(WRITE), type=Prompt) == WRITE
