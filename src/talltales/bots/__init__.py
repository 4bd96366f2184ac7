"""Bots: random, greedy (one ply), search (expectimax over chance) and smart (a game's own)."""

from __future__ import annotations

from talltales.bots.base import BOT_KINDS, Bot, BotSpecError, make_bot
from talltales.bots.greedy import GreedyBot
from talltales.bots.random import RandomBot
from talltales.bots.search import SearchBot
from talltales.bots.smart import SmartBot

__all__ = [
    "BOT_KINDS",
    "Bot",
    "BotSpecError",
    "GreedyBot",
    "RandomBot",
    "SearchBot",
    "SmartBot",
    "make_bot",
]
