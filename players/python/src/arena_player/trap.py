"""Trap for Python players: the position a player is shown, the class a
native player extends, and the turn as the arena orders it (move, then
throw on the moved position).

The arena keeps the true state and checks every answer; what is here only
lets a player see the board and lets the host skip the throw when the rules
skip it (docs/rules/trap.md)."""

from __future__ import annotations

import numbers
import time
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Callable, Optional, Tuple

Cell = Tuple[int, int]
"""A cell: (row, col), row 0 at the top."""

KING_STEPS: tuple[Cell, ...] = tuple(
    (dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if (dr, dc) != (0, 0)
)


# What a cell's coordinates may be on the wire (the arena's i64).
CELL_MIN, CELL_MAX = -(2**63), 2**63 - 1


class InvalidAction(Exception):
    """A player's answer that is not a cell at all (None, a list, floats...).
    The game is lost with this message as the reason."""


@dataclass(frozen=True)
class GameInfo:
    """The start of a game."""

    seat: int  # 1 moves first, 2 second
    size: int  # the board is size x size
    turn_budget: float  # seconds per turn (move and throw together)
    seed: int  # for the player's own randomness


@dataclass(frozen=True)
class TimeBank:
    """A player's time bank before a turn, under a time control with an
    increment (`arena play --tc 60s+1s`): each turn's time is charged to the
    bank, which then gains `increment`. The turn's own limit is still
    `time_left()` (the bank, or the cap if lower). Under the course's fixed
    budget per turn there is no bank."""

    left: float  # seconds left in the bank before this turn
    increment: float  # seconds it gains after each turn answered in time
    turn_cap: Optional[float]  # the most one turn may use, in seconds; None: no cap

    @staticmethod
    def from_wire(request: dict[str, Any]) -> Optional[TimeBank]:
        """The request's `bank` (docs/protocol.md, "Time banks"), or None
        when it has none (a budget per turn)."""
        wire = request.get("bank")
        if not isinstance(wire, dict):
            return None
        cap = wire.get("turn_cap_us") or 0
        return TimeBank(
            left=wire.get("left_us", 0) / 1e6,
            increment=wire.get("increment_us", 0) / 1e6,
            turn_cap=cap / 1e6 if cap > 0 else None,
        )


@dataclass(frozen=True)
class GameResult:
    outcome: str  # "win", "loss" or "draw", from this player's side
    turns: int
    reason: str


@dataclass(frozen=True)
class TrapState:
    """A Trap position, as seen by the player whose turn it is (`seat`)."""

    size: int
    players: tuple[Cell, Cell]  # player 1's cell, then player 2's
    traps: frozenset[Cell]
    seat: int
    turn: int
    deadline: float  # time.monotonic() at which the turn's budget runs out
    bank: Optional[TimeBank] = None  # under a time bank: what is left in it; else None

    @property
    def me(self) -> Cell:
        return self.players[self.seat - 1]

    @property
    def opponent(self) -> Cell:
        return self.players[2 - self.seat]

    def time_left(self) -> float:
        """Seconds left of this turn's own limit (under a time bank: the
        bank, or the cap if lower)."""
        return max(0.0, self.deadline - time.monotonic())

    def on_board(self, cell: Cell) -> bool:
        return 0 <= cell[0] < self.size and 0 <= cell[1] < self.size

    def is_free(self, cell: Cell) -> bool:
        """On the board, with no trap and no player."""
        return self.on_board(cell) and cell not in self.traps and cell not in self.players

    def neighbors(self, cell: Cell) -> list[Cell]:
        """The cell's 8-neighbourhood, clipped to the board."""
        return list(_neighbors(self.size, tuple(cell)))

    def legal_moves(self, seat: int | None = None) -> list[Cell]:
        """Where `seat` (default: the player asked) may move."""
        start = self.players[(seat or self.seat) - 1]
        traps, players = self.traps, self.players
        return [n for n in _neighbors(self.size, start) if n not in traps and n not in players]

    def can_move(self, seat: int) -> bool:
        return bool(self.legal_moves(seat))

    def moved(self, seat: int, cell: Cell) -> TrapState:
        """The position after `seat` moves to `cell` (not checked)."""
        players = (cell, self.players[1]) if seat == 1 else (self.players[0], cell)
        return TrapState(self.size, players, self.traps, self.seat, self.turn, self.deadline, self.bank)

    @staticmethod
    def from_wire(request: dict[str, Any], received: float) -> TrapState:
        wire = request["state"]
        one, two = (tuple(cell) for cell in wire["players"])
        return TrapState(
            size=wire["size"],
            players=(one, two),
            traps=frozenset(tuple(cell) for cell in wire["traps"]),
            seat=request["seat"],
            turn=request["turn"],
            deadline=received + request["time_left_us"] / 1e6,
            # Tested first: a turn without a bank costs no call (docs/benchmarks.md, "Hosting cost").
            bank=TimeBank.from_wire(request) if "bank" in request else None,
        )


@lru_cache(maxsize=1 << 12)  # bounded: players may ask about any cell
def _neighbors(size: int, cell: Cell) -> tuple[Cell, ...]:
    """A cell's neighbourhood on a board of `size`, computed once: the host
    asks it several times a turn (docs/benchmarks.md, "Hosting cost")."""
    row, col = int(cell[0]), int(cell[1])
    steps = ((row + dr, col + dc) for dr, dc in KING_STEPS)
    return tuple((r, c) for r, c in steps if 0 <= r < size and 0 <= c < size)


class TrapPlayer:
    """Extend this to write a Trap player. `get_move` and `get_trap` return
    cells as (row, col) tuples of integers; the other methods are optional.
    One instance plays all the games of a worker process."""

    name: str = ""  # default: the class name
    author: str = ""

    def new_game(self, info: GameInfo) -> None:
        pass

    def get_move(self, state: TrapState) -> Cell:
        raise NotImplementedError("get_move")

    def get_trap(self, state: TrapState) -> Cell:
        """Where to throw, on the position after this turn's move."""
        raise NotImplementedError("get_trap")

    def game_over(self, result: GameResult) -> None:
        pass

    def time_bank(self, bank: TimeBank) -> None:
        """Before a turn under a time bank (`--tc 60s+1s`): what is left in
        it (also `state.bank`). Never called under a budget per turn."""


def as_cell(answer: object, method: str) -> Cell:
    """`answer` as a cell, or InvalidAction saying what is wrong with it.
    A tuple of two integers (numpy integers too) is a cell, on the board or
    not: the arena judges where it is."""
    if type(answer) is tuple and len(answer) == 2:
        # The common answer, checked at the cost of a few comparisons.
        row, col = answer
        if type(row) is int and type(col) is int:
            if CELL_MIN <= row <= CELL_MAX and CELL_MIN <= col <= CELL_MAX:
                return answer
    fix = f"{method} must return a (row, col) tuple of integers"
    if answer is None:
        raise InvalidAction(f"{method} returned None: {fix}")
    if not isinstance(answer, tuple):
        raise InvalidAction(f"{method} returned a {type(answer).__name__} ({_short(answer)}): {fix}")
    if len(answer) != 2:
        raise InvalidAction(f"{method} returned a tuple of {len(answer)} items ({_short(answer)}): {fix}")
    for item in answer:
        if isinstance(item, bool) or not isinstance(item, numbers.Integral):
            raise InvalidAction(
                f"{method} returned {_short(answer)}, which holds a {type(item).__name__}: {fix}"
            )
    row, col = int(answer[0]), int(answer[1])
    if not all(CELL_MIN <= v <= CELL_MAX for v in (row, col)):
        raise InvalidAction(f"{method} returned ({row}, {col}): no board is that large")
    return row, col


def _short(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


@dataclass(frozen=True)
class TurnAnswer:
    move: Cell
    trap: Optional[Cell]  # None when no throw is asked for


def play_turn(
    state: TrapState,
    get_move: Callable[[TrapState], object],
    get_trap: Callable[[TrapState], object],
    accepted: Callable[[Cell], None] = lambda move: None,
    names: tuple[str, str] = ("get_move", "get_trap"),
) -> TurnAnswer:
    """One turn as the rules order it, as the arena's Rust workers do it:
    the move; then, unless the move is illegal (the arena will say so) or
    already traps the opponent, the throw, aimed on the position after the
    move (asked even when the wall clock says the budget is spent: the
    arena may charge CPU time, `--clock cpu`, and judges lateness itself).
    `accepted` hears of a legal move before the throw is asked for; `names`
    are the methods' names, for messages."""
    move = as_cell(get_move(state), names[0])
    if move not in state.legal_moves():
        return TurnAnswer(move, None)
    accepted(move)
    after = state.moved(state.seat, move)
    if not after.can_move(3 - state.seat):
        return TurnAnswer(move, None)
    return TurnAnswer(move, as_cell(get_trap(after), names[1]))
