"""Clients that play games over real sockets, shared by the server and terminal tests.

``play_first_legal`` answers every decision of one seat with its first legal action.
``Player`` answers with a random legal action over a socket the test holds, and can stop
mid-game, carry on over a new socket and be looked into. ``SeatPlayer`` owns its seat's
sockets and plays to the end by a ``Policy``, failing at the first refusal; ``Table`` seats
a room for it and ``start`` starts that room.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Callable
from typing import Any

from fixture_game import FIB_OFF

from .harness import Client, LiveServer
from .support import NAMES, Socket, open_room

Stop = Callable[[dict[str, Any]], bool]
# state message -> the action to send now, or None to wait for a later state
Policy = Callable[[dict[str, Any], int, random.Random], dict[str, Any] | None]


async def play_first_legal(
    client: Client, seat: int, prefix: str, timeout: float = 10.0, stop: Stop | None = None
) -> dict[str, Any]:
    """Answer every decision of ``seat`` with the first legal action (client ids ``prefix``
    and a count) until the game ends, or until a state passes ``stop``; that last state."""
    count = 0
    while True:
        message = await client.until("state", timeout)
        if message.get("outcome") or (stop is not None and stop(message)):
            return message
        if seat in message["pending"] and message["legal"]:
            count += 1
            act = {"type": "act", "client_id": f"{prefix}{count}", "action": message["legal"][0]}
            await client.send(act)


class Player:
    """A person at a table: answers with a legal action from the list the server sends.

    ``skip`` is the chance of letting a timed decision run out instead of answering.
    """

    def __init__(self, client: Client, seat: int, seed: int, skip: float = 0.0) -> None:
        self.client = client
        self.seat = seat
        self.rng = random.Random(seed)
        self.skip = skip
        self.count = 0
        self.outstanding: str | None = None
        self.acted: set[int] = set()
        self.latest: dict[str, Any] | None = None
        self.acks: list[dict[str, Any]] = []
        self.errors: list[dict[str, Any]] = []
        self.sent: list[dict[str, Any]] = []

    def resume(self, client: Client, state: dict[str, Any]) -> None:
        """Carry on over a new socket from ``state`` (answers on the old one are lost)."""
        self.client, self.latest = client, state
        self.outstanding, self.acted = None, set()

    async def settle(self) -> None:
        """Read until the answer to the last action sent (ack or refusal) has arrived."""
        while self.outstanding is not None:
            message = await self.client.recv()
            if message["type"] in ("ack", "error") and message.get("client_id") is not None:
                (self.acks if message["type"] == "ack" else self.errors).append(message)
                if message["client_id"] == self.outstanding:
                    self.outstanding = None

    def _due(self, state: dict[str, Any]) -> bool:
        return (
            self.outstanding is None
            and state["version"] not in self.acted
            and self.seat in state["pending"]
            and bool(state["legal"])
            and not state.get("outcome")
        )

    async def act(self, state: dict[str, Any]) -> None:
        """Answer this state with a legal action (or let its timer run, sometimes)."""
        self.acted.add(state["version"])
        if state.get("deadline") is not None and self.rng.random() < self.skip:
            return
        self.count += 1
        client_id = f"p{self.seat}-{self.count}"
        message = {"type": "act", "client_id": client_id, "action": self.rng.choice(state["legal"])}
        self.outstanding = client_id
        self.sent.append(message)
        await self.client.send(message)

    async def play(self, stop: Stop | None = None, act: bool = True) -> dict[str, Any]:
        """Play until the game is over (or ``stop`` says so); returns the last state seen."""
        if self.latest is not None and (
            self.latest.get("outcome") or (stop is not None and stop(self.latest))
        ):
            return self.latest
        if act and self.latest is not None and self._due(self.latest):
            await self.act(self.latest)
        while True:
            message = await self.client.recv()
            kind = message["type"]
            if kind == "state":
                self.latest = message
            elif kind in ("ack", "error") and message.get("client_id") is not None:
                (self.acks if kind == "ack" else self.errors).append(message)
                if message["client_id"] != self.outstanding:
                    continue
                self.outstanding = None
            else:
                continue
            if self.latest is None:
                continue
            if self.latest.get("outcome") or (stop is not None and stop(self.latest)):
                return self.latest
            if act and self._due(self.latest):
                await self.act(self.latest)


# --- policies for SeatPlayer ---------------------------------------------------------------
def any_legal(state: dict[str, Any], seat: int, rng: random.Random) -> dict[str, Any] | None:
    """Would You Believe It!: a random legal action."""
    choice: dict[str, Any] = rng.choice(state["legal"])
    return choice


def bluff_text(nonce: str, seat: int, round_: int) -> str:
    """A bluff no other seat, round or room writes (a findable marker)."""
    return f"tale {nonce} s{seat} r{round_}"


def fib_off_policy(nonce: str) -> Policy:
    """The fixture game, played so that no submission can be refused by another's.

    Round 0: the first seat after the reader disputes and the others wait; later rounds all
    pass at once. Everyone writes a marked bluff at once (after playing a steal card they
    hold); in round 1 the reader strikes one bluff; everyone votes at once.
    """

    def choose(state: dict[str, Any], seat: int, rng: random.Random) -> dict[str, Any] | None:
        view, legal = state["view"], state["legal"]
        first = {a["type"]: a for a in reversed(legal)}  # the first action of each type
        round_ = view["round"]
        match view["phase"]:
            case "dispute":
                if round_ == 0:
                    disputer = (view["reader"] + 1) % len(view["scores"])
                    return {"type": "dispute"} if seat == disputer else None
                return {"type": "pass"}
            case "write":
                if "steal" in first:
                    return dict(first["steal"])
                return {"type": "bluff", "text": bluff_text(nonce, seat, round_)}
            case "judge":
                if round_ == 1 and not view["struck"] and "strike" in first:
                    return dict(first["strike"])
                return {"type": "accept"}
            case _:  # claim a card with a stake, or vote
                choice: dict[str, Any] = rng.choice(legal)
                return choice

    return choose


# --- the driver that owns its sockets ------------------------------------------------------
class SeatPlayer:
    """One seat played by a real client to the end of the game.

    It acts only on states that already include its previous action (their version is at
    least that action's ack), so it never submits the same decision twice; every refusal
    fails the test at once. ``reconnect`` (a test on a state) makes it drop its socket once
    and come back with an older ``last_version``, so the server replays missed events.
    """

    def __init__(
        self,
        server: LiveServer,
        code: str,
        seat: int,
        token: str,
        policy: Policy,
        seed: int,
        reconnect: Callable[[dict[str, Any]], bool] | None = None,
    ) -> None:
        self.server, self.code, self.seat, self.token = server, code, seat, token
        self.policy, self.rng, self.reconnect = policy, random.Random(seed), reconnect
        self.clients: list[Socket] = []
        self.acks: list[dict[str, Any]] = []
        self.sent: dict[str, dict[str, Any]] = {}  # client id -> action
        self.based: dict[str, int] = {}  # client id -> version of the state it answered
        self.final: dict[str, Any] | None = None
        self.reconnected = False

    @property
    def frames(self) -> list[str]:
        """Every frame this seat received, over all its sockets, in order."""
        return [frame for client in self.clients for frame in client.frames]

    async def _connect(self, last_version: int = -1) -> Socket:
        client = Socket(self.server.ws)
        await client.__aenter__()
        self.clients.append(client)
        await client.hello(self.code, self.token, last_version)
        return client

    async def play(self) -> None:
        """Play until the outcome arrives and every action sent is acknowledged."""
        client = await self._connect()
        try:
            await self._loop(client)
        finally:
            for each in self.clients:
                await each.__aexit__()

    async def _loop(self, client: Socket) -> None:
        latest: dict[str, Any] | None = None
        waiting: str | None = None  # the client id of the action awaiting its ack
        floor = 0  # only states at least this new include our last action
        while True:
            message = await client.recv(30)
            match message["type"]:
                case "state":
                    latest = message
                case "ack":
                    assert message["client_id"] == waiting, (self.seat, message)
                    assert not message.get("duplicate"), message
                    self.acks.append(message)
                    waiting, floor = None, message["version"]
                case "error":
                    raise AssertionError(f"room {self.code} seat {self.seat} refused: {message}")
            if latest is None or waiting is not None or latest["version"] < floor:
                continue
            if latest.get("outcome"):
                self.final = latest
                return
            if self.reconnect and not self.reconnected and self.reconnect(latest):
                self.reconnected = True
                await client.__aexit__()
                client = await self._connect(max(0, latest["version"] - 3))
                latest = None
                continue
            if self.seat not in latest["pending"] or not latest["legal"]:
                continue
            action = self.policy(latest, self.seat, self.rng)
            if action is None:
                continue
            waiting = f"s{self.seat}-{len(self.sent) + 1}"
            self.sent[waiting], self.based[waiting] = action, latest["version"]
            await client.send({"type": "act", "client_id": waiting, "action": action})


class Table:
    """A room whose seats were all taken over HTTP, ready for a ``SeatPlayer`` per seat."""

    def __init__(self, server: LiveServer, game: str, seats: int, options: dict[str, Any]):
        self.game, self.options, self.nonce = game, options, secrets.token_hex(4)
        self.code, grants = open_room(server, game, *NAMES[:seats], options=options)
        self.tokens: list[str] = [grant["token"] for grant in grants]

    def policy(self) -> Policy:
        return fib_off_policy(self.nonce) if self.game == FIB_OFF.id else any_legal


async def start(server: LiveServer, code: str, host_token: str) -> None:
    """The host starts the game from a socket of its own."""
    async with Socket(server.ws) as host:
        await host.hello(code, host_token)
        await host.send({"type": "start"})
        await host.until("state")
