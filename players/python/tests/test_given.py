"""What a player is given (given.py): declared parameters in the hello, a
`setup` request's values on the player, memory handed back and given again."""

import base64
import types
import unittest

from arena_player import given
from arena_player.course import CourseSession
from arena_player.games import GameSession, HexapawnPlayer
from arena_player.serve import answer
from arena_player.trap import GameResult


class Learner(HexapawnPlayer):
    name = "learner"

    def __init__(self):
        self.loaded = None

    def load_memory(self, data):
        self.loaded = data

    def save_memory(self):
        return b"boxes:" + (self.loaded or b"")

    def get_move(self, state):
        return "resign"


class GivenTest(unittest.TestCase):
    def test_a_declaration_is_read_and_a_bad_one_named(self):
        module = types.SimpleNamespace(ARENA_PARAMS={"w": ("float", 1, 0, 2), "d": ("int", 3, 1, 5)})
        params = given.declared(module)
        self.assertEqual(params[0], {"name": "w", "type": "float", "default": 1.0, "min": 0.0, "max": 2.0})
        self.assertEqual(given.defaults(params), {"w": 1.0, "d": 3})
        with self.assertRaisesRegex(given.BadDeclaration, r"ARENA_PARAMS\['x'\]"):
            given.declared(types.SimpleNamespace(ARENA_PARAMS={"x": ("text", 1, 0, 2)}))

    def test_setup_gives_params_and_memory_and_save_memory_hands_it_back(self):
        session = GameSession(Learner(), [{"name": "w", "type": "float", "default": 1.0, "min": 0.0, "max": 2.0}])
        self.assertTrue(session.keeps_memory)
        self.assertEqual(session.player.params, {"w": 1.0})
        setup = {"type": "setup", "params": {"w": 1.5}, "memory": base64.b64encode(b"abc").decode()}
        self.assertEqual(answer(session, setup, 0.0), {"type": "ok"})
        self.assertEqual((session.player.params, session.player.loaded), ({"w": 1.5}, b"abc"))
        reply = answer(session, {"type": "save_memory"}, 0.0)
        self.assertEqual(base64.b64decode(reply["data"]), b"boxes:abc")

    def test_a_player_without_hooks_keeps_no_memory(self):
        class Plain(HexapawnPlayer):
            def get_move(self, state):
                return "resign"

        session = GameSession(Plain())
        self.assertFalse(session.keeps_memory)
        self.assertEqual(answer(session, {"type": "save_memory"}, 0.0), {"type": "memory", "data": None})

    def test_a_save_memory_of_another_type_or_that_raises_is_one_line_naming_save_memory(self):
        def failing():
            raise ValueError("no memory today")

        for save_memory, said in [
            (lambda: 5, "save_memory returned int, not bytes: 5;"),
            (lambda: "five", "save_memory returned str, not bytes: 'five';"),
            (lambda: {"a": 1}, "save_memory returned dict, not bytes: {'a': 1};"),
            (failing, "save_memory raised ValueError: no memory today"),
        ]:
            # A native player is asked at the end of the match.
            player = Learner()
            player.save_memory = save_memory
            reply = answer(GameSession(player), {"type": "save_memory"}, 0.0)
            self.assertEqual(reply["type"], "error")
            self.assertIn(said, reply["message"])
            # A course player's each game's instance at its game's end: the game
            # ends as it ends, the arena is told when it asks for the memory.
            course = CourseSession(Learner, object, "course")
            course.memory = b"before"
            course.ai = Learner()
            course.ai.save_memory = save_memory
            course.game_over(GameResult("win", 3, "trapped"))
            reply = answer(course, {"type": "save_memory"}, 0.0)
            self.assertEqual(reply["type"], "error")
            self.assertIn(said, reply["message"])
            # A later game that saves bytes hands them back.
            course.ai.save_memory = lambda: b"after"
            course.game_over(GameResult("win", 3, "trapped"))
            reply = answer(course, {"type": "save_memory"}, 0.0)
            self.assertEqual(base64.b64decode(reply["data"]), b"after")


if __name__ == "__main__":
    unittest.main()
