"""Finished rooms read back from storage, kept in memory so that reading them is cheap.

A finished room that has left the hub (nobody connected for the idle time) is read over HTTP
from its stored log; replaying that log costs milliseconds of the event loop's CPU, taken from
every live room. Once replayed, it is kept here: a finished room no longer in the hub never
changes (only live rooms take actions or rematches, and a new room never reuses a code that
storage holds), so the copy stays exact. The most recently read are kept, up to a bound;
one evicted is simply replayed again when next read.
"""

from __future__ import annotations

from collections import OrderedDict

from talltales.server.rooms import Room

FINISHED_ROOMS = 256  # finished rooms kept; a few tens of kilobytes each


class FinishedRooms:
    """A bounded, least recently read first out, set of finished rooms by code."""

    def __init__(self, capacity: int | None = None) -> None:
        self.capacity = FINISHED_ROOMS if capacity is None else capacity
        self.rooms: OrderedDict[str, Room] = OrderedDict()

    def get(self, code: str) -> Room | None:
        """The kept room, now the most recently read; None when it is not kept."""
        room = self.rooms.get(code)
        if room is not None:
            self.rooms.move_to_end(code)
        return room

    def keep(self, room: Room) -> None:
        """Keep a finished room read back from storage, evicting the least recently read."""
        self.rooms[room.code] = room
        self.rooms.move_to_end(room.code)
        while len(self.rooms) > max(self.capacity, 0):
            self.rooms.popitem(last=False)

    def forget(self, code: str) -> None:
        """Drop a room (it is live again, or gone)."""
        self.rooms.pop(code, None)

    def __len__(self) -> int:
        return len(self.rooms)
