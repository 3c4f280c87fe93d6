"""Finding and importing a Python player: a course folder (with PlayerAI.py),
a course file (a class deriving from the course's BaseAI, such as the
course's test_players/HardAI.py), or a file defining a `TrapPlayer`
subclass; `FILE.py:CLASS` picks one class of several."""

from __future__ import annotations

import importlib.util
import os
import sys
from types import ModuleType
from typing import Any

from . import given, luck
from .course import CourseSession
from .games import GAME_CLASSES, GameSession
from .native import NativeSession
from .serve import Session, describe_exception
from .trap import TrapPlayer

SKELETON = os.path.join(os.path.dirname(__file__), "skeleton")
COURSE_FILE = "PlayerAI.py"
COURSE_CLASS = "PlayerAI"
BASE_CLASS = "BaseAI"
# The course's own modules. In the course's layout its test players sit in
# test_players/, one folder below them (and crates/arena-core/src/players/external.rs
# lets the sandbox read that folder by the same rule: keep the two in step).
COURSE_MODULES = ("Grid.py", "BaseAI.py", "Utils.py")


class LoadFailure(Exception):
    """The player cannot start; the message names the problem and the fix."""


def load(target: str, class_name: str | None = None) -> Session:
    """The player at `target` (a folder holding PlayerAI.py, or a .py file);
    `class_name` picks one of the file's classes."""
    path = os.path.abspath(target)
    if os.path.isdir(path):
        folder, file = path, os.path.join(path, COURSE_FILE)
        if not os.path.isfile(file):
            raise LoadFailure(
                f"{target} holds no {COURSE_FILE}: point at a course player's folder or at a player .py file"
            )
    elif os.path.isfile(path) and path.endswith(".py"):
        folder, file = os.path.dirname(path), path
    else:
        raise LoadFailure(f"no Python player at {target}: name a folder holding {COURSE_FILE}, or a .py file")
    # Course players import their own modules by bare name, and some add
    # os.getcwd() to the path: their folder is the working directory and
    # comes first. The course's modules come next (a folder's own copies of
    # Grid.py & co. win, then the course's one folder up), then the
    # skeleton's, so nothing installed shadows them.
    os.chdir(folder)
    sys.path[:0] = [folder, *course_root(folder), SKELETON]
    # What its import draws is the same each time (luck.py).
    luck.start()
    module = import_file(file)

    player_class = pick_class(module, file, class_name)
    try:
        declared = given.declared(module)
    except given.BadDeclaration as bad:
        raise LoadFailure(f"{os.path.basename(file)}: {bad}") from None
    # Before any player is made: its __init__ may read them.
    module.arena_params = given.defaults(declared)
    if issubclass(player_class, TrapPlayer):
        return NativeSession(construct(player_class, file), declared)
    if issubclass(player_class, GAME_CLASSES):
        return GameSession(construct(player_class, file), declared)
    grid_module = import_bare("Grid", file)
    # A course submission (a folder's PlayerAI) is known by its folder's
    # name; any other course class, such as test_players/HardAI.py's, by its own.
    named_by_folder = class_name is None and os.path.basename(file) == COURSE_FILE
    name = os.path.basename(folder) if named_by_folder else player_class.__name__
    return CourseSession(player_class, grid_module.Grid, name, module)


def course_root(folder: str) -> list[str]:
    """The folder above `folder`, as a list of one, if it holds any of the
    course's modules (the course's layout: test_players/ below Grid.py)."""
    parent = os.path.dirname(folder)
    if parent != folder and any(os.path.isfile(os.path.join(parent, m)) for m in COURSE_MODULES):
        return [parent]
    return []


def pick_class(module: ModuleType, file: str, class_name: str | None) -> type:
    """The player class of `module`: the one named, else its only player
    class (a TrapPlayer or other native player, or a class deriving from the
    course's BaseAI), else its class PlayerAI, as the course's Game.py
    imports it by that name."""
    base = os.path.basename(file)
    players = [
        value
        for value in vars(module).values()
        if isinstance(value, type) and value.__module__ == module.__name__ and is_player_class(value)
    ]
    found = ", ".join(p.__name__ for p in players)
    if class_name is not None:
        chosen = getattr(module, class_name, None)
        if not isinstance(chosen, type):
            listed = f"its player classes are {found}" if players else "it defines no player class"
            raise LoadFailure(f"{base} has no class {class_name}: {listed}")
        return chosen
    if len(players) == 1:
        return players[0]
    course = getattr(module, COURSE_CLASS, None)
    if isinstance(course, type):
        return course
    if players:
        raise LoadFailure(
            f"{base} defines several player classes ({found}): name one after the path, "
            f"as in python:.../{base}:{players[0].__name__}"
        )
    raise LoadFailure(
        f"{file} defines neither a TrapPlayer subclass nor a class {COURSE_CLASS}: "
        f"define a class deriving from {BASE_CLASS} (a course player) or from arena_player.TrapPlayer"
    )


def is_player_class(value: type) -> bool:
    """A native player class, or a course player: any class deriving from
    one named BaseAI (whichever folder the course's BaseAI.py came from)."""
    if issubclass(value, (TrapPlayer, *GAME_CLASSES)):
        return True
    return any(base.__name__ == BASE_CLASS for base in value.__mro__[1:])


def import_file(file: str) -> ModuleType:
    """Imports `file` under its own name (so that its helpers can import it
    back), explaining a failure in one line."""
    name = os.path.splitext(os.path.basename(file))[0]
    spec = importlib.util.spec_from_file_location(name, file)
    if spec is None or spec.loader is None:
        raise LoadFailure(f"{file} cannot be imported as a Python module")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except Exception as error:
        raise LoadFailure(import_problem(error, file)) from None
    return module


def import_bare(name: str, file: str) -> ModuleType:
    try:
        return importlib.import_module(name)
    except Exception as error:
        raise LoadFailure(import_problem(error, file)) from None


def import_problem(error: Exception, file: str) -> str:
    base = os.path.basename(file)
    if isinstance(error, ModuleNotFoundError) and error.name == "numpy":
        return f"numpy is not installed for {sys.executable}: install it with `{sys.executable} -m pip install numpy`"
    if isinstance(error, ModuleNotFoundError) and error.name:
        folder = os.path.dirname(file)
        return (
            f"{base} cannot import {error.name!r}: put {error.name}.py in {folder}, "
            f"or install it for {sys.executable}"
        )
    if isinstance(error, SyntaxError):
        return f"{base} has a syntax error at line {error.lineno}: {error.msg}"
    return f"{base} failed to import: {describe_exception(error)}"


def construct(player_class: type, file: str) -> Any:
    try:
        return player_class()
    except Exception as error:
        raise LoadFailure(f"{player_class.__name__}() failed: {describe_exception(error)}") from None
