"""The in-process baseline of the hosting benchmark (docs/benchmarks.md,
"Hosting cost of a course Python player"): a course PlayerAI driven by a
plain Python loop, as the course's Game.py drives it, with none of the
arena: no process, no protocol, no state rebuilt from a message. It plays
the turn `arena measure program` asks for (seat 1, the start position of a
7x7 board) and prints a row of its table, per turn.

    PYTHONPATH=players/python/src python3 players/python/bench/plain_loop.py \\
        players/python/bench/random_course_player --turns 10000
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
import time

WARM_UP = 100  # as arena measure program


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", help="a course player's folder (holding PlayerAI.py)")
    parser.add_argument("--turns", type=int, default=10000)
    args = parser.parse_args()
    # The player's folder first, then the course's modules as the arena gives them.
    from arena_player.load import SKELETON

    sys.path[:0] = [os.path.abspath(args.folder), SKELETON]
    player_class = importlib.import_module("PlayerAI").PlayerAI
    grid_class = importlib.import_module("Grid").Grid

    start = grid_class(7)
    start.setCellValue((0, 3), 1)
    start.setCellValue((6, 3), 2)
    ai = player_class()
    ai.setPlayerNum(1)
    ai.setPosition((0, 3))

    def turn() -> None:
        # Each call gets its own copy of the board, as Game.py hands them out.
        move = ai.getMove(start.clone())
        ai.setPosition(move)
        after = start.clone()
        after.move(move, 1)
        ai.getTrap(after)

    for _ in range(WARM_UP):
        turn()
    times = []
    for _ in range(args.turns):
        began = time.perf_counter()
        turn()
        times.append(time.perf_counter() - began)
    times.sort()

    def at(q: float) -> str:
        return f"{times[int((len(times) - 1) * q)] * 1e6:.1f} us"

    per_second = len(times) / sum(times)
    name = f"plain loop, in process ({args.turns} turns)"
    print(f"| {name} | - | {at(0.5)} | {at(0.9)} | {at(0.99)} | **{per_second:.0f}** |")


if __name__ == "__main__":
    main()
