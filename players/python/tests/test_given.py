"""What a player is given (given.py): declared parameters in the hello, a
`setup` request's values on the player, memory handed back and given again."""

import base64
import types
import unittest

from arena_player import given
from arena_player.games import GameSession, HexapawnPlayer
from arena_player.serve import answer


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


if __name__ == "__main__":
    unittest.main()
