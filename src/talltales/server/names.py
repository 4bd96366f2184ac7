"""Players' names: normalised as typed, refused when invisible or disguised, and compared by
what they look like, so that two people at a table never look alike."""

from __future__ import annotations

import re
import unicodedata

from talltales.core.errors import IllegalAction
from talltales.server.textfold import INVISIBLE, fold, fold_upper

MAX_NAME = 24  # characters, after normalising
MAX_MARKS = 2  # combining marks on one letter (more is "Zalgo" text that spills over others)

_SPACES = re.compile(r"\s+")
# Latin letters and digits that look alike in most typefaces (a small part of Unicode's
# confusables): "BiII" with capital I's is "Bill", "B0b" is "Bob".
_LATIN_LOOKALIKES = str.maketrans({"I": "l", "1": "l", "|": "l", "0": "o"})


class BadName(IllegalAction):
    """A name that cannot be used: empty, too long, hidden characters, or like another's."""

    code = "illegal"


def normal_name(raw: str) -> str:
    """The name as it will be shown: NFKC, any run of spaces one space, trimmed. Refuses names
    with control or format characters (zero-width, bidirectional overrides), with nothing
    visible, longer than ``MAX_NAME`` or piled with combining marks."""
    name = _SPACES.sub(" ", unicodedata.normalize("NFKC", raw)).strip()
    marks = 0
    for char in name:
        category = unicodedata.category(char)
        if category.startswith("C"):
            raise BadName(
                f"a name cannot hold hidden or control characters (U+{ord(char):04X})"
                if category in ("Cc", "Cf")
                else f"a name cannot hold unassigned or private characters (U+{ord(char):04X})"
            )
        if char in INVISIBLE:
            raise BadName(f"a name cannot hold invisible characters (U+{ord(char):04X})")
        marks = marks + 1 if category.startswith("M") else 0
        if marks > MAX_MARKS:
            raise BadName("a name cannot pile up accents on one letter")
    if not any(unicodedata.category(c)[0] in "LNPS" for c in name):
        raise BadName("a name needs at least one visible character")
    if len(name) > MAX_NAME:
        raise BadName(f"a name is 1 to {MAX_NAME} characters")
    return name


def name_keys(name: str) -> tuple[str, str]:
    """What a name looks like, for telling names apart, spaces ignored: first with case,
    compatibility forms and look-alike Cyrillic and Greek letters folded ("Ann", "ANN",
    full-width "Ann" and "Ann" with a Cyrillic A are one), then also with capital I, 1 and |
    as l and 0 as O ("Bill" and "BiII"). Two names clash when either key does."""
    plain = fold(name)
    lookalike = fold(fold_upper(unicodedata.normalize("NFKC", name)).translate(_LATIN_LOOKALIKES))
    return "".join(plain.split()), "".join(lookalike.split())


def check_unique(name: str, taken: list[str]) -> None:
    """Refuse ``name`` if it looks like one of the ``taken`` names."""
    keys = name_keys(name)
    for other in taken:
        if any(mine == theirs for mine, theirs in zip(keys, name_keys(other), strict=True)):
            if other == name:
                raise BadName(f"someone here is already called {name!r}")
            raise BadName(f"{name!r} looks the same as {other!r}, who is already here")
