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
    """A client: messages queue here and one writer task sends them in order.

    A client that stops reading is dropped (its socket aborted, ``dropped`` set) once more
    than ``queue_limit`` messages or ``byte_limit`` bytes wait for it, or one message has
    not gone out within ``send_timeout`` seconds.
    """

    def __init__(
        self,
        address: str,
        queue_limit: int,
        byte_limit: int = 1 << 20,
        send_timeout: float = 10.0,
    ) -> None:
        self.address = address
        self.room: str | None = None
        self.seat: int | None = None
        self.queue: asyncio.Queue[bytes | None] = asyncio.Queue()
        self.queue_limit = queue_limit
        self.byte_limit = byte_limit
        self.send_timeout = send_timeout
        self.queued_bytes = 0
        self.closed = False
        self.close_code = 1008  # what the writer closes with once the queue is finished
        self.flushed = asyncio.Event()  # the writer has stopped: nothing more will be sent
        self.dropped = asyncio.Event()  # the client stopped reading and was cut off

    def send(self, message: ServerMessage) -> None:
        """Queue a message; a client that lets too many pile up is dropped."""
        self.send_encoded(encode(message))

    def send_encoded(self, data: bytes) -> None:
        """Queue an already encoded message (one encoding serves many sockets)."""
        if self.closed:
            return
        too_many = self.queue.qsize() >= self.queue_limit
        if too_many or self.queued_bytes + len(data) > self.byte_limit:
            self.drop()
            return
        self.queued_bytes += len(data)
        self.queue.put_nowait(data)

    def finish(self, code: int = 1008) -> None:
        """Close with ``code`` once everything queued so far has been sent."""
        if not self.closed:
            self.close_code = code
            self.queue.put_nowait(None)

    def drop(self) -> None:
        """Cut the client off at once: nothing more is sent, the socket is aborted."""
        self.closed = True
        self.dropped.set()
        self.queue.put_nowait(None)  # wakes an idle writer
        self.abort()

    async def writer(self) -> None:
        """Send queued messages until the connection closes."""
        try:
            while not self.dropped.is_set():
                data = await self.queue.get()
                if self.dropped.is_set():
                    return
                if data is None:
                    await self.close_within(self.close_code)
                    return
                self.queued_bytes -= len(data)
                try:  # asyncio.timeout, not wait_for: no task made per message sent
                    async with asyncio.timeout(self.send_timeout):
                        await self.transmit(data)
                except TimeoutError:  # the client stopped reading
                    self.drop()
                    return
                except Exception:  # the peer went away; the reader side notices and cleans up
                    self.closed = True
                    return
        finally:
            self.flushed.set()

    async def close_within(self, code: int, timeout: float = 1.0) -> None:
        """Close, aborting the socket when the close does not go out within ``timeout``."""
        try:
            await asyncio.wait_for(self.close(code), timeout)
        except TimeoutError:
            self.drop()

    @abstractmethod
    def abort(self) -> None:
        """Tear the socket down without a closing handshake."""

    @abstractmethod
    async def transmit(self, data: bytes) -> None:
        """Put one encoded message on the wire."""

    @abstractmethod
    async def close(self, code: int) -> None:
        """Close the socket with a WebSocket close code."""
