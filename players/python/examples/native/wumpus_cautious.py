"""A Wumpus World player: grabs the gold if it glitters at the start, and
climbs out at once otherwise (never dies, rarely wins)."""

from arena_player import WumpusPlayer, run


class Cautious(WumpusPlayer):
    name = "cautious"
    author = "arena examples"

    def step(self, percept):
        if percept["percept"]["glitter"] and not percept["has_gold"]:
            return "grab"
        return "climb"


if __name__ == "__main__":
    run(Cautious)
