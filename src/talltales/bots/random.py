"""The random bot: a uniform choice among the legal actions."""

from __future__ import annotations

from typing import Any

from talltales.core.game import Game, Seat
from talltales.core.rng import Rng


class RandomBot:
    """Picks uniformly among the actions the game advises."""

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self.rng = Rng(seed)

    def choose(self, game: Game[Any, Any], state: Any, seat: Seat) -> Any:
        """A uniformly random legal action."""
        return self.rng.choice(game.legal_actions(state, seat))
