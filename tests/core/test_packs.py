"""Packs found by id or path, defaults, and the lobby's list."""

from __future__ import annotations

from pathlib import Path

import pytest
from fixture_game import FIB_OFF

from talltales.core.errors import ContentError
from talltales.core.match import Match
from talltales.core.packs import choose_packs, find_pack, pack_infos, shipped_packs
from talltales.games.would_you_believe_it import GAME as WYBI


def test_a_game_s_shipped_packs_are_listed_with_the_default_marked() -> None:
    (info,) = pack_infos(FIB_OFF)
    assert (info.id, info.default) == ("fib-off-facts", True)
    assert info.cards == len(shipped_packs(FIB_OFF)[0].cards) >= 12
    assert pack_infos(WYBI) == []


def test_a_pack_is_found_by_id_or_by_path_and_refused_clearly_otherwise(tmp_path: Path) -> None:
    shipped = find_pack(FIB_OFF, "fib-off-facts")
    copy = tmp_path / "mine.toml"
    copy.write_bytes(Path(shipped.path).read_bytes())
    assert find_pack(FIB_OFF, str(copy)).sha256 == shipped.sha256
    with pytest.raises(ContentError, match=r"no pack 'nope'.*fib-off-facts"):
        find_pack(FIB_OFF, "nope")
    with pytest.raises(ContentError, match="takes no content packs"):
        find_pack(WYBI, "fib-off-facts")


def test_the_defaults_are_used_unless_packs_are_named_and_none_is_chosen_twice() -> None:
    assert [p.meta.id for p in choose_packs(FIB_OFF)] == ["fib-off-facts"]
    with pytest.raises(ContentError, match="chosen twice"):
        choose_packs(FIB_OFF, ["fib-off-facts", "fib-off-facts"])
    assert choose_packs(WYBI) == []
    with pytest.raises(ContentError):
        choose_packs(WYBI, ["anything"])


def test_a_match_deals_from_the_chosen_pack_and_records_it(tmp_path: Path) -> None:
    shipped = Path(find_pack(FIB_OFF, "fib-off-facts").path).read_text(encoding="utf-8")
    small = tmp_path / "tiny.toml"
    small.write_text(shipped.replace('id = "fib-off-facts"', 'id = "tiny"'), encoding="utf-8")
    pack = find_pack(FIB_OFF, str(small))
    match = Match(FIB_OFF, 3, seed=1, packs=[pack])
    assert [r.id for r in match.record.content] == ["tiny"]
    dealt = {c for hand in match.state.hands for c in hand} | set(match.state.deck.pile)
    assert dealt == {c.id for c in pack.cards}
    assert Match(WYBI, 2).record.content == []
