"""Terminal rendering and play: boards per game, a generic fallback, the interactive loop."""

from talltales.terminal.render import register_renderer, render_view

__all__ = ["register_renderer", "render_view"]
