"""The newer games' answers as the host sends them, and what is not an action."""

import unittest

from arena_player.games import (
    ForestPlayer,
    GameSession,
    HexapawnPlayer,
    IntuitivePlayer,
    WumpusPlayer,
    forest_reply,
    move_reply,
    reveal_reply,
    wumpus_reply,
)
from arena_player.trap import InvalidAction


class RepliesTest(unittest.TestCase):
    def test_intuitive_ai_reveals_a_cell(self):
        self.assertEqual(reveal_reply((1, 2)), {"type": "reveal", "cell": [1, 2]})
        with self.assertRaisesRegex(InvalidAction, "reveal returned None"):
            reveal_reply(None)

    def test_hexapawn_moves_or_resigns(self):
        self.assertEqual(move_reply(((2, 0), (1, 0))), {"type": "move", "from": [2, 0], "to": [1, 0]})
        self.assertEqual(move_reply("resign"), {"type": "resign"})
        with self.assertRaisesRegex(InvalidAction, "get_move returned \\(2, 0\\)"):
            move_reply((2, 0))

    def test_wumpus_world_names_an_action(self):
        self.assertEqual(wumpus_reply("turn_left"), {"type": "action", "action": "turn_left"})
        with self.assertRaisesRegex(InvalidAction, "return one of forward, turn_left"):
            wumpus_reply("jump")

    def test_magic_forest_names_an_action_and_a_direction(self):
        self.assertEqual(forest_reply(("throw", "west")), {"type": "action", "action": "throw", "dir": "west"})
        with self.assertRaisesRegex(InvalidAction, "return one of north, east, south, west"):
            forest_reply(("move", "up"))
        with self.assertRaisesRegex(InvalidAction, "return \\(action, dir\\)"):
            forest_reply("move north")


class SessionTest(unittest.TestCase):
    def test_each_player_answers_its_own_game_only(self):
        class Walker(ForestPlayer):
            def step(self, percept):
                return "move", "north" if percept["score"] == 0 else "south"

        session = GameSession(Walker())
        self.assertEqual(session.games, ["magic-forest"])
        self.assertEqual(session.answer({"type": "new_game", "game": "magic-forest", "seed": 1}), {"type": "ok"})
        step = {"type": "step", "time_left_us": 1, "state": {"score": 0}}
        self.assertEqual(session.answer(step), {"type": "action", "action": "move", "dir": "north"})
        self.assertIsNone(session.answer({"type": "reveal", "turn": 0, "state": {}}))

    def test_the_seat_reaches_a_hexapawn_player(self):
        class Seen(HexapawnPlayer):
            def get_move(self, state):
                self.seat = state["seat"]
                return "resign"

        player = Seen()
        request = {"type": "get_move", "seat": 2, "ply": 1, "state": {"white": [], "black": [], "to_move": 2}}
        self.assertEqual(GameSession(player).answer(request), {"type": "resign"})
        self.assertEqual(player.seat, 2)

    def test_every_game_class_names_its_game(self):
        names = [c.game for c in (IntuitivePlayer, HexapawnPlayer, WumpusPlayer, ForestPlayer)]
        self.assertEqual(names, ["intuitive-ai", "hexapawn", "wumpus", "magic-forest"])


if __name__ == "__main__":
    unittest.main()
