# A course-style player (written for the arena's tests) whose save_memory
# hands back what `--param kind=N` says: 0 bytes, 1 an int, 2 a str, 3 a
# dict; with 4 it raises.
import sys
import os

sys.path.append(os.getcwd())

from BaseAI import BaseAI
from Grid import Grid

ARENA_PARAMS = {"kind": ("int", 0, 0, 4)}


class PlayerAI(BaseAI):
    def __init__(self) -> None:
        super().__init__()
        self.player_num = None

    def setPlayerNum(self, num):
        self.player_num = num

    def save_memory(self):
        kind = self.params["kind"]
        if kind == 1:
            return 5
        if kind == 2:
            return "five"
        if kind == 3:
            return {"five": 5}
        if kind == 4:
            raise ValueError("no memory today")
        return b"kept"

    def getMove(self, grid: Grid) -> tuple:
        me = grid.find(self.player_num)
        return grid.get_neighbors(me, only_available=True)[0]

    def getTrap(self, grid: Grid) -> tuple:
        opponent = grid.find(3 - self.player_num)
        return grid.get_neighbors(opponent, only_available=True)[0]
