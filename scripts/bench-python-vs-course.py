#!/usr/bin/env python3
"""Python players through the arena against the course's own referee
(issue 68; docs/benchmarks/hosting.md, "Python players against the
course's referee").

    git clone https://github.com/tomcohen13/AI-Squid-Game /tmp/course
    cargo build --release -p arena
    python3 scripts/bench-python-vs-course.py /tmp/course [--pairs 5]

For each match (the course's Easy against itself, 1,000 games; the
arena's built-in easy against itself, 1,000, against the course's Easy in
its loop; Medium against itself, 100; players/python/bench/course_alphabeta
against Easy, 100) it runs, alternated pair by pair, the whole command each way:
- the course's referee: `python3 players/python/bench/course_referee.py`,
  the course's `Game.play` loop in one interpreter (that file says what it
  leaves out);
- the arena: `arena play python:... python:... --games N --concurrency 2`,
  each player isolated and sandboxed as a tournament runs it.
Wall time is the command's; CPU time is the whole machine's (user and
system, from /proc/stat, in 10 ms ticks), since sandboxed workers are not
the arena's children to count: run it on an otherwise idle machine. Prints each run,
then the medians and the arena's ratio to the course's referee."""

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
REFEREE = os.path.join(ROOT, "players/python/bench/course_referee.py")
ALPHABETA = os.path.join(ROOT, "players/python/bench/course_alphabeta/AlphaBetaAI.py")
MATCHES = [
    ("Easy vs Easy", "test_players/EasyAI.py", "test_players/EasyAI.py", 1000),
    # The arena's own Easy in its place (in process, as built-ins play),
    # against the course's Easy in the course's loop.
    ("built-in easy vs easy", "test_players/EasyAI.py", "test_players/EasyAI.py", 1000),
    ("Medium vs Medium", "test_players/MediumAI.py", "test_players/MediumAI.py", 100),
    ("AlphaBeta (depth 3) vs Easy", "test_players/AlphaBetaAI.py", "test_players/EasyAI.py", 100),
]


def machine_cpu() -> float:
    """Seconds of CPU the whole machine has used (user, nice, system)."""
    with open("/proc/stat") as stat:
        fields = stat.readline().split()[1:]
    return (int(fields[0]) + int(fields[1]) + int(fields[2])) / os.sysconf("SC_CLK_TCK")


def seconds(value: float) -> str:
    return f"{value * 1000:.0f} ms" if value < 0.1 else f"{value:.2f} s"


def ratio(arena: float, course: float) -> str:
    """The arena's time over the course's: 1/N when the arena is N times faster."""
    if arena <= 0:
        return "(too short to measure)"
    return f"1/{course / arena:.0f}x" if arena < course / 10 else f"{arena / course:.2f}x"


def timed(command: list, cwd: str) -> tuple:
    wall, cpu = time.perf_counter(), machine_cpu()
    done = subprocess.run(command, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    wall, cpu = time.perf_counter() - wall, machine_cpu() - cpu
    if done.returncode != 0:
        sys.exit(f"error: {' '.join(command)} failed:\n{done.stderr.strip()}")
    return wall, cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("course", help="a checkout of tomcohen13/AI-Squid-Game")
    parser.add_argument("--pairs", type=int, default=5, help="alternated runs of each (default 5)")
    parser.add_argument("--arena", default=os.path.join(ROOT, "target/release/arena"))
    parser.add_argument("--only", help="run only the matches whose name contains this")
    args = parser.parse_args()
    for needed in ("Grid.py", "BaseAI.py", "test_players/EasyAI.py"):
        if not os.path.isfile(os.path.join(args.course, needed)):
            sys.exit(f"error: {args.course} has no {needed}: clone https://github.com/tomcohen13/AI-Squid-Game there")
    if not os.access(args.arena, os.X_OK):
        sys.exit(f"error: no arena at {args.arena}: run `cargo build --release -p arena`, or name it with --arena")
    if args.pairs < 1:
        sys.exit("error: --pairs must be 1 or more")
    with tempfile.TemporaryDirectory() as scratch:
        course = os.path.join(scratch, "course")
        shutil.copytree(args.course, course, ignore=shutil.ignore_patterns(".git", "__pycache__"))
        shutil.copy(ALPHABETA, os.path.join(course, "test_players"))
        print("| match | games | course referee: wall, CPU | arena: wall, CPU | arena / course: wall, CPU |")
        print("| --- | --- | --- | --- | --- |")
        for name, first, second, games in MATCHES:
            if args.only and args.only not in name:
                continue
            referee = [sys.executable, REFEREE, course, first, second, "--games", str(games)]
            seats = [f"python:{course}/{first}", f"python:{course}/{second}"]
            if name.startswith("built-in"):
                seats = ["easy", "easy"]
            arena = [args.arena, "play", *seats, "--games", str(games), "--concurrency", "2", "--seed", "1"]
            runs = {"course": [], "arena": []}
            for pair in range(args.pairs):
                order = ["course", "arena"] if pair % 2 == 0 else ["arena", "course"]
                for who in order:
                    runs[who].append(timed(referee if who == "course" else arena, course))
                    print(f"  {name}: {who} {runs[who][-1][0]:.2f} s wall, {runs[who][-1][1]:.2f} s CPU", file=sys.stderr)
            median = {who: [statistics.median(r[i] for r in runs[who]) for i in (0, 1)] for who in runs}
            (cw, cc), (aw, ac) = median["course"], median["arena"]
            print(f"| {name} | {games} | {cw:.2f} s, {cc:.2f} s | {seconds(aw)}, {seconds(ac)} | **{ratio(aw, cw)}**, {ratio(ac, cc)} |")


if __name__ == "__main__":
    main()
