"""Would You Believe It! as a state machine: roll, move a figure or a guard, collect, score."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, TypeVar

import msgspec

from talltales.core import rng
from talltales.core.content import Pack
from talltales.core.errors import IllegalAction
from talltales.core.game import (
    CHANCE,
    Event,
    Game,
    Outcome,
    Seat,
    Secret,
    rank_by_score,
    told_all,
)
from talltales.games.would_you_believe_it import board
from talltales.games.would_you_believe_it.moves import (
    destination,
    guard_may_move,
    left_empty,
    takes_card_on_leaving,
)
from talltales.games.would_you_believe_it.overrides import apply_overrides
from talltales.games.would_you_believe_it.state import (
    DIE_FACES,
    MOVE_FIGURE,
    MOVE_GUARD,
    ROLL,
    Action,
    Die,
    MoveFigure,
    MoveGuard,
    Options,
    Phase,
    Roll,
    State,
)
from talltales.games.would_you_believe_it.view import build_view, build_views, place_name

FINISH = board.FINISH
T = TypeVar("T")
_ONLY = tuple(frozenset((seat,)) for seat in range(6))  # pending sets, built once
_CHANCE_ONLY = frozenset((CHANCE,))


class WouldYouBelieveIt(Game[State, Action]):
    """Collect plus and fortune cards along a route, dodge the minus cards."""

    id = "would-you-believe-it"
    title = "Would You Believe It!"
    min_players = 2
    max_players = 6
    summary = "Roll, move a figure or a guard, and collect the cards you leave empty."
    state_type = State
    action_type = Action
    options_type = Options

    def __init__(self) -> None:
        self._last_throw: tuple[int, tuple[int, int]] = (-1, (0, 0))

    # --- setup -----------------------------------------------------------------------------
    def setup(
        self, players: int, options: Any, seed: int, packs: Sequence[Pack[Any]] = ()
    ) -> State:
        """Lay the route, put guards on fortune cards, +8 and +7, and figures on Start."""
        self.check_players(players)
        assert isinstance(options, Options)
        state = rng.seed_state(seed)
        if options.layout == "fixed":
            route = list(board.FIXED_LAYOUT)
        else:
            route, state = board.shuffled_layout(state)
        each = options.figures or board.figures_each(players)
        return State(
            route=route,
            present=[True] * board.ROUTE_LENGTH,
            figures=[[board.START] * each for _ in range(players)],
            guards=board.guard_places(route),
            collected=[[] for _ in range(players)],
            rng=state,
        )

    def override(self, state: State, overrides: dict[str, Any]) -> None:
        """Scenario set-ups: route (labels), present, figures, guards, collected, turn."""
        apply_overrides(state, overrides)

    # --- decisions -------------------------------------------------------------------------
    def pending(self, state: State) -> frozenset[Seat]:
        """The die holder decides; while the die rolls, chance does."""
        match state.phase:
            case Phase.ROLL | Phase.MOVE:
                return _ONLY[state.turn]
            case Phase.DIE:
                return _CHANCE_ONLY
            case Phase.OVER:
                return frozenset()

    def legal_actions(self, state: State, seat: Seat) -> list[Action]:
        """One action per distinct choice (figures or guards sharing a card are alike)."""
        if seat == CHANCE and state.phase is Phase.DIE:
            return list(DIE_FACES)
        if seat != state.turn:
            return []
        match state.phase:
            case Phase.ROLL:
                return [ROLL]
            case Phase.MOVE:
                actions: list[Action] = []
                seen: set[int] = set()
                for k, pos in enumerate(state.figures[seat]):
                    if pos < FINISH and pos not in seen:
                        seen.add(pos)
                        actions.append(MOVE_FIGURE[k])
                # a guard moves only off a route card some figure shares
                movable = {p for figs in state.figures for p in figs if 0 < p < FINISH}
                for g, pos in enumerate(state.guards):
                    if pos in movable:
                        movable.discard(pos)  # guards sharing a card are alike
                        actions.append(MOVE_GUARD[g])
                return actions
            case _:
                return []

    def validate(self, state: State, seat: Seat, action: Action) -> None:
        """Refuse, with the rulebook's reason, anything but a legal roll or move now."""
        if state.phase is Phase.OVER:
            raise IllegalAction("every figure is at Finish: the game is over")
        if seat == CHANCE:
            if state.phase is not Phase.DIE or not isinstance(action, Die):
                raise IllegalAction("chance only rolls the die, and only once it is thrown")
            return
        if seat != state.turn:
            raise IllegalAction(f"it is seat {state.turn}'s turn")
        match action:
            case Roll():
                if state.phase is not Phase.ROLL:
                    raise IllegalAction("you have already rolled: now move a figure or a guard")
            case MoveFigure(figure=k):
                self._check_move_phase(state)
                figures = state.figures[seat]
                if k >= len(figures):
                    raise IllegalAction(f"you have only {len(figures)} figures")
                if figures[k] == FINISH:
                    raise IllegalAction("that figure is already at Finish")
            case MoveGuard(guard=g):
                self._check_move_phase(state)
                position = state.guards[g]
                if position == FINISH:
                    raise IllegalAction("that guard is at Finish and cannot move")
                if not guard_may_move(state, g):
                    raise IllegalAction("a guard moves only when a figure stands on its card")
            case Die():
                raise IllegalAction("players roll with a roll action; the die decides itself")

    @staticmethod
    def _check_move_phase(state: State) -> None:
        if state.phase is not Phase.MOVE:
            raise IllegalAction("roll the die first")

    def apply(self, state: State, seat: Seat, action: Action, now: int = 0) -> list[Event]:
        """Roll, land the die, or move a piece and collect the card it left empty."""
        match action:
            case Roll():
                state.phase = Phase.DIE
                return [told_all("roll", f"seat {seat} throws the die", seat=seat)]
            case Die(value=value):
                state.rng = self._throw(state.rng)[0]  # the throw is spent, scripted or drawn
                state.roll = value
                state.phase = Phase.MOVE
                return [told_all("die", f"the die shows {value}", value=value)]
            case MoveFigure(figure=k):
                return self._move_figure(state, seat, k)
            case MoveGuard(guard=g):
                return self._move_guard(state, seat, g)

    def _move_figure(self, state: State, seat: Seat, k: int) -> list[Event]:
        start = state.figures[seat][k]
        end = destination(state, start, state.roll)
        state.figures[seat][k] = end
        moved = self._moved(seat, k, start, end)
        events = [told_all("move-figure", f"seat {seat} moves a figure", **moved)]
        # Taking a Route Card: the figure leaving a card it held alone collects it.
        if 0 < start < FINISH and left_empty(state, start):
            value = state.route[start - 1]
            state.present[start - 1] = False
            state.collected[seat].append(value)
            text = f"seat {seat} collects {board.label(value)}"
            events.append(
                told_all("collect", text, seat=seat, position=start, card=board.label(value))
            )
        return events + self._end_move(state)

    def _move_guard(self, state: State, seat: Seat, g: int) -> list[Event]:
        start = state.guards[g]
        end = destination(state, start, state.roll)
        state.guards[g] = end
        data: dict[str, str | int | bool | None] = {"seat": seat, "guard": g, "from": start}
        return [
            told_all("move-guard", f"seat {seat} moves a guard", **data, to=end),
            *self._end_move(state),
        ]

    @staticmethod
    def _moved(seat: Seat, k: int, start: int, end: int) -> dict[str, str | int | bool | None]:
        return {"seat": seat, "figure": k, "from": start, "to": end}

    def _end_move(self, state: State) -> list[Event]:
        state.roll = 0
        state.moves += 1
        players = len(state.figures)
        for step in range(1, players + 1):
            seat = (state.turn + step) % players
            if any(p < FINISH for p in state.figures[seat]):  # finished players stop playing
                state.turn = seat
                state.phase = Phase.ROLL
                return []
        state.phase = Phase.OVER
        result = self.outcome(state)
        assert result is not None
        winners = ",".join(map(str, result.winners))
        return [told_all("game-over", "every figure is at Finish", winners=winners)]

    def chance_outcomes(self, state: State) -> list[tuple[Action, float]]:
        """Six faces, equally likely."""
        return [(face, 1 / 6) for face in DIE_FACES] if state.phase is Phase.DIE else []

    def sample_chance(self, state: State) -> Action:
        """What the state's own generator rolls next; applying the Die spends it."""
        if state.phase is not Phase.DIE:
            raise IllegalAction("the die has not been thrown")
        return DIE_FACES[self._throw(state.rng)[1]]

    def _throw(self, before: int) -> tuple[int, int]:
        """(generator state after, face index) of one throw; the last one is remembered,
        since drawing a die and applying it compute the same throw."""
        last = self._last_throw  # read once: bots in other threads share this game object
        if last[0] != before:
            last = self._last_throw = (before, rng.below(before, 6))
        return last[1]

    # --- views -----------------------------------------------------------------------------
    def view(self, state: State, seat: Seat | None) -> msgspec.Struct:
        """Everything on the table is public; the choices are shown to the seat to move."""
        return build_view(state, seat, self.legal_actions(state, seat) if seat is not None else [])

    def views(
        self, state: State, seats: Iterable[Seat | None]
    ) -> dict[Seat | None, msgspec.Struct]:
        """All the seats' views at once, sharing the table between them."""
        legal = {s: self.legal_actions(state, s) if s is not None else [] for s in seats}
        return dict(build_views(state, legal))

    def secrets(self, state: State) -> list[Secret]:
        """Only the die's future is hidden: the generator state."""
        return [Secret("future die rolls", f"rng:{state.rng}")]

    def resample_hidden(self, state: State, seat: Seat | None, seed: int) -> State:
        """Re-seed the generator: nobody may see the future rolls."""
        other = self.clone(state)
        other.rng = rng.seed_state(seed)
        return other

    # --- end, tools ------------------------------------------------------------------------
    def outcome(self, state: State) -> Outcome | None:
        """Once every figure is home: scores and ranking (ties share a place)."""
        if state.phase is not Phase.OVER:
            return None
        scores = [board.score(cards) for cards in state.collected]
        return Outcome(scores, rank_by_score(scores))

    def clone(self, state: State) -> State:
        """Copy the lists; the rest are immutable values."""
        return State(
            route=state.route,  # never mutated after setup or override
            present=state.present[:],
            figures=[f[:] for f in state.figures],
            guards=state.guards[:],
            collected=[c[:] for c in state.collected],
            turn=state.turn,
            phase=state.phase,
            roll=state.roll,
            rng=state.rng,
            moves=state.moves,
        )

    def players(self, state: State) -> int:
        """Seats at the table."""
        return len(state.figures)

    def heuristic(self, state: State) -> list[float]:
        """The score each seat is heading for: its cards plus the unguarded cards that only
        its figures stand on, since the last of them to leave must take the card."""
        owners: dict[int, int] = {}
        for seat, figures in enumerate(state.figures):
            for position in figures:
                if 0 < position < FINISH:
                    owners[position] = seat if owners.get(position, seat) == seat else -1
        pending = [list(c) for c in state.collected]
        for position, seat in owners.items():
            if seat >= 0 and position not in state.guards:
                pending[seat].append(state.route[position - 1])
        return [float(board.score(cards)) for cards in pending]

    def facts(self, state: State) -> dict[str, Any]:
        """Positions, guards, collected cards, scores, turn and phase."""
        result = self.outcome(state)
        return {
            "phase": str(state.phase),
            "turn": state.turn,
            "roll": state.roll,
            "figures": [f[:] for f in state.figures],
            "guards": state.guards[:],
            "present": state.present[:],
            "collected": [[board.label(v) for v in c] for c in state.collected],
            "scores": [board.score(c) for c in state.collected],
            "winners": result.winners if result else [],
        }

    def describe(self, state: State, action: Action) -> str:
        """'move figure 2 from -4 to F (collects -4)' and the like."""
        match action:
            case Roll():
                return "roll the die"
            case Die(value=v):
                return f"the die shows {v}"
            case MoveFigure(figure=k):
                start = state.figures[state.turn][k]
                text = f"move figure {k + 1}: {self.place(state, start)} → " + self._landing(
                    state, start
                )
                if state.roll and takes_card_on_leaving(state, start):
                    text += f" (collects {board.label(state.route[start - 1])})"
                return text
            case MoveGuard(guard=g):
                start = state.guards[g]
                return f"move guard {g + 1}: {self.place(state, start)} → " + self._landing(
                    state, start
                )

    def _landing(self, state: State, start: int) -> str:
        end = destination(state, start, state.roll) if state.roll else start
        return self.place(state, end)

    @staticmethod
    def place(state: State, position: int) -> str:
        """'Start', 'Finish' or the card's label with its position."""
        name = place_name(state, position)
        return name if position in (board.START, FINISH) else f"{name} (#{position})"
