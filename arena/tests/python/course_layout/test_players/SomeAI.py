# A test player in the course's layout: a class under its own name,
# deriving from the BaseAI one folder up. It plays random legal moves and
# throws next to the opponent, through the course's Grid API, and refuses
# to play on any Grid but the course's (the arena must not swap in its own).
import random

from BaseAI import BaseAI
from Grid import Grid
from Utils import manhattan_distance


class SomeAI(BaseAI):
    def getMove(self, grid: Grid):
        self.check(grid)
        return random.choice(grid.get_neighbors(self.getPosition(), only_available=True))

    def getTrap(self, grid: Grid):
        self.check(grid)
        opponent = grid.find(3 - self.getPlayerNum())
        free = grid.getAvailableCells()
        return min(free, key=lambda cell: manhattan_distance(cell, opponent))

    @staticmethod
    def check(grid):
        if not getattr(grid, "COURSE_LAYOUT_FIXTURE", False):
            raise RuntimeError(f"got the Grid of {type(grid).__module__}, not the course's")
