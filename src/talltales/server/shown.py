"""What clients receive of a room: the lobby for everyone, the game as each seat may see it.

Each seat's legal actions and prompt are built once per version of the room, however many
messages need them (the family filter checking a person's text, then every state sent).
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import StrEnum
from typing import Any

import msgspec

from talltales.core.game import Event, Game, Seat
from talltales.core.match import Match
from talltales.core.prompt import Prompt
from talltales.server.packs import shown_packs
from talltales.server.protocol import EventOut, RoomInfo, SeatInfo, StateOut
from talltales.server.seats import SeatState


class Shown:
    """What a room shows (rooms.Room is one); nothing here changes the room's game."""

    code: str
    game: Game[Any, Any]
    options: dict[str, Any]
    packs: list[str]
    family_filter: bool
    join_url: str
    seats: list[SeatState]
    host: Seat | None
    status: StrEnum
    match: Match[Any, Any] | None
    version: int
    asked: dict[Seat, tuple[list[Any], Prompt | None]]  # each seat's, as of ``asked_at``
    asked_at: int

    def info(self) -> RoomInfo:
        """The lobby as everyone sees it (names are shown as typed, escaped by clients)."""
        return RoomInfo(
            room=self.code,
            version=self.version,
            game=self.game.id,
            title=self.game.title,
            status=str(self.status),
            options=dict(self.options),
            family_filter=self.family_filter,
            seats=[
                SeatInfo(
                    i,
                    s.name,
                    "bot" if s.is_bot else "human",
                    s.is_bot or s.connections > 0,
                    s.stand_in,
                    i == self.host,
                    s.bot,
                )
                for i, s in enumerate(self.seats)
            ],
            min_players=self.game.min_players,
            max_players=self.game.max_players,
            join_url=self.join_url,
            packs=(
                [ref.id for ref in self.match.record.content]
                if self.match is not None
                else shown_packs(self.game, self.packs)
            ),
        )

    def state_for(self, seat: Seat | None, events: list[Event], now: int) -> StateOut | None:
        """The game as ``seat`` (None: the table and spectators) may see it, with its events."""
        return self.states_for([seat], events, now).get(seat)

    def states_for(
        self, seats: Iterable[Seat | None], events: list[Event], now: int
    ) -> dict[Seat | None, StateOut]:
        """What each of ``seats`` may see, sharing the work that is the same for all."""
        if self.match is None:
            return {}
        match, game, state = self.match, self.match.game, self.match.state
        outcome = game.outcome(state)
        shared = msgspec.to_builtins(outcome) if outcome else None
        pending = sorted(match.pending())
        deadline = game.deadline(state) if outcome is None else None
        return {
            seat: StateOut(
                room=self.code,
                version=self.version,
                view=view,  # a Struct: encoded once, straight to JSON
                events=[
                    EventOut(e.kind, e.text, dict(e.data)) for e in events if e.visible_to(seat)
                ],
                pending=pending,
                legal=self.legal(seat) if seat in pending else [],
                prompt=self.prompt(seat) if seat in pending else None,
                deadline=deadline,
                outcome=shared,
                server_time=now,
            )
            for seat, view in match.views(seats).items()
        }

    def prompt(self, seat: Seat) -> Prompt | None:
        """What ``seat`` is asked now (None: nothing), built once per version."""
        return self._asked(seat)[1]

    def legal(self, seat: Seat) -> list[Any]:
        """What ``seat`` may do now, listed once per version."""
        return self._asked(seat)[0]

    def _asked(self, seat: Seat) -> tuple[list[Any], Prompt | None]:
        if self.asked_at != self.version:  # every change of the game bumps the version
            self.asked.clear()
            self.asked_at = self.version
        if seat not in self.asked:
            match = self.match
            self.asked[seat] = (
                (match.legal_actions(seat), match.prompt(seat)) if match else ([], None)
            )
        return self.asked[seat]
