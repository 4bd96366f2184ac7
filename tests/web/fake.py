"""A fake room behind the page's WebSocket, for screens the real games cannot reach on cue.

The page is the real client, served by the real server; only its socket is answered here
(Playwright's ``route_web_socket``): hello gets welcome, room and the current state, an act
gets an ack (or the refusal the test queued), and the test sends new states or drops the
connection whenever it likes. Every act the page sends is kept, so tests check what a tap
really sent.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from typing import Any

from playwright.sync_api import BrowserContext, Page, WebSocketRoute

CODE = "FAKE"


def seats(*names: str, bots: tuple[int, ...] = ()) -> list[dict[str, Any]]:
    """Seat entries of a room message; seat 0 is the host."""
    return [
        {
            "seat": i,
            "name": name,
            "kind": "bot" if i in bots else "human",
            "connected": True,
            "stand_in": False,
            "host": i == 0,
            "bot": "greedy" if i in bots else None,
        }
        for i, name in enumerate(names)
    ]


@dataclass
class FakeRoom:
    """One room: its seats, the state every socket is shown, and what the page sent."""

    game: str
    title: str
    seats: list[dict[str, Any]]
    seat: int | None  # the page's seat (None: the table screen)
    state: dict[str, Any]
    status: str = "playing"
    acts: list[dict[str, Any]] = field(default_factory=list)
    hellos: list[dict[str, Any]] = field(default_factory=list)
    refusals: list[dict[str, str]] = field(default_factory=list)  # answers to the next acts
    sockets: list[WebSocketRoute] = field(default_factory=list)

    def room_message(self) -> dict[str, Any]:
        return {
            "type": "room",
            "room": CODE,
            "version": self.state.get("version", 0),
            "game": self.game,
            "title": self.title,
            "status": self.status,
            "options": {},
            "family_filter": True,
            "seats": self.seats,
            "min_players": 2,
            "max_players": 6,
        }

    def state_message(self) -> dict[str, Any]:
        return {"type": "state", "room": CODE, "server_time": int(time.time() * 1000), **self.state}

    # --- the socket -------------------------------------------------------------------------
    def attach(self, target: Page | BrowserContext) -> None:
        target.route_web_socket("**/ws", self._accept)

    def _accept(self, ws: WebSocketRoute) -> None:
        self.sockets.append(ws)
        ws.on_message(lambda raw: self._on_message(ws, raw))

    def _send(self, ws: WebSocketRoute, message: dict[str, Any]) -> None:
        ws.send(json.dumps(message))

    def _on_message(self, ws: WebSocketRoute, raw: str | bytes) -> None:
        message = json.loads(raw)
        kind = message.get("type")
        if kind == "hello":
            self.hellos.append(message)
            now = int(time.time() * 1000)
            version = self.state.get("version", 0)
            welcome = {"type": "welcome", "room": CODE, "seat": self.seat, "version": version}
            self._send(ws, {**welcome, "server_time": now})
            self._send(ws, self.room_message())
            self._send(ws, self.state_message())
        elif kind == "act":
            self.acts.append(message["action"])
            if self.refusals:
                refusal = self.refusals.pop(0)
                self._send(ws, {"type": "error", "client_id": message["client_id"], **refusal})
            else:
                ack = {"type": "ack", "client_id": message["client_id"]}
                self._send(ws, {**ack, "version": self.state.get("version", 0)})
        elif kind == "ping":
            self._send(ws, {"type": "pong", "server_time": int(time.time() * 1000)})

    # --- what the test does -----------------------------------------------------------------
    @property
    def live(self) -> WebSocketRoute:
        """The page's current socket."""
        assert self.sockets, "the page never connected"
        return self.sockets[-1]

    def push(self, **changes: Any) -> None:
        """A new state (the version goes up) sent to the page, as after another seat's move."""
        self.state = {**self.state, **changes, "version": self.state.get("version", 0) + 1}
        self._send(self.live, self.state_message())

    def push_room(self, **changes: Any) -> None:
        """A new room message (its status, say) sent to the page."""
        for key, value in changes.items():
            setattr(self, key, value)
        self._send(self.live, self.room_message())

    def drop(self) -> None:
        """The server side closes the connection, as a network blip would."""
        self.live.close(code=1011, reason="gone")


def open_fake(page: Page, base: str, room: FakeRoom) -> None:
    """Open the phone (with a seat token saved, as after joining) or the table for the room."""
    room.attach(page)
    if room.seat is None:
        page.goto(f"{base}/#/table/{CODE}")
        return
    seat = {"token": "t" * 32, "seat": room.seat, "name": room.seats[room.seat]["name"], "at": 1}
    page.add_init_script(
        f"localStorage.setItem('talltales:seat:{CODE}', {json.dumps(json.dumps(seat))});"
    )
    page.goto(f"{base}/#/room/{CODE}")
