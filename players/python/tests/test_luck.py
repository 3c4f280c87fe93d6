"""A player's own luck is the game's: `random` and numpy's global generator
seeded at every new_game from its seed, and before the player's import."""

import os
import random
import subprocess
import sys
import tempfile
import textwrap
import unittest

import numpy

from arena_player import luck
from arena_player.load import load
from arena_player.serve import answer

HERE = os.path.dirname(os.path.abspath(__file__))


class Drawing:
    """A session whose new_game draws from both generators, as a course
    PlayerAI made at new_game could."""

    name = author = "drawing"
    games = ["trap"]

    def new_game(self, info):
        self.drawn = (random.random(), float(numpy.random.random()))


def new_game(seed):
    return {"type": "new_game", "game": "trap", "seat": 1, "size": 7, "turn_budget_us": 5000000, "seed": seed}


class NewGameTest(unittest.TestCase):
    def drawn(self, session, seed):
        self.assertEqual(answer(session, new_game(seed), 0.0), {"type": "ok"})
        return session.drawn

    def test_the_same_seed_draws_the_same_whatever_came_before(self):
        session = Drawing()
        first = self.drawn(session, 81)
        random.random(), numpy.random.random()
        other = self.drawn(session, 82)
        self.assertEqual(self.drawn(session, 81), first)
        self.assertNotEqual(other[0], first[0])
        self.assertNotEqual(other[1], first[1])

    def test_a_seed_of_64_bits_seeds_numpy_too(self):
        top = 2**64 - 1
        self.assertLess(luck.numpy_seed(top), 2**32)
        self.assertNotEqual(luck.numpy_seed(top), luck.numpy_seed(top - 2**40), "the high bits count")
        session = Drawing()
        self.assertEqual(self.drawn(session, top), self.drawn(session, top))


class ImportTest(unittest.TestCase):
    def test_what_a_module_draws_at_import_is_the_same_each_time(self):
        cwd, path, modules = os.getcwd(), list(sys.path), set(sys.modules)
        folder = tempfile.TemporaryDirectory()
        self.addCleanup(folder.cleanup)

        def restore():
            os.chdir(cwd)
            sys.path[:] = path
            for name in set(sys.modules) - modules:
                del sys.modules[name]

        self.addCleanup(restore)
        source = textwrap.dedent(
            """
            import random
            import numpy
            from arena_player import TrapPlayer
            DRAWN = (random.random(), float(numpy.random.random()))
            class Bot(TrapPlayer):
                pass
            """
        )
        drawn = []
        for name in ("first_bot", "second_bot"):
            with open(os.path.join(folder.name, name + ".py"), "w") as file:
                file.write(source)
            load(os.path.join(folder.name, name + ".py"))
            drawn.append(sys.modules[name].DRAWN)
            random.random(), numpy.random.random()
        self.assertEqual(drawn[0], drawn[1])

    def test_numpy_imported_in_a_game_is_seeded_with_that_games_seed(self):
        # A fresh interpreter, where numpy is imported only after new_game.
        script = textwrap.dedent(
            """
            from arena_player import luck
            luck.start()
            luck.seed(81)
            import numpy
            print(numpy.random.random())
            """
        )
        env = dict(os.environ, PYTHONPATH=os.path.join(os.path.dirname(HERE), "src"))
        run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, timeout=60)
        self.assertEqual(run.returncode, 0, run.stderr)
        numpy.random.seed(luck.numpy_seed(81))
        self.assertEqual(float(run.stdout), numpy.random.random())


if __name__ == "__main__":
    unittest.main()
