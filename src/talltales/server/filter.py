"""The family-friendly filter for everything players type (names, bluffs, answers).

Words are matched whole against better-profanity's word list, after folding what people do to
slip past a list: compatibility forms (full-width, mathematical letters), hidden characters,
accents, look-alike Cyrillic and Greek letters, leetspeak ("sh1t", "$hit"), long runs of a
letter ("fuuuuck") and letters spelt out one by one ("f u c k", "f.u.c.k"). better-profanity's
own matcher is not used: it misses these forms, and it compares each word against the whole
list in turn (tens of milliseconds a sentence), where a set lookup takes microseconds.
"""

from __future__ import annotations

import re
import unicodedata
from functools import cache, lru_cache
from importlib.resources import files
from typing import Any

from talltales.core.errors import IllegalAction
from talltales.server.textfold import fold, strip_marks


class Filtered(IllegalAction):
    """Typed text the room's family-friendly filter refuses."""

    code = "filtered"


# Digits and symbols written for letters ("sh1t", "$hit", "@ss"); a 1 is tried as i and as l.
_LEET = str.maketrans({"0": "o", "3": "e", "4": "a", "5": "s", "7": "t", "8": "b", "9": "g",
                       "@": "a", "$": "s", "!": "i", "|": "i", "+": "t", "€": "e"})  # fmt: skip
_WORD = re.compile(r"[a-z0-9@$!|+*€]+")
_EDGE = "!|+"  # only inside a word: "shit!" is "shit", not "shiti"
_RUN = re.compile(r"(.)\1{2,}")  # three or more of one letter: "fuuuuck"
_LONGEST_PHRASE = 4  # words in the longest listed phrase ("2 girls 1 cup")


@cache
def _listed_words() -> tuple[frozenset[str], frozenset[str], dict[int, list[str]]]:
    """The listed words and phrases, folded as typed text is (words joined by one space); the
    beginnings of listed phrases; and the listed single words by length, for "f*ck"."""
    text = files("better_profanity").joinpath("profanity_wordlist.txt").read_text("utf-8")
    listed: set[str] = set()
    starts: set[str] = set()
    for line in text.splitlines():
        words = _tokens(line)
        if words:
            listed.add(" ".join(words))
            starts |= {" ".join(words[:n]) for n in range(1, len(words))}
    by_length: dict[int, list[str]] = {}
    for entry in listed:
        if " " not in entry:
            by_length.setdefault(len(entry), []).append(entry)
    return frozenset(listed), frozenset(starts), by_length


def _tokens(text: str) -> list[str]:
    """Words as they read: NFKC, no hidden characters, case, accents and look-alike letters
    folded, edge punctuation dropped; single letters spelt out with spaces or dots between
    them ("f u c k", "f.u.c.k") joined into one word."""
    text = "".join(c for c in text if unicodedata.category(c) != "Cf")
    text = strip_marks(fold(text))
    words = _WORD.findall(text)
    joined: list[str] = []
    run: list[str] = []
    for word in [*words, ""]:
        if len(word) == 1:
            run.append(word)
            continue
        joined.extend(["".join(run)] if len(run) >= 3 else run)
        run = []
        if word:
            joined.append(word)
    return joined


def _spellings(word: str) -> set[str]:
    """The ways a typed word may be read: as typed, without "!" or "+" at its ends, with
    leetspeak letters (only in words that hold a letter: "455" is a number), and with runs of
    three or more of a letter cut to one or two ("good" stays "good", never "god")."""
    forms = {word, word.strip(_EDGE) or word}
    if any("a" <= c <= "z" for c in word):
        for form in list(forms):
            leet = form.translate(_LEET)
            forms |= {leet.replace("1", "i"), leet.replace("1", "l")}
    for form in list(forms):
        if len(set(form)) > 1:  # "xxxxxxxx" is filler, not a stretched "xxx"
            forms |= {_RUN.sub(r"\1", form), _RUN.sub(r"\1\1", form)}
    return forms


def _starred(word: str, by_length: dict[int, list[str]]) -> bool:
    if "*" not in word or len(word.replace("*", "")) < 2:
        return False
    pattern = re.compile(re.escape(word).replace(r"\*", "[a-z]"))
    return any(pattern.fullmatch(entry) for entry in by_length.get(len(word), ()))


@lru_cache(maxsize=4096)
def _listed(text: str) -> bool:
    listed, starts, by_length = _listed_words()
    words = [_spellings(w) for w in _tokens(text)]
    for start, forms in enumerate(words):
        if any(form in listed or _starred(form, by_length) for form in forms):
            return True
        phrases = forms & starts
        for following in words[start + 1 : start + _LONGEST_PHRASE]:
            if not phrases:
                break
            joined = {f"{a} {b}" for a in phrases for b in following}
            if not joined.isdisjoint(listed):
                return True
            phrases = joined & starts
    return False


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
