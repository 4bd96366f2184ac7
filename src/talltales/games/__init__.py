"""The shipped games; importing this package registers them."""

from talltales.core.registry import register
from talltales.games.would_you_believe_it import GAME as WOULD_YOU_BELIEVE_IT

register(WOULD_YOU_BELIEVE_IT)
