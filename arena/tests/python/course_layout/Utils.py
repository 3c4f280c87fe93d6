# The course's helpers, as the arena's tests imitate them.
def manhattan_distance(position, target):
    return abs(position[0] - target[0]) + abs(position[1] - target[1])
