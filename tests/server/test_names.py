"""Players' names: normalised, refused when hidden or disguised, and told apart by looks."""

# ruff: noqa: RUF001, RUF003  (look-alike letters are what these tests are about)

from __future__ import annotations

import asyncio
from pathlib import Path

import httpx
import pytest

from talltales.server.names import BadName, check_unique, normal_name

from .harness import create_room, join_room, running, settings_for
from .support import WYBI as GAME
from .support import close, connect, shown, until_room


@pytest.mark.parametrize(
    ("typed", "shown_as"),
    [
        ("  Ann   Lee ", "Ann Lee"),
        ("Ann\tLee", "Ann Lee"),
        ("Ann\u2028Lee", "Ann Lee"),  # a line separator is a space like any other
        ("Ａｎｎ", "Ann"),  # full-width
        ("Zoe\u0308", "Zoë"),  # composed
        ("ﬁona", "fiona"),  # ligature
        ("Jürgen", "Jürgen"),
        ("李小龍", "李小龍"),
        ("🎲 Dee", "🎲 Dee"),
    ],
)
def test_names_are_normalised(typed: str, shown_as: str) -> None:
    assert normal_name(typed) == shown_as


@pytest.mark.parametrize(
    ("typed", "reason"),
    [
        ("An\u200bn", "hidden or control"),  # zero-width space
        ("Ann\u200d", "hidden or control"),  # zero-width joiner
        ("\u202eBob", "hidden or control"),  # right-to-left override
        ("Bob\u2066", "hidden or control"),  # left-to-right isolate
        ("\ufeffAnn", "hidden or control"),  # byte order mark
        ("Ann\x1b[2J", "hidden or control"),  # escape: clear the screen
        ("Ann\x07", "hidden or control"),
        ("\u3164", "invisible"),  # Hangul filler
        ("\u2800\u2800", "invisible"),  # blank Braille
        ("Ann\ufe0f", "invisible"),  # variation selector on a letter
        ("   ", "visible"),
        ("\u3000", "visible"),  # ideographic space
        ("Ann\ue000", "private"),
        ("Z\u0300\u0301\u0302\u0303", "accents"),
        ("x" * 25, "1 to 24"),
        ("ﷺ" * 2, "1 to 24"),  # two characters that NFKC makes 36
    ],
)
def test_hidden_invisible_and_overlong_names_are_refused(typed: str, reason: str) -> None:
    with pytest.raises(BadName, match=reason) as refused:
        normal_name(typed)
    assert refused.value.code == "illegal"


@pytest.mark.parametrize(
    "clash",
    [
        "Ann",
        "ANN",
        "ann",
        "Ａｎｎ",  # full-width
        "Аnn",  # Cyrillic А
        "АNN",  # Cyrillic А, Latin N
        "Αnn",  # Greek Alpha
        "A n n",
    ],
)
def test_a_name_that_looks_like_anothers_is_refused(clash: str) -> None:
    with pytest.raises(BadName, match="Ann"):
        check_unique(normal_name(clash), ["Ann"])


@pytest.mark.parametrize(
    ("taken", "clash"),
    [
        ("Bill", "BiII"),  # capital I's for l's
        ("Bob", "B0b"),
        ("Bob", "ВОВ"),  # all Cyrillic
        ("Tom", "Тоm"),  # Cyrillic Т and о
        ("Kate", "Κate"),  # Greek Kappa
        ("Pepe", "Рере"),  # all Cyrillic
        ("Sophie", "Ѕophie"),
        ("Ian", "IAN"),
    ],
)
def test_look_alike_letters_are_folded(taken: str, clash: str) -> None:
    with pytest.raises(BadName, match="looks the same"):
        check_unique(normal_name(clash), [taken])


@pytest.mark.parametrize(
    ("taken", "other"),
    [("Ann", "Anna"), ("Ann", "Anne"), ("Ali", "All"), ("Bob", "Rob"), ("Zoe", "Zoë")],
)
def test_different_names_sit_side_by_side(taken: str, other: str) -> None:
    check_unique(normal_name(other), [taken])  # no refusal


def _join(server: object, code: str, name: str) -> httpx.Response:
    base = server.http  # type: ignore[attr-defined]
    return httpx.post(f"{base}/api/rooms/{code}/seats", json={"name": name})


def test_hidden_and_look_alike_names_are_refused_over_http(tmp_path: Path) -> None:
    with running(settings_for(tmp_path)) as server:
        code = create_room(server, GAME, "Ann")["room"]
        for name, reason in [
            ("An\u200bn", "hidden"),
            ("\u202eBob", "hidden"),
            ("\u3164", "invisible"),
            ("ANN", "looks the same as 'Ann'"),
            ("Ａｎｎ", "already called 'Ann'"),
            ("Аnn", "looks the same as 'Ann'"),
        ]:
            response = _join(server, code, name)
            assert response.status_code == 409, (name, response.text)
            body = response.json()
            assert body["code"] == "illegal" and reason in body["reason"], (name, body)
        assert [s["name"] for s in shown(server, code)["room"]["seats"]] == ["Ann"]

        # A normalised name is stored and shown as normalised.
        join_room(server, code, "  Ｂｏｂ   Lee ")
        assert [s["name"] for s in shown(server, code)["room"]["seats"]] == ["Ann", "Bob Lee"]


def test_a_bot_never_takes_a_name_that_looks_like_a_persons(tmp_path: Path) -> None:
    with running(settings_for(tmp_path)) as server:
        host = create_room(server, GAME, "BOT 1")
        code = host["room"]

        async def scenario() -> None:
            client = await connect(server, code, host["token"])
            await client.send({"type": "add-bot", "bot": "random"})
            room = await until_room(client, lambda r: len(r["seats"]) == 2)
            assert [s["name"] for s in room["seats"]] == ["BOT 1", "Bot 2"]
            await close(client)

        asyncio.run(scenario())
        response = _join(server, code, "bot 2")
        assert response.status_code == 409 and "Bot 2" in response.json()["reason"]
