"""The player's own luck, drawn from the game's seed: `random` and numpy's
global generator are seeded before the player's module is imported (with
START_SEED) and again at every `new_game` (with the seed the arena sends,
its own for each game and seat), before the game's player object is made.
So the same game with the same player goes the same way each time, and
`arena play ... --only-game K` replays game K as the match played it. (Hash
order is fixed by the arena too: it starts the host with PYTHONHASHSEED
set.) A player that makes its own generator without a seed, or reads the
clock or os.urandom, is not replayable: that is its own business.

numpy is not imported for a player that does not use it (it costs a tenth
of a second): its generator is seeded if it is imported already, else as
soon as it is (`NumpySeeder`)."""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import random
import sys
from types import ModuleType
from typing import Any, Optional, Sequence

# The seed before any game: what the module's import draws.
START_SEED = 0
NUMPY_RANDOM = "numpy.random"

# The seed of the game being played (numpy's generator, imported in the
# middle of a game, is seeded with it).
_current = START_SEED


def start() -> None:
    """Before the player's module is imported: seeds its luck with START_SEED
    and watches for numpy's import."""
    if not any(isinstance(finder, NumpySeeder) for finder in sys.meta_path):
        sys.meta_path.insert(0, NumpySeeder())
    seed(START_SEED)


def seed(value: int) -> None:
    """Seeds `random` with `value` and numpy's global generator (if numpy
    is imported; else once it is) with `numpy_seed(value)`."""
    global _current
    _current = value
    random.seed(value)
    numpy_random = sys.modules.get(NUMPY_RANDOM)
    if numpy_random is not None:
        seed_numpy(numpy_random)


def numpy_seed(value: int) -> int:
    """`value` folded into the 32 bits numpy's seed takes: the same value
    gives the same seed, and every bit of it counts."""
    return (value ^ (value >> 32)) % 2**32


def seed_numpy(numpy_random: ModuleType) -> None:
    reseed = getattr(numpy_random, "seed", None)
    if callable(reseed):
        reseed(numpy_seed(_current))


class NumpySeeder(importlib.abc.MetaPathFinder):
    """Finds numpy.random as the other finders would, and seeds it right
    after it is executed, before anyone draws from it."""

    def find_spec(
        self, name: str, path: Optional[Sequence[str]], target: Optional[ModuleType] = None
    ) -> Optional[importlib.machinery.ModuleSpec]:
        if name != NUMPY_RANDOM:
            return None
        for finder in sys.meta_path:
            find = getattr(finder, "find_spec", None)
            spec = None if finder is self or find is None else find(name, path, target)
            if spec is not None:
                if spec.loader is not None and hasattr(spec.loader, "exec_module"):
                    spec.loader = SeedingLoader(spec.loader)
                return spec
        return None


class SeedingLoader:
    """The loader of numpy.random, which seeds the module once it has
    executed it; anything else is the loader's own."""

    def __init__(self, loader: Any) -> None:
        self.loader = loader

    def __getattr__(self, name: str) -> Any:
        return getattr(self.loader, name)

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> Optional[ModuleType]:
        return self.loader.create_module(spec)

    def exec_module(self, module: ModuleType) -> None:
        self.loader.exec_module(module)
        seed_numpy(module)
