"""A Magic Forest player that walks at random, from the seed the arena
gives it: the same seed gives the same run."""

import random

from arena_player import ForestPlayer, run


class RandomWalker(ForestPlayer):
    name = "random-walker"
    author = "arena examples"

    def __init__(self):
        self.rng = random.Random()

    def new_game(self, info):
        self.rng = random.Random(info["seed"])

    def step(self, percept):
        return "move", self.rng.choice(["north", "east", "south", "west"])


if __name__ == "__main__":
    run(RandomWalker)
