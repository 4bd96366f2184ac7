"""What a bot is, and how one is named on the command line ('search', 'search:depth=3')."""

from __future__ import annotations

from typing import Any, Protocol

from talltales.core.errors import OptionsError
from talltales.core.game import Game, Seat

BOT_KINDS = ("random", "greedy", "search")


class BotSpecError(OptionsError):
    """A bot name or parameter that does not exist."""


class Bot(Protocol):
    """Chooses one legal action for a seat; never mutates the state it is given."""

    name: str

    def choose(self, game: Game[Any, Any], state: Any, seat: Seat) -> Any:
        """One of ``game.legal_actions(state, seat)``."""
        ...


def make_bot(spec: str, seed: int = 0) -> Bot:
    """Build a bot from 'kind' or 'kind:key=value,key=value'."""
    from talltales.bots.greedy import GreedyBot
    from talltales.bots.random import RandomBot
    from talltales.bots.search import SearchBot

    kind, _, params = spec.partition(":")
    args: dict[str, int] = {}
    for part in filter(None, params.split(",")):
        key, _, value = part.partition("=")
        if not value.isdigit():
            raise BotSpecError(f"bot parameter {part!r} should look like key=number")
        args[key.strip()] = int(value)
    match kind:
        case "random" if not args:
            return RandomBot(seed)
        case "greedy" if not args:
            return GreedyBot(seed)
        case "search" if set(args) <= {"depth"}:
            return SearchBot(seed, **args)
        case "random" | "greedy" | "search":
            raise BotSpecError(f"bot {kind!r} takes no parameters {sorted(args)}")
    raise BotSpecError(f"no bot called {kind!r}; choose {', '.join(BOT_KINDS)}")
