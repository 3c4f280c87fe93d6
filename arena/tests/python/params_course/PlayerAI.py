# A course-style player (written for the arena's tests) that declares
# parameters and keeps a memory, its class written as the course's are:
# it reads `self.params` in __init__ (set before it runs) and the module's
# `arena_params`. With echo=1 it fails its first move, saying what it was
# given; its memory counts the games played in every match it remembers.
import sys
import os

sys.path.append(os.getcwd())

from BaseAI import BaseAI
from Grid import Grid

ARENA_PARAMS = {"echo": ("int", 0, 0, 1), "weight": ("float", 2.5, 0.0, 10.0)}


class PlayerAI(BaseAI):
    def __init__(self) -> None:
        super().__init__()
        self.player_num = None
        self.seen = dict(self.params)
        self.games = 0

    def setPlayerNum(self, num):
        self.player_num = num

    def load_memory(self, data):
        self.games = int(data.decode())

    def save_memory(self):
        return str(self.games + 1).encode()

    def getMove(self, grid: Grid) -> tuple:
        if self.seen["echo"] == 1:
            given = sorted(self.seen.items())
            module = sorted(arena_params.items())  # noqa: F821 (set by the host)
            raise RuntimeError(f"given {given} module {module} games {self.games}")
        me = grid.find(self.player_num)
        return grid.get_neighbors(me, only_available=True)[0]

    def getTrap(self, grid: Grid) -> tuple:
        opponent = grid.find(3 - self.player_num)
        return grid.get_neighbors(opponent, only_available=True)[0]
