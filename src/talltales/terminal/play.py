"""The interactive terminal game: people answer prompts, bots and the clock act on their own.

One ``Driver`` on the wall clock moves the game, as at any table: a deadline that passes
while someone is thinking is ticked at once (the reader gives up waiting at the deadline),
and bots decide from what their seat may know, never from the true state.
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from typing import Any

import msgspec
from rich.console import Console
from rich.text import Text

from talltales.bots import make_bot
from talltales.core.driver import Clock, Driver, VirtualClock, WallClock
from talltales.core.errors import ActionRefused, OptionsError, TallTalesError
from talltales.core.game import Event, Outcome, Seat
from talltales.core.match import Match
from talltales.core.prompt import Prompt
from talltales.simulate import bot_spec, derive
from talltales.terminal.asking import (
    Abandoned,
    Ask,
    Unclear,
    default_ask,
    hint,
    interpret,
    said,
    show_prompt,
)
from talltales.terminal.render import event_text, ranking_table, render_view, seat_text

DEFAULT_BOT = "search"

__all__ = ["Abandoned", "InputEnded", "Player", "TerminalGame", "parse_players"]


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


class TerminalGame:
    """One game at the terminal, moved by a ``Driver`` like every other table."""

    def __init__(
        self,
        console: Console,
        match: Match[Any, Any],
        players: Sequence[Player],
        seed: int,
        ask: Ask | None = None,
        clock: Clock | None = None,
    ) -> None:
        self.console = console
        self.match = match
        self.names = [p.name for p in players]
        self.ask = ask or default_ask(console)
        bots = {s: make_bot(p.bot, derive(seed, s)) for s, p in enumerate(players) if p.bot}
        self.driver: Driver[Any, Any] = Driver(match, bots, clock or WallClock(), seed=seed)
        self.humans = {s for s, p in enumerate(players) if p.bot is None}
        self.shown: Seat | None = -1  # whose board was drawn last (-1: none yet)

    def run(self) -> Outcome:
        """Play to the end, showing the board as turns change hands; return the outcome."""
        while not self.match.is_over():
            self.step()
        self.show_board(None)
        outcome = self.match.outcome()
        assert outcome is not None
        self.console.print(ranking_table(outcome, self.names))
        return outcome

    def step(self) -> None:
        """The next thing: a passed deadline, else a bot's move, else a person's answer;
        with nobody to act, wait for the clock."""
        if self.driver.due():
            self.tick()
            return
        bots = self.driver.bot_seats()  # bots first: they answer at once, people take time
        people = [s for s in sorted(self.match.pending()) if s in self.humans]
        if bots:
            self.show_board(bots[0])
            self.bot_turn(bots[0])
        elif people:
            self.show_board(people[0])
            self.human_turn(people[0])
        else:
            self.wait_for_clock()

    def show_board(self, seat: Seat | None) -> None:
        """The table as ``seat`` sees it (a person's own view, else the public one), when the
        turn has changed hands."""
        if seat == self.shown and seat is not None:
            return
        self.shown = seat
        viewer = seat if seat in self.humans else None
        self.console.rule()
        self.console.print(render_view(self.match.game.id, self.match.view(viewer), self.names))

    def bot_turn(self, seat: Seat) -> None:
        """Let the driver ask the seat's bot (from what the seat may know).

        Only the game's events tell what it did: they alone know what the table may hear
        (a written text, a vote or a card laid face down stays secret)."""
        self.print_events(self.driver.bot_move(seat))

    def human_turn(self, seat: Seat) -> None:
        """Ask a person until the answer is accepted or the clock moves the game on."""
        prompt = self.match.prompt(seat)
        assert prompt is not None
        show_prompt(self.console, prompt, seat_text(seat, self.names))
        while True:
            raw = self.read(prompt)
            if raw is None:
                self.time_ran_out()
                return
            try:
                action = interpret(prompt, raw)
            except Unclear as exc:
                self.console.print(Text(str(exc), style="yellow"))
                continue
            if self.driver.due() and not self.still_asked(seat, prompt):
                return
            if self.answer(seat, prompt, action):
                return

    def read(self, prompt: Prompt) -> str | None:
        """One line, waiting no longer than the running timer (None: time ran out)."""
        wait = self.driver.wait_ms()
        left = None if wait is None else math.ceil(wait / 1000)
        try:
            return self.ask(hint(prompt, left), None if wait is None else wait / 1000)
        except EOFError:
            raise InputEnded("input ended before the game did") from None

    def answer(self, seat: Seat, prompt: Prompt, action: dict[str, Any]) -> bool:
        """Submit a person's answer; False (and the reason shown) when the Match refuses it."""
        try:
            events = self.match.submit(seat, action, self.driver.clock.now())
        except ActionRefused as exc:
            self.console.print(Text(f"Refused: {exc.reason}", style="red"))
            return False
        self.console.print(seat_text(seat, self.names).append(f": {said(prompt, action)}", "none"))
        self.print_events(events)
        return True

    def still_asked(self, seat: Seat, prompt: Prompt) -> bool:
        """The deadline passed as the answer came: tick first; does the question stand?"""
        self.tick()
        if self.match.prompt(seat) == prompt:
            return True
        self.console.print(Text("Too late: the time ran out.", style="yellow"))
        return False

    def time_ran_out(self) -> None:
        """The reader gave up at the deadline: let the clock act (virtual time jumps to it)."""
        self.reach_deadline()
        if self.driver.due():
            self.console.print(Text("Time is up.", style="yellow"))
            self.tick()

    def tick(self) -> None:
        """Apply the passed deadline and tell what it did; the board is drawn afresh after."""
        self.print_events(self.driver.tick_if_due())
        self.shown = -1

    def wait_for_clock(self) -> None:
        """Nobody can act: wait for the next deadline (the loop then ticks)."""
        wait = self.driver.wait_ms()
        if wait is None:
            raise TallTalesError("the game is stuck: nobody has a move and no clock is running")
        if not self.reach_deadline():
            self.console.print(Text(f"Waiting {math.ceil(wait / 1000)} s for the timer…", "dim"))
            time.sleep(wait / 1000)

    def reach_deadline(self) -> bool:
        """On virtual time, jump to the next deadline (True); a wall clock cannot be moved."""
        deadline = self.match.deadline()
        clock = self.driver.clock
        if not isinstance(clock, VirtualClock) or deadline is None:
            return False
        clock.advance_to(deadline)
        return True

    def print_events(self, events: list[Event]) -> None:
        """Events the table, or a person at it, may see."""
        for event in events:
            if event.visible_to(None) or any(event.visible_to(s) for s in self.humans):
                self.console.print(event_text(event.text, self.names))
