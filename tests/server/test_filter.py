"""The family filter: spelt-out, accented, full-width, look-alike, leetspeak and stretched
forms of listed words are refused; innocent words that contain them pass (whole words only)."""

# ruff: noqa: RUF001, RUF003  (look-alike letters are what these tests are about)

from __future__ import annotations

import time
from pathlib import Path

import httpx
import pytest

from talltales.server.filter import Filtered, check_text

from .harness import create_room, running, settings_for
from .support import WYBI as GAME
from .support import shown

EVASIONS = [
    "fuck",
    "FUCK",
    "what the fuck?",
    "f u c k",  # spaced
    "f.u.c.k",
    "f-u-c-k",
    "c u n t",
    "fück",  # accented
    "ｆｕｃｋ",  # full-width
    "ＳＨＩＴ",
    "𝐟𝐮𝐜𝐤",  # mathematical bold
    "fuсk",  # Cyrillic с
    "ѕhіt",  # Cyrillic ѕ and і
    "ƒuck",
    "fu\u200bck",  # zero-width space inside
    "sh1t",  # leetspeak
    "5h1t",
    "$hit",
    "Sh!t",
    "sh!+",
    "b!tch",
    "@ss",
    "a55",
    "p0rn",
    "f*ck",
    "fuuuuck",  # stretched
    "fuuuuuuuuuuuck",
    "assss",
    "shit!",
    "bull shit",  # listed phrases
    "blow job",
    "bl0w j0b",
]
INNOCENT = [
    "classic",
    "assess",
    "4ss3ss",
    "assassin",
    "Scunthorpe",
    "shiitake",
    "shitake",
    "cockpit",
    "cocktail",
    "Hancock",
    "Dickens",
    "therapist",
    "passion",
    "Essex",
    "grape",
    "scrap",
    "butterfly",
    "Mississippi",
    "good",  # "god" is listed: a double letter is never cut
    "title",
    "shell",
    "shift",
    "hit",
    "buck",
    "duck",
    "puck",
    "Fuchs",
    "café",
    "naïve",
    "Привет",
    "cooool",
    "xxxxxxxxxxxx",  # filler: one letter repeated is not a stretched word
    "hello!!!",
    "c++",
    "455",  # a number, not "ass"
    "1 2 3",
    "I am a big fan",
    "sh it",
    "f u n",
    "O.K.",
    "U.S.A.",
    "S.O.S.",
]


@pytest.mark.parametrize("text", EVASIONS)
def test_evasions_of_listed_words_are_refused(text: str) -> None:
    with pytest.raises(Filtered) as refused:
        check_text(text, enabled=True)
    assert refused.value.code == "filtered"
    check_text(text, enabled=False)  # the host may switch the filter off


@pytest.mark.parametrize("text", INNOCENT)
def test_innocent_words_pass(text: str) -> None:
    check_text(text, enabled=True)


def test_the_filter_is_fast() -> None:
    sentence = "my uncle once wrestled a bear at the county fair and won a ribbon {}"
    started = time.perf_counter()
    for n in range(500):  # distinct texts: no help from the cache
        check_text(sentence.format(n), enabled=True)
    assert (time.perf_counter() - started) / 500 < 0.005  # well under 5 ms a text


@pytest.mark.parametrize("name", ["f u c k", "ｓｈｉｔ", "sh1t", "fuuuuck", "ѕhіt"])
def test_evasive_names_are_refused_over_http(tmp_path: Path, name: str) -> None:
    with running(settings_for(tmp_path)) as server:
        code = create_room(server, GAME, "Ann")["room"]
        response = httpx.post(f"{server.http}/api/rooms/{code}/seats", json={"name": name})
        assert response.status_code == 409 and response.json()["code"] == "filtered"
        created = httpx.post(f"{server.http}/api/rooms", json={"game": GAME, "name": name})
        assert created.status_code == 400 and created.json()["code"] == "filtered"
        response = httpx.post(f"{server.http}/api/rooms/{code}/seats", json={"name": "Scunthorpe"})
        assert response.status_code == 201
        assert [s["name"] for s in shown(server, code)["room"]["seats"]] == ["Ann", "Scunthorpe"]
