# Two course test players in one file: the arena cannot guess which one is
# meant, so it asks for python:.../Twins.py:LeftAI or ...:RightAI.
from BaseAI import BaseAI


class LeftAI(BaseAI):
    """Moves to its first free neighbour, throws at the opponent's first."""

    def getMove(self, grid):
        return grid.get_neighbors(self.getPosition(), only_available=True)[0]

    def getTrap(self, grid):
        return grid.get_neighbors(grid.find(3 - self.getPlayerNum()), only_available=True)[0]


class RightAI(LeftAI):
    """The same, from the last."""

    def getMove(self, grid):
        return grid.get_neighbors(self.getPosition(), only_available=True)[-1]

    def getTrap(self, grid):
        return grid.get_neighbors(grid.find(3 - self.getPlayerNum()), only_available=True)[-1]
