"""The first deck as shipped, and the card schema's refusals."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import msgspec
import pytest

from talltales.core.errors import ContentError
from talltales.core.packs import shipped_packs
from talltales.games.believe_it_or_not import GAME
from talltales.games.believe_it_or_not.cards import BLANK, SUFFIX, Card, Kind

DECK = shipped_packs(GAME)[0]
YEAR = re.compile(r"\b(1[5-9]\d\d|20[0-2]\d)\b")


def test_the_first_deck_has_sixty_cards_in_a_sensible_mix() -> None:
    kinds = Counter(c.kind for c in DECK.cards)
    assert len(DECK.cards) >= 60
    assert all(kinds[k] >= 12 for k in Kind), kinds
    assert {c.ask for c in DECK.cards if c.ask} == {"left", "right", "anyone"}
    assert {c.advance for c in DECK.cards if c.advance} == {1, 2, 3, 4, 5}
    moves = Counter(c.moves > 0 for c in DECK.cards if c.kind is Kind.MOVEMENT)
    assert moves[True] and moves[False]


def test_every_fact_carries_a_source_note_with_its_year() -> None:
    notes = [q.source for c in DECK.cards for q in c.questions]
    notes += [s.source for c in DECK.cards for s in c.statements]
    notes += [c.source for c in DECK.cards if c.kind is Kind.BLUFF]
    assert len(notes) >= 100
    undated = [n for n in notes if not YEAR.search(n)]
    assert not undated, undated


def test_statements_and_bluff_hints_end_as_printed() -> None:
    for card in DECK.cards:
        assert all(s.text.endswith(SUFFIX) for s in card.statements), card.id
        if card.kind is Kind.BLUFF:
            assert card.hint1.count(BLANK) == len(card.fills), card.id
            assert len(card.hint2) == 3


def test_right_answers_are_spread_over_a_to_d() -> None:
    spread = Counter(q.correct for c in DECK.cards for q in c.questions)
    assert set(spread) == {0, 1, 2, 3}
    assert max(spread.values()) < 2 * min(spread.values())


def test_no_text_repeats_across_the_deck() -> None:
    texts = [q.text for c in DECK.cards for q in c.questions]
    texts += [s.text for c in DECK.cards for s in c.statements]
    assert len(texts) == len(set(texts))


GOOD = {"id": "x1", "kind": "multiple-choice", "ask": "left", "advance": 2}
QUESTION = {"text": "Which is it, then?", "answers": ["a", "b", "c", "d"], "correct": 1}
SOURCE = {"source": "A book (1999)"}


@pytest.mark.parametrize(
    ("card", "reason"),
    [
        ({**GOOD, "questions": [{**QUESTION, **SOURCE}]}, "2 to 4 questions"),
        ({**GOOD, "kind": "movement"}, "direction and a count"),
        (
            {"id": "m", "kind": "movement", "direction": "back", "count": 2, "ask": "left"},
            "asks nobody",
        ),
        (
            {**GOOD, "kind": "statement", "statements": [{"text": "Cats purr a lot.", **SOURCE}]},
            SUFFIX,
        ),
        (
            {**GOOD, "questions": [{**QUESTION, **SOURCE, "answers": ["a", "a", "c", "d"]}] * 2},
            "differ",
        ),
        ({**GOOD, "kind": "bluff", "hint1": "No blanks here, believe it or not."}, "blank"),
        ({**GOOD, "advance": 6, "questions": [{**QUESTION, **SOURCE}] * 2}, "<= 5"),
    ],
)
def test_a_malformed_card_is_refused(card: dict[str, object], reason: str) -> None:
    with pytest.raises(msgspec.ValidationError, match=re.escape(reason)):
        msgspec.convert(card, Card)


def test_a_pack_file_names_the_card_at_fault(tmp_path: Path) -> None:
    from talltales.core.content import load_pack

    bad = tmp_path / "bad.toml"
    bad.write_text(
        '[pack]\nid = "b"\ntitle = "b"\ngame = "believe-it-or-not"\nauthor = "a"\n'
        'licence = "CC0"\n\n[[cards]]\nid = "st-9"\nkind = "statement"\nask = "left"\n'
        "advance = 1\nstatements = []\n"
    )
    with pytest.raises(ContentError, match='card "st-9"'):
        load_pack(bad, Card, "believe-it-or-not")


def test_one_deck_at_a_time() -> None:
    from talltales.core.errors import OptionsError

    with pytest.raises(OptionsError, match="exactly one deck"):
        GAME.setup(2, GAME.options({}), 1, [DECK, DECK])
    with pytest.raises(OptionsError, match="exactly one deck"):
        GAME.setup(2, GAME.options({}), 1, [])


def test_a_state_names_its_deck_and_a_fresh_process_finds_it_among_the_shipped() -> None:
    from talltales.games.believe_it_or_not import catalogs

    state = GAME.setup(2, GAME.options({}), 1, [DECK])
    assert state.deck_id == DECK.sha256
    saved = dict(catalogs.CATALOGS)
    catalogs.CATALOGS.clear()  # as in a bot worker forked before the game was set up
    try:
        assert state.catalog["mc-01"] == next(c for c in DECK.cards if c.id == "mc-01")
        with pytest.raises(ContentError, match="no deck with digest"):
            catalogs.catalog_of("0" * 64)
    finally:
        catalogs.CATALOGS.update(saved)
