#!/usr/bin/env python3
"""What watching a match live costs the games (docs/benchmarks.md, "Live
feeds"): the same match (same seed, so the same games) played without
--live, with --live and no page, and with --live and a page following it
(reading /follow/feed to the end), in interleaved rounds; prints each
way's median wall time of the run and mean time per turn of both players,
and their ratios to the plain run.

    python3 scripts/live-overhead.py --arena target/debug/arena \
        --players target/debug/libmedium.so target/debug/libmedium.so \
        --games 40 --rounds 5 [--busy 2]

--busy N runs N busy loops beside it (a shared machine).
"""

import argparse
import json
import statistics
import subprocess
import threading
import time
import urllib.request


def play(arena, players, games, seed, live, watch):
    """One run: (wall seconds, [mean_turn_ms of each player], events read)."""
    args = [arena, "play", *players, "--games", str(games), "--seed", str(seed), "--concurrency", "1", "--json"]
    if live:
        args.append("--live")
    started = time.monotonic()
    child = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    events = [0]
    reader = None
    if live:
        first = child.stderr.readline()
        url = next(w for w in first.split() if w.startswith("http://"))
        if watch:
            def follow():
                with urllib.request.urlopen(url.replace("/follow", "/follow/feed")) as feed:
                    for line in feed:
                        events[0] += line.startswith(b"event: ")
            reader = threading.Thread(target=follow, daemon=True)
            reader.start()
    out, _ = child.communicate()
    wall = time.monotonic() - started
    if reader:
        reader.join(timeout=10)
    result = json.loads(out)
    return wall, [p["mean_turn_ms"] for p in result["players"]], events[0]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--arena", default="target/debug/arena")
    parser.add_argument("--players", nargs=2, default=["target/debug/libmedium.so"] * 2)
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seed", type=int, default=36)
    parser.add_argument("--busy", type=int, default=0)
    args = parser.parse_args()
    busy = [subprocess.Popen(["sh", "-c", "while :; do :; done"]) for _ in range(args.busy)]
    ways = {"plain": (False, False), "--live": (True, False), "--live + page": (True, True)}
    runs = {way: [] for way in ways}
    try:
        for _ in range(args.rounds):
            for way, (live, watch) in ways.items():
                runs[way].append(play(args.arena, args.players, args.games, args.seed, live, watch))
    finally:
        for loop in busy:
            loop.kill()
    median = lambda xs: statistics.median(xs)
    base_wall = median([r[0] for r in runs["plain"]])
    base_turn = [median([r[1][i] for r in runs["plain"]]) for i in range(2)]
    print(f"{args.games} games of {' vs '.join(args.players)}, seed {args.seed}, {args.rounds} rounds, "
          f"{args.busy} busy loops beside; medians, and ratios to the plain run:")
    for way, rs in runs.items():
        wall = median([r[0] for r in rs])
        turn = [median([r[1][i] for r in rs]) for i in range(2)]
        events = max(r[2] for r in rs)
        ratios = ", ".join(f"{t / b:.3f}" for t, b in zip(turn, base_turn))
        print(f"  {way:14} run {wall:6.2f} s ({wall / base_wall:.3f})  "
              f"turn {turn[0]:.3f} / {turn[1]:.3f} ms ({ratios})" + (f"  {events} events read" if events else ""))


if __name__ == "__main__":
    main()
