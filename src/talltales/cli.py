"""The ``talltales`` command: list, play, simulate and replay games; check packs and scenarios."""

from __future__ import annotations

import secrets
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from functools import partial
from pathlib import Path
from typing import Annotated, Any, NoReturn

import msgspec
import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table
from rich.text import Text

from talltales import simulate as sim
from talltales.core.content import Pack, load_pack, read_pack_meta
from talltales.core.errors import ContentError, RecordError, TallTalesError
from talltales.core.game import CHANCE, CLOCK
from talltales.core.match import Match, decode_action, replay_states
from talltales.core.packs import choose_packs, find_pack, pack_infos
from talltales.core.record import Entry, decode_record, encode_record
from talltales.core.registry import broken, games, get_game
from talltales.core.scenario import run_scenario_file
from talltales.server.command import serve
from talltales.terminal.play import Abandoned, TerminalGame, parse_players
from talltales.terminal.remote import LeftTable
from talltales.terminal.remote import join as join_remote
from talltales.terminal.render import (
    packs_table,
    ranking_table,
    render_view,
    seat_text,
    summary_report,
)

app = typer.Typer(
    help="Tall Tales: bluff-and-trivia party games.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
deck_app = typer.Typer(help="Content packs.", no_args_is_help=True)
app.add_typer(deck_app, name="deck")

GameArg = Annotated[str, typer.Argument(metavar="GAME", help="A game id (see 'talltales games').")]
SeatOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--seat",
        help="human, or bot:random|greedy|search[:depth=N]|smart[:skill=0-100]; repeat per seat.",
    ),
]
OptionOpt = Annotated[
    list[str] | None, typer.Option("--option", "-o", help="A game option as key=value; repeat.")
]
PackOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--pack",
        help="A content pack: a shipped pack's id or a pack file; repeat. Default: "
        "the game's default packs (see 'talltales deck list GAME').",
    ),
]
ACTORS = {CHANCE: "chance", CLOCK: "clock"}


class UsageProblem(TallTalesError):
    """The command line asks for something impossible (exit code 2)."""


def stdout() -> Console:
    """A console on the current standard output (made per call, so tests can capture it)."""
    return Console(highlight=False)


def fail(message: str, code: int = 1) -> NoReturn:
    """Print one red line on standard error and exit with ``code``."""
    Console(stderr=True, soft_wrap=True).print(Text(f"error: {message}", style="red"))
    raise typer.Exit(code)


@contextmanager
def user_errors() -> Iterator[None]:
    """Turn the errors a user can cause into one red line and an exit code, never a traceback."""
    try:
        yield
    except UsageProblem as exc:
        fail(exc.reason, 2)
    except TallTalesError as exc:
        fail(exc.reason)
    except OSError as exc:
        fail(f"{exc.filename or ''}: {exc.strerror or exc}".lstrip(": "))


def parse_options(items: list[str] | None) -> dict[str, Any]:
    """'key=value' pairs; values read as JSON when they can be (numbers, booleans), else text."""
    options: dict[str, Any] = {}
    for item in items or []:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise UsageProblem(f"--option {item!r} should look like key=value")
        try:
            options[key.strip()] = msgspec.json.decode(value)
        except msgspec.DecodeError:
            options[key.strip()] = value
    return options


@app.command("games")
def list_games() -> None:
    """List the games there are."""
    table = Table(title="Games")
    for name in ("Id", "Title", "Players", "Summary"):
        table.add_column(name, overflow="fold")
    for game in games():
        players = f"{game.min_players}-{game.max_players}"
        table.add_row(game.id, game.title, players, game.summary)
    stdout().print(table)
    for problem in broken():  # an installed plugin that gives no game: say why, go on
        Console(stderr=True).print(Text(f"Not loaded: {problem.reason}", style="yellow"))


@app.command()
def play(
    game_id: GameArg,
    seat: SeatOpt = None,
    seed: Annotated[int | None, typer.Option(help="Seed for setup and dice.")] = None,
    option: OptionOpt = None,
    pack: PackOpt = None,
    record: Annotated[Path | None, typer.Option(help="Write the game record here.")] = None,
) -> None:
    """Play a game at the terminal against bots (or friends, taking turns at the keyboard)."""
    console = stdout()
    with user_errors():
        game = get_game(game_id)
        players = parse_players(seat or [], game.min_players)
        seed = secrets.randbelow(2**31) if seed is None else seed
        packs = choose_packs(game, pack or [])
        match: Match[Any, Any] = Match(game, len(players), parse_options(option), seed, packs)
        console.print(f"[bold]{game.title}[/] — seed {seed}")
        try:
            TerminalGame(console, match, players, seed).run()
        except Abandoned:
            console.print("Game abandoned.")
            raise typer.Exit(0) from None
        except KeyboardInterrupt:
            console.print("\nGame abandoned.")
            raise typer.Exit(130) from None
        if record is not None:
            record.write_bytes(encode_record(match.record))
            console.print(f"Record written to {record}")


@app.command()
def join(
    url: Annotated[str, typer.Argument(metavar="URL", help="The server, e.g. http://host:8000.")],
    code: Annotated[str, typer.Argument(metavar="CODE", help="The room's four-letter code.")],
    name: Annotated[str | None, typer.Option(help="Your name at the table.")] = None,
    token: Annotated[
        str | None, typer.Option(help="Come back to your seat with the token you were given.")
    ] = None,
) -> None:
    """Play a seat of a server's room from the terminal, at one table with phones and bots."""
    console = stdout()
    with user_errors():
        try:
            join_remote(console, url, code, name, token)
        except LeftTable:
            raise typer.Exit(0) from None
        except KeyboardInterrupt:
            raise typer.Exit(130) from None


@app.command("simulate")
def simulate_command(
    game_id: GameArg,
    n: Annotated[int, typer.Option("-n", "--games", min=1, help="How many games.")] = 100,
    seat: SeatOpt = None,
    seed: Annotated[int, typer.Option(help="Seed of the whole run.")] = 0,
    workers: Annotated[int | None, typer.Option(min=1, help="Processes (all cores).")] = None,
    json_out: Annotated[bool, typer.Option("--json", help="Print a JSON summary.")] = False,
    rotate: Annotated[bool, typer.Option(help="Rotate the line-up across seats.")] = True,
    option: OptionOpt = None,
    pack: PackOpt = None,
) -> None:
    """Play many games between bots and report win rates, scores and game lengths."""
    with user_errors():
        game = get_game(game_id)
        specs = [sim.bot_spec(s) for s in seat or ["bot:greedy", "bot:search"]]
        specs += ["search"] * (game.min_players - len(specs))
        options = parse_options(option)
        jobs = sim.plan(game.id, specs, n, seed, options, rotate, pack or [])
        progress = Progress(
            TextColumn("{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeElapsedColumn(),
            console=Console(stderr=True),
            disable=json_out,
            transient=True,
            auto_refresh=False,  # no drawing thread alive while the pool forks its workers
        )
        with progress:
            task = progress.add_task(f"Playing {game.id}", total=n)
            results = sim.run(jobs, workers, partial(progress.update, task, refresh=True))
        settings = {"seed": seed, "rotate": rotate, "lineup": specs, "options": options}
        if pack:
            settings["packs"] = list(pack)
        summary = msgspec.structs.replace(sim.summarise(results), settings=settings)
    if json_out:
        typer.echo(msgspec.json.format(msgspec.json.encode(summary), indent=2).decode())
    else:
        stdout().print(summary_report(summary))


@app.command()
def replay(
    path: Annotated[Path, typer.Argument(metavar="RECORD", help="A game record (JSON).")],
    step: Annotated[int | None, typer.Option(min=0, help="Show the board after step K.")] = None,
    pack: PackOpt = None,
) -> None:
    """Replay a game record and show the final board (or the one after step K).

    The record pins its packs by digest: shipped ones are found by id, others are given
    with --pack; a pack that has changed since is refused."""
    console = stdout()
    with user_errors():
        record = decode_record(path.read_bytes())
        game = get_game(record.game)
        states = replay_all(game, record, [find_pack(game, ref) for ref in pack or []])
        total = len(record.entries)
        k = total if step is None else step
        if k > total:
            raise RecordError(f"step {k} is beyond the record's {total} actions")
        names = [f"seat {s}" for s in range(record.players)]
        console.print(
            f"[bold]{game.title}[/] — {record.players} players, seed {record.seed},"
            f" {total} actions; showing step {k}"
        )
        if k:
            console.print(last_action(game, states[k - 1], record.entries[k - 1], names))
        console.print(render_view(game.id, game.view(states[k], None), names))
        outcome = game.outcome(states[k])
        if outcome is None:
            console.print(f"Not over after step {k}.")
        else:
            console.print(ranking_table(outcome, names))


def last_action(game: Any, before: Any, entry: Entry, names: list[str]) -> Text:
    """'Last action: B (seat 1): move figure 2: ...' for the entry that led to a step."""
    if entry.seat == CLOCK:
        said = f"the clock reaches {entry.action.get('now')} ms"
    else:
        said = game.describe(before, decode_action(game, entry.action))
    who = seat_text(entry.seat, names) if entry.seat >= 0 else Text(ACTORS.get(entry.seat, "?"))
    return Text("Last action: ").append_text(who).append(f": {said}")


def replay_all(game: Any, record: Any, packs: Sequence[Pack[Any]] = ()) -> list[Any]:
    """Every state of the record, or a RecordError naming the entry that does not replay."""
    states: list[Any] = []
    try:
        for state in replay_states(game, record, packs):
            states.append(state)
    except RecordError:
        raise
    except Exception as exc:  # any failure of a foreign file is the file's fault
        reason = exc.reason if isinstance(exc, TallTalesError) else f"{type(exc).__name__}: {exc}"
        where = f"entry {len(states)}" if states else "setup"
        raise RecordError(f"the record does not replay at {where}: {reason}") from exc
    return states


def naming(path: Path, reason: str) -> str:
    """The reason, prefixed with the file unless it names it already."""
    return reason if str(path) in reason else f"{path}: {reason}"


def check_pack(path: Path) -> str:
    """Validate one pack; the line to print when it is fine."""
    if path.suffix not in (".toml", ".json"):
        raise ContentError(f"{path}: a pack is a .toml or .json file")
    game = get_game(read_pack_meta(path).game)
    if game.card_type is None:
        raise ContentError(f"{path}: {game.title} takes no content packs")
    pack = load_pack(path, game.card_type, game.id)
    return f"OK {path}: {len(pack.cards)} cards ({pack.meta.id!r} for {game.id})"


@deck_app.command("check")
def deck_check(
    files: Annotated[list[Path], typer.Argument(metavar="FILE...", help="Pack files.")],
) -> None:
    """Validate content packs against the card schema of the game each one names."""
    console, failed = stdout(), 0
    for path in files:
        try:
            console.print(Text(check_pack(path), style="green"), soft_wrap=True)
        except (TallTalesError, OSError) as exc:
            failed += 1
            reason = exc.reason if isinstance(exc, TallTalesError) else str(exc.strerror)
            console.print(Text(f"FAIL {naming(path, reason)}", style="red"), soft_wrap=True)
    if failed:
        fail(f"{failed} of {len(files)} packs failed")


@deck_app.command("list")
def deck_list(game_id: GameArg) -> None:
    """List the content packs a game ships: id, title, cards, and which are the default."""
    with user_errors():
        game = get_game(game_id)
        infos = pack_infos(game)
    if game.card_type is None:
        stdout().print(f"{game.title} takes no content packs.")
        return
    if not infos:
        stdout().print(f"{game.title} ships no packs: give your own with --pack FILE.")
        return
    stdout().print(packs_table(game.title, infos))


@app.command()
def scenario(
    files: Annotated[list[Path], typer.Argument(metavar="FILE...", help="Scenario files.")],
) -> None:
    """Run scenario files and report PASS or FAIL for each."""
    console, failed = stdout(), 0
    for path in files:
        try:
            report = run_scenario_file(path)
        except TallTalesError as exc:
            failed += 1
            console.print(Text(f"FAIL {naming(path, exc.reason)}", style="red"), soft_wrap=True)
            continue
        if report.passed:
            line = f"PASS {path} ({report.title}, {report.steps} steps)"
            console.print(Text(line, style="green"), soft_wrap=True)
            continue
        failed += 1
        console.print(Text(f"FAIL {path} ({report.title})", style="red"), soft_wrap=True)
        for line in report.failures:
            console.print(Text(f"  {line}"), soft_wrap=True)
    if failed:
        fail(f"{failed} of {len(files)} scenarios failed")


app.command()(serve)


if __name__ == "__main__":
    app()
