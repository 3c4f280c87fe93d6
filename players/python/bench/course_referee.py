"""The course's referee, as the baseline of `bench/python-vs-course.sh`.

Plays N games of Trap between two course players the way the course's
`Game.py` (tomcohen13/AI-Squid-Game, `Game.play`) does, in this one
interpreter: the same clones of the course's `Grid` before each call, the
same checks of each move and throw, the same throw (`numpy.random.choice`
over the intended square and its free neighbours), the same end test after
each move and throw, and the same per-turn CPU-time check
(`time.process_time`, 5 s + 1 s). What it leaves out, and why:
- the displayer and the prints (a benchmark of the referee, not of a
  terminal);
- the release tree's busy-wait that pads every turn to the time limit
  (commented out in the course's later `Game.py`).
Each game gets fresh players (the arena's rule; the course's grading
script reused its instances, which only saves a constructor call).

    python3 course_referee.py COURSE_DIR test_players/EasyAI.py test_players/EasyAI.py --games 1000

prints one line: games, wins of each seat, turns, wall and CPU seconds.
"""

import argparse
import importlib.util
import inspect
import os
import sys
import time

TIME_LIMIT, ALLOWANCE = 5.0, 1.0


def player_class(course, path):
    """The one BaseAI subclass (or PlayerAI) that `path` defines."""
    full = os.path.join(course, path)
    name = os.path.splitext(os.path.basename(full))[0]
    spec = importlib.util.spec_from_file_location(name, full)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    base = sys.modules["BaseAI"].BaseAI
    found = [c for _, c in inspect.getmembers(module, inspect.isclass) if issubclass(c, base) and c is not base and c.__module__ == module.__name__]
    if len(found) != 1:
        sys.exit(f"{path}: expected one player class, found {[c.__name__ for c in found]}")
    return found[0]


def play(grid_class, np, manhattan, players, dim=7):
    """One game as `Game.play` plays it: the winner (1 or 2), and turns."""
    grid = grid_class(dim)
    starts = [(0, dim // 2), (dim - 1, dim // 2)]
    for number, (player, start) in enumerate(zip(players, starts), 1):
        grid.setCellValue(start, number)
        player.setPosition(start)
        player.setPlayerNum(number)

    def is_over(turn):
        other = grid.find(3 - turn)
        return turn if len(grid.get_neighbors(other, only_available=True)) == 0 else False

    def throw(player, intended):
        neighbors = [n for n in grid.get_neighbors(intended) if grid.getCellValue(n) <= 0]
        n = len(neighbors)
        probs = np.ones(1 + n)
        p = 1 - 0.05 * (manhattan(player.getPosition(), intended) - 1)
        probs[0] = p
        probs[1:] = np.ones(len(neighbors)) * ((1 - p) / n)
        neighbors.insert(0, intended)
        return neighbors[np.random.choice(np.arange(n + 1), p=probs)]

    turn, turns = 1, 0
    while True:
        turns += 1
        started = time.process_time()
        player = players[turn - 1]
        move = player.getMove(grid.clone())
        if grid.getCellValue(move) == 0 and move in grid.get_neighbors(player.getPosition()):
            grid.move(move, turn)
            player.setPosition(move)
            if is_over(turn):
                return turn, turns
        else:
            return 3 - turn, turns
        intended = player.getTrap(grid.clone())
        if grid.getCellValue(intended) > 0:
            return 3 - turn, turns
        grid.trap(throw(player, intended))
        if is_over(turn):
            return turn, turns
        if time.process_time() - started > TIME_LIMIT + ALLOWANCE:
            return 3 - turn, turns
        turn = 3 - turn


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("course", help="the course's folder (Grid.py, BaseAI.py, Utils.py, test_players/)")
    parser.add_argument("first")
    parser.add_argument("second")
    parser.add_argument("--games", type=int, default=1000)
    args = parser.parse_args()
    course = os.path.abspath(args.course)
    sys.path.insert(0, course)
    os.chdir(course)  # the course's players append os.getcwd() to their path
    import numpy as np
    from Grid import Grid
    from Utils import manhattan_distance
    import BaseAI  # noqa: F401 (player_class looks it up)
    classes = [player_class(course, args.first), player_class(course, args.second)]
    wall, cpu = time.perf_counter(), time.process_time()
    wins, turns = [0, 0], 0
    for _ in range(args.games):
        winner, played = play(Grid, np, manhattan_distance, [c() for c in classes])
        wins[winner - 1] += 1
        turns += played
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    print(f"course referee: {args.games} games, wins {wins[0]}-{wins[1]}, {turns} turns, {wall:.3f} s wall, {cpu:.3f} s cpu")


if __name__ == "__main__":
    main()
