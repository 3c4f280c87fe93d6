"""Helpers of the course skeleton."""

from __future__ import annotations


def manhattan_distance(position, target) -> int:
    return abs(int(position[0]) - int(target[0])) + abs(int(position[1]) - int(target[1]))
