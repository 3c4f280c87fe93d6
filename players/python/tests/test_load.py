"""Finding a player: which class of which file, and which Grid it plays on."""

import os
import sys
import tempfile
import textwrap
import unittest

from arena_player.course import CourseSession
from arena_player.load import SKELETON, LoadFailure, load
from arena_player.native import NativeSession
from arena_player.trap import GameInfo, TrapState

# The course's modules, just enough of them: a Grid that says where it came
# from, the BaseAI course players derive from.
COURSE_GRID = """
class Grid:
    ORIGIN = {origin!r}

    def __init__(self, N=7):
        self.dim = N
        self.cells = {{}}

    def setCellValue(self, pos, val):
        self.cells[tuple(pos)] = val
"""
COURSE_BASE = """
class BaseAI:
    def setPosition(self, pos):
        self.pos = pos

    def setPlayerNum(self, num):
        self.num = num
"""


def course_player(name, move=(1, 3)):
    return f"""
class {name}(BaseAI):
    def getMove(self, grid):
        self.seen = grid.ORIGIN
        return {move!r}

    def getTrap(self, grid):
        return (5, 3)
"""


class LoadTest(unittest.TestCase):
    """Each test loads into a fresh temporary folder; load() changes the
    working directory, sys.path and sys.modules, which are put back after."""

    def setUp(self):
        cwd, path, modules = os.getcwd(), list(sys.path), set(sys.modules)
        folder = tempfile.TemporaryDirectory()
        self.addCleanup(folder.cleanup)
        self.root = folder.name

        def restore():
            os.chdir(cwd)
            sys.path[:] = path
            # Forget the players' modules and the course's (imported by bare
            # name), not what they imported in turn: numpy loads only once.
            for name in set(sys.modules) - modules:
                where = getattr(sys.modules[name], "__file__", None) or ""
                if where.startswith((self.root, SKELETON)):
                    del sys.modules[name]

        self.addCleanup(restore)

    def write(self, relative, text):
        path = os.path.join(self.root, relative)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as file:
            file.write(textwrap.dedent(text))
        return path

    def course_layout(self, players):
        """The course's layout: Grid.py and BaseAI.py at the root, `players`
        (name -> source) in test_players/. Returns test_players/'s path."""
        self.write("Grid.py", COURSE_GRID.format(origin="course root"))
        self.write("BaseAI.py", COURSE_BASE)
        for name, source in players.items():
            self.write(f"test_players/{name}.py", "from BaseAI import BaseAI\n" + source)
        return os.path.join(self.root, "test_players")

    def test_a_course_test_player_under_its_own_name_plays_on_the_course_grid(self):
        folder = self.course_layout({"HardAI": course_player("HardAI")})
        session = load(os.path.join(folder, "HardAI.py"))
        self.assertIsInstance(session, CourseSession)
        self.assertEqual((session.player_class.__name__, session.name), ("HardAI", "HardAI"))
        self.assertEqual(session.grid_class.ORIGIN, "course root")
        self.assertEqual(os.getcwd(), folder)
        self.assertEqual(sys.path[:3], [folder, self.root, SKELETON])
        # A turn hands the player a Grid of the course's class.
        state = TrapState(7, ((0, 3), (6, 3)), frozenset(), seat=1, turn=1, deadline=float("inf"))
        session.new_game(GameInfo(seat=1, size=7, turn_budget=5.0, seed=0))
        answer = session.turn(state)
        self.assertEqual((answer.move, answer.trap), ((1, 3), (5, 3)))
        self.assertEqual(session.ai.seen, "course root")

    def test_the_players_own_folder_wins_over_the_course_root(self):
        folder = self.course_layout({"HardAI": course_player("HardAI")})
        self.write("test_players/Grid.py", COURSE_GRID.format(origin="own folder"))
        session = load(os.path.join(folder, "HardAI.py"))
        self.assertEqual(session.grid_class.ORIGIN, "own folder")

    def test_without_course_modules_above_the_skeleton_serves(self):
        path = self.write("alone/SoloAI.py", "from BaseAI import BaseAI\n" + course_player("SoloAI"))
        session = load(path)
        self.assertEqual(session.player_class.__name__, "SoloAI")
        self.assertEqual(session.grid_class.__module__, "Grid")
        self.assertTrue(sys.modules["Grid"].__file__.startswith(SKELETON))
        self.assertNotIn(self.root, sys.path)

    def test_several_player_classes_are_listed_and_one_can_be_named(self):
        source = course_player("EasyAI") + course_player("HardAI")
        folder = self.course_layout({"Both": source})
        file = os.path.join(folder, "Both.py")
        with self.assertRaises(LoadFailure) as failure:
            load(file)
        self.assertEqual(
            str(failure.exception),
            "Both.py defines several player classes (EasyAI, HardAI): name one after the path, "
            "as in python:.../Both.py:EasyAI",
        )
        session = load(file, "HardAI")
        self.assertEqual((session.player_class.__name__, session.name), ("HardAI", "HardAI"))

    def test_a_missing_class_name_lists_the_classes_found(self):
        folder = self.course_layout({"Both": course_player("EasyAI") + course_player("HardAI")})
        with self.assertRaises(LoadFailure) as failure:
            load(os.path.join(folder, "Both.py"), "MediumAI")
        self.assertEqual(
            str(failure.exception), "Both.py has no class MediumAI: its player classes are EasyAI, HardAI"
        )
        path = self.write("empty.py", "x = 1\n")
        with self.assertRaises(LoadFailure) as failure:
            load(path, "MediumAI")
        self.assertEqual(str(failure.exception), "empty.py has no class MediumAI: it defines no player class")

    def test_a_folders_player_ai_is_still_the_player_among_helper_classes(self):
        # The course's Game.py imports PlayerAI by name: other BaseAI classes
        # in the file (a tuned variant, a helper) do not make it ambiguous.
        source = course_player("PlayerAI") + course_player("Tuned")
        self.write("group/PlayerAI.py", "from BaseAI import BaseAI\n" + source)
        session = load(os.path.join(self.root, "group"))
        self.assertEqual((session.player_class.__name__, session.name), ("PlayerAI", "group"))

    def test_a_file_with_no_player_class_says_what_to_define(self):
        path = self.write("nothing.py", "class Helper:\n    pass\n")
        with self.assertRaises(LoadFailure) as failure:
            load(path)
        self.assertIn("defines neither a TrapPlayer subclass nor a class PlayerAI", str(failure.exception))
        self.assertIn("define a class deriving from BaseAI", str(failure.exception))

    def test_a_native_player_can_be_named_too(self):
        path = self.write(
            "bots.py",
            """
            from arena_player import TrapPlayer

            class Fast(TrapPlayer):
                pass

            class Slow(TrapPlayer):
                name = "slow"
            """,
        )
        with self.assertRaises(LoadFailure) as failure:
            load(path)
        self.assertIn("several player classes (Fast, Slow)", str(failure.exception))
        session = load(path, "Slow")
        self.assertIsInstance(session, NativeSession)
        self.assertEqual(session.name, "slow")


if __name__ == "__main__":
    unittest.main()
