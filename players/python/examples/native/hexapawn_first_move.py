"""A Hexapawn player: captures when it can, else pushes its first pawn that
can move. White moves up the board (towards row 0), Black down."""

from arena_player import HexapawnPlayer, run


class FirstMove(HexapawnPlayer):
    name = "first-move"
    author = "arena examples"

    def get_move(self, state):
        mine, theirs = ("white", "black") if state["seat"] == 1 else ("black", "white")
        ahead = -1 if state["seat"] == 1 else 1
        own = [tuple(p) for p in state[mine]]
        enemy = {tuple(p) for p in state[theirs]}
        taken = enemy | set(own)
        for r, c in own:
            for dc in (-1, 1):
                if (r + ahead, c + dc) in enemy:
                    return (r, c), (r + ahead, c + dc)
        for r, c in own:
            if 0 <= r + ahead < 3 and (r + ahead, c) not in taken:
                return (r, c), (r + ahead, c)
        return "resign"


if __name__ == "__main__":
    run(FirstMove)
