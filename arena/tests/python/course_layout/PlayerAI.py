# The students' template in the course's root: empty until they write it.
from BaseAI import BaseAI


class PlayerAI(BaseAI):
    def getMove(self, grid):
        pass

    def getTrap(self, grid):
        pass
