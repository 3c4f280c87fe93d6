"""A native player that plays at random, from the seed the arena gives it:
the same seed gives the same game."""

import random

from arena_player import GameInfo, TrapPlayer, TrapState, run


class RandomBot(TrapPlayer):
    name = "random-bot"
    author = "arena examples"

    def __init__(self) -> None:
        self.rng = random.Random()

    def new_game(self, info: GameInfo) -> None:
        self.rng = random.Random(info.seed)

    def get_move(self, state: TrapState):
        return self.rng.choice(state.legal_moves())

    def get_trap(self, state: TrapState):
        around = [cell for cell in state.neighbors(state.opponent) if state.is_free(cell)]
        return self.rng.choice(around)


if __name__ == "__main__":
    run(RandomBot)
