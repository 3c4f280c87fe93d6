"""The turn as the host plays it, and what counts as a cell."""

import time
import unittest

import numpy as np

from arena_player.trap import InvalidAction, TrapState, as_cell, play_turn


def state(players, traps=(), seat=1, size=7, budget=5.0):
    return TrapState(size, players, frozenset(traps), seat, 0, time.monotonic() + budget)


class CellTest(unittest.TestCase):
    def test_tuples_of_integers_are_cells(self):
        self.assertEqual(as_cell((1, 2), "getMove"), (1, 2))
        self.assertEqual(as_cell((np.int64(1), np.int32(2)), "getMove"), (1, 2))
        self.assertIs(type(as_cell((np.int64(1), 2), "getMove")[0]), int)
        self.assertEqual(as_cell((7, -1), "getMove"), (7, -1), "off the board is for the arena to judge")
        self.assertEqual(as_cell((2**63 - 1, -(2**63)), "getMove"), (2**63 - 1, -(2**63)))

    def test_anything_else_is_invalid_with_a_reason(self):
        cases = [
            (None, "getMove returned None"),
            ("a", "getMove returned a str ('a')"),
            ((1,), "getMove returned a tuple of 1 items ((1,))"),
            ((1.0, 2), "returned (1.0, 2), which holds a float:"),
            ((True, 2), "holds a bool"),
            ((np.float64(1), 2), "holds a float64"),
            (np.array([1, 2]), "returned a ndarray"),
            ((2**70, 0), "no board is that large"),
            ((2**63, 0), "no board is that large"),
            ((0, -(2**63) - 1), "no board is that large"),
        ]
        for answer, expected in cases:
            with self.assertRaises(InvalidAction) as caught:
                as_cell(answer, "getMove")
            self.assertIn(expected, str(caught.exception))
        with self.assertRaises(InvalidAction) as caught:
            as_cell([1, 2], "getTrap")
        self.assertEqual(
            str(caught.exception),
            "getTrap returned a list ([1, 2]): getTrap must return a (row, col) tuple of integers",
        )


class StateTest(unittest.TestCase):
    def test_legal_moves_avoid_traps_players_and_edges(self):
        s = state(((0, 0), (1, 1)), traps=[(0, 1)])
        self.assertEqual(s.legal_moves(), [(1, 0)])
        self.assertEqual(s.me, (0, 0))
        self.assertEqual(s.opponent, (1, 1))
        self.assertEqual(len(s.legal_moves(2)), 6)

    def test_neighbours_take_any_pair_and_give_tuples_of_ints(self):
        s = state(((0, 3), (6, 3)))
        self.assertEqual(s.neighbors((0, 0)), [(0, 1), (1, 0), (1, 1)])
        for cell in ([6, 6], (np.int64(6), np.int32(6))):
            around = s.neighbors(cell)
            self.assertEqual(around, [(5, 5), (5, 6), (6, 5)])
            self.assertTrue(all(type(v) is int for c in around for v in c))
        around = s.neighbors((3, 3))
        around.clear()
        self.assertEqual(len(s.neighbors((3, 3))), 8, "a caller's list is its own")

    def test_moved_changes_only_the_players(self):
        s = state(((0, 3), (6, 3)), traps=[(2, 2)], seat=2)
        after = s.moved(2, (5, 3))
        self.assertEqual(after.players, ((0, 3), (5, 3)))
        self.assertEqual((after.size, after.traps, after.seat, after.turn, after.deadline),
                         (s.size, s.traps, s.seat, s.turn, s.deadline))
        self.assertEqual(s.moved(1, (1, 3)).players, ((1, 3), (6, 3)))


class PlayTurnTest(unittest.TestCase):
    def test_move_then_trap_on_the_moved_position(self):
        seen = []

        def get_trap(after):
            seen.append(after.me)
            return (5, 3)

        answer = play_turn(state(((0, 3), (6, 3))), lambda s: (1, 3), get_trap, accepted=seen.append)
        self.assertEqual((answer.move, answer.trap), ((1, 3), (5, 3)))
        self.assertEqual(seen, [(1, 3), (1, 3)], "accepted, then get_trap sees the moved player")

    def test_no_trap_after_an_illegal_or_winning_move(self):
        def no_trap(s):
            raise AssertionError("get_trap must not be called")

        illegal = play_turn(state(((0, 3), (6, 3))), lambda s: (3, 3), no_trap)
        self.assertEqual((illegal.move, illegal.trap), ((3, 3), None))
        # Player 2 in the corner (0,0) with traps around but (1,0); player 1 moves there... no:
        # player 1 moves to (1,1), the last free cell next to (0,0): player 2 is trapped.
        corner = state(((2, 2), (0, 0)), traps=[(0, 1), (1, 0)])
        won = play_turn(corner, lambda s: (1, 1), no_trap)
        self.assertEqual((won.move, won.trap), ((1, 1), None))

    def test_the_trap_is_asked_even_when_the_wall_clock_budget_is_spent(self):
        # The arena judges lateness itself, and may charge CPU time (--clock cpu).
        spent = state(((0, 3), (6, 3)), budget=0.0)
        answer = play_turn(spent, lambda s: (1, 3), lambda s: (5, 3))
        self.assertEqual(answer.trap, (5, 3))


if __name__ == "__main__":
    unittest.main()
