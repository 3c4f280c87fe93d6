# A course-style player that misbehaves on purpose, for the arena's tests.
# BAD_PYTHON_MODE picks what it does in getMove (getTrap for trap-none);
# anything not listed plays legally:
#   raise, print (prints and plays legally), flood (prints 4 MB), sleep
#   (BAD_PYTHON_SLEEP seconds, default 1), none, list, floats, off-board,
#   trap-none, memory (allocates 4 GiB), exit (sys.exit(3)), grid (its grid as 2nd move).
import os
import sys
import time

from BaseAI import BaseAI

MODE = os.environ.get("BAD_PYTHON_MODE", "")


class PlayerAI(BaseAI):
    def getMove(self, grid):
        me = grid.find(self.player_num)
        legal = grid.get_neighbors(me, only_available=True)[0]
        if MODE == "raise":
            raise ValueError("bad player raises on purpose")
        if MODE == "print":
            print(f"thinking about {legal}")
            grid.print_grid()
        if MODE == "flood":
            print("x" * (4 << 20))
        if MODE == "sleep":
            time.sleep(float(os.environ.get("BAD_PYTHON_SLEEP", "1")))
        if MODE == "none":
            return None
        if MODE == "list":
            return list(legal)
        if MODE == "floats":
            return (float(legal[0]), float(legal[1]))
        if MODE == "off-board":
            return (grid.dim, me[1])
        if MODE == "memory":
            hoard = bytearray(4 << 30)
            return (len(hoard), 0)
        if MODE == "exit":
            sys.exit(3)
        # A fresh PlayerAI each game: its first move is legal, its second is not.
        self.moves = getattr(self, "moves", 0) + 1
        if MODE == "grid" and self.moves == 2:
            return grid
        return legal

    def getTrap(self, grid):
        if MODE == "trap-none":
            return None
        opponent = grid.find(3 - self.player_num)
        return grid.get_neighbors(opponent, only_available=True)[0]
