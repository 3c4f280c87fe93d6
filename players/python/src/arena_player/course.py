"""Course players: a folder holding a `PlayerAI.py` written for the course's
Trap skeleton, run unmodified. Each game gets a fresh `PlayerAI()`; each
turn it sees fresh `Grid` objects built from the arena's position."""

from __future__ import annotations

from types import ModuleType
from typing import Any, Optional

from . import given
from .trap import GameInfo, GameResult, TrapState, TurnAnswer, play_turn

PLAYER_VALUE = (1, 2)
TRAP_VALUE = -1


class CourseSession:
    def __init__(
        self, player_class: type, grid_class: type, name: str, module: Optional[ModuleType] = None
    ) -> None:
        self.player_class = player_class
        self.grid_class = grid_class
        self.name = name
        self.author = name
        self.ai: Any = None
        self.placed = False
        # What each game's PlayerAI is given (given.py): the parameters, also
        # as the module's `arena_params`, and the memory the last one saved.
        self.module = module
        self.declared = given.declared(module) if module is not None else []
        self.keeps_memory = given.keeps_memory(player_class)
        self.memory: Optional[bytes] = None
        # Why the last game's save_memory gave no memory: told when the
        # arena asks for the memory, so a game's end stays a game's end.
        self.memory_failure: Optional[Exception] = None
        self.set_up(given.defaults(self.declared), None)

    def set_up(self, params: dict[str, Any], memory: Optional[bytes]) -> None:
        self.params = dict(params)
        if self.module is not None:
            self.module.arena_params = dict(params)
        self.memory = memory

    def save_memory(self) -> Optional[bytes]:
        if self.memory_failure is not None:
            raise self.memory_failure
        return self.memory

    def new_game(self, info: GameInfo) -> None:
        # Made with `params` already set, so that its __init__ can read them.
        ai = self.player_class.__new__(self.player_class)
        ai.params = dict(self.params)
        ai.__init__()
        if self.memory is not None and callable(getattr(ai, "load_memory", None)):
            ai.load_memory(self.memory)
        self.ai = ai
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
        try:
            saved = given.save(self.ai)
        except Exception as error:  # the player's bug: its memory is not kept, the game stands
            self.memory_failure = error
            return
        self.memory_failure = None
        if saved is not None:
            self.memory = saved

    def grid(self, state: TrapState) -> Any:
        grid = self.grid_class(state.size)
        for trap in state.traps:
            grid.setCellValue(trap, TRAP_VALUE)
        for value, cell in zip(PLAYER_VALUE, state.players):
            grid.setCellValue(cell, value)
        return grid
