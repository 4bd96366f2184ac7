"""Seats and rooms by secret: room codes, seat tokens (only their hashes are kept), holders."""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass

CODE_LETTERS = "ABCDEFGHJKMNPQRSTUVWXYZ"  # no I, L or O: they read as 1 and 0


def new_code() -> str:
    """Four letters from an unambiguous alphabet, from the system's secure generator."""
    return "".join(secrets.choice(CODE_LETTERS) for _ in range(4))


def new_token() -> tuple[str, str]:
    """A seat token (192 random bits) and the hash that is stored instead of it."""
    token = secrets.token_urlsafe(24)
    return token, token_hash(token)


def token_hash(token: str) -> str:
    """What the server keeps of a token."""
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass
class SeatState:
    """A seat: a person (by token hash) or a bot, and whether it is connected."""

    name: str
    token_hash: str | None = None
    bot: str | None = None
    connections: int = 0
    stand_in: bool = False  # a bot is playing for the absent person

    @property
    def is_bot(self) -> bool:
        """Whether a bot holds this seat for good."""
        return self.bot is not None
