"""Per-address limits: open sockets, wrong room codes (join-code guessing), rooms created."""

from __future__ import annotations

import time
from collections import Counter, deque
from urllib.parse import urlsplit


class PerMinute:
    """How often each address did something in the last minute, against a limit."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.stamps: dict[str, deque[float]] = {}

    def note(self, address: str) -> None:
        """Count one occurrence now."""
        self.stamps.setdefault(address, deque()).append(time.monotonic())

    def over(self, address: str) -> bool:
        """Whether the address reached the limit within the last minute."""
        stamps = self.stamps.get(address)
        if not stamps:
            return False
        cutoff = time.monotonic() - 60
        while stamps and stamps[0] < cutoff:
            stamps.popleft()
        if not stamps:
            del self.stamps[address]  # forget addresses that went quiet
            return False
        return len(stamps) >= self.limit


class Guard:
    """Counts what each address does and says when it has done too much."""

    def __init__(
        self, max_connections: int, failures_per_minute: int, rooms_per_minute: int = 30
    ) -> None:
        self.max_connections = max_connections
        self.open: Counter[str] = Counter()
        self.failures = PerMinute(failures_per_minute)
        self.creations = PerMinute(rooms_per_minute)

    def connect(self, address: str) -> bool:
        """Count a new socket; False (and not counted) past the per-address limit."""
        if self.open[address] >= self.max_connections:
            return False
        self.open[address] += 1
        return True

    def disconnect(self, address: str) -> None:
        """A socket from this address closed."""
        self.open[address] -= 1
        if self.open[address] <= 0:
            del self.open[address]

    def failed(self, address: str) -> None:
        """An unknown room code was tried."""
        self.failures.note(address)

    def blocked(self, address: str) -> bool:
        """Whether this address tried too many unknown codes in the last minute."""
        return self.failures.over(address)


def origin_allowed(origin: str | None, host: str | None, allowed: list[str]) -> bool:
    """Browsers send Origin: accept our own origin and the configured ones; tools send none."""
    if origin is None:
        return True
    if origin in allowed:
        return True
    return host is not None and urlsplit(origin).netloc.lower() == host.lower()
