"""Run the real server as its own process for restart tests, with the fixture game playable.

python tests/server/launch.py --port 8123 --database /tmp/rooms.sqlite3 [--grace 30]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # tests/, for fixture_game

from fixture_game import FIB_OFF

from talltales.core.registry import register
from talltales.server.run import serve
from talltales.server.settings import Settings


def main() -> None:
    """Register the fixture game, then serve until killed or told to stop."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--database", required=True)
    parser.add_argument("--grace", type=float, default=30.0)
    args = parser.parse_args()
    register(FIB_OFF)
    serve(
        Settings(
            port=args.port,
            database=args.database,
            bot_delay=0.0,
            grace_seconds=args.grace,
            sweep_seconds=3600.0,
            message_rate=10_000.0,  # test players answer faster than people can
            message_burst=10_000,
        )
    )


if __name__ == "__main__":
    main()
