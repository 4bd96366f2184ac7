"""`talltales join`: a terminal seat at a server's table, next to a host's phone and a bot."""

from __future__ import annotations

import asyncio
import io
import json
import os
import signal
import subprocess
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from rich.console import Console
from server.harness import Client, LiveServer, create_room, running, settings_for
from server.players import play_first_legal
from server.support import start_with_bots
from typer.testing import CliRunner

from talltales.cli import app
from talltales.terminal.remote import RemoteGame, describe, endpoint
from talltales.terminal.render import plain, scrubbed

GAME = "would-you-believe-it"
ENOUGH = "1\n" * 400  # more choices than any three-player game needs

runner = CliRunner()


def spawn_join(server: LiveServer, code: str, tmp_path: Path, stdin: str) -> subprocess.Popen[str]:
    """`talltales join` in its own process; standard input and output are files."""
    (tmp_path / "in.txt").write_text(stdin)
    args = [sys.executable, "-m", "talltales.cli", "join", server.http, code, "--name", "Bob"]
    with (tmp_path / "in.txt").open() as stdin_file, (tmp_path / "out.txt").open("w") as out:
        env = {**os.environ, "COLUMNS": "120", "NO_COLOR": "1"}
        return subprocess.Popen(
            args, stdin=stdin_file, stdout=out, stderr=subprocess.STDOUT, text=True, env=env
        )


def join_from_a_terminal(
    server: LiveServer, tmp_path: Path, stdin: str = ENOUGH
) -> tuple[dict[str, Any], subprocess.Popen[str]]:
    """Ann creates a room and `talltales join` takes the next seat as Bob: her grant and the
    terminal's process."""
    host = create_room(server, GAME, "Ann")
    return host, spawn_join(server, host["room"], tmp_path, stdin)


def finish(proc: subprocess.Popen[str], tmp_path: Path) -> tuple[int, str]:
    """Wait for the process; its exit code and everything it printed."""
    try:
        code = proc.wait(60)
    finally:
        if proc.poll() is None:
            proc.kill()
    return code, (tmp_path / "out.txt").read_text()


async def seated(client: Client, count: int) -> None:
    """Wait until ``count`` seats are taken and connected."""
    while True:
        info = await client.until("room", timeout=30)
        seats = info["seats"]
        if len(seats) >= count and all(s["connected"] for s in seats):
            return


@asynccontextmanager
async def hosting(
    server: LiveServer, host: dict[str, Any], wait: bool = True
) -> AsyncIterator[Client]:
    """The host's socket, once it has said hello (and, with ``wait``, once the terminal
    player has joined and is connected)."""
    async with Client(server.ws) as client:
        await client.hello(host["room"], host["token"])
        if wait:
            await seated(client, 2)
        yield client


async def play_host(client: Client) -> dict[str, Any]:
    """Seat 0 answers every decision with its first legal action until the game ends."""
    return await play_first_legal(client, 0, prefix="h", timeout=30)


async def host_game(server: LiveServer, host: dict[str, Any], wait: bool = True) -> dict[str, Any]:
    """The host (seat 0) waits for the terminal player, adds a bot, starts and plays."""
    async with hosting(server, host, wait) as client:
        await start_with_bots(client, "greedy")
        return await play_host(client)


async def wait_for_bob(server: LiveServer, host: dict[str, Any]) -> None:
    """The host connects and waits until the terminal player has taken seat 1."""
    async with hosting(server, host):
        pass


def test_a_terminal_plays_a_whole_game_with_a_phone_and_a_bot(tmp_path: Path) -> None:
    with running(settings_for(tmp_path)) as server:
        host, proc = join_from_a_terminal(server, tmp_path)
        final = asyncio.run(host_game(server, host))
        code, output = finish(proc, tmp_path)
    assert code == 0, output
    assert "Your seat token: " in output
    assert "--token" in output
    assert "Waiting for the host" in output
    assert "B (Bob): Your move" in output
    assert "1. roll the die" in output
    assert "move figure 1: Start → " in output
    assert "Final ranking" in output
    assert "C (Bot 1)" in output
    assert sorted(s for group in final["outcome"]["ranking"] for s in group) == [0, 1, 2]
    assert "Traceback" not in output


def test_a_server_restart_in_the_lobby_is_survived(tmp_path: Path) -> None:
    settings = settings_for(tmp_path)
    with running(settings) as first:
        host, proc = join_from_a_terminal(first, tmp_path)
        asyncio.run(wait_for_bob(first, host))
    with running(settings) as second:
        asyncio.run(host_game(second, host, wait=False))
        code, output = finish(proc, tmp_path)
    assert code == 0, output
    assert "reconnecting…" in output
    assert "Final ranking" in output


def test_a_server_restart_mid_game_is_survived(tmp_path: Path) -> None:
    settings = settings_for(tmp_path, bot_delay=0.02)
    with running(settings) as first:
        host, proc = join_from_a_terminal(first, tmp_path)

        async def play_a_while() -> dict[str, Any]:
            async with hosting(first, host) as client:
                await start_with_bots(client, "greedy")
                return await play_first_legal(
                    client, 0, prefix="a", timeout=30, stop=lambda s: s["version"] > 20
                )

        paused = asyncio.run(play_a_while())
        assert paused.get("outcome") is None  # stopped past version 20, mid-game
    with running(settings) as second:

        async def play_on() -> dict[str, Any]:
            async with hosting(second, host, wait=False) as client:
                return await play_host(client)

        asyncio.run(play_on())
        code, output = finish(proc, tmp_path)
    assert code == 0, output
    assert "reconnecting…" in output
    assert "Reconnected." in output
    assert "Final ranking" in output


def test_ctrl_c_leaves_cleanly(tmp_path: Path) -> None:
    with running(settings_for(tmp_path)) as server:
        host, proc = join_from_a_terminal(server, tmp_path)
        asyncio.run(wait_for_bob(server, host))
        proc.send_signal(signal.SIGINT)
        code, output = finish(proc, tmp_path)
    assert code == 130, output
    assert "You left the table; come back with --token" in output
    assert "Traceback" not in output


def test_bad_input_asks_again_and_end_of_input_leaves_cleanly(tmp_path: Path) -> None:
    with running(settings_for(tmp_path)) as server:
        host, proc = join_from_a_terminal(server, tmp_path, "x\n99\n\n")

        async def start_and_go() -> None:  # a bot stands in for the host once it has gone
            async with hosting(server, host) as client:
                await start_with_bots(client, "greedy")
                await client.until("state")

        asyncio.run(start_and_go())
        code, output = finish(proc, tmp_path)
    assert code == 0, output
    assert "'x' is not a number" in output
    assert "99 is not one of the choices" in output
    assert "You left the table; come back with --token" in output
    assert "Traceback" not in output


def test_a_wrong_code_is_a_clear_error(tmp_path: Path) -> None:
    with running(settings_for(tmp_path)) as server:
        result = runner.invoke(app, ["join", server.http, "ZZZZ", "--name", "Bob"])
    assert result.exit_code == 1
    assert "error: there is no room ZZZZ" in result.stderr
    assert "Traceback" not in result.output


def test_a_wrong_token_is_a_clear_error(tmp_path: Path) -> None:
    with running(settings_for(tmp_path)) as server:
        host = create_room(server, GAME, "Ann")
        args = ["join", server.http, host["room"], "--token", "x" * 32]
        result = runner.invoke(app, args)
    assert result.exit_code == 1
    assert "does not belong to this room" in result.stderr


def test_an_unreachable_server_is_a_clear_error(tmp_path: Path) -> None:
    settings = settings_for(tmp_path)
    result = runner.invoke(
        app, ["join", f"http://127.0.0.1:{settings.port}", "ABCD", "--name", "Bo"]
    )
    assert result.exit_code == 1
    assert "cannot reach http://127.0.0.1:" in result.stderr


def test_a_name_or_a_token_is_needed() -> None:
    result = runner.invoke(app, ["join", "http://127.0.0.1:1", "ABCD"])
    assert result.exit_code == 1
    assert "--name" in result.stderr


def test_addresses_give_http_and_websocket_urls() -> None:
    assert endpoint("http://h:8000/").ws == "ws://h:8000/ws"
    assert endpoint("https://example.org/games").ws == "wss://example.org/games/ws"
    assert endpoint("h:8000").http == "http://h:8000"
    assert endpoint("wss://h").http == "https://h"


def test_actions_are_described_from_the_view() -> None:
    view = {
        "start": 0,
        "finish": 33,
        "route": [{"position": 1, "card": "+3", "present": True}],
        "choices": [
            {
                "action": {"type": "move-figure", "figure": 0},
                "piece": "figure",
                "index": 0,
                "start": 1,
                "end": 33,
                "lands_on": "Finish",
                "collects": "+3",
            }
        ],
    }
    assert describe({"type": "roll"}, view) == "roll the die"
    moved = describe({"type": "move-figure", "figure": 0}, view)
    assert moved == "move figure 1: +3 (#1) → Finish (collects +3)"
    assert describe({"type": "move-guard", "guard": 2}, view) == "move guard: guard 2"


class Socket:
    """Stands in for the WebSocket: keeps what the terminal sends."""

    def __init__(self) -> None:
        self.sent: list[dict[str, Any]] = []

    def send(self, text: str) -> None:
        self.sent.append(json.loads(text))


WRITE_PROMPT = {
    "kind": "write",
    "question": "What do bees make wax from?",
    "purpose": "a fake answer",
    "action": {"type": "bluff"},
    "max_length": 80,
    "field": "text",
    "examples": [],
    "options": [{"label": "Steal a point from seat 0", "action": {"type": "steal", "target": 0}}],
}


def seated_at_a_state(
    answers: list[str | None], **state: Any
) -> tuple[RemoteGame, list[tuple[str, float | None]], io.StringIO]:
    """A terminal at seat 1 that has just been sent ``state``; what it was asked; its output."""
    asked: list[tuple[str, float | None]] = []

    def ask(prompt: str, timeout: float | None) -> str | None:
        asked.append((prompt, timeout))
        return answers.pop(0)

    out = io.StringIO()
    game = RemoteGame(Console(file=out, width=120), endpoint("http://h"), "ABCD", "t" * 32, ask)
    game.handle({"type": "welcome", "seat": 1})
    message = {"type": "state", "version": 7, "view": {}, "events": [], "pending": [1]}
    game.handle({**message, "legal": [], **state})
    return game, asked, out


def test_a_write_prompt_from_the_server_is_answered_with_text() -> None:
    game, asked, out = seated_at_a_state(["my fib"], prompt=WRITE_PROMPT)
    assert game.must_choose()
    socket = Socket()
    game.choose(socket)  # type: ignore[arg-type]
    assert socket.sent[0]["action"] == {"type": "bluff", "text": "my fib"}
    assert "Write a fake answer: at most 80 characters." in out.getvalue()
    assert asked[0] == ("Type a fake answer, or 1 for the choice above (q to quit): ", None)
    assert not game.must_choose()  # answered; the next state asks again


def test_the_prompts_other_options_go_by_number_and_the_time_left_is_shown() -> None:
    timed = {"deadline": 61_000, "server_time": 1_000}
    game, asked, _ = seated_at_a_state(["1"], prompt=WRITE_PROMPT, **timed)
    socket = Socket()
    game.choose(socket)  # type: ignore[arg-type]
    assert socket.sent[0]["action"] == {"type": "steal", "target": 0}
    prompt, timeout = asked[0]
    assert prompt.startswith("(") and " s left) Type a fake answer" in prompt
    assert timeout is not None  # the reader gives up at the deadline


def test_time_running_out_sends_nothing_and_waits_for_the_next_state() -> None:
    game, _, _ = seated_at_a_state([None], prompt=WRITE_PROMPT, deadline=2_000, server_time=1_000)
    socket = Socket()
    game.choose(socket)  # type: ignore[arg-type]
    assert socket.sent == []
    assert not game.must_choose()


def test_without_a_prompt_the_legal_actions_are_offered() -> None:
    game, _, out = seated_at_a_state(["x", "1"], legal=[{"type": "roll"}])
    socket = Socket()
    game.choose(socket)  # type: ignore[arg-type]
    assert socket.sent[0]["action"] == {"type": "roll"}
    assert "1. roll the die" in out.getvalue()
    assert "'x' is not a number" in out.getvalue()


def test_what_others_typed_is_printed_as_plain_text(tmp_path: Path) -> None:
    """A name is never Rich markup, and escape sequences never reach the terminal."""
    with running(settings_for(tmp_path)) as server:
        host = create_room(server, GAME, "[blink]Ann[/]")
        proc = spawn_join(server, host["room"], tmp_path, ENOUGH)
        asyncio.run(host_game(server, host))
        code, output = finish(proc, tmp_path)
    assert code == 0, output
    lobby_rows = [line for line in output.splitlines() if "host" in line and "│" in line]
    assert lobby_rows and all("[blink]Ann[/]" in row for row in lobby_rows)  # not markup


def test_escape_sequences_and_invisible_characters_are_removed_from_messages() -> None:
    hostile = {
        "type": "room",
        "seats": [{"name": "Eve\x1b]0;pwned\x07\x1b[2J\u202e\u200b", "seat": 0}],
        "events": [{"text": "line\none\ttab"}],
    }
    clean = scrubbed(hostile)
    assert clean["seats"][0]["name"] == "Eve]0;pwned[2J"  # no ESC, BEL, bidi or zero-width
    assert clean["events"][0]["text"] == "line one tab"
    assert plain("Ann") == "Ann"
    assert plain("Zoë 😀") == "Zoë 😀"
