#!/usr/bin/env python3
"""Memory per watcher of a live game (docs/benchmarks.md, "Live feeds"):
`arena play --live` of a slow player (bad-player sleeping 1.5 s a turn)
against easy; N connections to its game's feed, each held open; the arena
process's resident memory before and after, per watcher.

    python3 scripts/live-watchers-memory.py --arena target/debug/arena \
        --bad target/debug/libbad_player.so --watchers 500
"""

import argparse
import os
import socket
import subprocess
import time


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--arena", default="target/debug/arena")
    parser.add_argument("--bad", default="target/debug/libbad_player.so")
    parser.add_argument("--watchers", type=int, default=500)
    args = parser.parse_args()
    env = dict(os.environ, BAD_PLAYER_MODE="sleep", BAD_PLAYER_SLEEP_MS="1500")
    orders = ["--pass-env", "BAD_PLAYER_MODE", "--pass-env", "BAD_PLAYER_SLEEP_MS"]
    child = subprocess.Popen([args.arena, "play", args.bad, "easy", "--live", "--seed", "3", *orders],
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env, text=True)
    host, port = child.stderr.readline().split("http://")[1].split("/")[0].split(":")
    time.sleep(1.0)

    def rss():
        with open(f"/proc/{child.pid}/status") as status:
            return int(next(l for l in status if l.startswith("VmRSS")).split()[1])

    def connect():
        s = socket.create_connection((host, int(port)))
        s.sendall(b"GET /game/0/feed HTTP/1.1\r\nHost: arena\r\n\r\n")
        s.recv(65536)
        return s

    held = [connect()]  # the code paths warmed by one
    time.sleep(0.5)
    before = rss()
    held += [connect() for _ in range(args.watchers)]
    time.sleep(3.0)  # a turn or two fed to all of them
    after = rss()
    print(f"{args.watchers} watchers on one game: the arena's resident memory {before} -> {after} KiB, "
          f"{(after - before) / args.watchers:.1f} KiB per watcher")
    child.kill()


if __name__ == "__main__":
    main()
