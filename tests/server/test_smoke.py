"""A first full game over real sockets: two people and a bot play Would You Believe It!"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import httpx

from .harness import Client, running, settings_for
from .players import play_first_legal
from .support import open_room, start_with_bots


def test_two_people_and_a_bot_play_to_the_end(tmp_path: Path) -> None:
    with running(settings_for(tmp_path)) as server:
        code, (host, guest) = open_room(server, "would-you-believe-it", "Ann", "Bob")

        async def game() -> list[dict[str, Any]]:
            async with Client(server.ws) as a, Client(server.ws) as b:
                await a.hello(code, host["token"])
                await b.hello(code, guest["token"])
                await start_with_bots(a, "greedy")
                seats = (play_first_legal(a, 0, prefix="s0-"), play_first_legal(b, 1, prefix="s1-"))
                return list(await asyncio.gather(*seats))

        finals = asyncio.run(game())
        assert finals[0]["outcome"] == finals[1]["outcome"]
        assert sorted(s for group in finals[0]["outcome"]["ranking"] for s in group) == [0, 1, 2]
        record = httpx.get(f"{server.http}/api/rooms/{code}/record").json()
        assert record["game"] == "would-you-believe-it"
        assert record["players"] == 3
