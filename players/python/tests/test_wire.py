"""Frames, and a whole conversation with `python3 -m arena_player`."""

import json
import os
import struct
import subprocess
import sys
import threading
import time
import unittest

from arena_player.wire import Channel, ProtocolError, decode, encode

HERE = os.path.dirname(os.path.abspath(__file__))
EXAMPLES = os.path.join(os.path.dirname(HERE), "examples")


class FrameTest(unittest.TestCase):
    def test_a_frame_is_a_length_then_json(self):
        frame = encode({"type": "ok"})
        self.assertEqual(frame, b"\x0d\x00\x00\x00" + b'{"type":"ok"}')

    def test_frames_survive_a_pipe_in_pieces(self):
        reader, writer = os.pipe()
        channel = Channel(reader, writer)
        messages = [{"type": "turn", "n": i, "text": "é" * i} for i in range(50)]
        stream = b"".join(encode(m) for m in messages)
        for start in range(0, len(stream), 7):
            os.write(writer, stream[start : start + 7])
        os.close(writer)
        self.assertEqual([channel.receive() for _ in messages], messages)
        self.assertIsNone(channel.receive())

    def test_a_late_request_wakes_the_host_which_waited_without_using_a_core(self):
        reader, writer = os.pipe()
        channel = Channel(reader, writer)
        late = threading.Timer(0.3, os.write, (writer, encode({"type": "quit"})))
        # The clocks start before the timer: on a loaded machine this thread
        # can be descheduled past the timer's delay between the two.
        began, cpu = time.perf_counter(), time.process_time()
        late.start()
        self.assertEqual(channel.receive(), {"type": "quit"})
        self.assertGreaterEqual(time.perf_counter() - began, 0.3)
        # Asleep in poll(2), not looking: a spin would use the whole 0.3 s.
        self.assertLess(time.process_time() - cpu, 0.1)
        late.join()

    def test_bad_input_is_a_protocol_error(self):
        for payload in [b"[1]", b"{}", b"not json"]:
            with self.assertRaises(ProtocolError):
                decode(payload)
        reader, writer = os.pipe()
        os.write(writer, struct.pack("<I", 0))
        with self.assertRaises(ProtocolError):
            Channel(reader, writer).receive()


def frame(message):
    payload = json.dumps(message).encode()
    return struct.pack("<I", len(payload)) + payload


def read_frames(data):
    messages = []
    while data:
        (length,) = struct.unpack("<I", data[:4])
        messages.append(json.loads(data[4 : 4 + length]))
        data = data[4 + length :]
    return messages


class HostTest(unittest.TestCase):
    def converse(self, target, requests, status=0):
        env = dict(os.environ, PYTHONPATH=os.path.join(os.path.dirname(HERE), "src"))
        done = subprocess.run(
            [sys.executable, "-m", "arena_player", target],
            input=b"".join(frame(r) for r in requests),
            capture_output=True,
            env=env,
            timeout=60,
        )
        self.assertEqual(done.returncode, status, done.stderr.decode())
        return read_frames(done.stdout), done.stderr.decode()

    def test_a_course_player_answers_the_documented_conversation(self):
        state = {"size": 7, "players": [[1, 4], [6, 3]], "traps": [[5, 3]]}
        replies, logs = self.converse(
            os.path.join(EXAMPLES, "course", "helper_player"),
            [
                {"type": "new_game", "game": "trap", "seat": 2, "size": 7, "turn_budget_us": 5000000, "seed": 81},
                {"type": "turn", "seat": 2, "turn": 1, "time_left_us": 5000000, "state": state},
                {"type": "game_over", "outcome": "win", "turns": 18, "reason": "trapped"},
                {"type": "quit"},
            ],
        )
        hello, ok, turn, over = replies
        self.assertEqual(hello["type"], "hello")
        self.assertEqual((hello["protocol"], hello["name"], hello["games"]), (1, "helper_player", ["trap"]))
        self.assertEqual(ok, {"type": "ok"})
        self.assertEqual(turn["type"], "turn")
        row, col = turn["move"]
        self.assertTrue(max(abs(row - 6), abs(col - 3)) == 1 and [row, col] != [5, 3], turn)
        self.assertEqual(len(turn["trap"]), 2)
        self.assertEqual(over, {"type": "ok"})
        self.assertIn("helper player loaded", logs, "print() goes to stderr, not into the frames")

    def test_a_course_player_answers_a_request_with_a_bank_as_before(self):
        state = {"size": 7, "players": [[1, 4], [6, 3]], "traps": [[5, 3]]}
        new_game = {"type": "new_game", "game": "trap", "seat": 2, "size": 7, "turn_budget_us": 5000000, "seed": 81}
        turn = {"type": "turn", "seat": 2, "turn": 1, "time_left_us": 5000000, "state": state}
        bank = {"left_us": 59000000, "increment_us": 1000000, "turn_cap_us": 0}
        over = {"type": "game_over", "outcome": "win", "turns": 18, "reason": "trapped"}
        replies, logs = self.converse(
            os.path.join(EXAMPLES, "course", "greedy_player"),
            [new_game, turn, over, new_game, {**turn, "bank": bank}, over, {"type": "quit"}],
        )
        _, ok, plain, done, ok_again, banked, done_again = replies
        self.assertEqual([ok, done, ok_again, done_again], [{"type": "ok"}] * 4, logs)
        self.assertEqual(plain["type"], "turn", plain)
        self.assertEqual(banked, plain, "the bank changes nothing for a course player")

    def test_a_player_that_cannot_load_says_why_instead_of_hello(self):
        replies, _ = self.converse(os.path.join(EXAMPLES, "no-such-folder"), [], status=3)
        self.assertEqual(replies[0]["type"], "error")
        self.assertIn("no Python player at", replies[0]["message"])


if __name__ == "__main__":
    unittest.main()
