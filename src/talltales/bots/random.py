"""The random bot: a uniform choice among the legal actions."""

from __future__ import annotations

from typing import Any

from talltales.bots.base import compose_text
from talltales.core.game import Game, Seat
from talltales.core.prompt import Write
from talltales.core.rng import Rng

WRITE_OWN = 0.5  # how often a random bot writes its own text rather than a suggested one


class RandomBot:
    """Picks uniformly among the actions the game advises."""

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self.rng = Rng(seed)

    def choose(
        self, game: Game[Any, Any], state: Any, seat: Seat, *, budget: float | None = None
    ) -> Any:
        """A uniformly random legal action; asked to write, a text of its own now and then."""
        if type(game).prompt is not Game.prompt:  # the default prompt never asks to write
            prompt = game.prompt(state, seat)
            if isinstance(prompt, Write) and self.rng.random() < WRITE_OWN:
                return prompt.fill(compose_text(prompt, self.rng))
        return self.rng.choice(game.legal_actions(state, seat))
