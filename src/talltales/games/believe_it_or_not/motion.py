"""Pawn movement: stepping along the path, the special spaces, and when challenges arise.

Moves wait in ``state.motions`` and are carried out in order; a pawn passing a shortcut it
may use stops the queue until its owner decides. Whatever lands a pawn on an occupied space
by exact count queues a challenge ("When A Challenge Occurs": on any turn, by any cause).
"""

from __future__ import annotations

from talltales.core.game import Event, told_all
from talltales.games.believe_it_or_not.board import SPEED_UP, Board
from talltales.games.believe_it_or_not.state import Motion, Phase, State


def step(board: Board, position: int, steps: int, *, through_at: int = -1) -> int:
    """Where a pawn ends after ``steps`` (negative: back), taking the shortcut at
    ``through_at``; moving ahead stops at the last space (exact count not needed)."""
    if position <= board.won and (steps < 0 or through_at < 0):  # along the path alone
        position += steps
        return 0 if position < 0 else board.won if position > board.won else position
    for _ in range(abs(steps)):
        if steps > 0:
            if position == board.won:
                break
            position = board.ahead(position, through=position == through_at)
        else:
            position = board.back(position)
    return position


def ahead_of(board: Board, state: State, seat: int) -> int:
    """How many pawns are further along the path than ``seat``'s."""
    mine = board.progress(state.pawns[seat])
    return sum(1 for p in state.pawns if board.progress(p) > mine)


def shortcut_due(board: Board, state: State, motion: Motion) -> int | None:
    """The shortcut entry this forward move reaches with steps to spare and has not yet
    decided, if the pawn may use it ("The Shortcut": two or more pawns ahead)."""
    if motion.steps <= 0 or motion.through:  # a move through a shortcut has decided
        return None
    for distance, entry in board.entries_ahead(state.pawns[motion.seat]):
        if distance >= motion.steps:
            return None  # the move ends before it
        if entry != motion.entry:
            if motion.eligible is None:  # counted once, when first needed
                motion.eligible = ahead_of(board, state, motion.seat) >= 2
            return entry if motion.eligible else None
    return None


def run_motions(board: Board, state: State) -> list[Event]:
    """Carry out waiting moves until none is left, the game is won, or a pawn's owner
    must decide on a shortcut (then the phase says so)."""
    events: list[Event] = []
    while state.motions and state.winner is None:
        motion = state.motions[0]
        entry = shortcut_due(board, state, motion)
        if entry is not None:
            state.phase = Phase.SHORTCUT
            return events
        state.motions.pop(0)
        start = state.pawns[motion.seat]
        through_at = motion.entry if motion.through else -1
        end = step(board, start, motion.steps, through_at=through_at)
        direction = "ahead" if motion.steps > 0 else "back"
        text = f"seat {motion.seat} moves {abs(motion.steps)} {direction} to {board.name(end)}"
        events.append(told_all("move", text, seat=motion.seat, start=start, end=end))
        if end != start:
            events += land(board, state, motion.seat, end, forward=motion.steps > 0)
    return events


def decide_shortcut(board: Board, state: State, take: bool) -> None:
    """Record the mover's choice at the shortcut ahead of the first waiting move."""
    motion = state.motions[0]
    entry = shortcut_due(board, state, motion)
    assert entry is not None
    motion.entry, motion.through = entry, take


def land(board: Board, state: State, seat: int, position: int, *, forward: bool) -> list[Event]:
    """A pawn arrives by exact count: win, challenge, or let the space act."""
    state.pawns[seat] = position
    if position == board.won:
        return win(state, seat)
    if position == 0:
        return []  # everyone begins on START: it is no place for a challenge
    if challenge_here(state, seat, position):
        return [_challenge_event(state)]
    space = board.space(position)
    if space is None or space.kind == "plain":
        return []
    match space.kind:
        case "move":
            state.motions.insert(0, Motion(seat, space.move))
            word = "ahead" if space.move > 0 else "back"
            return [told_all("space", f"a move space: {abs(space.move)} {word}", seat=seat)]
        case "slide" if forward:
            state.pawns[seat] = space.end
            events = [told_all("slide", f"seat {seat} slides to space {space.end}", seat=seat)]
            if challenge_here(state, seat, space.end):
                events.append(_challenge_event(state))
            return events
        case "trade":
            return trade(board, state, seat)
        case "speed-up":
            return speed_up(board, state, seat)
        case _:
            return []


def challenge_here(state: State, seat: int, position: int) -> bool:
    """Queue a challenge if another pawn is already here ("Who Challenges Whom?"): the
    first such seat to the lander's left, when two share the space."""
    if state.pawns.count(position) < 2:  # the lander alone (the common case)
        return False
    players = state.players
    for offset in range(1, players):
        other = (seat + offset) % players
        if state.pawns[other] == position:
            state.challenges.append([seat, other])
            return True
    return False


def _challenge_event(state: State) -> Event:
    challenger, challenged = state.challenges[-1]
    text = f"seat {challenger} lands on seat {challenged}: a challenge!"
    return told_all("challenge-due", text, challenger=challenger, challenged=challenged)


def trade(board: Board, state: State, seat: int) -> list[Event]:
    """Trade Places: swap with the nearest pawn on the path (ahead if two are as near,
    then the first to the left); nobody on the path: ignore the space."""
    mine = board.progress(state.pawns[seat])
    players = state.players
    candidates = [
        (abs(board.progress(state.pawns[o]) - mine), -board.progress(state.pawns[o]), k, o)
        for k, o in enumerate((seat + d) % players for d in range(1, players))
        if 0 < state.pawns[o] < board.won
    ]
    if not candidates:
        return [told_all("trade", "trade places: nobody to trade with", seat=seat)]
    other = min(candidates)[3]
    state.pawns[seat], state.pawns[other] = state.pawns[other], state.pawns[seat]
    text = f"seat {seat} trades places with seat {other}"
    return [told_all("trade", text, seat=seat, other=other)]


def speed_up(board: Board, state: State, seat: int) -> list[Event]:
    """Speed Up: this pawn and every pawn on the path behind it move two, at once. The
    pushed pawns' spaces do not act; landing on a pawn that stayed still is a challenge."""
    mine = board.progress(state.pawns[seat])
    behind = [
        o for o, p in enumerate(state.pawns) if o != seat and p > 0 and board.progress(p) < mine
    ]
    movers = [seat, *behind]
    still = [o for o in range(state.players) if o not in movers]
    for mover in movers:
        state.pawns[mover] = step(board, state.pawns[mover], SPEED_UP)
    events = [told_all("speed-up", f"speed up! seat {seat} and {len(behind)} behind move two")]
    for mover in movers:
        if state.pawns[mover] == board.won:
            return events + win(state, mover)
    for mover in movers:
        occupant = next((o for o in still if state.pawns[o] == state.pawns[mover]), None)
        if occupant is not None and state.pawns[mover] != 0:
            state.challenges.append([mover, occupant])
            events.append(_challenge_event(state))
    return events


def win(state: State, seat: int) -> list[Event]:
    """How To Win The Game: the first pawn on the last space, however it got there."""
    state.winner = seat
    state.phase = Phase.OVER
    state.motions.clear()
    state.challenges.clear()
    state.deadline = None
    return [told_all("won", f"seat {seat} has won the game!", seat=seat)]
