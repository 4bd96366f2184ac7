"""A room: its lobby (seats, host, options) and its game, with no sockets and no clock.

The room hub (hub.py) owns the sockets, timers and storage; everything here is synchronous
and changes nothing when it refuses.
"""

from __future__ import annotations

import enum
import secrets
from collections import deque
from collections.abc import Callable
from typing import Any

import msgspec

from talltales.bots import SearchBot, make_bot
from talltales.core.errors import (
    ActionRefused,
    GameOver,
    IllegalAction,
    MalformedAction,
    OptionsError,
)
from talltales.core.game import Event, Game, Seat
from talltales.core.match import Match
from talltales.core.prompt import Prompt, Write
from talltales.core.record import Entry, Record
from talltales.core.registry import get_game
from talltales.server.filter import carries_text, check_text, check_texts
from talltales.server.names import check_unique, name_keys, normal_name
from talltales.server.packs import check_choice, deal_packs, pinned
from talltales.server.protocol import BOT_PREFIX
from talltales.server.seats import SeatState, new_token, token_hash
from talltales.server.shown import Shown
from talltales.server.storage import EntryRow, RoomRow, SeatRow

RECENT_EVENTS = 256  # versions of events kept for clients that reconnect
MAX_SEARCH_DEPTH = 3  # bots think within a time budget: deeper would only spend all of it


class Status(enum.StrEnum):
    """Where a room stands."""

    LOBBY = "lobby"
    PLAYING = "playing"
    FINISHED = "finished"


class HostOnly(ActionRefused):
    """Only the host may do that."""

    code = "host-only"


class Room(Shown):
    """One room's lobby and game; every change bumps ``version``."""

    def __init__(self, code: str, game: Game[Any, Any], options: dict[str, Any], now: int) -> None:
        game.options(options)  # refuse bad options up front
        self.code = code
        self.game = game
        self.options = options
        self.packs: list[str] = []  # pack ids the host chose; none: the game's defaults
        self.family_filter = True
        self.join_url = ""
        self.seats: list[SeatState] = []
        self.host: Seat | None = None
        self.status = Status.LOBBY
        self.match: Match[Any, Any] | None = None
        self.seed = 0
        self.game_number = 0
        self.version = 0
        self.created = now
        self.updated = now
        self.applied: dict[tuple[Seat, str], int] = {}  # (seat, client id) -> version
        self.recent: deque[tuple[int, list[Event]]] = deque(maxlen=RECENT_EVENTS)
        self.asked: dict[Seat, tuple[list[Any], Prompt | None]] = {}  # as of ``asked_at``
        self.asked_at = -1

    # --- lobby -----------------------------------------------------------------------------
    def _lobby_only(self, what: str) -> None:
        if self.status is not Status.LOBBY:
            raise IllegalAction(f"{what} only in the lobby, before the game starts")

    def _host_only(self, seat: Seat | None, what: str) -> None:
        if seat is None or seat != self.host:
            raise HostOnly(f"only the host may {what}")

    def changed(self, now: int) -> int:
        """Count a change: a new version, and activity as of ``now``."""
        self.version += 1
        self.updated = now
        return self.version

    def join(self, name: str, now: int) -> tuple[Seat, str]:
        """Take the next free seat by name; returns the seat and its secret token."""
        self._lobby_only("people join")
        name = normal_name(name)
        check_text(name, self.family_filter)
        if len(self.seats) >= self.game.max_players:
            raise IllegalAction(f"{self.game.title} seats at most {self.game.max_players}")
        check_unique(name, [s.name for s in self.seats])
        token, hashed = new_token()
        self.seats.append(SeatState(name, token_hash=hashed))
        seat = len(self.seats) - 1
        if self.host is None:
            self.host = seat
        self.changed(now)
        return seat, token

    def add_bot(self, by: Seat | None, spec: str, now: int) -> Seat:
        """Host: seat a bot."""
        self._host_only(by, "add bots")
        self._lobby_only("bots are added")
        try:  # refuse unknown bots now, not at the first move
            bot = make_bot(spec)
        except (OptionsError, ValueError) as exc:
            raise IllegalAction(f"cannot seat a bot {spec!r}: {exc}") from exc
        if isinstance(bot, SearchBot) and bot.depth > MAX_SEARCH_DEPTH:
            raise IllegalAction(f"a search bot looks at most {MAX_SEARCH_DEPTH} moves ahead")
        if len(self.seats) >= self.game.max_players:
            raise IllegalAction(f"{self.game.title} seats at most {self.game.max_players}")
        taken = {key for s in self.seats for key in name_keys(s.name)}
        number = next(n for n in range(1, 99) if taken.isdisjoint(name_keys(f"Bot {n}")))
        self.seats.append(SeatState(f"Bot {number}", bot=spec))
        self.changed(now)
        return len(self.seats) - 1

    def remove_seat(self, by: Seat | None, seat: Seat, now: int, *, by_host: bool = True) -> None:
        """Host: remove a bot or kick a player from the lobby (seats after it move up);
        with ``by_host`` False, a player leaving by their own choice."""
        if by_host:
            self._host_only(by, "remove seats")
        self._lobby_only("seats are removed")
        if not 0 <= seat < len(self.seats) or (by_host and seat == self.host):
            raise IllegalAction("there is no such seat to remove")
        del self.seats[seat]
        if self.host is not None and self.host > seat:
            self.host -= 1
        self.changed(now)

    def set_options(
        self,
        by: Seat | None,
        options: dict[str, Any],
        family: bool | None,
        now: int,
        packs: list[str] | None = None,
    ) -> None:
        """Host: change options and house rules (checked against the game), the packs to
        deal (shipped ids; empty: the defaults) and the filter, in the lobby."""
        self._host_only(by, "change the options")
        self._lobby_only("options change")
        merged = {**self.options, **options}
        try:
            self.game.options(merged)
        except OptionsError as exc:
            raise IllegalAction(exc.reason) from exc
        chosen = self.packs if packs is None else check_choice(self.game, packs)
        self.options, self.packs = merged, chosen
        if family is not None:
            self.family_filter = family
        self.changed(now)

    def start(self, by: Seat | None, now: int) -> list[EntryRow]:
        """Host: deal the game to the seats as they are; returns the log's first entries."""
        self._host_only(by, "start the game")
        self._lobby_only("the game starts")
        if len(self.seats) < self.game.min_players:
            raise IllegalAction(f"{self.game.title} needs at least {self.game.min_players} players")
        return self._deal(now, rematch=False)

    def rematch(self, by: Seat | None, now: int) -> list[EntryRow]:
        """Host: a new game with the same seats once this one is over; returns first entries."""
        self._host_only(by, "offer a rematch")
        if self.status is not Status.FINISHED:
            raise IllegalAction("a rematch is offered once the game is over")
        return self._deal(now, rematch=True)

    def _deal(self, now: int, rematch: bool) -> list[EntryRow]:
        packs = deal_packs(self.game, self.packs)  # read afresh: each game pins its own
        seed = secrets.randbits(63)
        match = Match(self.game, len(self.seats), self.options, seed, packs)
        # nothing is changed before this point, so a deal refused above leaves the room as is
        self.seed, self.match, self.status = seed, match, Status.PLAYING
        self.game_number += rematch
        self.applied.clear()
        self.recent.clear()
        version = self.changed(now)
        # chance a game resolves while being set up (a first draw) is part of its log too
        return [
            EntryRow(i, e.seat, e.action, e.time, version)
            for i, e in enumerate(self.match.record.entries)
        ]

    # --- the game --------------------------------------------------------------------------
    def act(
        self, seat: Seat, client_id: str, action: dict[str, Any], now: int
    ) -> tuple[list[Event], list[EntryRow]] | None:
        """Apply a person's action once; None when this client id was applied already."""
        if client_id.startswith(BOT_PREFIX):
            raise MalformedAction(f"client ids starting with {BOT_PREFIX!r} are the server's")
        if (seat, client_id) in self.applied:
            return None
        return self._submit(seat, client_id, action, now)

    def bot_act(
        self, seat: Seat, action: dict[str, Any], now: int
    ) -> tuple[list[Event], list[EntryRow]]:
        """Apply a bot's move; never taken for a resend, so it can never be dropped."""
        return self._submit(seat, f"{BOT_PREFIX}{self.version}", action, now, remember=False)

    def _submit(
        self, seat: Seat, client_id: str, action: dict[str, Any], now: int, remember: bool = True
    ) -> tuple[list[Event], list[EntryRow]]:
        match = self._playing()
        # every text a prompt asks for is screened; an action that types none (most of
        # them) needs no prompt built to know it
        if self.family_filter and carries_text(action) and isinstance(self.prompt(seat), Write):
            check_texts(action, True)
        before = len(match.record.entries)
        events = match.submit(seat, action, now)
        return events, self._accepted(before, now, client_id, seat if remember else None)

    def advance(
        self, step: Callable[[], list[Event]], now: int
    ) -> tuple[list[Event], list[EntryRow]]:
        """Let the driver move the game (a due tick); empty when it logged nothing."""
        if self.status is not Status.PLAYING or self.match is None:
            return [], []
        before = len(self.match.record.entries)
        events = step()
        if len(self.match.record.entries) == before:
            return [], []
        return events, self._accepted(before, now, None, None)

    def _playing(self) -> Match[Any, Any]:
        if self.status is Status.FINISHED:
            raise GameOver("the game is over")
        if self.status is not Status.PLAYING or self.match is None:
            raise IllegalAction("the game has not started yet")
        return self.match

    def _accepted(
        self, before: int, now: int, client_id: str | None, seat: Seat | None
    ) -> list[EntryRow]:
        assert self.match is not None
        version = self.changed(now)
        if client_id is not None and seat is not None:
            self.applied[(seat, client_id)] = version
        if self.match.is_over():
            self.status = Status.FINISHED
        entries = self.match.record.entries[before:]
        return [
            EntryRow(before + i, e.seat, e.action, e.time, version, client_id if i == 0 else None)
            for i, e in enumerate(entries)
        ]

    def remember(self, events: list[Event]) -> None:
        """Keep a version's events for clients that reconnect having missed them."""
        self.recent.append((self.version, events))

    def played_by_bot(self, seat: Seat) -> bool:
        """Whether a bot plays the seat now: a bot's seat, or a stand-in for its person."""
        held = self.seats[seat] if 0 <= seat < len(self.seats) else None
        return held is not None and (held.is_bot or held.stand_in)

    def missed(self, since: int) -> list[Event] | None:
        """Events after version ``since``, or None when they are no longer kept."""
        if since >= self.version:
            return []
        if not self.recent or self.recent[0][0] > since + 1:
            return None
        return [event for version, events in self.recent if version > since for event in events]

    def seat_for_token(self, token: str) -> Seat | None:
        """The seat a token holds here, if any."""
        hashed = token_hash(token)
        for i, s in enumerate(self.seats):
            if s.token_hash is not None and secrets.compare_digest(s.token_hash, hashed):
                return i
        return None

    # --- storage -------------------------------------------------------------------------
    def row(self) -> RoomRow:
        """The room as stored."""
        return RoomRow(
            code=self.code,
            game=self.game.id,
            options=dict(self.options),
            seats=[SeatRow(s.name, s.token_hash, s.bot) for s in self.seats],
            host=self.host,
            status=str(self.status),
            version=self.version,
            created=self.created,
            updated=self.updated,
            family_filter=self.family_filter,
            seed=self.seed,
            game_number=self.game_number,
            join_url=self.join_url,
            packs=list(self.packs),
            content=list(self.match.record.content) if self.match is not None else [],
        )

    @classmethod
    def restore(cls, row: RoomRow, entries: list[EntryRow]) -> Room:
        """Rebuild a room from its row and replay its game's log."""
        room = cls(row.code, get_game(row.game), row.options, row.created)
        room.seats = [SeatState(s.name, s.token_hash, s.bot) for s in row.seats]
        room.host, room.family_filter = row.host, row.family_filter
        room.seed, room.game_number = row.seed, row.game_number
        room.status, room.join_url, room.packs = Status(row.status), row.join_url, row.packs
        room.updated = max([row.updated] + [e.time for e in entries])  # moves count as activity
        room.version = max([row.version] + [e.version for e in entries])
        if room.status is not Status.LOBBY:
            record = Record(
                game=row.game,
                players=len(row.seats),
                seed=row.seed,
                options=msgspec.to_builtins(room.game.options(row.options)),
                content=pinned(room.game, row.content),
                entries=[Entry(e.seat, e.action, e.time) for e in entries],
            )
            room.match = Match.restore(room.game, record)
            room.applied = {
                (e.seat, e.client_id): e.version for e in entries if e.client_id is not None
            }
            room.status = Status.FINISHED if room.match.is_over() else Status.PLAYING
        return room
