"""The Trap board of the course skeleton: an N x N numpy float array, `map`,
with 0 for an empty cell, 1 and 2 for the players and -1 for a trap.
Positions are (row, col) tuples; numpy integers work too."""

from __future__ import annotations

import numpy as np

EMPTY = 0
TRAP = -1


class Grid:
    def __init__(self, N: int = 7) -> None:
        self.dim = N
        self.map = np.zeros((N, N))

    def getMap(self) -> np.ndarray:
        return self.map

    def getAvailableCells(self) -> list[tuple[int, int]]:
        """Every empty cell, row by row."""
        return [(int(r), int(c)) for r, c in np.argwhere(self.map == EMPTY)]

    def setCellValue(self, pos, val) -> None:
        self.map[pos[0], pos[1]] = val

    def getCellValue(self, pos):
        return self.map[pos[0], pos[1]]

    def clone(self) -> Grid:
        copy = Grid(self.dim)
        copy.map = self.map.copy()
        return copy

    def find(self, player_num) -> tuple[int, int] | None:
        """Where player `player_num` (1 or 2) stands, or None."""
        found = np.argwhere(self.map == player_num)
        if len(found) == 0:
            return None
        return int(found[0][0]), int(found[0][1])

    def get_neighbors(self, pos, only_available: bool = False) -> list[tuple[int, int]]:
        """The cells around `pos` (8 directions, clipped to the board, `pos`
        itself excluded); only the empty ones if `only_available`."""
        row, col = int(pos[0]), int(pos[1])
        cells = []
        for r in range(max(row - 1, 0), min(row + 2, self.dim)):
            for c in range(max(col - 1, 0), min(col + 2, self.dim)):
                if (r, c) != (row, col) and (not only_available or self.map[r, c] == EMPTY):
                    cells.append((r, c))
        return cells

    def move(self, pos, player_num) -> None:
        """Moves player `player_num` to `pos` (not checked: for searching)."""
        old = self.find(player_num)
        if old is not None:
            self.setCellValue(old, EMPTY)
        self.setCellValue(pos, player_num)

    def trap(self, pos) -> None:
        self.setCellValue(pos, TRAP)

    def print_grid(self) -> None:
        symbols = {EMPTY: ".", TRAP: "#", 1: "1", 2: "2"}
        for row in self.map:
            print(" ".join(symbols.get(int(v), "?") for v in row))
        print()
