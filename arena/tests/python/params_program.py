"""A program that speaks the protocol by hand (docs/protocol.md) and
declares parameters and a memory in its hello: the arena sends it `setup`
and, at the end of a match, `save_memory`. With echo=1 it fails its first
turn, saying what it was given; its memory is the number of matches it has
finished, as text (padded with `grow` KiB of spaces, to test the bound)."""

import base64
import json
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
    params = [
        {"name": "echo", "type": "int", "default": 0, "min": 0, "max": 1},
        {"name": "weight", "type": "float", "default": 2.5, "min": 0, "max": 10},
        {"name": "grow", "type": "int", "default": 0, "min": 0, "max": 2048},
    ]
    send({"type": "hello", "protocol": 1, "name": "params-program", "author": "tests", "games": ["trap"],
          "params": params, "memory": True})
    given, matches = {}, 0
    while (request := receive()) is not None:
        kind = request["type"]
        if kind == "quit":
            return
        if kind == "setup":
            given = request["params"]
            if request.get("memory") is not None:
                matches = int(base64.b64decode(request["memory"]).decode().strip())
            send({"type": "ok"})
        elif kind == "save_memory":
            data = str(matches + 1).encode() + b" " * (1024 * given.get("grow", 0))
            send({"type": "memory", "data": base64.b64encode(data).decode()})
        elif kind == "turn":
            if given.get("echo") == 1:
                send({"type": "error", "message": f"given {json.dumps(given, sort_keys=True)} matches {matches}"})
                continue
            state, seat = request["state"], request["seat"]
            move = free_around(state, state["players"][seat - 1])[0]
            state["players"][seat - 1] = list(move)
            targets = free_around(state, state["players"][2 - seat])
            reply = {"type": "turn", "move": list(move)}
            if targets:
                reply["trap"] = list(targets[0])
            send(reply)
        else:
            send({"type": "ok"})


main()
