"""Refusals, in Match's order of checks: game over, not your turn, malformed, illegal.

Every refusal must raise its own error class and leave version, record and state unchanged.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import msgspec

from talltales.core.errors import (
    EmptyText,
    GameOver,
    IllegalAction,
    MalformedAction,
    NotYourTurn,
    TextTooLong,
)
from talltales.core.game import CHANCE, CLOCK, Game
from talltales.core.match import MAX_ACTION_BYTES, Match, decode_action
from talltales.core.prompt import Write

from ..support import (
    Snapshot,
    action_classes,
    any_action,
    encode,
    fork,
    play,
    pool_by_class,
    refused,
    sampled,
    tag_field,
    walk,
)

NOT_A_FIELD = "zz_not_a_field"


def _pending_moments(
    game: Game[Any, Any], players: int, seeds: Sequence[int], rate: float
) -> list[Match[Any, Any]]:
    """Sampled, unfinished moments with a seat to move, as forks (safe to keep)."""
    found = []
    for seed in seeds:
        for moment in sampled(walk(game, players, seed), rate, seed):
            if not moment.match.is_over() and moment.match.pending():
                found.append(fork(moment.match))
    assert found, f"{game.id}-{players}p: no state with a pending seat"
    return found


def _padded(encoded: bytes, size: int) -> bytes:
    """The same JSON, led by spaces up to exactly ``size`` bytes."""
    return b" " * (size - len(encoded)) + encoded


def _has_any(info: Any) -> bool:
    if isinstance(info, msgspec.inspect.AnyType):
        return True
    if isinstance(info, msgspec.inspect.Metadata):
        return _has_any(info.type)
    if isinstance(info, msgspec.inspect.UnionType):
        return any(_has_any(t) for t in info.types)
    return False


def _wrong(value: Any) -> Any:
    """A JSON value of another kind than ``value``."""
    return [["wrong"]] if isinstance(value, dict) else {"wrong": [[]]}


def _out_of_range(info: Any) -> list[int | float]:
    """Numbers just outside a numeric field's bounds."""
    while isinstance(info, msgspec.inspect.Metadata):
        info = info.type
    if not isinstance(info, (msgspec.inspect.IntType, msgspec.inspect.FloatType)):
        return []
    step = 1 if isinstance(info, msgspec.inspect.IntType) else 0.5
    values: list[int | float] = []
    if info.ge is not None:
        values.append(info.ge - step)
    if info.gt is not None:
        values.append(info.gt)
    if info.le is not None:
        values.append(info.le + step)
    if info.lt is not None:
        values.append(info.lt)
    return values


def malformed_inputs(game: Any, action: Any) -> list[tuple[str, object]]:
    """Inputs Match must refuse as malformed (given one well-formed ``action``)."""
    tag = tag_field(game)
    classes = action_classes(game)
    inputs: list[tuple[str, object]] = [
        ("truncated JSON", b'{"' + tag.encode() + b'": '),
        ("invalid UTF-8", b"\xff\xfe\xfd"),
        ("empty bytes", b""),
        ("not JSON text", "this is not json"),
        ("JSON array", b"[]"),
        ("JSON null", b"null"),
        ("JSON number", b"42"),
        ("JSON string", b'"hello"'),
        ("unknown type bytes", encode({tag: "no-such"})),
        ("unknown type str", encode({tag: "no-such"}).decode()),
        ("unknown type dict", {tag: "no-such"}),
        ("tag of the wrong type", {tag: 5}),
        ("python int", 42),
        ("python None", None),
        ("python float", 3.5),
        ("python list", [msgspec.to_builtins(action)]),
        ("python object", object()),
    ]
    if len(classes) > 1 and all(m.tag for m in classes):
        inputs += [("no tag bytes", b"{}"), ("no tag dict", {})]
    encoded = encode(action)
    over = _padded(encoded, MAX_ACTION_BYTES + 1)
    inputs += [("over 64 KiB bytes", over), ("over 64 KiB str", over.decode())]
    for cls, instances in pool_by_class(game).items():
        if not instances:
            continue
        info = msgspec.inspect.type_info(cls)
        base = msgspec.to_builtins(instances[0])
        for field in info.fields:
            if field.encode_name not in base:
                continue
            if not _has_any(field.type):
                wrong = {**base, field.encode_name: _wrong(base[field.encode_name])}
                inputs.append((f"{cls.__name__}.{field.name} of the wrong type", wrong))
                inputs.append((f"{cls.__name__}.{field.name} wrong type bytes", encode(wrong)))
            for value in _out_of_range(field.type):
                bad = {**base, field.encode_name: value}
                inputs.append((f"{cls.__name__}.{field.name}={value} out of range", bad))
            if field.required:
                missing = {k: v for k, v in base.items() if k != field.encode_name}
                inputs.append((f"{cls.__name__} without {field.name}", missing))
    return inputs


def check_out_of_turn(game: Game[Any, Any], players: int, seeds: Sequence[int]) -> None:
    """A seat with nothing pending (chance, the clock and strangers too) gets NotYourTurn,
    even for garbage: the turn is checked before the form."""
    for match in _pending_moments(game, players, seeds, rate=0.2):
        action = any_action(match)
        idle = [s for s in range(players) if s not in match.pending()]
        before = Snapshot.of(match)
        for seat in [*idle, CHANCE, CLOCK, players, players + 7]:
            refused(match, NotYourTurn, seat, action, before=before)
            refused(match, NotYourTurn, seat, b"{garbage", before=before)


def check_malformed_actions(game: Game[Any, Any], players: int, seeds: Sequence[int]) -> None:
    """Bad JSON, unknown types, wrong or missing fields, out-of-range values and anything
    over 64 KiB are MalformedAction for a seat whose turn it is."""
    moments = _pending_moments(game, players, seeds, rate=0.1)
    for match in moments[:: max(1, len(moments) // 6)]:
        seat = min(match.pending())
        action = match.legal_actions(seat)[0]
        before = Snapshot.of(match)
        for label, raw in malformed_inputs(game, action):
            error = refused(match, MalformedAction, seat, raw, label, before)
            assert error.code == "malformed", label
        # Exactly at the limit the same action still reads.
        exact = _padded(encode(action), MAX_ACTION_BYTES)
        assert decode_action(game, exact) == action
        assert decode_action(game, exact.decode()) == action


def check_known_type_with_extra_field_is_malformed(
    game: Game[Any, Any], players: int, seeds: Sequence[int]
) -> None:
    """A known action type carrying a field it does not have is MalformedAction."""
    moments = _pending_moments(game, players, seeds, rate=0.1)
    checked = 0
    for match in moments[:: max(1, len(moments) // 4)]:
        seat = min(match.pending())
        for cls, instances in pool_by_class(game).items():
            for action in instances[:2]:
                extra = {**msgspec.to_builtins(action), NOT_A_FIELD: 1}
                for raw in (extra, encode(extra)):
                    label = f"{cls.__name__} with an extra field"
                    refused(match, MalformedAction, seat, raw, label)
                    checked += 1
    assert checked > 0


def _str_fields(action: Any) -> list[str]:
    """The JSON names of an action's text fields."""
    info = msgspec.inspect.type_info(type(action))
    data = msgspec.to_builtins(action)
    return [f.encode_name for f in info.fields if isinstance(data.get(f.encode_name), str)]


def check_oversize_multibyte_text_is_malformed(
    game: Game[Any, Any], players: int, seeds: Sequence[int]
) -> None:
    """Over 64 KiB of UTF-8 is malformed even when it is fewer than 64 Ki characters, as
    JSON text or as bytes."""
    match = _pending_moments(game, players, seeds, rate=0.0)[0]
    seat = min(match.pending())
    padding = "\u00e9" * (MAX_ACTION_BYTES // 2 + 1)  # 2 bytes each in UTF-8
    candidates = [a for a in match.legal_actions(seat) if _str_fields(a)]
    if candidates:
        action = candidates[0]
        data = {**msgspec.to_builtins(action), _str_fields(action)[0]: padding}
    else:
        data = {**msgspec.to_builtins(match.legal_actions(seat)[0]), NOT_A_FIELD: padding}
    text = encode(data).decode()
    assert len(text) <= MAX_ACTION_BYTES < len(text.encode())
    refused(match, MalformedAction, seat, text.encode(), "over 64 KiB of UTF-8 bytes")
    refused(match, MalformedAction, seat, text, "over 64 KiB of UTF-8 as str")


def check_game_over_refuses_everything(
    game: Game[Any, Any], players: int, seeds: Sequence[int]
) -> None:
    """Once the game is over every submission is GameOver, whoever sends whatever."""
    for seed in seeds:
        match = play(game, players, seed)
        assert match.is_over()
        action = any_action(match)
        for seat in [*range(players), CHANCE, CLOCK, players]:
            for raw in (action, encode(action), b"{garbage", {"type": "no-such"}, None):
                refused(match, GameOver, seat, raw)
        before = Snapshot.of(match)
        assert match.tick(10**15) == []
        assert Snapshot.of(match) == before, "a tick after the end changed the match"


def check_illegal_actions_are_refused(
    game: Game[Any, Any], players: int, seeds: Sequence[int]
) -> None:
    """Well-formed actions the game produces elsewhere: where validate refuses one for a
    pending seat, Match refuses it with IllegalAction and changes nothing; where validate
    accepts one, so does Match. validate raises nothing but IllegalAction."""
    pool = pool_by_class(game)
    refusals: dict[str, int] = {cls.__name__: 0 for cls in pool}
    compared = 0
    for match in _pending_moments(game, players, seeds, rate=0.2):
        before = Snapshot.of(match)
        for seat in sorted(match.pending()):
            advised = {encode(a) for a in match.legal_actions(seat)}
            for cls, instances in pool.items():
                for action in instances:
                    if encode(action) in advised:
                        continue
                    compared += 1
                    try:
                        game.validate(game.clone(match.state), seat, action)
                    except IllegalAction:
                        label = f"illegal {action!r} for seat {seat}"
                        refused(match, IllegalAction, seat, action, label, before)
                        refused(match, IllegalAction, seat, encode(action), label, before)
                        refusals[cls.__name__] += 1
                    else:  # legal though not advised (alike choices, free-text examples)
                        other: Match[Any, Any] = fork(match)
                        other.submit(seat, action)
                        assert other.version > match.version
    assert compared > 0, f"{game.id}-{players}p: every pooled action was advised everywhere"
    assert any(refusals.values()), f"{game.id}-{players}p: no illegal action found ({refusals})"


def check_write_prompts_limit_text(
    game: Game[Any, Any], players: int, seeds: Sequence[int]
) -> None:
    """Where a pending seat is asked to write (a Write prompt), Match refuses a text over
    the prompt's limit (text-too-long) and an empty or blank one (empty-text), changing
    nothing; a text of exactly the limit passes those checks. Games that never ask for text
    never refuse text. A game declaring ``writes`` asks for text only in those actions."""
    for seed in seeds:
        for moment in sampled(walk(game, players, seed), 0.3, seed):
            for seat in sorted(moment.match.pending()):
                prompt = moment.match.prompt(seat)
                if isinstance(prompt, Write):
                    declared = game.writes
                    assert declared is None or prompt.action.get("type") in declared, (
                        f"{game.id}: a Write prompt for {prompt.action} but writes={declared}"
                    )
                    _check_write(fork(moment.match), seat, prompt)


def _check_write(match: Match[Any, Any], seat: int, prompt: Write) -> None:
    where = f"{match.game.id} seat {seat}"
    for text, error in _bad_texts(prompt.max_length):
        caught = refused(match, error, seat, prompt.fill(text), f"{where}: {text[:9]!r}")
        assert caught.code == error.code, f"{where}: {caught.code} for {text[:9]!r}"
    try:
        fork(match).submit(seat, prompt.fill("x" * prompt.max_length))
    except (TextTooLong, EmptyText) as exc:
        raise AssertionError(f"{where}: a text of exactly the limit: {exc}") from exc
    except IllegalAction:
        pass  # the game may refuse that text for reasons of its own


def _bad_texts(limit: int) -> list[tuple[str, type[IllegalAction]]]:
    """Texts every Write prompt refuses, with the error Match must give."""
    return [("x" * (limit + 1), TextTooLong), ("", EmptyText), ("  \n\t ", EmptyText)]
