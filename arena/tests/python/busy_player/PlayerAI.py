# A course-style player whose import starts a thread that spins for ever
# (for the arena's tests: a worker runs only while it is asked to move).
# Each move it prints the CPU time its process used, and the wall time that
# passed, since its last turn ended: "between turns: cpu X wall Y". With a
# file named `slow` beside it, it sleeps 1.5 s a move, its thread held
# meanwhile (a slow player that uses no CPU). Plays as the random player.
import os
import random
import threading
import time

from BaseAI import BaseAI
from Grid import Grid

SLOW = os.path.join(os.path.dirname(os.path.abspath(__file__)), "slow")
_spinning = threading.Event()
_spinning.set()


def _spin():
    while True:
        _spinning.wait()
        for _ in range(10000):
            pass


threading.Thread(target=_spin, daemon=True).start()


class PlayerAI(BaseAI):
    def __init__(self) -> None:
        super().__init__()
        self.pos = None
        self.player_num = None
        self.ended = None

    def getPosition(self):
        return self.pos

    def setPosition(self, new_position):
        self.pos = new_position

    def getPlayerNum(self):
        return self.player_num

    def setPlayerNum(self, num):
        self.player_num = num

    def getMove(self, grid: Grid) -> tuple:
        if self.ended is not None:
            cpu, wall = time.process_time() - self.ended[0], time.monotonic() - self.ended[1]
            print(f"between turns: cpu {cpu:.4f} wall {wall:.4f}")
        if os.path.exists(SLOW):
            _spinning.clear()
            time.sleep(1.5)
            _spinning.set()
        me = grid.find(self.player_num)
        options = [cell for cell in grid.get_neighbors(me) if grid.getCellValue(cell) == 0]
        return random.choice(options)

    def getTrap(self, grid: Grid) -> tuple:
        opponent = grid.find(3 - self.player_num)
        around = [cell for cell in grid.get_neighbors(opponent) if cell in grid.getAvailableCells()]
        trap = random.choice(around) if around else random.choice(grid.getAvailableCells())
        self.ended = (time.process_time(), time.monotonic())
        return trap
