"""The course skeleton's API, as course players use it."""

import unittest

import numpy as np

from arena_player.skeleton.BaseAI import BaseAI
from arena_player.skeleton.Grid import Grid
from arena_player.skeleton.Utils import manhattan_distance


class GridTest(unittest.TestCase):
    def test_a_new_grid_is_an_empty_float_array(self):
        grid = Grid(N=5)
        self.assertEqual(grid.dim, 5)
        self.assertEqual(grid.map.shape, (5, 5))
        self.assertEqual(grid.map.dtype, np.float64)
        self.assertIs(grid.getMap(), grid.map)
        self.assertEqual(len(grid.getAvailableCells()), 25)
        self.assertEqual(Grid().dim, 7)

    def test_neighbours_are_clipped_and_exclude_the_centre(self):
        grid = Grid(7)
        self.assertEqual(grid.get_neighbors((0, 0)), [(0, 1), (1, 0), (1, 1)])
        self.assertEqual(len(grid.get_neighbors((3, 3))), 8)
        self.assertEqual(len(grid.get_neighbors((6, 3))), 5)
        grid.trap((1, 1))
        grid.setCellValue((0, 1), 2)
        self.assertEqual(grid.get_neighbors((0, 0), only_available=True), [(1, 0)])
        self.assertEqual(grid.get_neighbors((0, 0), False), [(0, 1), (1, 0), (1, 1)])

    def test_cells_take_numpy_integers(self):
        grid = Grid(7)
        where = (np.int64(2), np.int64(4))
        grid.setCellValue(where, 1)
        self.assertEqual(grid.getCellValue((2, 4)), 1)
        self.assertEqual(grid.find(1), (2, 4))
        self.assertEqual(len(grid.get_neighbors(where)), 8)

    def test_move_trap_find_and_available_cells(self):
        grid = Grid(7)
        grid.setCellValue((0, 3), 1)
        grid.setCellValue((6, 3), 2)
        grid.move((1, 3), 1)
        self.assertEqual(grid.find(1), (1, 3))
        self.assertEqual(grid.getCellValue((0, 3)), 0)
        grid.trap((4, 4))
        self.assertEqual(grid.getCellValue((4, 4)), -1)
        available = grid.getAvailableCells()
        self.assertEqual(len(available), 49 - 3)
        self.assertNotIn((4, 4), available)
        self.assertIsNone(grid.find(2 + 5))

    def test_a_clone_is_independent(self):
        grid = Grid(7)
        copy = grid.clone()
        copy.trap((0, 0))
        self.assertEqual(grid.getCellValue((0, 0)), 0)
        self.assertEqual(copy.dim, 7)


class BaseAITest(unittest.TestCase):
    def test_position_and_player_number(self):
        class Player(BaseAI):
            pass

        player = Player()
        self.assertIsNone(player.getPosition())
        player.setPosition((1, 2))
        player.setPlayerNum(2)
        self.assertEqual(player.getPosition(), (1, 2))
        self.assertEqual(player.getPlayerNum(), 2)
        with self.assertRaises(NotImplementedError):
            player.getMove(Grid())

    def test_manhattan_distance(self):
        self.assertEqual(manhattan_distance((0, 0), (3, 4)), 7)
        self.assertEqual(manhattan_distance((np.int64(5), 1), (2, np.int32(6))), 8)


if __name__ == "__main__":
    unittest.main()
