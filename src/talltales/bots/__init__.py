"""Game-independent bots: random, greedy (one ply) and search (expectimax over chance)."""

from __future__ import annotations

from talltales.bots.base import BOT_KINDS, Bot, BotSpecError, make_bot
from talltales.bots.greedy import GreedyBot
from talltales.bots.random import RandomBot
from talltales.bots.search import SearchBot

__all__ = ["BOT_KINDS", "Bot", "BotSpecError", "GreedyBot", "RandomBot", "SearchBot", "make_bot"]
