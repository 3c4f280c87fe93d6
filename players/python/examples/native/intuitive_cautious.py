"""An Intuitive AI player: opens a closed cell next to no breeze if there is
one, else the first closed cell."""

from arena_player import IntuitivePlayer, run


class Cautious(IntuitivePlayer):
    name = "cautious"
    author = "arena examples"

    def reveal(self, state):
        size, open_cells = state["size"], {tuple(c) for c in state["open"]}
        breezy = {tuple(c) for c in state["breeze"]}
        closed = [(r, c) for r in range(size) for c in range(size) if (r, c) not in open_cells]

        def near_breeze(cell):
            r, c = cell
            return any((r + dr, c + dc) in breezy for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1)))

        safe = [cell for cell in closed if not near_breeze(cell)]
        return (safe or closed)[0]


if __name__ == "__main__":
    run(Cautious)
