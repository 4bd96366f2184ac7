"""The talltales command, driven through Typer's CliRunner."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import msgspec
import pytest
from typer.testing import CliRunner

from talltales.bots import make_bot
from talltales.cli import app
from talltales.core.match import Match
from talltales.core.packs import find_pack
from talltales.core.record import PackRef, decode_record, encode_record
from talltales.core.registry import get_game, register, unregister
from talltales.games.would_you_believe_it import WouldYouBelieveIt

GAME = "would-you-believe-it"
ENOUGH = "1\n" * 400  # more choices than any two-player game needs
RANK_ROW = re.compile(r"│\s+(\d+)(?: \(tie\))? │ ([A-F]) \(.*?\)\s+│\s+(-?\d+) │")

runner = CliRunner()


def ranking(output: str) -> list[tuple[str, str, str]]:
    """(place, seat letter, score) rows of the final ranking table."""
    return RANK_ROW.findall(output.split("Final ranking", 1)[1])


def test_games_lists_the_shipped_game() -> None:
    result = runner.invoke(app, ["games"])
    assert result.exit_code == 0
    assert GAME in result.stdout
    assert "2-6" in result.stdout


def test_play_a_whole_game_from_stdin(tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    args = ["play", GAME, "--seed", "3", "--seat", "human", "--seat", "bot:greedy"]
    result = runner.invoke(app, [*args, "--record", str(record)], input=ENOUGH)
    assert result.exit_code == 0, result.output
    assert "Final ranking" in result.stdout
    assert "Your move" in result.stdout
    assert "bot:greedy throws the die" in result.stdout
    assert len(ranking(result.stdout)) == 2
    assert record.exists()


def test_play_defaults_to_one_human_and_a_bot() -> None:
    result = runner.invoke(app, ["play", GAME, "--seed", "5"], input=ENOUGH)
    assert result.exit_code == 0, result.output
    assert "A (You)" in result.stdout
    assert "B (bot:search)" in result.stdout


def test_bad_input_gets_a_message_and_the_game_goes_on() -> None:
    args = ["play", GAME, "--seed", "3", "--seat", "human", "--seat", "bot:random"]
    result = runner.invoke(app, args, input="x\n99\n\n0\n" + ENOUGH)
    assert result.exit_code == 0, result.output
    assert "'x' is not a number" in result.stdout
    assert "99 is not one of the choices" in result.stdout
    assert "0 is not one of the choices" in result.stdout
    assert "Type the number of your choice" in result.stdout
    assert "Final ranking" in result.stdout


def test_input_running_out_is_a_clean_error() -> None:
    result = runner.invoke(app, ["play", GAME, "--seed", "3"], input="1\n")
    assert result.exit_code == 1
    assert "input ended" in result.stderr
    assert "Traceback" not in result.output


def test_quitting_abandons_the_game() -> None:
    result = runner.invoke(app, ["play", GAME, "--seed", "3"], input="q\n")
    assert result.exit_code == 0
    assert "Game abandoned" in result.stdout
    assert "Final ranking" not in result.stdout


@pytest.mark.parametrize(
    ("args", "code", "message"),
    [
        (["play", "no-such-game"], 1, "no game called 'no-such-game'"),
        (["play", GAME, "--seat", "robot"], 1, "no bot called 'robot'"),
        (["play", GAME, "--option", "figures"], 2, "key=value"),
        (["play", GAME, "--option", "colour=red"], 1, "bad option"),
        (["play", GAME, *["--seat", "human"] * 7], 1, "2 to 6 players"),
    ],
)
def test_play_refuses_bad_set_ups(args: list[str], code: int, message: str) -> None:
    result = runner.invoke(app, args, input=ENOUGH)
    assert result.exit_code == code
    assert message in result.stderr
    assert result.exception is None or isinstance(result.exception, SystemExit)


def test_replay_reproduces_the_outcome(tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    args = ["play", GAME, "--seed", "11", "--seat", "bot:greedy", "--seat", "bot:random"]
    played = runner.invoke(app, [*args, "--seat", "human", "--record", str(record)], input=ENOUGH)
    assert played.exit_code == 0, played.output
    replayed = runner.invoke(app, ["replay", str(record)])
    assert replayed.exit_code == 0, replayed.output
    assert ranking(replayed.stdout) == ranking(played.stdout)
    assert len(ranking(replayed.stdout)) == 3


def test_replay_a_step_shows_a_game_in_progress(tmp_path: Path) -> None:
    game = get_game(GAME)
    match = Match(game, 2, None, 4)
    bot = make_bot("random", 1)
    while not match.is_over():
        (seat,) = match.pending()
        match.submit(seat, bot.choose(game, match.state, seat))
    path = tmp_path / "r.json"
    path.write_bytes(encode_record(match.record))
    result = runner.invoke(app, ["replay", str(path), "--step", "3"])
    assert result.exit_code == 0, result.output
    assert "showing step 3" in result.stdout
    assert "Not over after step 3" in result.stdout
    beyond = runner.invoke(app, ["replay", str(path), "--step", "100000"])
    assert beyond.exit_code == 1
    assert "beyond" in beyond.stderr


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (None, "No such file"),
        (b"{not json", "not a game record"),
        (b'{"game": "would-you-believe-it", "players": 2, "seed": 1, "format": 9}', "format 9"),
        (
            b'{"game": "would-you-believe-it", "players": 2, "seed": 1,'
            b' "entries": [{"seat": 0, "action": {"type": "move-guard", "guard": 1}}]}',
            "entry 1 of the record does not replay",
        ),
    ],
)
def test_replay_of_a_bad_file_is_a_clean_error(
    tmp_path: Path, content: bytes | None, message: str
) -> None:
    path = tmp_path / "bad.json"
    if content is not None:
        path.write_bytes(content)
    result = runner.invoke(app, ["replay", str(path)])
    assert result.exit_code == 1
    assert message in result.stderr
    assert result.stderr.count("\n") == 1


class Question(msgspec.Struct, forbid_unknown_fields=True):
    """A test-only card."""

    id: str
    prompt: str
    answer: int


class CardGame(WouldYouBelieveIt):
    """A test-only game that takes content packs."""

    id = "test-card-game"
    title = "Test Card Game"
    card_type = Question


@pytest.fixture
def card_game() -> Iterator[None]:
    register(CardGame())
    yield
    unregister(CardGame.id)


def pack(game: str, cards: str) -> str:
    """A TOML pack for ``game`` with the given [[cards]] text."""
    return (
        f'[pack]\nid = "p"\ntitle = "P"\ngame = "{game}"\nauthor = "a"\nlicence = "CC0"\n\n' + cards
    )


GOOD_CARDS = (
    '[[cards]]\nid = "q1"\nprompt = "?"\nanswer = 7\n\n'
    '[[cards]]\nid = "q2"\nprompt = "!"\nanswer = 8\n'
)


@pytest.mark.usefixtures("card_game")
def test_deck_check_accepts_a_good_pack(tmp_path: Path) -> None:
    good = tmp_path / "good.toml"
    good.write_text(pack(CardGame.id, GOOD_CARDS))
    result = runner.invoke(app, ["deck", "check", str(good)])
    assert result.exit_code == 0, result.output
    assert "OK" in result.stdout
    assert "2 cards" in result.stdout


@pytest.mark.usefixtures("card_game")
def test_deck_check_names_the_bad_card_and_field(tmp_path: Path) -> None:
    good, bad = tmp_path / "good.toml", tmp_path / "bad.toml"
    good.write_text(pack(CardGame.id, GOOD_CARDS))
    bad.write_text(pack(CardGame.id, GOOD_CARDS.replace("answer = 8", 'answer = "eight"')))
    result = runner.invoke(app, ["deck", "check", str(good), str(bad)])
    assert result.exit_code == 1
    assert "OK" in result.stdout
    line = next(x for x in result.stdout.splitlines() if x.startswith("FAIL"))
    assert "bad.toml" in line
    assert "q2" in line
    assert "answer" in line


@pytest.mark.parametrize(
    ("game", "message"),
    [("no-such-game", "no game called 'no-such-game'"), (GAME, "takes no content packs")],
)
def test_deck_check_needs_a_game_with_cards(tmp_path: Path, game: str, message: str) -> None:
    path = tmp_path / "p.toml"
    path.write_text(pack(game, GOOD_CARDS))
    result = runner.invoke(app, ["deck", "check", str(path)])
    assert result.exit_code == 1
    assert message in result.stdout


def test_deck_check_of_a_missing_or_gameless_file(tmp_path: Path) -> None:
    gameless = tmp_path / "g.toml"
    gameless.write_text('[pack]\nid = "p"\n')
    result = runner.invoke(app, ["deck", "check", str(tmp_path / "none.toml"), str(gameless)])
    assert result.exit_code == 1
    assert "No such file" in result.stdout
    assert "g.toml, [pack] metadata: Object missing required field" in result.stdout


FIB = "fib-off"
FIB_SEATS = ["--seat", "human", "--seat", "bot:random", "--seat", "bot:greedy"]
PACK_ROW = re.compile(r"│ fib-off-facts\s+│ Fib-off: plain facts\s+│\s+(\d+) │ yes\s+│")


@pytest.mark.usefixtures("fib_off")
def test_deck_list_shows_a_games_shipped_packs() -> None:
    result = runner.invoke(app, ["deck", "list", FIB])
    assert result.exit_code == 0, result.output
    row = PACK_ROW.search(result.stdout)
    assert row is not None, result.stdout
    assert int(row[1]) == len(find_pack(get_game(FIB), "fib-off-facts").cards)
    none = runner.invoke(app, ["deck", "list", GAME])
    assert none.exit_code == 0
    assert "takes no content packs" in none.stdout
    unknown = runner.invoke(app, ["deck", "list", "no-such-game"])
    assert unknown.exit_code == 1
    assert "no game called 'no-such-game'" in unknown.stderr


@pytest.mark.usefixtures("fib_off")
def test_play_fib_off_from_stdin_with_the_default_pack_pinned(tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    args = ["play", FIB, "--seed", "4", *FIB_SEATS, "--record", str(record)]
    played = runner.invoke(app, args, input=ENOUGH)
    assert played.exit_code == 0, played.output
    assert "A (You): a fake answer: “1”" in played.stdout  # a text typed at a Write prompt
    shipped = find_pack(get_game(FIB), "fib-off-facts")
    assert decode_record(record.read_bytes()).content == [PackRef(shipped.meta.id, shipped.sha256)]
    replayed = runner.invoke(app, ["replay", str(record)])
    assert replayed.exit_code == 0, replayed.output
    assert ranking(replayed.stdout) == ranking(played.stdout)


@pytest.mark.usefixtures("fib_off")
def test_a_players_own_pack_is_pinned_and_a_changed_one_refused(tmp_path: Path) -> None:
    mine, record = tmp_path / "mine.toml", tmp_path / "game.json"
    shipped = Path(find_pack(get_game(FIB), "fib-off-facts").path)
    mine.write_text(shipped.read_text().replace('id = "fib-off-facts"', 'id = "my-facts"'))
    args = ["play", FIB, "--seed", "6", *FIB_SEATS, "--pack", str(mine)]
    played = runner.invoke(app, [*args, "--record", str(record)], input=ENOUGH)
    assert played.exit_code == 0, played.output
    assert [ref.id for ref in decode_record(record.read_bytes()).content] == ["my-facts"]
    missing = runner.invoke(app, ["replay", str(record)])
    assert missing.exit_code == 1
    assert 'the pack "my-facts", which is not here: give its file with --pack' in missing.stderr
    given = runner.invoke(app, ["replay", str(record), "--pack", str(mine)])
    assert given.exit_code == 0, given.output
    assert ranking(given.stdout) == ranking(played.stdout)
    mine.write_text(mine.read_text().replace("Eight legs", "Ten legs"))
    changed = runner.invoke(app, ["replay", str(record), "--pack", str(mine)])
    assert changed.exit_code == 1
    assert 'the pack "my-facts" has changed since this game was played' in changed.stderr


@pytest.mark.usefixtures("fib_off")
@pytest.mark.parametrize(
    ("game", "pack", "message"),
    [
        (FIB, "no-such-pack", "has no pack 'no-such-pack' (shipped: fib-off-facts"),
        (GAME, "fib-off-facts", "takes no content packs"),
    ],
)
def test_play_refuses_a_pack_it_cannot_use(game: str, pack: str, message: str) -> None:
    result = runner.invoke(app, ["play", game, *FIB_SEATS, "--pack", pack], input=ENOUGH)
    assert result.exit_code == 1
    assert message in result.stderr


SCENARIO = (
    'game = "would-you-believe-it"\nplayers = 2\n\n[[step]]\nseat = 0\ndo = {type = "roll"}\n'
)


def test_scenario_pass_and_fail(tmp_path: Path) -> None:
    passing, failing = tmp_path / "pass.toml", tmp_path / "fail.toml"
    passing.write_text(SCENARIO + 'expect = {phase = "die"}\n')
    failing.write_text(SCENARIO + 'expect = {phase = "over"}\n')
    ok = runner.invoke(app, ["scenario", str(passing)])
    assert ok.exit_code == 0, ok.output
    assert "PASS" in ok.stdout
    bad = runner.invoke(app, ["scenario", str(passing), str(failing)])
    assert bad.exit_code == 1
    assert "FAIL" in bad.stdout
    assert "phase is 'die', expected 'over'" in bad.stdout


@pytest.mark.parametrize("content", [None, "game = [", 'game = "would-you-believe-it"\n'])
def test_scenario_missing_or_malformed(tmp_path: Path, content: str | None) -> None:
    path = tmp_path / "s.toml"
    if content is not None:
        path.write_text(content)
    result = runner.invoke(app, ["scenario", str(path)])
    assert result.exit_code == 1
    assert "FAIL" in result.stdout
    assert "s.toml" in result.stdout
    assert "Traceback" not in result.output


def test_games_lists_what_loads_and_says_which_plugin_does_not(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from talltales.core import registry

    problem = registry.GamePluginError("entry point bad = 'nowhere:GAME' cannot be loaded")
    monkeypatch.setattr(registry, "_BROKEN", {"bad": problem})
    result = CliRunner().invoke(app, ["games"])
    assert result.exit_code == 0
    assert "would-you-believe-it" in result.stdout
    assert "Not loaded: entry point bad" in result.output
