"""One client socket as the hub sees it: an outgoing queue, a seat, a message budget."""

from __future__ import annotations

import asyncio
import time
from abc import ABC, abstractmethod

from talltales.server.protocol import ServerMessage, encode


class TokenBucket:
    """A per-connection message budget: ``rate`` a second on average, ``burst`` at once."""

    def __init__(self, rate: float, burst: int) -> None:
        self.rate, self.burst = rate, float(burst)
        self.tokens, self.stamp = float(burst), time.monotonic()

    def take(self) -> bool:
        """Spend one message; False once the budget is exhausted."""
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


class Connection(ABC):
    """A client: messages queue here and one writer task sends them in order."""

    def __init__(self, address: str, queue_limit: int) -> None:
        self.address = address
        self.room: str | None = None
        self.seat: int | None = None
        self.queue: asyncio.Queue[bytes | None] = asyncio.Queue()
        self.queue_limit = queue_limit
        self.closed = False
        self.close_code = 1008  # what the writer closes with once the queue is finished
        self.flushed = asyncio.Event()  # the writer has stopped: nothing more will be sent

    def send(self, message: ServerMessage) -> None:
        """Queue a message; a client that lets too many pile up is dropped."""
        self.send_encoded(encode(message))

    def send_encoded(self, data: bytes) -> None:
        """Queue an already encoded message (one encoding serves many sockets)."""
        if self.closed:
            return
        if self.queue.qsize() >= self.queue_limit:
            self.closed = True
            self.queue.put_nowait(None)
            return
        self.queue.put_nowait(data)

    def finish(self, code: int = 1008) -> None:
        """Close with ``code`` once everything queued so far has been sent."""
        if not self.closed:
            self.close_code = code
            self.queue.put_nowait(None)

    async def writer(self) -> None:
        """Send queued messages until the connection closes."""
        try:
            while True:
                data = await self.queue.get()
                if data is None:
                    await self.close(self.close_code)
                    return
                try:
                    await self.transmit(data)
                except Exception:  # the peer went away; the reader side notices and cleans up
                    self.closed = True
                    return
        finally:
            self.flushed.set()

    @abstractmethod
    async def transmit(self, data: bytes) -> None:
        """Put one encoded message on the wire."""

    @abstractmethod
    async def close(self, code: int) -> None:
        """Close the socket with a WebSocket close code."""
