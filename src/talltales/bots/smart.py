"""The smart bot: a game's own strongest bot where it has one, else a two-deep search."""

from __future__ import annotations

from typing import Any

from talltales.bots.search import SearchBot
from talltales.core.game import Game, Seat


class SmartBot:
    """Hands each decision to the game's own bot (``Game.own_bot``), made once per game."""

    name = "smart"

    def __init__(self, seed: int = 0, **params: int) -> None:
        self.seed = seed
        self.params = params
        self.own: dict[str, Any] = {}

    def choose(
        self, game: Game[Any, Any], state: Any, seat: Seat, *, budget: float | None = None
    ) -> Any:
        """The game's own bot's choice, or a search's."""
        bot = self.own.get(game.id)
        if bot is None:
            bot = game.own_bot(self.seed, **self.params) or SearchBot(self.seed, depth=2)
            self.own[game.id] = bot
        return bot.choose(game, state, seat, budget=budget)
