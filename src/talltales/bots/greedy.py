"""The greedy bot: the action whose immediate result the game's heuristic likes best."""

from __future__ import annotations

from talltales.bots.search import SearchBot


class GreedyBot(SearchBot):
    """One decision deep: no look at what rivals or the die do next."""

    name = "greedy"

    def __init__(self, seed: int = 0) -> None:
        super().__init__(seed, depth=1)
