"""Time banks (docs/protocol.md, "Time banks"): what a native player is told
of its bank, and that a request without one tells it nothing."""

import contextlib
import io
import time
import unittest

from arena_player.games import GameSession, HexapawnPlayer, WumpusPlayer
from arena_player.native import NativeSession
from arena_player.serve import answer
from arena_player.trap import TimeBank, TrapPlayer, TrapState

BANK = {"left_us": 58_700_000, "increment_us": 1_000_000, "turn_cap_us": 5_000_000}
TURN = {
    "type": "turn",
    "seat": 1,
    "turn": 2,
    "time_left_us": 5_000_000,
    "state": {"size": 7, "players": [[1, 3], [5, 3]], "traps": [[4, 3], [2, 2]]},
}


class Recorder(TrapPlayer):
    """Moves to its first legal cell, throws next to the opponent; keeps
    what it was shown."""

    def __init__(self):
        self.told = []
        self.banks = []

    def time_bank(self, bank):
        self.told.append(bank)

    def get_move(self, state):
        self.banks.append(state.bank)
        return state.legal_moves()[0]

    def get_trap(self, state):
        self.banks.append(state.bank)
        return next(c for c in state.neighbors(state.opponent) if state.is_free(c))


class TimeBankTest(unittest.TestCase):
    def test_a_bank_is_read_in_seconds_and_no_cap_is_none(self):
        self.assertEqual(TimeBank.from_wire({"bank": BANK}), TimeBank(58.7, 1.0, 5.0))
        uncapped = {"left_us": 60_000_000, "increment_us": 0, "turn_cap_us": 0}
        self.assertEqual(TimeBank.from_wire({"bank": uncapped}), TimeBank(60.0, 0.0, None))
        self.assertIsNone(TimeBank.from_wire(TURN))
        self.assertIsNone(TimeBank.from_wire({**TURN, "bank": None}))

    def test_a_trap_state_carries_the_bank_through_the_move(self):
        received = time.monotonic()
        state = TrapState.from_wire({**TURN, "bank": BANK}, received)
        self.assertEqual(state.bank, TimeBank(58.7, 1.0, 5.0))
        self.assertEqual(state.deadline, received + 5.0, "time_left() is still the turn's own limit")
        self.assertEqual(state.moved(1, (2, 3)).bank, state.bank)
        self.assertIsNone(TrapState.from_wire(TURN, received).bank)
        legacy = TrapState(7, ((0, 3), (6, 3)), frozenset(), 1, 0, received + 5)
        self.assertIsNone(legacy.bank, "built as before, a state has no bank")


class NativeTrapTest(unittest.TestCase):
    def test_a_request_with_a_bank_tells_the_player(self):
        player = Recorder()
        reply = answer(NativeSession(player), {**TURN, "bank": BANK}, time.monotonic())
        self.assertEqual(reply["type"], "turn", reply)
        self.assertEqual(player.told, [TimeBank(58.7, 1.0, 5.0)])
        self.assertEqual(player.banks, [TimeBank(58.7, 1.0, 5.0)] * 2, "get_move, then get_trap")

    def test_a_request_without_one_tells_it_nothing(self):
        player = Recorder()
        with_bank = answer(NativeSession(player), {**TURN, "bank": BANK}, time.monotonic())
        player = Recorder()
        reply = answer(NativeSession(player), TURN, time.monotonic())
        self.assertEqual(reply, with_bank, "the bank changes nothing else")
        self.assertEqual(player.told, [])
        self.assertEqual(player.banks, [None, None])

    def test_a_player_that_ignores_the_bank_plays_as_before(self):
        class Plain(TrapPlayer):
            def get_move(self, state):
                return state.legal_moves()[0]

            def get_trap(self, state):
                return next(c for c in state.neighbors(state.opponent) if state.is_free(c))

        plain = answer(NativeSession(Plain()), {**TURN, "bank": BANK}, time.monotonic())
        self.assertEqual(plain, answer(NativeSession(Plain()), TURN, time.monotonic()))
        self.assertEqual(plain["type"], "turn")


class NewerGamesTest(unittest.TestCase):
    def test_the_bank_comes_before_the_action_and_only_under_a_bank(self):
        class Climber(WumpusPlayer):
            def __init__(self):
                self.heard = []

            def time_bank(self, bank):
                self.heard.append(("bank", bank))

            def step(self, percept):
                self.heard.append(("step", percept["score"]))
                return "climb"

        player = Climber()
        session = GameSession(player)
        step = {"type": "step", "time_left_us": 5_000_000, "state": {"score": 0}}
        self.assertEqual(session.answer({**step, "bank": BANK}), {"type": "action", "action": "climb"})
        self.assertEqual(session.answer(step), {"type": "action", "action": "climb"})
        self.assertEqual(player.heard, [("bank", TimeBank(58.7, 1.0, 5.0)), ("step", 0), ("step", 0)])

    def test_the_state_a_player_is_shown_is_unchanged(self):
        class Seen(HexapawnPlayer):
            def get_move(self, state):
                self.state = state
                return "resign"

        player = Seen()
        state = {"white": [[2, 0]], "black": [[0, 0]], "to_move": 1}
        request = {"type": "get_move", "seat": 1, "ply": 0, "time_left_us": 1, "state": state, "bank": BANK}
        self.assertEqual(GameSession(player).answer(request), {"type": "resign"})
        self.assertEqual(player.state, {**state, "seat": 1})

    def test_a_failing_time_bank_loses_as_the_players_error(self):
        class Broken(WumpusPlayer):
            def time_bank(self, bank):
                raise ValueError("no")

            def step(self, percept):
                return "climb"

        request = {"type": "step", "time_left_us": 1, "state": {}, "bank": BANK}
        with contextlib.redirect_stderr(io.StringIO()) as log:  # the traceback, for the arena's log
            reply = answer(GameSession(Broken()), request, time.monotonic())
        self.assertEqual(reply["type"], "error")
        self.assertIn("ValueError: no (at test_bank.py", reply["message"])
        self.assertIn("Traceback", log.getvalue())


if __name__ == "__main__":
    unittest.main()
