"""Hidden information: secrets never reach a seat that may not see them, and what a seat
sees does not depend on what it cannot see."""

from __future__ import annotations

from typing import Any

import msgspec

from talltales.core.game import Secret
from talltales.core.rng import Rng

from .support import case_seeds, encode, encode_state, sampled, seats, walk


def _forms(value: str) -> list[bytes]:
    """How a secret value could show up in JSON: raw UTF-8 or JSON-escaped."""
    raw = value.encode()
    escaped = encode(value)[1:-1]
    return [raw] if raw == escaped else [raw, escaped]


def test_secrets_do_not_leak(case: Any) -> None:
    """No secret value is in the view of, or an event told to, a seat not allowed to see it
    (the public table, seat None, is never allowed). Events are checked at every state,
    against the secrets of the state they led to; views at a sample of states."""
    game, players = case
    checked = 0
    for seed in case_seeds(players, salt=40, count=10):
        pick = Rng(seed)
        for moment in walk(game, players, seed):
            state = moment.state
            secrets = game.secrets(state)
            assert all(isinstance(s, Secret) for s in secrets)
            look = moment.step == 0 or moment.match.is_over() or pick.random() < 0.4
            for secret in secrets:
                assert isinstance(secret.value, str) and secret.value, (
                    f"{case.id}: secret {secret.what!r} has an empty value"
                )
                assert all(0 <= s < players for s in secret.seats), secret
                forms = _forms(secret.value)
                for seat in seats(players):
                    if seat in secret.seats:
                        continue
                    where = f"{case.id} seed {seed} step {moment.step}: {secret.what!r}"
                    for event in moment.events:
                        if event.visible_to(seat):
                            told = encode(event)
                            assert not any(f in told for f in forms), (
                                f"{where} is in an event told to seat {seat}: {told.decode()}"
                            )
                    if look:
                        view = encode(game.view(state, seat))
                        assert not any(f in view for f in forms), (
                            f"{where} is in the view of seat {seat}"
                        )
                        checked += 1
            # Events told to some seats really are withheld from the public table.
            for event in moment.events:
                if event.audience is not None:
                    assert not event.visible_to(None)
                    assert all(event.visible_to(s) for s in event.audience)
    assert checked > 0, f"{case.id}: no secret was ever checked"


def test_resample_hidden_keeps_views(case: Any) -> None:
    """Redrawing what a seat cannot see changes neither its view nor the public view, nor
    its legal actions; the original state is left alone."""
    game, players = case
    for seed in case_seeds(players, salt=41, count=8):
        for moment in sampled(walk(game, players, seed), 0.3, seed):
            state = moment.state
            original = encode_state(state)
            public = encode(game.view(state, None))
            for seat in seats(players):
                own = encode(game.view(state, seat))
                pending = seat is not None and seat in game.pending(state)
                legal = encode(game.legal_actions(state, seat)) if pending else b""
                for sample in (1, 2, seed):
                    other = game.resample_hidden(state, seat, sample)
                    assert isinstance(other, game.state_type)
                    msgspec.json.decode(encode_state(other), type=game.state_type)
                    where = f"{case.id} seed {seed} step {moment.step} seat {seat}"
                    assert encode(game.view(other, seat)) == own, f"{where}: own view changed"
                    assert encode(game.view(other, None)) == public, f"{where}: public changed"
                    if pending:
                        assert encode(game.legal_actions(other, seat)) == legal, where
                    assert game.players(other) == players
                assert encode_state(state) == original, f"{case.id}: resample_hidden mutated"
