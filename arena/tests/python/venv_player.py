# A native player named after the Python environment it runs in (the folder
# of sys.prefix): the arena's tests check that ARENA_PYTHON=VENV/bin/python
# runs the player inside that virtual environment.
import os
import sys

from arena_player import TrapPlayer


class VenvPlayer(TrapPlayer):
    name = os.path.basename(sys.prefix)

    def get_move(self, state):
        return state.legal_moves()[0]

    def get_trap(self, state):
        return next(c for c in state.neighbors(state.opponent) if state.is_free(c))
