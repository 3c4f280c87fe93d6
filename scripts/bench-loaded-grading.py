#!/usr/bin/env python3
"""Grades a class of course-style Python players on `arena serve` with busy
loops beside it, and prints what came of each load: graded, failed check,
games lost on time, and the grading's wall time (docs/benchmarks.md, "Fair
verdicts on a loaded machine").

The players are `PlayerAI.py` folders that play the first free cell and
compute for a fixed share of the budget in CPU time each turn (half before
the move, half before the trap): their games are the same on any machine,
so any difference between loads is the server's doing.

    python3 scripts/bench-loaded-grading.py --arena target/release/arena \
        --loads 0,2,4 --shares 20,32,44,56,68,80 --budget 1s [--serve-args '--games-nice 10']

Needs the arena_player package (python3 -m pip install ./players/python).
"""

import argparse
import json
import os
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


def seconds(text):
    return float(text[:-2]) / 1000 if text.endswith("ms") else float(text.rstrip("s"))


def api(url, token):
    request = urllib.request.Request(url, headers={"Authorization": "Bearer " + token})
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.load(response)


def run(arena, load, shares, budget, games, work, serve_args):
    data = os.path.join(work, f"data-{load}")
    course = os.path.join(work, "course.toml")
    with open(course, "w") as f:
        f.write(COURSE.format(budget=budget, games=games))
    tokens = []
    for i in range(len(shares)):
        out = subprocess.run([arena, "serve", "add-student", f"s{i}", "--data", data],
                             capture_output=True, text=True, check=True)
        tokens.append(out.stdout.strip())
    server = subprocess.Popen([arena, "serve", "--data", data, "--course", course, "--listen", "127.0.0.1:0",
                               "--round-robin", "off", *serve_args], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                              text=True)
    url = next(w for w in server.stdout.readline().split() if w.startswith("http://"))
    loops = [subprocess.Popen(["sh", "-c", "while :; do :; done"]) for _ in range(load)]
    try:
        started = time.monotonic()
        ids = []
        for i, share in enumerate(shares):
            folder = os.path.join(work, f"p{load}-{i}", f"computes_{share}")
            os.makedirs(folder)
            with open(os.path.join(folder, "PlayerAI.py"), "w") as f:
                f.write(PLAYER.format(half=seconds(budget) * share / 200))
            out = subprocess.run([arena, "submit", folder, "--server", url, "--token", tokens[i]],
                                 capture_output=True, text=True, check=True)
            ids.append(int(out.stdout.split("submission ")[1].split(":")[0].split()[0]))
        results = [None] * len(ids)
        while any(r is None for r in results):
            time.sleep(0.5)
            for i, id_ in enumerate(ids):
                if results[i] is None:
                    s = api(f"{url}/api/submissions/{id_}", tokens[i])
                    if s["status"] in ("done", "failed"):
                        results[i] = s
        took = time.monotonic() - started
    finally:
        for loop in loops:
            loop.kill()
        server.kill()
    graded = sum(r["status"] == "done" for r in results)
    failed = sum(r["status"] == "failed" for r in results)
    on_time = sum(r["grade"]["failures"].get("timeout", 0) for r in results if r["grade"])
    machine = sum(r["grade"]["failures"].get("machine", 0) for r in results if r["grade"])
    return graded, failed, on_time, machine, took


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--arena", default="target/release/arena")
    parser.add_argument("--loads", default="0,2,4", help="busy loops beside the server, per run")
    parser.add_argument("--shares", default="20,32,44,56,68,80", help="each player's CPU per turn, % of the budget")
    parser.add_argument("--budget", default="1s")
    parser.add_argument("--games", type=int, default=2, help="games against easy per submission")
    parser.add_argument("--serve-args", default="", help="more arguments for arena serve (say '--games-nice 10')")
    args = parser.parse_args()
    shares = [int(s) for s in args.shares.split(",")]
    work = tempfile.mkdtemp(prefix="arena-loaded-")
    try:
        print(f"{len(shares)} players at {args.shares}% of {args.budget} in CPU a turn; {args.arena}")
        print("busy loops | graded | failed check | games lost on time | machine faults | grading wall time")
        for load in (int(n) for n in args.loads.split(",")):
            graded, failed, lost, machine, took = run(args.arena, load, shares, args.budget, args.games, work,
                                                      args.serve_args.split())
            print(f"{load} | {graded} | {failed} | {lost} | {machine} | {took:.1f} s", flush=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
