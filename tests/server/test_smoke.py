"""A first full game over real sockets: two people and a bot play Would You Believe It!"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import httpx

from .harness import Client, create_room, join_room, running, settings_for


async def play_seat(client: Client, seat: int) -> dict[str, Any]:
    """Answer every decision with the first legal action until the game ends."""
    count = 0
    while True:
        message = await client.until("state")
        if message.get("outcome"):
            return message
        if seat in message["pending"] and message["legal"]:
            count += 1
            act = {"type": "act", "client_id": f"s{seat}-{count}", "action": message["legal"][0]}
            await client.send(act)


def test_two_people_and_a_bot_play_to_the_end(tmp_path: Path) -> None:
    with running(settings_for(tmp_path)) as server:
        host = create_room(server, "would-you-believe-it", "Ann")
        guest = join_room(server, host["room"], "Bob")

        async def game() -> list[dict[str, Any]]:
            async with Client(server.ws) as a, Client(server.ws) as b:
                await a.hello(host["room"], host["token"])
                await b.hello(guest["room"], guest["token"])
                await a.send({"type": "add-bot", "bot": "greedy"})
                await a.send({"type": "start"})
                return list(await asyncio.gather(play_seat(a, 0), play_seat(b, 1)))

        finals = asyncio.run(game())
        assert finals[0]["outcome"] == finals[1]["outcome"]
        assert sorted(s for group in finals[0]["outcome"]["ranking"] for s in group) == [0, 1, 2]
        record = httpx.get(f"{server.http}/api/rooms/{host['room']}/record").json()
        assert record["game"] == "would-you-believe-it"
        assert record["players"] == 3
