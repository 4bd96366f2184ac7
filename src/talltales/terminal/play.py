"""The interactive terminal game: humans choose by number, bots act on their own."""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from typing import Any

import msgspec
from rich.console import Console
from rich.text import Text

from talltales.bots import Bot, make_bot
from talltales.core.errors import ActionRefused, OptionsError, TallTalesError
from talltales.core.game import Event, Outcome
from talltales.core.match import Match
from talltales.simulate import bot_spec, derive
from talltales.terminal.render import event_text, ranking_table, render_view, seat_text

DEFAULT_BOT = "search"
QUIT_WORDS = frozenset({"q", "quit", "exit"})


class Abandoned(Exception):
    """The human asked to stop the game."""


class InputEnded(TallTalesError):
    """Standard input ran out before the game ended."""


class Player(msgspec.Struct, frozen=True):
    """Who sits at a seat: a name, and a bot spec (None for a human)."""

    name: str
    bot: str | None = None


def parse_players(specs: Sequence[str], min_players: int) -> list[Player]:
    """Seats from '--seat human|bot:KIND[:k=v]'; none given: one human; bots fill the rest."""
    kinds = list(specs) or ["human"]
    kinds += [f"bot:{DEFAULT_BOT}"] * (min_players - len(kinds))
    humans = sum(1 for k in kinds if k.strip().lower() == "human")
    players, number = [], 0
    for kind in kinds:
        if kind.strip().lower() == "human":
            number += 1
            players.append(Player("You" if humans == 1 else f"Human {number}"))
        else:
            try:
                spec = bot_spec(kind)
            except OptionsError as exc:
                raise OptionsError(f"--seat {kind!r}: {exc.reason} (or 'human')") from exc
            players.append(Player(f"bot:{spec}", spec))
    return players


def default_ask(console: Console) -> Callable[[str], str]:
    """Read a line from standard input, echoing it when input is not a terminal."""

    def ask(prompt: str) -> str:
        line = console.input(prompt)
        if not sys.stdin.isatty():
            console.print(line, markup=False, highlight=False)
        return line

    return ask


class TerminalGame:
    """One game at the terminal, driven through ``Match`` like every other client."""

    def __init__(
        self,
        console: Console,
        match: Match[Any, Any],
        players: Sequence[Player],
        seed: int,
        ask: Callable[[str], str] | None = None,
    ) -> None:
        self.console = console
        self.match = match
        self.players = list(players)
        self.names = [p.name for p in players]
        self.ask = ask or default_ask(console)
        self.bots: dict[int, Bot] = {
            s: make_bot(p.bot, derive(seed, s)) for s, p in enumerate(players) if p.bot
        }
        self.humans = {s for s, p in enumerate(players) if p.bot is None}

    def run(self) -> Outcome:
        """Play to the end, showing the board each turn; return the outcome."""
        last: int | None = None
        while not self.match.is_over():
            pending = sorted(self.match.pending())
            if not pending:
                self.advance_clock()
                continue
            for seat in pending:
                if seat != last:
                    self.show_board(seat)
                    last = seat
                self.turn(seat)
        self.show_board(None)
        outcome = self.match.outcome()
        assert outcome is not None
        self.console.print(ranking_table(outcome, self.names))
        return outcome

    def advance_clock(self) -> None:
        """Nobody has a decision: let the clock reach the next deadline."""
        due = self.match.deadline()
        if due is None:
            raise TallTalesError("the game is stuck: nobody has a move and no clock is running")
        self.print_events(self.match.tick(due))

    def show_board(self, seat: int | None) -> None:
        """The table as ``seat`` sees it (a human's own view; the public view otherwise)."""
        viewer = seat if seat in self.humans else None
        self.console.rule()
        self.console.print(render_view(self.match.game.id, self.match.view(viewer), self.names))

    def turn(self, seat: int) -> None:
        """One decision of ``seat``: a human is asked, a bot chooses; then it is applied."""
        game, state = self.match.game, self.match.state
        bot = self.bots.get(seat)
        action = bot.choose(game, state, seat) if bot else self.choose(seat)
        said = game.describe(state, action)
        try:
            events = self.match.submit(seat, action)
        except ActionRefused as exc:
            self.console.print(Text(f"Refused: {exc.reason}", style="red"))
            return
        self.console.print(seat_text(seat, self.names).append(f": {said}", style="none"))
        kind = msgspec.to_builtins(action).get("type")
        self.print_events([e for e in events if e.kind != kind])

    def print_events(self, events: list[Event]) -> None:
        """Events the table, or a human at it, may see."""
        for event in events:
            if event.visible_to(None) or any(event.visible_to(s) for s in self.humans):
                self.console.print(event_text(event.text, self.names))

    def choose(self, seat: int) -> Any:
        """List the legal actions, numbered, and read a valid number."""
        game, state = self.match.game, self.match.state
        actions = self.match.legal_actions(seat)
        self.console.print(Text("Your move, ").append_text(seat_text(seat, self.names)))
        for number, action in enumerate(actions, start=1):
            self.console.print(
                f"  [bold]{number}[/]. {game.describe(state, action)}", highlight=False
            )
        while True:
            try:
                raw = self.ask(f"Choose 1-{len(actions)} (q to quit): ").strip()
            except EOFError:
                raise InputEnded("input ended before the game did") from None
            problem = self.problem(raw, len(actions))
            if problem is None:
                return actions[int(raw) - 1]
            self.console.print(Text(problem, style="yellow"))

    @staticmethod
    def problem(raw: str, count: int) -> str | None:
        """Why ``raw`` is not a choice among ``count`` (None: it is one)."""
        if raw.lower() in QUIT_WORDS:
            raise Abandoned
        if not raw:
            return f"Type the number of your choice, 1 to {count}."
        if not raw.isdigit():
            return f"{raw!r} is not a number: type 1 to {count}."
        if not 1 <= int(raw) <= count:
            return f"{raw} is not one of the choices: type 1 to {count}."
        return None
