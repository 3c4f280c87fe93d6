# Helpers of helper_player's PlayerAI.py, imported by bare name.


def mobility(grid, cell):
    """Free cells around `cell`."""
    return len(grid.get_neighbors(cell, only_available=True))


def pick_best(cells, score):
    """The cell with the highest score (the first one on ties)."""
    best, best_score = None, None
    for cell in cells:
        s = score(cell)
        if best_score is None or s > best_score:
            best, best_score = cell, s
    return best
