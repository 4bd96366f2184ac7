"""Would You Believe It!: dice route-card collecting with figures and guards."""

from talltales.games.would_you_believe_it.rules import WouldYouBelieveIt

GAME = WouldYouBelieveIt()

__all__ = ["GAME", "WouldYouBelieveIt"]
