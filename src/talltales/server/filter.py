"""The family-friendly filter for everything players type (names, bluffs, answers)."""

from __future__ import annotations

from functools import cache, lru_cache
from typing import Any

from better_profanity import Profanity

from talltales.core.errors import IllegalAction


class Filtered(IllegalAction):
    """Typed text the room's family-friendly filter refuses."""

    code = "filtered"


@cache
def _profanity() -> Profanity:
    checker = Profanity()
    checker.load_censor_words()
    return checker


@lru_cache(maxsize=4096)
def _listed(text: str) -> bool:
    return bool(_profanity().contains_profanity(text))


def check_text(text: str, enabled: bool) -> None:
    """Refuse text with words the filter lists, when the room has the filter on."""
    if enabled and _listed(text):
        raise Filtered("this room is family-friendly: please choose other words")


def check_texts(value: Any, enabled: bool) -> None:
    """Check every string inside an action's JSON."""
    if not enabled:
        return
    if isinstance(value, str):
        check_text(value, enabled)
    elif isinstance(value, dict):
        for item in value.values():
            check_texts(item, enabled)
    elif isinstance(value, list):
        for item in value:
            check_texts(item, enabled)


def carries_text(action: dict[str, Any]) -> bool:
    """Whether an action holds a string anywhere but its type tag (text a person typed)."""
    return any(_has_text(value) for key, value in action.items() if key != "type")


def _has_text(value: Any) -> bool:
    if isinstance(value, str):
        return True
    if isinstance(value, dict):
        return any(_has_text(item) for item in value.values())
    return isinstance(value, list) and any(_has_text(item) for item in value)
