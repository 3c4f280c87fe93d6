"""The smallest native player: the first legal move, a trap next to the
opponent. Runs as `python:first_legal.py` or `cmd:python3 first_legal.py`."""

from arena_player import TrapPlayer, TrapState, run


class FirstLegal(TrapPlayer):
    name = "first-legal"
    author = "arena examples"

    def get_move(self, state: TrapState):
        return state.legal_moves()[0]

    def get_trap(self, state: TrapState):
        around = [cell for cell in state.neighbors(state.opponent) if state.is_free(cell)]
        return around[0]


if __name__ == "__main__":
    run(FirstLegal)
