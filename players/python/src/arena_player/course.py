"""Course players: a folder holding a `PlayerAI.py` written for the course's
Trap skeleton, run unmodified. Each game gets a fresh `PlayerAI()`; each
turn it sees fresh `Grid` objects built from the arena's position."""

from __future__ import annotations

from typing import Any

from .trap import GameInfo, GameResult, TrapState, TurnAnswer, play_turn

PLAYER_VALUE = (1, 2)
TRAP_VALUE = -1


class CourseSession:
    def __init__(self, player_class: type, grid_class: type, name: str) -> None:
        self.player_class = player_class
        self.grid_class = grid_class
        self.name = name
        self.author = name
        self.ai: Any = None
        self.placed = False

    def new_game(self, info: GameInfo) -> None:
        self.ai = self.player_class()
        if hasattr(self.ai, "setPlayerNum"):
            self.ai.setPlayerNum(info.seat)
        self.placed = False

    def turn(self, state: TrapState) -> TurnAnswer:
        ai = self.ai
        if not self.placed:
            # The start position, before the first getMove.
            ai.setPosition(state.me)
            self.placed = True
        return play_turn(
            state,
            lambda s: ai.getMove(self.grid(s)),
            lambda s: ai.getTrap(self.grid(s)),
            accepted=ai.setPosition,
            names=("getMove", "getTrap"),
        )

    def game_over(self, result: GameResult) -> None:
        pass

    def grid(self, state: TrapState) -> Any:
        grid = self.grid_class(state.size)
        for trap in state.traps:
            grid.setCellValue(trap, TRAP_VALUE)
        for value, cell in zip(PLAYER_VALUE, state.players):
            grid.setCellValue(cell, value)
        return grid
