"""Typed errors, split by cause, each carrying a reason a player understands."""

from __future__ import annotations


class TallTalesError(Exception):
    """Base of every error Tall Tales raises on purpose."""

    code = "error"

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class ActionRefused(TallTalesError):
    """An action was refused; the game state did not change."""

    code = "refused"


class GameOver(ActionRefused):
    """The game has already ended."""

    code = "game-over"


class NotYourTurn(ActionRefused):
    """The seat has no decision pending right now (out of turn)."""

    code = "not-your-turn"


class MalformedAction(ActionRefused):
    """The action could not be read: bad JSON, unknown type, missing or extra fields."""

    code = "malformed"


class IllegalAction(ActionRefused):
    """The action is well formed but the rules forbid it now."""

    code = "illegal"


class TextTooLong(IllegalAction):
    """Free text longer than the game allows."""

    code = "text-too-long"


class EmptyText(IllegalAction):
    """Text that is empty or only spaces, where something must be written."""

    code = "empty-text"


class ContentError(TallTalesError):
    """A content pack is invalid; the reason names the file, the card and the field."""

    code = "content"


class OptionsError(TallTalesError):
    """Game options or player count are not valid for this game."""

    code = "options"


class GamePluginError(TallTalesError):
    """An installed ``talltales.games`` entry point does not give a usable game."""

    code = "game-plugin"


class RecordError(TallTalesError):
    """A game record cannot be read or does not replay."""

    code = "record"


class ScenarioError(TallTalesError):
    """A scenario file is malformed or one of its expectations failed."""

    code = "scenario"
