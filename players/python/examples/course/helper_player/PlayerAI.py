# A course-style player (written for the arena's tests) split over two
# files: the heuristics live in heuristics.py, imported by bare name. Its
# answers are tuples of numpy integers, as np.argwhere gives them.
import sys
import os

sys.path.append(os.getcwd())

import numpy as np

from BaseAI import BaseAI
from heuristics import mobility, pick_best

print("helper player loaded")  # course code prints; the arena keeps it in its logs


class PlayerAI(BaseAI):
    def getMove(self, grid):
        me = np.argwhere(grid.getMap() == self.player_num)[0]
        free = [c for c in grid.get_neighbors(tuple(me), only_available=True)]
        best = pick_best(free, lambda cell: mobility(grid, cell))
        return (np.int64(best[0]), np.int64(best[1]))

    def getTrap(self, grid):
        opponent = np.argwhere(grid.getMap() == 3 - self.player_num)[0]
        free = grid.get_neighbors(tuple(opponent), only_available=True)
        best = pick_best(free, lambda cell: -mobility_after_trap(grid, tuple(opponent), cell))
        return tuple(np.array(best, dtype=np.int64))


def mobility_after_trap(grid, opponent, cell):
    after = grid.clone()
    after.trap(cell)
    return mobility(after, opponent)
