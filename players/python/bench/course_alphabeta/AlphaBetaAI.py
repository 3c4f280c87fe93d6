"""A player of real size for the benchmark against the course's referee
(bench/python-vs-course.sh): alpha-beta of depth 3 on the moves (its move,
the opponent's, its own again) through the course's own `Grid` API, scored
by mobility (its free neighbours less the opponent's); it throws where the
opponent is left fewest moves. Written as a student would, on `clone()`,
`move()`, `trap()` and `get_neighbors()`: ~10-30 ms a turn. Copied into the
course's `test_players/` by the script, so that it imports the course's
`BaseAI` and `Grid` as the course's own players do."""

import os
import sys

sys.path.append(os.getcwd())

from BaseAI import BaseAI  # noqa: E402
from Grid import Grid  # noqa: E402

DEPTH = 3


class AlphaBetaAI(BaseAI):
    def __init__(self, initial_position=None) -> None:
        super().__init__()
        self.pos = initial_position
        self.player_num = None

    def setPosition(self, new_pos):
        self.pos = new_pos

    def getPosition(self):
        return self.pos

    def setPlayerNum(self, num):
        self.player_num = num

    def mobility(self, grid: Grid) -> int:
        me, them = grid.find(self.player_num), grid.find(3 - self.player_num)
        return len(grid.get_neighbors(me, only_available=True)) - len(grid.get_neighbors(them, only_available=True))

    def search(self, grid: Grid, depth: int, player: int, alpha: float, beta: float) -> float:
        moves = grid.get_neighbors(grid.find(player), only_available=True)
        if not moves:
            return -100 if player == self.player_num else 100
        if depth == 0:
            return self.mobility(grid)
        maximizing = player == self.player_num
        best = -float("inf") if maximizing else float("inf")
        for move in moves:
            child = grid.clone()
            child.move(move, player)
            score = self.search(child, depth - 1, 3 - player, alpha, beta)
            if maximizing:
                best, alpha = max(best, score), max(alpha, score)
            else:
                best, beta = min(best, score), min(beta, score)
            if beta <= alpha:
                break
        return best

    def getMove(self, grid: Grid):
        best, chosen = -float("inf"), None
        for move in grid.get_neighbors(self.pos, only_available=True):
            child = grid.clone()
            child.move(move, self.player_num)
            score = self.search(child, DEPTH - 1, 3 - self.player_num, -float("inf"), float("inf"))
            if score > best:
                best, chosen = score, move
        return chosen

    def getTrap(self, grid: Grid):
        opponent = grid.find(3 - self.player_num)
        cells = grid.get_neighbors(opponent, only_available=True)
        if not cells:
            return grid.getAvailableCells()[0]

        def left(cell):
            child = grid.clone()
            child.trap(cell)
            return len(child.get_neighbors(opponent, only_available=True))

        return min(cells, key=left)
