"""Play a seat of a server's room from the terminal, over the same protocol as a phone.

``talltales join URL CODE`` takes a seat over HTTP (or comes back to one with its token),
then speaks the WebSocket protocol: hello, then room and state messages, each state carrying
this seat's own view, its prompt (or, from an older server, its legal actions) and the events
it may see. Phones, terminals and bots share one table.
"""

from __future__ import annotations

import math
import time
import urllib.error
import urllib.request
import uuid
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote, urlsplit, urlunsplit

import msgspec
from rich.console import Console
from rich.table import Table
from rich.text import Text
from websockets.exceptions import ConnectionClosed, WebSocketException
from websockets.sync.client import ClientConnection, connect

from talltales.core.errors import TallTalesError
from talltales.core.game import Outcome
from talltales.core.prompt import Option, Pick, Prompt
from talltales.terminal.asking import (
    Abandoned,
    Ask,
    Unclear,
    default_ask,
    hint,
    interpret,
    read_prompt,
    show_prompt,
)
from talltales.terminal.render import (
    event_text,
    ranking_table,
    render_view,
    scrubbed,
    seat_letter,
    seat_text,
)

FATAL = frozenset({"no-room", "bad-token", "removed", "rate-limited", "hello-timeout"})
HTTP_TIMEOUT = 15.0


class RemoteError(TallTalesError):
    """The server cannot be reached, or refuses this seat (exit code 1)."""


class LeftTable(Exception):
    """The player left (q, or the end of input); the seat stays theirs to come back to."""


@dataclass(frozen=True)
class Endpoint:
    """Where a server answers: its HTTP base and its WebSocket."""

    http: str
    ws: str


class SeatGranted(msgspec.Struct):
    """The answer to taking a seat."""

    room: str
    seat: int
    token: str


def endpoint(url: str) -> Endpoint:
    """'http://host:8000' (or https, ws, wss, or just host:port) as HTTP and WebSocket URLs."""
    parts = urlsplit(url if "://" in url else f"http://{url}")
    secure = parts.scheme in ("https", "wss")
    if parts.scheme not in ("http", "https", "ws", "wss") or not parts.netloc:
        raise RemoteError(f"{url!r} is not a server address such as http://host:8000")
    path = parts.path.rstrip("/")
    http = urlunsplit(("https" if secure else "http", parts.netloc, path, "", ""))
    ws = urlunsplit(("wss" if secure else "ws", parts.netloc, f"{path}/ws", "", ""))
    return Endpoint(http, ws)


def take_seat(server: Endpoint, code: str, name: str) -> SeatGranted:
    """POST /api/rooms/{code}/seats: the next free seat of a lobby, and its token."""
    request = urllib.request.Request(
        f"{server.http}/api/rooms/{quote(code.upper(), safe='')}/seats",
        data=msgspec.json.encode({"name": name}),
        headers={"Content-Type": "application/json"},
        method="POST",
    )
    try:
        with urllib.request.urlopen(request, timeout=HTTP_TIMEOUT) as response:
            return msgspec.json.decode(response.read(), type=SeatGranted)
    except urllib.error.HTTPError as exc:
        raise RemoteError(http_reason(exc)) from None
    except (urllib.error.URLError, OSError) as exc:
        reason = getattr(exc, "reason", exc)
        raise RemoteError(f"cannot reach {server.http}: {reason}") from None
    except msgspec.DecodeError:
        raise RemoteError(f"{server.http} does not answer like a Tall Tales server") from None


def http_reason(exc: urllib.error.HTTPError) -> str:
    """The server's own words for a refusal, else the HTTP status."""
    try:
        body = msgspec.json.decode(exc.read())
    except (msgspec.DecodeError, OSError):
        body = None
    if isinstance(body, dict) and isinstance(body.get("reason"), str):
        return str(body["reason"])
    return f"the server answered {exc.code} {exc.reason}"


def place(view: dict[str, Any], position: int) -> str:
    """'Start', 'Finish' or a route card with its place: '+3 (#7)'."""
    if position == view.get("start"):
        return "Start"
    if position == view.get("finish"):
        return "Finish"
    route = view.get("route") or []
    if 1 <= position <= len(route):
        return f"{route[position - 1]['card']} (#{position})"
    return f"#{position}"


def describe(action: dict[str, Any], view: Any) -> str:
    """A legal action in words, from the view's choices where the game offers them."""
    kind = str(action.get("type", "?"))
    if kind == "roll":
        return "roll the die"
    choices = view.get("choices") if isinstance(view, dict) else None
    for choice in choices or []:
        if choice.get("action") == action:
            landing = str(choice["lands_on"])
            if landing not in ("Start", "Finish"):
                landing = f"{landing} (#{choice['end']})"
            text = f"move {choice['piece']} {choice['index'] + 1}: "
            text += f"{place(view, choice['start'])} → {landing}"
            return text + (f" (collects {choice['collects']})" if choice.get("collects") else "")
    fields = ", ".join(f"{key} {value}" for key, value in action.items() if key != "type")
    return kind.replace("-", " ") + (f": {fields}" if fields else "")


class RemoteGame:
    """One seat at a server's table, played from the keyboard until the game ends."""

    def __init__(
        self,
        console: Console,
        server: Endpoint,
        room: str,
        token: str,
        ask: Ask | None = None,
        patience: float = 60.0,
    ) -> None:
        self.console = console
        self.server = server
        self.room = room.upper()
        self.token = token
        self.ask = ask or default_ask(console)
        self.patience = patience  # seconds of failed reconnecting before giving up
        self.seat: int | None = None
        self.info: dict[str, Any] = {}
        self.state: dict[str, Any] | None = None
        self.version = -1  # of the last state seen: the server resends what came after
        self.answered: int | None = None  # the state version whose choice was sent
        self.unacked: dict[str, Any] | None = None  # an act sent, not yet acknowledged
        self.shown: tuple[Any, ...] = ()
        self.restarting = False
        self.deadline_at: float | None = None  # the state's deadline, on the monotonic clock

    @property
    def names(self) -> list[str]:
        """Seat names, from the room."""
        return [str(s["name"]) for s in self.info.get("seats", [])]

    def run(self) -> Outcome:
        """Connect, play, reconnect when the socket drops; the outcome once the game ends."""
        socket = self.connect(first=True)
        while True:
            try:
                with socket:
                    outcome = self.session(socket)
                if outcome is not None:
                    return outcome
            except ConnectionClosed:
                pass
            if not self.restarting:
                self.console.print(Text("Connection lost: reconnecting…", style="yellow"))
            self.restarting = False
            socket = self.connect(first=False)
            self.console.print(Text("Reconnected.", style="green"))

    def connect(self, first: bool) -> ClientConnection:
        """Open the WebSocket; after a drop, keep trying for ``patience`` seconds."""
        deadline, delay = time.monotonic() + self.patience, 0.25
        while True:
            try:
                return connect(self.server.ws, open_timeout=HTTP_TIMEOUT)
            except (OSError, WebSocketException) as exc:
                if first or time.monotonic() >= deadline:
                    raise RemoteError(f"cannot reach {self.server.ws}: {exc}") from None
            time.sleep(delay)
            delay = min(3.0, delay * 2)

    def session(self, socket: ClientConnection) -> Outcome | None:
        """Say hello, then handle messages; choose when this seat must and nothing is queued."""
        hello = {"type": "hello", "room": self.room, "token": self.token}
        socket.send(msgspec.json.encode({**hello, "last_version": self.version}).decode())
        if self.unacked is not None:  # the same client id: applied at most once
            socket.send(msgspec.json.encode(self.unacked).decode())
        while True:
            try:
                raw = socket.recv(timeout=0)
            except TimeoutError:
                if self.must_choose():
                    self.choose(socket)
                    continue
                raw = socket.recv()
            try:
                message = scrubbed(msgspec.json.decode(raw))  # names and texts: plain only
            except msgspec.DecodeError:
                continue  # not a message of this protocol
            if isinstance(message, dict):
                outcome = self.handle(message)
                if outcome is not None:
                    return outcome

    def handle(self, message: dict[str, Any]) -> Outcome | None:
        """One server message; the outcome when it ends the game."""
        kind = message.get("type")
        if kind == "welcome":
            self.seat = message.get("seat")
        elif kind == "room":
            self.show_room(message)
        elif kind == "state":
            return self.show_state(message)
        elif kind == "ack":
            if self.unacked is not None and message.get("client_id") == self.unacked["client_id"]:
                self.unacked = None
        elif kind == "error":
            self.refused(message)
        elif kind == "restarting":
            self.restarting = True
            self.console.print(Text("The server is restarting: reconnecting…", style="yellow"))
        return None

    def refused(self, message: dict[str, Any]) -> None:
        """A refusal: fatal before the seat is ours (or once it is taken away), else shown."""
        reason = str(message.get("reason") or message.get("code") or "refused")
        if self.seat is None or message.get("code") in FATAL:
            raise RemoteError(reason)
        self.console.print(Text(f"Refused: {reason}", style="red"))
        if self.unacked is not None and message.get("client_id") == self.unacked["client_id"]:
            self.unacked, self.answered = None, None  # choose again

    def show_room(self, info: dict[str, Any]) -> None:
        """The lobby while waiting for the host; who drops out or comes back during play."""
        before, self.info = self.info, info
        seats = info.get("seats", [])
        key = (info.get("status"), *((s["name"], s["connected"], s["stand_in"]) for s in seats))
        if key == self.shown:
            return
        self.shown = key
        if info.get("status") == "lobby":
            title = f"Room {info.get('room')}: {info.get('title')}, in the lobby"
            self.console.print(Text(title, style="bold"), self.lobby_table(info))
            self.console.print(Text("Waiting for the host to start the game…", style="dim"))
            return
        if before.get("status") == "lobby":
            self.console.print(Text("The host has started the game.", style="bold"))
        old = {s["seat"]: s for s in before.get("seats", [])} if before.get("status") else {}
        for seat in seats:
            was = old.get(seat["seat"])
            if was is None or was["connected"] == seat["connected"]:
                continue
            said = "is back" if seat["connected"] else "dropped out (a bot stands in shortly)"
            self.console.print(seat_text(seat["seat"], self.names).append(f" {said}", "dim"))

    def lobby_table(self, info: dict[str, Any]) -> Table:
        """Seats: names, who hosts, which is yours, who is here."""
        table = Table(caption=f"{info.get('min_players')} to {info.get('max_players')} players")
        for column in ("Seat", "Name", "", "Here"):
            table.add_column(column)
        for seat in info.get("seats", []):
            notes = ["bot"] if seat.get("kind") == "bot" else []
            notes += ["host"] if seat.get("host") else []
            notes += ["you"] if seat["seat"] == self.seat else []
            here = "yes" if seat.get("connected") else "no"
            name = Text(str(seat["name"]))  # a Text, never markup: "[red]" is a name too
            table.add_row(seat_letter(seat["seat"]), name, ", ".join(notes), here)
        return table

    def show_state(self, state: dict[str, Any]) -> Outcome | None:
        """The events, then the board as this seat sees it; the ranking at the end."""
        self.state, self.version = state, int(state.get("version", self.version))
        for event in state.get("events", []):
            self.console.print(event_text(str(event.get("text", "")), self.names))
        self.console.rule()
        self.console.print(render_view(str(self.info.get("game", "")), state["view"], self.names))
        deadline, now = state.get("deadline"), state.get("server_time")
        self.deadline_at = None
        if isinstance(deadline, int) and isinstance(now, int) and now:
            # the server's clock is not ours: count down from what it says is left
            self.deadline_at = time.monotonic() + max(0, deadline - now) / 1000
            self.console.print(Text(f"Time left: {max(0, deadline - now) // 1000} s", "yellow"))
        if state.get("outcome") is None:
            return None
        outcome = msgspec.convert(state["outcome"], Outcome)
        self.console.print(ranking_table(outcome, self.names))
        return outcome

    def must_choose(self) -> bool:
        """This seat has a decision in the latest state and has not answered it yet."""
        state = self.state
        return (
            state is not None
            and state.get("outcome") is None
            and self.seat in state.get("pending", [])
            and bool(state.get("prompt") or state.get("legal"))
            and self.unacked is None
            and self.answered != state.get("version")
        )

    def prompt(self) -> Prompt:
        """The state's prompt; from a server that sends none, a pick among the legal actions."""
        assert self.state is not None
        typed = read_prompt(self.state.get("prompt"))
        if typed is not None:
            return typed
        view = self.state["view"]
        options = [Option(describe(a, view), a) for a in self.state.get("legal", [])]
        return Pick(question="Your move", options=options)

    def choose(self, socket: ClientConnection) -> None:
        """Show the prompt, read an answer, send it with a fresh client id."""
        assert self.state is not None and self.seat is not None
        prompt = self.prompt()
        show_prompt(self.console, prompt, seat_text(self.seat, self.names))
        action = self.read_answer(prompt)
        self.answered = self.state.get("version")
        if action is None:
            return  # time ran out: the server's next state asks again, if it still must
        client_id = uuid.uuid4().hex
        self.unacked = {"type": "act", "client_id": client_id, "action": action}
        socket.send(msgspec.json.encode(self.unacked).decode())

    def read_answer(self, prompt: Prompt) -> dict[str, Any] | None:
        """An answer to ``prompt``, asking again after anything unclear; None: time ran out."""
        while True:
            left = None if self.deadline_at is None else self.deadline_at - time.monotonic()
            seconds = None if left is None else max(0, math.ceil(left))
            try:
                raw = self.ask(hint(prompt, seconds), None if left is None else max(0.0, left))
                if raw is None:
                    return None
                return interpret(prompt, raw)
            except (EOFError, Abandoned):
                raise LeftTable from None
            except Unclear as exc:
                self.console.print(Text(str(exc), style="yellow"))


def join(
    console: Console,
    url: str,
    code: str,
    name: str | None,
    token: str | None,
    ask: Ask | None = None,
) -> Outcome:
    """Take a seat (or come back to one with its token) and play it to the end."""
    server = endpoint(url)
    try:
        if token is None:
            if not name:
                raise RemoteError("give --name to take a seat, or --token to come back to yours")
            granted = take_seat(server, code, name)
            code, token = granted.room, granted.token
            console.print(f"Seat {seat_letter(granted.seat)} in room {code} is yours.")
            console.print(Text(f"Your seat token: {token}", style="bold"), soft_wrap=True)
            again = f"talltales join {url} {code} --token {token}"
            console.print(Text(f"Come back with: {again}", "dim"), soft_wrap=True)
        elif not 16 <= len(token) <= 128:
            raise RemoteError("that is not a seat token (it was printed when you took the seat)")
        return RemoteGame(console, server, code, token, ask).run()
    except (LeftTable, KeyboardInterrupt):
        back = f"; come back with --token {token}" if token else ""
        console.print(f"\nYou left the table{back}.", soft_wrap=True)
        raise
