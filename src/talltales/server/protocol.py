"""The wire protocol: typed JSON messages in both directions (see docs/protocol.md)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

import msgspec

from talltales.core.prompt import Prompt

MAX_MESSAGE_BYTES = 64 * 1024
BOT_PREFIX = "bot-"  # client ids the server gives its bots' moves; refused from clients
MAX_PACKS = 16  # packs a host may choose for one game
ClientId = Annotated[str, msgspec.Meta(min_length=1, max_length=64)]
Name = Annotated[str, msgspec.Meta(min_length=1, max_length=24)]
Code = Annotated[str, msgspec.Meta(min_length=4, max_length=4)]
Token = Annotated[str, msgspec.Meta(min_length=16, max_length=128)]
BotName = Annotated[str, msgspec.Meta(max_length=40)]
PackId = Annotated[str, msgspec.Meta(min_length=1, max_length=64)]


class _In(msgspec.Struct, frozen=True, forbid_unknown_fields=True, tag_field="type"):
    """Base of client messages: unknown fields are refused."""


class _Command(_In, frozen=True, kw_only=True):
    """A lobby or seat command; a ``client_id``, if given, is echoed in its error."""

    client_id: ClientId | None = None


# --- client to server ----------------------------------------------------------------------
class Hello(_In, frozen=True, tag="hello"):
    """First message on a socket: which room, and the seat token (none for spectators)."""

    room: Code
    token: Token | None = None
    last_version: int = -1


class Act(_In, frozen=True, tag="act"):
    """A game action for the sender's seat; ``client_id`` makes resending safe."""

    client_id: ClientId
    action: dict[str, Any]


class Start(_Command, frozen=True, tag="start"):
    """Host: start the game with the seats as they are."""


class AddBot(_Command, frozen=True, tag="add-bot"):
    """Host: seat a bot ('random', 'greedy', 'search', 'smart')."""

    bot: BotName = "search"


class RemoveSeat(_Command, frozen=True, tag="remove-seat"):
    """Host: remove a bot, or kick a player, from the lobby."""

    seat: int


class SetOptions(_Command, frozen=True, tag="set-options"):
    """Host: change the game's options and house rules, the packs dealt, and the filter."""

    options: dict[str, Any] = {}
    family_filter: bool | None = None
    packs: Annotated[list[PackId], msgspec.Meta(max_length=MAX_PACKS)] | None = None


class Rematch(_Command, frozen=True, tag="rematch"):
    """Host: after the end, a new game with the same seats."""


class Leave(_Command, frozen=True, tag="leave"):
    """Give up the seat for good (a bot takes over a game in progress)."""


class Ping(_In, frozen=True, tag="ping"):
    """Keep-alive; answered with pong."""


ClientMessage = Hello | Act | Start | AddBot | RemoveSeat | SetOptions | Rematch | Leave | Ping


# --- server to client ----------------------------------------------------------------------
class _Out(msgspec.Struct, frozen=True, tag_field="type", omit_defaults=True):
    """Base of server messages."""


class SeatInfo(msgspec.Struct, frozen=True):
    """One seat as everyone sees it."""

    seat: int
    name: str
    kind: Literal["human", "bot"]
    connected: bool
    stand_in: bool = False  # a bot is playing for a disconnected player
    host: bool = False
    bot: str | None = None  # which bot holds a bot seat


class Welcome(_Out, frozen=True, tag="welcome"):
    """Answer to hello: who you are here."""

    room: str
    seat: int | None
    version: int
    server_time: int


class RoomInfo(_Out, frozen=True, tag="room"):
    """The room as everyone sees it: game, options, seats, status."""

    room: str
    version: int
    game: str
    title: str
    status: str
    options: dict[str, Any]
    family_filter: bool
    seats: list[SeatInfo]
    min_players: int
    max_players: int
    join_url: str = ""  # the link (and QR code) that joins this room
    packs: list[str] = []  # ids of the packs to deal (lobby) or dealt (game); none: no cards


class EventOut(msgspec.Struct, frozen=True):
    """A game event as sent (audience already applied)."""

    kind: str
    text: str
    data: dict[str, Any] = {}


class StateOut(_Out, frozen=True, tag="state"):
    """The game as this connection may see it, after version ``version``."""

    room: str
    version: int
    view: Any
    events: list[EventOut]
    pending: list[int]
    legal: list[Any]  # the seat's legal actions, as the game's action objects
    prompt: Prompt | None = None  # what the seat is asked now; none when nothing is pending
    deadline: int | None = None
    outcome: dict[str, Any] | None = None
    server_time: int = 0


class Ack(_Out, frozen=True, tag="ack"):
    """An action was applied (or had been already: ``duplicate``)."""

    client_id: str
    version: int
    duplicate: bool = False


class ErrorOut(_Out, frozen=True, tag="error"):
    """A refusal: nothing changed. ``code`` is stable, ``reason`` is for people."""

    code: str
    reason: str
    client_id: str | None = None


class Pong(_Out, frozen=True, tag="pong"):
    """Answer to ping."""

    server_time: int


class Restarting(_Out, frozen=True, tag="restarting"):
    """The server is restarting: reconnect shortly and carry on."""


ServerMessage = Welcome | RoomInfo | StateOut | Ack | ErrorOut | Pong | Restarting

_decoder = msgspec.json.Decoder(ClientMessage)
_encoder = msgspec.json.Encoder()


class ProtocolError(Exception):
    """A message that cannot be read; ``code`` says why."""

    def __init__(self, code: str, reason: str) -> None:
        super().__init__(reason)
        self.code = code
        self.reason = reason


def decode_client(data: bytes | str) -> ClientMessage:
    """Read one client message or raise ProtocolError (too large, bad JSON, bad shape)."""
    raw = data.encode("utf-8", "surrogatepass") if isinstance(data, str) else data
    if len(raw) > MAX_MESSAGE_BYTES:
        raise ProtocolError("too-large", f"messages are limited to {MAX_MESSAGE_BYTES} bytes")
    try:
        return _decoder.decode(raw)
    except msgspec.ValidationError as exc:
        raise ProtocolError("malformed", f"message not understood: {exc}") from exc
    except (msgspec.DecodeError, UnicodeDecodeError) as exc:
        raise ProtocolError("bad-json", f"not valid JSON text: {exc}") from exc
    except RecursionError as exc:  # deeply nested arrays or objects
        raise ProtocolError("malformed", "message nested too deeply") from exc


def encode(message: ServerMessage) -> bytes:
    """Serialise a server message."""
    return _encoder.encode(message)
