"""The terminal game: people answer typed prompts, bots and the clock act through the Driver."""

from __future__ import annotations

import io
from collections.abc import Callable
from typing import Any

import pytest
from fixture_game import FIB_OFF, MAX_BLUFF
from rich.console import Console

from talltales.bots import make_bot
from talltales.core.driver import VirtualClock, WallClock
from talltales.core.game import CLOCK, Game, Seat
from talltales.core.match import Match
from talltales.games.would_you_believe_it import GAME as WYBI
from talltales.terminal import play
from talltales.terminal.play import InputEnded, Player, TerminalGame

FAKE = "Type a fake answer"
Asked = list[tuple[str, float | None]]


def table(
    game: Game[Any, Any],
    ask: Callable[[str, float | None], str | None],
    bots: list[str],
    seed: int = 2,
    options: dict[str, Any] | None = None,
) -> tuple[TerminalGame, io.StringIO]:
    """A person at seat 0 and the given bots, on virtual time; and where the output goes."""
    out = io.StringIO()
    console = Console(file=out, width=120, color_system=None)
    players = [Player("You"), *(Player(f"bot:{b}", b) for b in bots)]
    match: Match[Any, Any] = Match(game, len(players), options, seed)
    return TerminalGame(console, match, players, seed, ask, VirtualClock()), out


def scripted(texts: list[str | None], asked: Asked) -> Callable[[str, float | None], str | None]:
    """Answers "1" to every choice; a fake answer is the next of ``texts`` (then "my fib")."""

    def ask(prompt: str, timeout: float | None) -> str | None:
        asked.append((prompt, timeout))
        if FAKE in prompt:
            return texts.pop(0) if texts else "my fib"
        return "1"

    return ask


def bluffs(match: Match[Any, Any], seat: Seat) -> list[str]:
    """The texts ``seat`` wrote, from the record."""
    return [
        e.action["text"]
        for e in match.record.entries
        if e.seat == seat and e.action.get("type") == "bluff"
    ]


def test_a_person_plays_would_you_believe_it_to_the_end_against_a_bot() -> None:
    asked: Asked = []
    game, out = table(WYBI, scripted([], asked), ["greedy"], seed=3)
    outcome = game.run()
    text = out.getvalue()
    assert sorted(s for group in outcome.ranking for s in group) == [0, 1]
    assert "A (You): Your move" in text
    assert "1. roll the die" in text
    assert "bot:greedy throws the die" in text
    assert "Final ranking" in text
    assert all(timeout is None for _, timeout in asked)  # no timer runs in this game
    assert all("s left" not in prompt for prompt, _ in asked)


@pytest.mark.usefixtures("fib_off")
def test_a_person_writes_fake_answers_and_plays_fib_off_to_the_end_with_bots() -> None:
    asked: Asked = []
    game, out = table(FIB_OFF, scripted(["a snail has no teeth"], asked), ["random", "greedy"])
    outcome = game.run()
    text = out.getvalue()
    assert sorted(s for group in outcome.ranking for s in group) == [0, 1, 2]
    assert bluffs(game.match, 0)[0] == "a snail has no teeth"
    assert "A (You): a fake answer: “a snail has no teeth”" in text
    assert f"Write a fake answer: at most {MAX_BLUFF} characters." in text
    assert "First to claim wins." in text  # the dispute is a race
    assert "The answers (whose is secret):" in text  # the vote is among anonymous answers
    assert "Keep every answer" in text  # the reader's verdict
    assert "Final ranking" in text
    writing = [(p, t) for p, t in asked if FAKE in p]
    assert writing and all(t is not None and "s left)" in p for p, t in writing)


@pytest.mark.usefixtures("fib_off")
def test_a_timer_runs_out_while_the_person_thinks_and_the_game_goes_on() -> None:
    asked: Asked = []
    game, out = table(FIB_OFF, scripted([None], asked), ["random", "greedy"])
    game.run()
    text = out.getvalue()
    ticks = [e for e in game.match.record.entries if e.seat == CLOCK]
    assert len(ticks) == 1  # the write window closed on the person, once
    assert "Time is up." in text
    assert "time to stop writing" in text  # the tick's own event, shown
    assert bluffs(game.match, 0) == ["my fib"]  # the first window passed unanswered
    assert "Final ranking" in text


@pytest.mark.usefixtures("fib_off")
def test_a_refused_text_is_explained_and_asked_again() -> None:
    asked: Asked = []
    texts: list[str | None] = ["x" * (MAX_BLUFF + 1), "   ", "short enough"]
    game, out = table(FIB_OFF, scripted(texts, asked), ["random", "random"])
    game.run()
    text = out.getvalue()
    assert f"Refused: a fake answer is at most {MAX_BLUFF} characters; yours has 81" in text
    assert "Refused: write a fake answer first: it cannot be empty" in text
    assert bluffs(game.match, 0)[0] == "short enough"


class Spy:
    """A bot that notes whether it was handed the true state, and plays the first action."""

    name = "spy"

    def __init__(self, match: Match[Any, Any]) -> None:
        self.match = match
        self.given_true_state = 0
        self.asked = 0

    def choose(
        self, game: Game[Any, Any], state: Any, seat: Seat, *, budget: float | None = None
    ) -> Any:
        self.asked += 1
        self.given_true_state += state is self.match.state
        return game.legal_actions(state, seat)[0]


@pytest.mark.usefixtures("fib_off")
def test_bots_decide_from_their_seat_sample_never_the_true_state(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    spies: list[Spy] = []
    holder: dict[str, Match[Any, Any]] = {}

    def spy_bot(spec: str, seed: int = 0) -> Spy:
        spies.append(Spy(holder["match"]))
        return spies[-1]

    monkeypatch.setattr(play, "make_bot", spy_bot)
    asked: Asked = []
    out = io.StringIO()
    match: Match[Any, Any] = Match(FIB_OFF, 3, None, 5)
    holder["match"] = match
    players = [Player("You"), Player("bot:random", "random"), Player("bot:random", "random")]
    TerminalGame(Console(file=out), match, players, 5, scripted([], asked), VirtualClock()).run()
    assert sum(s.asked for s in spies) > 10
    assert sum(s.given_true_state for s in spies) == 0


def test_the_wall_clock_is_the_default_and_a_quit_or_an_end_of_input_stops() -> None:
    def ended(prompt: str, timeout: float | None) -> str | None:
        raise EOFError

    match: Match[Any, Any] = Match(WYBI, 2, None, 1)
    players = [Player("You"), Player("bot:random", "random")]
    game = TerminalGame(Console(file=io.StringIO()), match, players, 1, ended)
    assert isinstance(game.driver.clock, WallClock)
    with pytest.raises(InputEnded):
        game.run()
    quitter = TerminalGame(Console(file=io.StringIO()), match, players, 1, lambda p, t: "q")
    with pytest.raises(play.Abandoned):
        quitter.run()


def test_a_bot_seat_is_played_by_the_bot_it_names() -> None:
    match: Match[Any, Any] = Match(WYBI, 2, None, 1)
    players = [Player("bot:greedy", "greedy"), Player("bot:random", "random")]
    game = TerminalGame(Console(file=io.StringIO()), match, players, 1, lambda p, t: None)
    assert type(game.driver.bot(0)) is type(make_bot("greedy"))
    assert game.run().ranking  # bots alone play it out; nobody is asked
