# The course's BaseAI, as the arena's tests imitate it.
class BaseAI:
    def __init__(self):
        self.pos = None
        self.player_num = None

    def getMove(self, grid):
        pass

    def getTrap(self, grid):
        pass

    def getPosition(self):
        return self.pos

    def setPosition(self, new_position):
        self.pos = new_position

    def getPlayerNum(self):
        return self.player_num

    def setPlayerNum(self, num):
        self.player_num = num
