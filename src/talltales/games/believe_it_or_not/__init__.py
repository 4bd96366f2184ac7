"""Believe It or Not!: a race game of multiple-choice, true statements, bluffs and movement
cards, with challenges when pawns meet."""

from talltales.games.believe_it_or_not.rules import BelieveItOrNot

GAME = BelieveItOrNot()

__all__ = ["GAME", "BelieveItOrNot"]
