# Your Trap player, in the course's layout: the arena runs this folder as
# it is (`arena check python:.`, `arena play python:. hard`), giving it the
# skeleton's BaseAI, Grid and Utils. Written by `arena new NAME --python`.
#
# Each turn the arena calls getMove(grid) (where to step: a free cell next
# to you) and then getTrap(grid) (where to throw: any free cell; the
# farther from you, the likelier it lands elsewhere). Cells are (row, col)
# tuples; grid.map is the board (0 free, 1 and 2 the players, -1 a trap).
# Start from this simple player and make it smarter.
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
        # Step where the most free cells stay around you.
        me = grid.find(self.player_num)
        options = grid.get_neighbors(me, only_available=True)

        def room(cell):
            return len(grid.get_neighbors(cell, only_available=True))

        return max(options, key=room)

    def getTrap(self, grid: Grid) -> tuple:
        # Throw next to the opponent, where it leaves them the least room.
        opponent = grid.find(3 - self.player_num)
        targets = grid.get_neighbors(opponent, only_available=True) or grid.getAvailableCells()

        def room_left(cell):
            after = grid.clone()
            after.setCellValue(cell, -1)
            return len(after.get_neighbors(opponent, only_available=True))

        return min(targets, key=room_left)
