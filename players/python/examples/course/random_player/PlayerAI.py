# A course-style player (written for the arena's tests): moves to a random
# free neighbouring cell and throws at a random free cell next to the
# opponent. Uses only what the course skeleton offers.
import random

from BaseAI import BaseAI
from Grid import Grid


class PlayerAI(BaseAI):
    def __init__(self) -> None:
        super().__init__()
        self.pos = None
        self.player_num = None

    def getPosition(self):
        return self.pos

    def setPosition(self, new_position):
        self.pos = new_position

    def getPlayerNum(self):
        return self.player_num

    def setPlayerNum(self, num):
        self.player_num = num

    def getMove(self, grid: Grid) -> tuple:
        options = [cell for cell in grid.get_neighbors(self.pos) if grid.getCellValue(cell) == 0]
        return random.choice(options)

    def getTrap(self, grid: Grid) -> tuple:
        opponent = grid.find(3 - self.player_num)
        around = [cell for cell in grid.get_neighbors(opponent) if cell in grid.getAvailableCells()]
        return random.choice(around) if around else random.choice(grid.getAvailableCells())
