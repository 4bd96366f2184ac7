"""What a bot is, and how one is named on the command line ('search', 'search:depth=3')."""

from __future__ import annotations

from typing import Any, Protocol

from talltales.core.errors import OptionsError
from talltales.core.game import Game, Seat
from talltales.core.prompt import Write
from talltales.core.rng import Rng

BOT_KINDS = ("random", "greedy", "search", "smart")


class BotSpecError(OptionsError):
    """A bot name or parameter that does not exist."""


class Bot(Protocol):
    """Chooses one legal action for a seat; never mutates the state it is given.

    The driver hands a bot a sample of what its seat may know (``resample_hidden``), never
    the true state, and at a real table a ``budget`` of seconds to think within."""

    name: str

    def choose(
        self, game: Game[Any, Any], state: Any, seat: Seat, *, budget: float | None = None
    ) -> Any:
        """A legal action for ``seat``: one of its legal actions, or a text it wrote."""
        ...


def compose_text(prompt: Write, rng: Rng) -> str:
    """A fresh text for a Write prompt: words of its examples, mixed, within its limit."""
    words = [w for example in prompt.examples for w in example.split()] or ["something"]
    count = 1 + rng.below(min(8, len(words)))
    text = " ".join(rng.choice(words) for _ in range(count))[: prompt.max_length].strip()
    return text or words[0][: prompt.max_length]


def make_bot(spec: str, seed: int = 0) -> Bot:
    """Build a bot from 'kind' or 'kind:key=value,key=value'."""
    from talltales.bots.greedy import GreedyBot
    from talltales.bots.random import RandomBot
    from talltales.bots.search import SearchBot
    from talltales.bots.smart import SmartBot

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
        case "smart" if set(args) <= {"skill"} and args.get("skill", 0) <= 100:
            return SmartBot(seed, **args)
        case "random" | "greedy" | "search" | "smart":
            raise BotSpecError(f"bot {kind!r} takes no parameters {sorted(args)}")
    raise BotSpecError(f"no bot called {kind!r}; choose {', '.join(BOT_KINDS)}")
