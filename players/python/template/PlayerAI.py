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
    # BaseAI keeps your number (self.player_num, set by setPlayerNum) and
    # your position (self.pos, set by setPosition) for you.

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
