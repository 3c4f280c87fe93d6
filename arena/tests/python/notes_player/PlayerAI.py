# A course-style player that writes notes (for the arena's tests): each
# move it prints which of its own moves it is making, logs a warning with
# `logging`, on its second move prints 3000 bytes (more than a turn's notes
# keep) and on its third 40000 (more than the arena reads at once).
# Plays as the random course player does, on the game's seed.
import logging
import random

from BaseAI import BaseAI
from Grid import Grid


class PlayerAI(BaseAI):
    def __init__(self) -> None:
        super().__init__()
        self.pos = None
        self.player_num = None
        self.moves = 0

    def getPosition(self):
        return self.pos

    def setPosition(self, new_position):
        self.pos = new_position

    def getPlayerNum(self):
        return self.player_num

    def setPlayerNum(self, num):
        self.player_num = num

    def getMove(self, grid: Grid) -> tuple:
        self.moves += 1
        print(f"player {self.player_num}: my move {self.moves}")
        logging.warning("logged at move %d", self.moves)
        if self.moves == 2:
            print("x" * 3000)
        if self.moves == 3:
            print("y" * 40000)
        options = [cell for cell in grid.get_neighbors(self.pos) if grid.getCellValue(cell) == 0]
        return random.choice(options)

    def getTrap(self, grid: Grid) -> tuple:
        print(f"player {self.player_num}: my trap {self.moves}")
        opponent = grid.find(3 - self.player_num)
        around = [cell for cell in grid.get_neighbors(opponent) if cell in grid.getAvailableCells()]
        return random.choice(around) if around else random.choice(grid.getAvailableCells())
