"""Hidden information, proven both ways.

Nothing secret reaches a seat that may not see it (views, prompts, legal actions, events),
and ``resample_hidden`` really is the seat's ignorance: it keeps everything the seat sees,
redraws everything it does not, and depends on what the seat sees alone. That last property
is what makes bots provably blind: the Driver gives a bot only a resample, so two states a
seat cannot tell apart give the bot the same sample, hence the same decision.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from talltales.bots import make_bot
from talltales.core.driver import Driver, VirtualClock
from talltales.core.errors import IllegalAction
from talltales.core.game import CHANCE, CLOCK, Event, Game, Seat, Secret

from ..support import Snap, differing_fields, encode, encode_state, picked, seats, snaps, spread

REDRAWS = 12  # resamples in which every hidden secret must change at least once
RETRIES = 8  # ...and, before failing, 8 times as many: a two-valued secret stays put in
# 1 of 2**12 tries, which over hundreds of secrets would fail an honest game now and then
BOT_KINDS = ("random", "greedy", "search:depth=2", "smart")
BRANCHES = 4  # actions tried per pending seat when comparing events
LOOKS = 12  # states looked at closely per random game, however long it is
TWINS = 3  # states a seat cannot tell from the truth, each asked of every bot kind
LONG_NUMBER = re.compile(r"^[a-z -]*:(\d{8,})$")  # 'rng:123...': the digits may leak bare


def _forms(value: str) -> list[bytes]:
    """How a secret value could show up in JSON: raw UTF-8 or JSON-escaped, and a long
    number after its label on its own (a raw generator state in a view has no 'rng:')."""
    raw = value.encode()
    forms = [raw, encode(value)[1:-1]]
    number = LONG_NUMBER.match(value)
    if number:
        forms.append(number.group(1).encode())
    return list(dict.fromkeys(forms))


def _secrets(game: Game[Any, Any], state: Any, players: int, where: str) -> list[Secret]:
    """The state's secrets, each checked for form: a named, non-empty text, valid seats."""
    found = game.secrets(state)
    whats = [s.what for s in found]
    assert len(whats) == len(set(whats)), f"{where}: two secrets share a name: {whats}"
    for secret in found:
        assert isinstance(secret, Secret), f"{where}: {secret!r} is no Secret"
        assert isinstance(secret.value, str) and secret.value, f"{where}: {secret.what!r} empty"
        assert all(0 <= s < players for s in secret.seats), f"{where}: {secret!r}"
    return found


def _check_audience(event: Event, players: int, where: str) -> None:
    """Private unless public: a private event reaches its audience, and nobody else."""
    assert all(0 <= s < players for s in event.audience), f"{where}: audience of {event}"
    if event.public:
        return
    everyone: list[Seat | None] = [None, CLOCK, CHANCE, *range(players + 2)]
    reached = {s for s in everyone if event.visible_to(s)}
    assert reached == set(event.audience), f"{where}: {event} reaches {reached}"


def _shown(
    game: Game[Any, Any], snap: Snap, seat: Seat | None, look: bool
) -> list[tuple[str, bytes]]:
    """(what, bytes) of everything ``seat`` is shown now: its events, and when ``look``
    its view and, pending, its prompt and its choices."""
    shown = [("an event", encode(e)) for e in snap.events if e.visible_to(seat)]
    if not look:
        return shown
    state = snap.state
    shown.append(("the view", encode(game.view(state, seat))))
    if _pending(game, state, seat):
        shown.append(("the prompt", encode(game.prompt(state, seat))))
        shown.append(("the legal actions", encode(game.legal_actions(state, seat))))
    return shown


def _pending(game: Game[Any, Any], state: Any, seat: Seat | None) -> bool:
    """Whether ``seat`` is a player with a decision now."""
    over = game.outcome(state) is not None
    return seat is not None and not over and seat in game.pending(state)


def check_secrets_do_not_leak(game: Game[Any, Any], players: int, seeds: Sequence[int]) -> None:
    """No secret value is in anything shown to a seat not allowed to see it (the public
    table, None, is never allowed). Events are checked at every state, against the secrets
    of the state they led to, and must follow the audience rule; views, prompts and legal
    actions at a sample of states."""
    checked = 0
    for seed in seeds:
        every = snaps(game, players, seed)
        looks = {snap.step for snap in spread(every, LOOKS, seed)}
        for snap in every:
            where = f"{game.id} {players}p seed {seed} step {snap.step}"
            found = [(s, _forms(s.value)) for s in _secrets(game, snap.state, players, where)]
            for event in snap.events:
                _check_audience(event, players, where)
            look = snap.step in looks
            for seat in seats(players):
                for what, data in _shown(game, snap, seat, look):
                    for secret, forms in found:
                        leaked = seat not in secret.seats and any(f in data for f in forms)
                        assert not leaked, (
                            f"{where}: secret {secret.what!r} is in {what} shown to seat "
                            f"{seat}: {data.decode()[:300]}"
                        )
            checked += look
    assert checked > 0, f"{game.id}: no view was ever checked"


def _seen(game: Game[Any, Any], state: Any, seat: Seat | None) -> dict[str, bytes]:
    """What ``seat`` sees of ``state``: its view, the public view, and if pending its
    legal actions and its prompt."""
    seen = {"its view": encode(game.view(state, seat))}
    seen["the public view"] = encode(game.view(state, None))
    if _pending(game, state, seat):
        seen["its legal actions"] = encode(game.legal_actions(state, seat))
        seen["its prompt"] = encode(game.prompt(state, seat))
    return seen


def check_resample_keeps_what_seat_sees(
    game: Game[Any, Any], players: int, seeds: Sequence[int]
) -> None:
    """Redrawing what a seat cannot see changes nothing it sees: its view, the public view,
    its legal actions and its prompt stay byte-identical; the original is left alone."""
    for seed in seeds:
        for snap in picked(game, players, seed, LOOKS):
            state = snap.state
            original = encode_state(state)
            for seat in seats(players):
                seen = _seen(game, state, seat)
                for sample in (1, 2, seed):
                    other = game.resample_hidden(state, seat, sample)
                    where = f"{game.id} {players}p seed {seed} step {snap.step} seat {seat}"
                    assert isinstance(other, game.state_type), f"{where}: not a state"
                    assert game.players(other) == players, where
                    after = _seen(game, other, seat)
                    assert after.keys() == seen.keys(), f"{where}: resampling changed pending"
                    for name, before in seen.items():
                        assert after[name] == before, f"{where}: resampling changed {name}"
                assert encode_state(state) == original, f"{game.id}: resample_hidden mutated"


def _unchanged(
    game: Game[Any, Any], state: Any, seat: Seat | None, hidden: dict[str, str], samples: range
) -> dict[str, str]:
    """The hidden secrets that kept their value in every resample from ``samples``."""
    left = dict(hidden)
    for sample in samples:
        redrawn = game.resample_hidden(state, seat, sample)
        now = {s.what: s.value for s in game.secrets(redrawn)}
        left = {what: value for what, value in left.items() if now.get(what) == value}
        if not left:
            break
    return left


def check_resample_redraws_secrets(
    game: Game[Any, Any], players: int, seeds: Sequence[int]
) -> None:
    """Resampling really resamples: every secret hidden from a seat changes value in at
    least one of REDRAWS resamples for that seat (a resample_hidden that copies a secret,
    or returns a clone, would hand bots the truth)."""
    for seed in seeds:
        for snap in picked(game, players, seed, LOOKS):
            state = snap.state
            for seat in seats(players):
                hidden = {s.what: s.value for s in game.secrets(state) if seat not in s.seats}
                base = seed * 1_000 + snap.step * 10
                left = _unchanged(game, state, seat, hidden, range(base, base + REDRAWS))
                if left:
                    more = range(base + REDRAWS, base + REDRAWS * RETRIES)
                    left = _unchanged(game, state, seat, left, more)
                where = f"{game.id} {players}p seed {seed} step {snap.step} seat {seat}"
                assert not left, (
                    f"{where}: resample_hidden never changed the hidden {sorted(left)} "
                    f"in {REDRAWS * RETRIES} samples"
                )


def check_resample_is_canonical(game: Game[Any, Any], players: int, seeds: Sequence[int]) -> None:
    """resample_hidden depends only on what the seat sees and the sample seed: resampling
    a resample (a state the seat cannot tell from the truth) gives exactly the same state
    as resampling the truth. Then a bot's sample, hence its decision, cannot depend on any
    secret."""
    for seed in seeds:
        for snap in picked(game, players, seed, LOOKS):
            state = snap.state
            for seat in seats(players):
                twin = game.resample_hidden(state, seat, seed + 17)
                for sample in (seed + 1, seed + 2):
                    truth = game.resample_hidden(state, seat, sample)
                    other = game.resample_hidden(twin, seat, sample)
                    where = f"{game.id} {players}p seed {seed} step {snap.step} seat {seat}"
                    assert encode_state(truth) == encode_state(other), (
                        f"{where}: the sample depends on hidden values (differs in "
                        f"{differing_fields(truth, other)})"
                    )


Branch = tuple[Seat, Any]  # who acts (a seat, CHANCE or CLOCK) and the action (a time)


def _branches(game: Game[Any, Any], state: Any) -> list[Branch]:
    """What could happen next: a few legal actions of each pending seat, every chance
    outcome, and the clock's tick at the deadline."""
    found: list[Branch] = []
    for seat in sorted(game.pending(state)):
        if seat == CHANCE:
            found += [(CHANCE, a) for a, _ in game.chance_outcomes(state)]
            continue
        actions = game.legal_actions(state, seat)
        found += [(seat, a) for a in actions[:: max(1, len(actions) // BRANCHES)]]
    deadline = game.deadline(state)
    if deadline is not None:
        found.append((CLOCK, deadline))
    return found


def _follow(game: Game[Any, Any], state: Any, branch: Branch) -> tuple[Any, list[Event]] | None:
    """The state after ``branch`` and its events; None where it is not legal in ``state``."""
    seat, action = branch
    after = game.clone(state)
    if seat == CLOCK:
        return after, game.tick(after, action)
    if seat not in game.pending(state):
        return None
    try:
        game.validate(after, seat, action)
    except IllegalAction:  # a branch of the truth may be illegal in a resample: no test
        return None
    return after, game.apply(after, seat, action)


Told = tuple[bytes, bytes]  # an observer's view after a branch, and the events told to it


def _told(game: Game[Any, Any], result: tuple[Any, list[Event]], seat: Seat | None) -> Told:
    """(the seat's view after, the events told to it) as bytes."""
    after, events = result
    return encode(game.view(after, seat)), encode([e for e in events if e.visible_to(seat)])


def _check_told_alike(pairs: list[tuple[str, Told]], where: str) -> int:
    """Among (branch, (view, events)): branches leaving the same view tell the same.
    Returns how many branches met an earlier one's view (how many comparisons it made)."""
    told: dict[bytes, tuple[str, bytes]] = {}
    for name, (view, events) in pairs:
        first, said = told.setdefault(view, (name, events))
        assert said == events, (
            f"{where}: after {first} and after {name} the view is the same but the events "
            f"differ, so an event reveals what the view hides:\n  {said.decode()[:300]}\n"
            f"  {events.decode()[:300]}"
        )
    return len(pairs) - len(told)


def check_events_follow_views(game: Game[Any, Any], players: int, seeds: Sequence[int]) -> None:
    """An event reveals nothing the view does not (a reconnecting phone gets only the
    view). For each observer: (1) different next actions (or chance outcomes) that leave
    its view identical must tell it identical events; (2) the same next action applied to
    the truth and to a resample for the observer, where its view after is identical, must
    too."""
    compared = 0
    for seed in seeds:
        # Chance one entry at a time, so that dice and draws are among the branches.
        for snap in picked(game, players, seed, LOOKS, auto_chance=False):
            state = snap.state
            if snap.over:
                continue
            branches = _branches(game, state)
            results = [(b, _follow(game, state, b)) for b in branches]
            for seat in seats(players):
                where = f"{game.id} {players}p seed {seed} step {snap.step} observer {seat}"
                pairs = [(repr(b), _told(game, r, seat)) for b, r in results if r]
                twin = game.resample_hidden(state, seat, seed + snap.step)
                for branch in branches:
                    other = _follow(game, twin, branch)
                    if other is not None:
                        pairs.append((f"{branch!r} on a resample", _told(game, other, seat)))
                compared += _check_told_alike(pairs, where)
    assert compared > 0, f"{game.id} {players}p: no two branches ever left the same view"


def _decision(snap: Snap, state: Any, seat: Seat, kind: str, seed: int) -> bytes:
    """What a fresh bot of ``kind`` decides through a Driver when the truth is ``state``."""
    bots = {seat: make_bot(kind, seed)}
    driver: Driver[Any, Any] = Driver(snap.table(state), bots, VirtualClock(), seed=seed)
    return encode(driver.decide(seat))


def check_bots_are_blind(game: Game[Any, Any], players: int, seeds: Sequence[int]) -> None:
    """A bot decides from what its seat may know: with the truth replaced by other states
    the seat cannot tell from it (resamples for the seat), the same bot kind with the same
    seed, asked through a Driver, makes the same decision."""
    decided = 0
    for seed in seeds:
        every = snaps(game, players, seed)
        # The last choices too: a bot that looks a move or two ahead sees the final score
        # there, which is where hidden values (the real answer, the votes) change its mind.
        steps = {s.step for s in spread(every, LOOKS, seed)} | set(_choices(game, every)[-4:])
        for snap in (every[step] for step in sorted(steps)):
            for seat in _deciding(game, snap):
                _check_blind(game, snap, seat, f"{game.id} {players}p seed {seed}")
                decided += 1
    assert decided > 0, f"{game.id}: no bot was ever asked"


def _deciding(game: Game[Any, Any], snap: Snap) -> list[Seat]:
    """The players with a decision at ``snap``."""
    return [] if snap.over else sorted(s for s in game.pending(snap.state) if s >= 0)


def _choices(game: Game[Any, Any], every: list[Snap]) -> list[int]:
    """The steps where some player has more than one legal action."""
    return [
        snap.step
        for snap in every
        if any(len(game.legal_actions(snap.state, s)) > 1 for s in _deciding(game, snap))
    ]


def _check_blind(game: Game[Any, Any], snap: Snap, seat: Seat, where: str) -> None:
    """Each bot kind decides alike on the truth and on a few states the seat cannot tell
    from it (several, so that the hidden values differ in a way a decision can notice)."""
    seed = snap.step * 100
    twins = [game.resample_hidden(snap.state, seat, seed + k) for k in range(1, TWINS + 1)]
    for kind in BOT_KINDS:
        truth = _decision(snap, snap.state, seat, kind, seed)
        for twin in twins:
            other = _decision(snap, twin, seat, kind, seed)
            assert truth == other, (
                f"{where} step {snap.step} seat {seat}: bot {kind} decides {truth.decode()} on "
                f"the truth but {other.decode()} on a state its seat cannot tell from it"
            )
