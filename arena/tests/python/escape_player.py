"""A Python player that tries to escape its sandbox, for the arena's tests:
the Python twin of arena/tests/fixtures/escape-player (same ESCAPE_MODE and
ESCAPE_TARGET, same report, raised from get_move so the game records it;
`env` reports its whole environment)."""

import ctypes
import os
import signal
import socket
import subprocess
import time

from arena_player import TrapPlayer


def attempt(mode, target):
    if mode == "read":
        results = []
        for path in target.split(":"):
            try:
                with open(path, "rb") as f:
                    results.append(f"SUCCEEDED reading {path} ({len(f.read())} bytes)")
            except OSError as e:
                results.append(f"blocked: {path}: {e.strerror} (errno {e.errno})")
        return "; ".join(results)
    if mode == "write":
        scratch = os.environ.get("TMPDIR", "")
        try:
            with open(os.path.join(scratch, "notes.txt"), "w") as f:
                f.write("mine")
        except OSError as e:
            return f"its scratch folder {scratch} is unusable: {e}"
        results = []
        for path in target.split(":"):
            try:
                with open(path, "a") as f:
                    f.write("escaped\n")
                results.append(f"SUCCEEDED writing {path}")
            except OSError as e:
                results.append(f"blocked: {path}: {e.strerror} (errno {e.errno})")
        return "; ".join(results)
    if mode == "connect":
        host, port = target.rsplit(":", 1)
        try:
            socket.create_connection((host, int(port)), timeout=2).close()
            return f"SUCCEEDED connecting to {target}"
        except OSError as e:
            return f"blocked: {e.strerror} (errno {e.errno})"
    if mode == "setsid":
        code = subprocess.call(["setsid", "-f", "sleep", target])
        time.sleep(0.2)  # time for the daemon to leave the process group
        return "spawned" if code == 0 else f"setsid failed: {code}"
    if mode == "forkbomb":
        for started in range(20000):
            try:
                pid = os.fork()
            except OSError as e:
                return f"blocked after {started} processes: {e.strerror} (errno {e.errno})"
            if pid == 0:
                while True:
                    signal.pause()
        return "SUCCEEDED: 20000 processes"
    if mode == "ptrace":
        libc = ctypes.CDLL(None, use_errno=True)
        pid = int(target) if target else os.getppid()
        if libc.ptrace(16, pid, None, None) == 0:  # PTRACE_ATTACH
            return f"SUCCEEDED attaching to {pid}"
        errno = ctypes.get_errno()
        return f"blocked: {os.strerror(errno)} (errno {errno})"
    if mode == "reschedule":
        # Its own cores, then its priority: a sandboxed player keeps what its game was given.
        for attempt in (lambda: os.sched_setaffinity(0, {0}), lambda: os.setpriority(os.PRIO_PROCESS, 0, 19)):
            try:
                attempt()
                return "SUCCEEDED rescheduling itself"
            except OSError as e:
                blocked = f"blocked: {e.strerror} (errno {e.errno})"
        return blocked
    if mode == "env":
        return "environment: [" + "; ".join(sorted(f"{k}={v}" for k, v in os.environ.items())) + "]"
    return f"unknown ESCAPE_MODE '{mode}'"


class EscapePlayer(TrapPlayer):
    name = "escape-python"
    author = "arena tests"

    def get_move(self, state):
        mode = os.environ.get("ESCAPE_MODE", "")
        raise RuntimeError(f"escape {mode}: {attempt(mode, os.environ.get('ESCAPE_TARGET', ''))}")

    def get_trap(self, state):
        return state.opponent
