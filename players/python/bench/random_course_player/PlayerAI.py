# The course-style player the hosting benchmark times (docs/benchmarks.md,
# "Hosting cost of a course Python player"): random legal moves and throws
# through the course's Grid API. It finds itself on the grid rather than
# trusting setPosition, so that the same request, asked again and again,
# is a legal turn (a move and a throw) every time.
import random

from BaseAI import BaseAI
from Grid import Grid


class PlayerAI(BaseAI):
    def getMove(self, grid: Grid):
        me = grid.find(self.getPlayerNum())
        return random.choice(grid.get_neighbors(me, only_available=True))

    def getTrap(self, grid: Grid):
        opponent = grid.find(3 - self.getPlayerNum())
        return random.choice(grid.get_neighbors(opponent, only_available=True))
