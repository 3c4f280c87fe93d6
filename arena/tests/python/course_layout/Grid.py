# The course's Grid, as the arena's tests imitate it (the arena ships its
# own stand-in; this one must win for players in this folder's layout).
# `COURSE_LAYOUT_FIXTURE` lets the test players check which Grid they got.
import numpy as np


class Grid:
    COURSE_LAYOUT_FIXTURE = True

    def __init__(self, N=7):
        self.dim = N
        self.map = np.zeros((N, N))

    def getMap(self):
        return self.map

    def getAvailableCells(self):
        rows, cols = np.nonzero(self.map == 0)
        return list(zip(rows.tolist(), cols.tolist()))

    def setCellValue(self, pos, val):
        self.map[pos[0]][pos[1]] = val

    def getCellValue(self, pos):
        return self.map[pos[0]][pos[1]]

    def clone(self):
        other = Grid(self.dim)
        other.map = np.copy(self.map)
        return other

    def find(self, player_num):
        where = np.argwhere(self.map == player_num)
        return tuple(int(v) for v in where[0]) if len(where) else None

    def get_neighbors(self, pos, only_available=False):
        row, col = pos
        cells = []
        for r in range(row - 1, row + 2):
            for c in range(col - 1, col + 2):
                inside = 0 <= r < self.dim and 0 <= c < self.dim
                if inside and (r, c) != (row, col):
                    if not only_available or self.map[r][c] == 0:
                        cells.append((r, c))
        return cells

    def move(self, pos, player_num):
        old = self.find(player_num)
        if old is not None:
            self.setCellValue(old, 0)
        self.setCellValue(pos, player_num)

    def trap(self, pos):
        self.setCellValue(pos, -1)
