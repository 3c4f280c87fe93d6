"""A player that speaks the protocol by hand (docs/protocol.md), using only
the standard library: what a program in any language does. RAW_MODE=garbage
makes it write a non-frame instead of its first turn."""

import json
import os
import struct
import sys

STEPS = [(dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if (dr, dc) != (0, 0)]


def send(message):
    payload = json.dumps(message).encode()
    sys.stdout.buffer.write(struct.pack("<I", len(payload)) + payload)
    sys.stdout.buffer.flush()


def receive():
    header = sys.stdin.buffer.read(4)
    if len(header) < 4:
        return None
    (length,) = struct.unpack("<I", header)
    return json.loads(sys.stdin.buffer.read(length))


def free_around(state, cell):
    size, taken = state["size"], [tuple(c) for c in state["traps"] + state["players"]]
    around = [(cell[0] + dr, cell[1] + dc) for dr, dc in STEPS]
    return [c for c in around if 0 <= c[0] < size and 0 <= c[1] < size and c not in taken]


def main():
    send({"type": "hello", "protocol": 1, "name": "raw", "author": "tests", "games": ["trap"]})
    while (request := receive()) is not None:
        kind = request["type"]
        if kind == "quit":
            return
        if kind == "turn":
            if os.environ.get("RAW_MODE") == "garbage":
                sys.stdout.write("thinking...\n")
                sys.stdout.flush()
                continue
            state, seat = request["state"], request["seat"]
            move = free_around(state, state["players"][seat - 1])[0]
            state["players"][seat - 1] = list(move)
            opponent = state["players"][2 - seat]
            targets = free_around(state, opponent)
            reply = {"type": "turn", "move": list(move)}
            if targets:
                reply["trap"] = list(targets[0])
            send(reply)
        else:
            send({"type": "ok"})


main()
