"""Content packs: TOML and JSON files validated against a game's card schema."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import msgspec
import pytest

from talltales.core.content import Pack, PackMeta, load_pack
from talltales.core.errors import ContentError


class Card(msgspec.Struct, forbid_unknown_fields=True):
    id: str
    text: str
    source: str


META = """\
[pack]
id = "tiny"
title = "A tiny pack"
game = "fib-off"
author = "Test Author"
licence = "CC0-1.0"
"""

CARDS = """
[[cards]]
id = "c1"
text = "Otters hold hands while they sleep."
source = "a book"

[[cards]]
id = "c2"
text = "Honey never spoils."
source = "another book"
"""


def meta(**changes: Any) -> dict[str, Any]:
    base = {
        "id": "tiny",
        "title": "A tiny pack",
        "game": "fib-off",
        "author": "Test Author",
        "licence": "CC0-1.0",
    }
    return {**base, **changes}


def card(card_id: str, **changes: Any) -> dict[str, Any]:
    return {"id": card_id, "text": f"text of {card_id}", "source": "somewhere", **changes}


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def write_json(tmp_path: Path, data: object, name: str = "pack.json") -> Path:
    return write(tmp_path, name, json.dumps(data))


def refused(path: Path, *words: str, game_id: str | None = None) -> str:
    """Load ``path``, expect a ContentError naming the file and every word."""
    with pytest.raises(ContentError) as caught:
        load_pack(path, Card, game_id)
    message = caught.value.reason
    assert str(path) in message
    for word in words:
        assert word in message, f"{word!r} not in {message!r}"
    return message


# --- good packs ----------------------------------------------------------------------------------
def test_a_good_toml_pack_loads(tmp_path: Path) -> None:
    path = write(tmp_path, "tiny.toml", META + CARDS)
    pack = load_pack(path, Card, "fib-off")
    assert isinstance(pack, Pack)
    assert pack.meta == PackMeta("tiny", "A tiny pack", "fib-off", "Test Author", "CC0-1.0")
    assert pack.meta.language == "en"
    assert pack.meta.version == 1
    assert pack.cards == [
        Card("c1", "Otters hold hands while they sleep.", "a book"),
        Card("c2", "Honey never spoils.", "another book"),
    ]
    assert pack.sha256 == hashlib.sha256(path.read_bytes()).hexdigest()
    assert pack.path == str(path)


def test_a_good_json_pack_loads_and_any_game_is_accepted_without_a_game_id(
    tmp_path: Path,
) -> None:
    data = {"pack": meta(language="fr", version=3), "cards": [card("a"), card("b")]}
    path = write_json(tmp_path, data)
    pack = load_pack(str(path), Card)
    assert pack.meta.language == "fr"
    assert pack.meta.version == 3
    assert [c.id for c in pack.cards] == ["a", "b"]


def test_the_digest_follows_the_bytes(tmp_path: Path) -> None:
    one = load_pack(write(tmp_path, "one.toml", META + CARDS), Card)
    two = load_pack(write(tmp_path, "two.toml", META + CARDS + "\n# a comment\n"), Card)
    assert one.cards == two.cards
    assert one.sha256 != two.sha256


# --- cards ---------------------------------------------------------------------------------------
def test_a_wrong_field_type_names_the_file_and_the_field(tmp_path: Path) -> None:
    path = write(tmp_path, "bad.toml", META + CARDS.replace('"Honey never spoils."', "5"))
    refused(path, "text", "str", "int")


def test_a_wrong_field_type_names_the_card_id(tmp_path: Path) -> None:
    path = write(tmp_path, "bad.toml", META + CARDS.replace('"Honey never spoils."', "5"))
    message = refused(path, "text")
    assert 'card "c2"' in message


def test_a_missing_field_and_an_unknown_field_are_refused(tmp_path: Path) -> None:
    missing = {"pack": meta(), "cards": [card("a"), {"id": "b", "text": "no source"}]}
    refused(write_json(tmp_path, missing, "missing.json"), "source")
    extra = {"pack": meta(), "cards": [card("a", colour="red")]}
    refused(write_json(tmp_path, extra, "extra.json"), "colour")


def test_duplicate_ids_are_refused(tmp_path: Path) -> None:
    data = {"pack": meta(), "cards": [card("a"), card("b"), card("a")]}
    refused(write_json(tmp_path, data), 'card "a"', "twice")


@pytest.mark.parametrize("text", [META, "cards = []\n" + META], ids=["no-cards-key", "empty-cards"])
def test_an_empty_pack_is_refused(tmp_path: Path, text: str) -> None:
    refused(write(tmp_path, "empty.toml", text), "no cards")


# --- metadata and the file -----------------------------------------------------------------------
def test_missing_pack_metadata_is_refused(tmp_path: Path) -> None:
    refused(write(tmp_path, "nometa.toml", CARDS), "[pack]")


def test_incomplete_pack_metadata_is_refused(tmp_path: Path) -> None:
    data = {"pack": {k: v for k, v in meta().items() if k != "licence"}, "cards": [card("a")]}
    refused(write_json(tmp_path, data), "[pack]", "licence")
    data = {"pack": meta(publisher="someone"), "cards": [card("a")]}
    refused(write_json(tmp_path, data, "extra.json"), "[pack]", "publisher")


def test_a_pack_for_another_game_is_refused(tmp_path: Path) -> None:
    path = write(tmp_path, "tiny.toml", META + CARDS)
    refused(path, "'fib-off'", "'would-you-believe-it'", game_id="would-you-believe-it")


def test_an_unknown_top_level_key_is_refused(tmp_path: Path) -> None:
    path = write(tmp_path, "extra.toml", "extras = 1\n" + META + CARDS)
    refused(path, "unknown top-level keys", "extras")


@pytest.mark.parametrize(
    ("name", "text", "kind"),
    [
        ("bad.toml", META + "[[cards]\nid = 'x'\n", "TOML"),
        ("bad.toml", META + 'title = "twice"\n', "TOML"),
        ("bad.json", '{"pack": {', "JSON"),
        ("list.json", "[1, 2]", "JSON"),
    ],
)
def test_a_file_that_does_not_parse_is_refused(
    tmp_path: Path, name: str, text: str, kind: str
) -> None:
    refused(write(tmp_path, name, text), f"not valid {kind}")


def test_only_toml_and_json_files_are_packs(tmp_path: Path) -> None:
    refused(write(tmp_path, "pack.yaml", "pack: {}\n"), ".toml or .json")
