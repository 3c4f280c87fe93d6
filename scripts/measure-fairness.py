#!/usr/bin/env python3
"""The measure of fairness: grades the same submissions on fresh `arena
serve` data folders with the same secret (so the same graded games), one
idle and others beside busy loops, and prints each submission's verdict
side by side, game by game (docs/benchmarks/fair-verdicts.md).

A verdict that differs between loads is the machine's doing, not the
player's, when the player's play depends only on its input and its seeded
luck. The generated players (--shares) are such players: `PlayerAI.py`
folders that play the first free cell and compute a fixed share of the
budget in CPU time each turn (half before the move, half before the trap).
Real submissions (course folders, libraries) are given as paths.

    python3 scripts/measure-fairness.py --arena target/release/arena \\
        --loads 0,2 --shares 80,120 --budget 5s
    python3 scripts/measure-fairness.py --loads 0,2 --course course.toml \\
        --assignment trap past/ann past/bo

Prints, per load, a summary line (graded, failed check, games lost on time,
machine faults, wall time), then one line per submission and load: its
status and, per level, wins-draws-losses and the games lost (schedule
index: reason). Exits 1 if a submission's verdict differs between loads,
2 on bad input.

Needs the arena_player package for Python players (python3 -m pip install
./players/python, or the arena's wheel).
"""

import argparse
import json
import os
import re
import secrets
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request

PLAYER = """import time
from BaseAI import BaseAI

def think():
    start = time.process_time()
    while time.process_time() - start < {half}:
        pass

class PlayerAI(BaseAI):
    def setPlayerNum(self, num):
        self.num = num
    def getMove(self, grid):
        think()
        return grid.get_neighbors(grid.find(self.num), only_available=True)[0]
    def getTrap(self, grid):
        think()
        return grid.get_neighbors(grid.find(3 - self.num), only_available=True)[0]
"""

COURSE = """[[assignment]]
name = "trap"
game = "trap"
[assignment.settings]
time_per_turn = "{budget}"
board_size = 5
[assignment.grading]
levels = ["easy"]
games = {games}
wins_to_pass = [0]
"""


class BadInput(Exception):
    pass


def seconds(text):
    try:
        value = float(text[:-2]) / 1000 if text.endswith("ms") else float(text.rstrip("s"))
    except ValueError:
        value = 0
    if not value > 0:
        raise BadInput(f"--budget {text!r} is not a duration: give it as 5s or 500ms")
    return value


def api(url, token):
    request = urllib.request.Request(url, headers={"Authorization": "Bearer " + token})
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.load(response)


def generated_players(shares, budget, work):
    """A computing player's folder per share (% of the budget a turn)."""
    folders = []
    for share in shares:
        folder = os.path.join(work, "players", f"computes_{share}")
        os.makedirs(folder)
        with open(os.path.join(folder, "PlayerAI.py"), "w") as f:
            f.write(PLAYER.format(half=seconds(budget) * share / 200))
        folders.append(folder)
    return folders


def grade_all(arena, course, assignment, players, load, secret, serve_args, work, limit):
    """Grades every player on a fresh data folder beside `load` busy loops:
    each one's submission as the server ends it (status, grade), and the
    wall time until the last was graded."""
    data = os.path.join(work, f"data-{load}")
    tokens = []
    for i in range(len(players)):
        out = subprocess.run([arena, "serve", "add-student", f"s{i}", "--data", data],
                             capture_output=True, text=True)
        if out.returncode != 0:
            raise BadInput(f"arena serve add-student failed: {out.stderr.strip()}")
        tokens.append(out.stdout.strip())
    env = dict(os.environ, ARENA_SERVER_SECRET=secret)
    server = subprocess.Popen([arena, "serve", "--data", data, "--course", course, "--listen", "127.0.0.1:0",
                               "--round-robin", "off", *serve_args], stdout=subprocess.PIPE,
                              stderr=subprocess.DEVNULL, text=True, env=env)
    loops = []
    try:
        words = server.stdout.readline().split()
        url = next((w for w in words if w.startswith("http://")), None)
        if url is None:
            raise BadInput(f"arena serve did not start (run it by hand: arena serve --course {course})")
        loops = [subprocess.Popen(["sh", "-c", "while :; do :; done"]) for _ in range(load)]
        started = time.monotonic()
        ids = []
        for player, token in zip(players, tokens):
            command = [arena, "submit", player, "--server", url, "--token", token]
            if assignment:
                command += ["--assignment", assignment]
            out = subprocess.run(command, capture_output=True, text=True)
            if out.returncode != 0:
                raise BadInput(f"arena submit {player} failed: {out.stderr.strip()}")
            said = out.stdout.split("submission ", 1)[-1].split(":")[0].split()
            if not said or not said[0].isdigit():
                raise BadInput(f"arena submit {player} named no submission: {out.stdout.strip()[:200]}")
            ids.append(int(said[0]))
        results = [None] * len(ids)
        while any(r is None for r in results):
            if time.monotonic() - started > limit:
                raise BadInput(f"not graded within {limit} s beside {load} loops: give more --limit")
            time.sleep(0.5)
            for i, id_ in enumerate(ids):
                if results[i] is None:
                    s = api(f"{url}/api/submissions/{id_}", tokens[i])
                    if s["status"] in ("done", "failed"):
                        results[i] = s
        return results, time.monotonic() - started
    finally:
        for loop in loops:
            loop.kill()
        server.kill()
        server.wait()


def verdict(submission):
    """What a submission's grading decided, game by game: comparable
    between loads, printable."""
    if submission["status"] != "done":
        # Its first line, and its first problem's (the cause), as pages show it.
        lines = [line.strip() for line in (submission.get("error") or "").splitlines() if line.strip()]
        cause = lines[:1] + [line for line in lines[1:] if line.startswith("problem: ")][:1]
        return f"{submission['status']}: {' '.join(cause)[:240]}" if cause else submission["status"]
    parts = []
    for level in submission["grade"]["levels"]:
        lost = ", ".join(f"{g['index']}: {g['reason']}" for g in level["lost"])
        parts.append(f"{level['level']} {level['wins']}-{level['draws']}-{level['losses']}"
                     + (f" (lost {lost})" if lost else ""))
    return "; ".join(parts)


def same_kind(verdict):
    """A verdict without its measured numbers ("timeout: 1.21 s of CPU >
    1.00 s"): two loads measure a timeout to different hundredths, and it
    is the same verdict."""
    return re.sub(r"\d+(\.\d+)?", "#", verdict)


def summary(results):
    graded = sum(r["status"] == "done" for r in results)
    failed = sum(r["status"] == "failed" for r in results)
    on_time = sum(r["grade"]["failures"].get("timeout", 0) for r in results if r.get("grade"))
    machine = sum(r["grade"]["failures"].get("machine", 0) for r in results if r.get("grade"))
    return graded, failed, on_time, machine


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("players", nargs="*", help="submissions: course folders, .py files or libraries")
    parser.add_argument("--arena", default="target/release/arena", help="the arena binary (default: %(default)s)")
    parser.add_argument("--loads", default="0,2", help="busy loops beside the server, per run (default: %(default)s)")
    parser.add_argument("--shares", default="", help="generated players: CPU a turn, %% of --budget (e.g. 80,120)")
    parser.add_argument("--budget", default="1s", help="the generated course's time a turn (default: %(default)s)")
    parser.add_argument("--games", type=int, default=2, help="the generated course's games against easy")
    parser.add_argument("--course", help="a course file to grade under instead of the generated one")
    parser.add_argument("--assignment", help="the course's assignment (when it has several)")
    parser.add_argument("--secret", help="the data folders' secret, 64 hex digits (default: a new one)")
    parser.add_argument("--limit", type=float, default=3600, help="seconds a load's gradings may take")
    parser.add_argument("--serve-args", default="", help="more arguments for arena serve (say '--games-nice 10')")
    parser.add_argument("--json", action="store_true", help="print the verdicts as one JSON object")
    args = parser.parse_args()
    work = tempfile.mkdtemp(prefix="arena-fairness-")
    try:
        if not os.access(args.arena, os.X_OK):
            raise BadInput(f"no arena binary at {args.arena}: build it (cargo build --release) or give --arena")
        try:
            loads = [int(n) for n in args.loads.split(",")]
            shares = [int(s) for s in args.shares.split(",") if s]
        except ValueError:
            raise BadInput("--loads and --shares are comma-separated whole numbers (e.g. --loads 0,2)")
        if any(n < 0 or n > 64 for n in loads):
            raise BadInput("--loads: 0 to 64 busy loops each")
        if any(s <= 0 for s in shares):
            raise BadInput("--shares: percentages above 0")
        if args.secret is not None and (len(args.secret) != 64
                                        or any(c not in "0123456789abcdef" for c in args.secret)):
            raise BadInput("--secret: 64 hex digits (lowercase)")
        for player in args.players:
            if not os.path.exists(player):
                raise BadInput(f"no player at {player}")
        players = [os.path.abspath(p) for p in args.players] + generated_players(shares, args.budget, work)
        if not players:
            raise BadInput("give players (paths) or --shares to generate some")
        course = args.course
        if course is None:
            seconds(args.budget)
            course = os.path.join(work, "course.toml")
            with open(course, "w") as f:
                f.write(COURSE.format(budget=args.budget, games=args.games))
        elif not os.path.isfile(course):
            raise BadInput(f"no course file at {course}")
        secret = args.secret or secrets.token_hex(32)
        serve_args = args.serve_args.split()
        names = [os.path.basename(p.rstrip("/")) for p in players]
        verdicts = {}
        if not args.json:
            print(f"{len(players)} players, busy loops {args.loads}, one secret; {args.arena}")
            print("busy loops | graded | failed check | games lost on time | machine faults | wall time")
        for load in loads:
            results, took = grade_all(args.arena, course, args.assignment, players, load, secret, serve_args,
                                      work, args.limit)
            verdicts[load] = [verdict(r) for r in results]
            if not args.json:
                graded, failed, on_time, machine = summary(results)
                print(f"{load} | {graded} | {failed} | {on_time} | {machine} | {took:.1f} s", flush=True)
        differ = [n for i, n in enumerate(names) if len({same_kind(verdicts[load][i]) for load in loads}) > 1]
        if args.json:
            print(json.dumps({"loads": loads, "players": names, "differ": differ,
                              "verdicts": {str(load): v for load, v in verdicts.items()}}))
        else:
            for i, name in enumerate(names):
                same = "same" if name not in differ else "DIFFERS"
                print(f"{name}: {same}")
                for load in loads:
                    print(f"  {load} loops: {verdicts[load][i]}")
        return 1 if differ else 0
    except BadInput as e:
        print(f"measure-fairness: {e}", file=sys.stderr)
        return 2
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
