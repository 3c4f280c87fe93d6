# A course-style player (written for the arena's tests): moves where it
# keeps the most free neighbours; throws where the opponent loses the most
# room, preferring close targets (they land more often).
import sys
import os

sys.path.append(os.getcwd())

from BaseAI import BaseAI
from Grid import Grid
from Utils import manhattan_distance


class PlayerAI(BaseAI):
    def __init__(self) -> None:
        super().__init__()
        self.pos = None
        self.player_num = None

    def setPlayerNum(self, num):
        self.player_num = num

    def getMove(self, grid: Grid) -> tuple:
        me = grid.find(self.player_num)
        options = grid.get_neighbors(me, only_available=True)

        def room(cell):
            after = grid.clone()
            after.move(cell, self.player_num)
            return len(after.get_neighbors(cell, only_available=True))

        return max(options, key=room)

    def getTrap(self, grid: Grid) -> tuple:
        opponent = grid.find(3 - self.player_num)
        targets = grid.get_neighbors(opponent, only_available=True)

        def score(cell):
            after = grid.clone()
            after.trap(cell)
            left = len(after.get_neighbors(opponent, only_available=True))
            return (left, manhattan_distance(self.getPosition(), cell))

        return min(targets, key=score)
