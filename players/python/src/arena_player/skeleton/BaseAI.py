"""The base class of course players (`class PlayerAI(BaseAI)`). The arena's
host calls `setPlayerNum` and `setPosition` at the start of each game,
`setPosition` after each legal move, and `getMove` / `getTrap` each turn."""

from __future__ import annotations


class BaseAI:
    def getMove(self, grid):
        raise NotImplementedError("getMove")

    def getTrap(self, grid):
        raise NotImplementedError("getTrap")

    def getPosition(self):
        return getattr(self, "pos", None)

    def setPosition(self, new_position) -> None:
        self.pos = new_position

    def getPlayerNum(self):
        return getattr(self, "player_num", None)

    def setPlayerNum(self, num) -> None:
        self.player_num = num
