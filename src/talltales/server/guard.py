"""Per-address limits: open sockets, and wrong room codes (join-code guessing)."""

from __future__ import annotations

import time
from collections import Counter, deque
from urllib.parse import urlsplit


class Guard:
    """Counts what each address does and says when it has done too much."""

    def __init__(self, max_connections: int, failures_per_minute: int) -> None:
        self.max_connections = max_connections
        self.failures_per_minute = failures_per_minute
        self.open: Counter[str] = Counter()
        self.failures: dict[str, deque[float]] = {}

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
        self.failures.setdefault(address, deque()).append(time.monotonic())

    def blocked(self, address: str) -> bool:
        """Whether this address tried too many unknown codes in the last minute."""
        stamps = self.failures.get(address)
        if not stamps:
            return False
        cutoff = time.monotonic() - 60
        while stamps and stamps[0] < cutoff:
            stamps.popleft()
        return len(stamps) >= self.failures_per_minute


def origin_allowed(origin: str | None, host: str | None, allowed: list[str]) -> bool:
    """Browsers send Origin: accept our own origin and the configured ones; tools send none."""
    if origin is None:
        return True
    if origin in allowed:
        return True
    return host is not None and urlsplit(origin).netloc.lower() == host.lower()
