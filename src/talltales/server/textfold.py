# ruff: noqa: RUF001, RUF003  (this table is made of look-alike letters, on purpose)
"""Folding typed text to what it looks like: compatibility forms, accents and look-alike letters.

Shared by names (two names that look the same are the same name) and the family filter (a
word spelt with look-alikes is still that word). The table covers the Cyrillic and Greek
letters people use in place of Latin ones; it is deliberately small and explicit (a subset of
Unicode's confusables for the letters a to z), not a full TR39 skeleton.
"""

from __future__ import annotations

import unicodedata

# Capitals that look like Latin capitals (their lower case often does not: Cyrillic "Н" and
# "н", Greek "Η" and "η"), so they are folded before case is.
_UPPER = {
    # Cyrillic
    "А": "A", "В": "B", "Е": "E", "Ѐ": "E", "Ё": "E", "К": "K", "М": "M", "Н": "H", "О": "O",
    "Р": "P", "С": "C", "Т": "T", "У": "Y", "Х": "X", "Ѕ": "S", "І": "I", "Ї": "I", "Ј": "J",
    "Ԛ": "Q", "Ԝ": "W", "Һ": "H", "Ү": "Y", "Ӏ": "I", "Ь": "b",
    # Greek
    "Α": "A", "Β": "B", "Ε": "E", "Ζ": "Z", "Η": "H", "Ι": "I", "Κ": "K", "Μ": "M", "Ν": "N",
    "Ο": "O", "Ρ": "P", "Τ": "T", "Υ": "Y", "Χ": "X",
}  # fmt: skip
# Small letters that look like Latin small letters, after case folding.
_LOWER = {
    # Cyrillic
    "а": "a", "в": "b", "е": "e", "ѐ": "e", "ё": "e", "к": "k", "м": "m", "н": "h", "о": "o",
    "р": "p", "с": "c", "т": "t", "у": "y", "х": "x", "ѕ": "s", "і": "i", "ї": "i", "ј": "j",
    "ԁ": "d", "ԛ": "q", "ԝ": "w", "һ": "h", "ү": "y", "ӏ": "l", "ь": "b", "п": "n", "г": "r",
    # Greek
    "α": "a", "β": "b", "ε": "e", "ζ": "z", "η": "n", "ι": "i", "κ": "k", "μ": "u", "ν": "v",
    "ο": "o", "ρ": "p", "τ": "t", "υ": "u", "χ": "x", "γ": "y", "ω": "w",
    # Latin letters that stand in for others
    "ı": "i", "ȷ": "j", "ƒ": "f", "ſ": "s", "ß": "ss",
}  # fmt: skip
_UPPER_TABLE = str.maketrans(_UPPER)
_LOWER_TABLE = str.maketrans(_LOWER)

# Characters that show nothing though Unicode counts them as letters or symbols: the Hangul
# fillers, the blank Braille pattern, and joiners and selectors that only change a neighbour.
INVISIBLE = frozenset(
    "\u115f\u1160\u3164\uffa0\u2800\u034f\u17b4\u17b5"
    + "".join(chr(c) for c in range(0xFE00, 0xFE10))
    + "".join(chr(c) for c in range(0xE0100, 0xE01F0))
)


def strip_marks(text: str) -> str:
    """Drop accents and other combining marks (``é`` -> ``e``)."""
    decomposed = unicodedata.normalize("NFD", text)
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def fold_upper(text: str) -> str:
    """Look-alike Cyrillic and Greek capitals as the Latin capitals they look like."""
    return text.translate(_UPPER_TABLE)


def fold(text: str) -> str:
    """Compatibility forms (NFKC: full-width, ligatures, superscripts), look-alike letters and
    case folded away; accents are kept."""
    text = unicodedata.normalize("NFKC", text).translate(_UPPER_TABLE)
    return text.casefold().translate(_LOWER_TABLE)
