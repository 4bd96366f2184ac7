"""Per-address limits (open sockets, wrong room codes, rooms created, reads) and who is asking."""

from __future__ import annotations

import ipaddress
import time
from collections import Counter, deque
from urllib.parse import urlsplit

LOOPBACK_HOSTS = ("localhost", "127.0.0.1", "::1")


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


def prefix(address: str) -> str:
    """The address's network: its /24 for IPv4, its /64 for IPv6 (itself if not an IP)."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address
    bits = 24 if ip.version == 4 else 64
    return str(ipaddress.ip_network(f"{ip}/{bits}", strict=False))


class Guard:
    """Counts what each address (and its network) does and says when it has done too much."""

    def __init__(
        self,
        max_connections: int,
        failures_per_minute: int,
        rooms_per_minute: int = 30,
        failures_per_prefix: int = 60,
        reads_per_minute: int = 600,
    ) -> None:
        self.max_connections = max_connections
        self.open: Counter[str] = Counter()
        self.failures = PerMinute(failures_per_minute)
        self.prefix_failures = PerMinute(failures_per_prefix)
        self.creations = PerMinute(rooms_per_minute)
        self.reads = PerMinute(reads_per_minute)

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
        self.prefix_failures.note(prefix(address))

    def blocked(self, address: str) -> bool:
        """Whether this address, or its network, tried too many unknown codes lately."""
        return self.failures.over(address) or self.prefix_failures.over(prefix(address))

    def read(self, address: str) -> bool:
        """Count a read of a finished room; False once the address read too much lately."""
        if self.reads.over(address):
            return False
        self.reads.note(address)
        return True


def client_address(peer: str | None, forwarded: str | None, trusted: list[str]) -> str:
    """Who is asking: the peer, or the client a trusted proxy names in X-Forwarded-For."""
    address = peer or "unknown"
    if not forwarded or not _trusted(address, trusted):
        return address
    for hop in reversed([h.strip() for h in forwarded.split(",") if h.strip()]):
        address = hop  # the nearest hop a trusted proxy did not add is the client
        if not _trusted(hop, trusted):
            break
    return address


def _trusted(address: str, trusted: list[str]) -> bool:
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    for entry in trusted:
        try:
            if ip in ipaddress.ip_network(entry, strict=False):
                return True
        except ValueError:
            continue
    return False


def allowed_hosts(configured: list[str], public_url: str, host: str) -> set[str]:
    """Host names the server answers to: the configured ones, or the loopback names, the
    public URL's host and a listening address that is not a wildcard."""
    names = {name.lower().strip("[]") for name in configured}
    if not configured:
        names.update(LOOPBACK_HOSTS)
        if public_url:
            names.add((urlsplit(public_url).hostname or "").lower())
        if host not in ("0.0.0.0", "::", ""):
            names.add(host.lower().strip("[]"))
    return names


def host_allowed(header: str | None, names: set[str]) -> bool:
    """Whether a Host header names this server (port aside); ``*`` allows any."""
    if "*" in names:
        return True
    if not header:
        return False
    hostname = urlsplit(f"//{header}").hostname
    return hostname is not None and hostname.lower() in names


def origin_allowed(
    origin: str | None, host: str | None, allowed: list[str], scheme: str = "http"
) -> bool:
    """Browsers send Origin: accept our own origin (same scheme and host) and the
    configured ones; tools send none."""
    if origin is None:
        return True
    if origin in allowed:
        return True
    parts = urlsplit(origin)
    own_scheme = {"ws": "http", "wss": "https"}.get(scheme, scheme)
    return host is not None and parts.scheme == own_scheme and parts.netloc.lower() == host.lower()
