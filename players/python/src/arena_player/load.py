"""Finding and importing a Python player: a course folder (with PlayerAI.py),
a course PlayerAI.py, or a file defining a `TrapPlayer` subclass."""

from __future__ import annotations

import importlib.util
import os
import sys
from types import ModuleType
from typing import Any

from .course import CourseSession
from .games import GAME_CLASSES, GameSession
from .native import NativeSession
from .serve import Session, describe_exception
from .trap import TrapPlayer

SKELETON = os.path.join(os.path.dirname(__file__), "skeleton")
COURSE_FILE = "PlayerAI.py"


class LoadFailure(Exception):
    """The player cannot start; the message names the problem and the fix."""


def load(target: str) -> Session:
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
    # comes first. The skeleton's modules come next, so a folder's own
    # copies of Grid.py & co. win, and nothing installed shadows them.
    os.chdir(folder)
    sys.path[:0] = [folder, SKELETON]
    module = import_file(file)

    natives = [
        value
        for value in vars(module).values()
        if isinstance(value, type)
        and issubclass(value, (TrapPlayer, *GAME_CLASSES))
        and value.__module__ == module.__name__
    ]
    if len(natives) > 1:
        names = ", ".join(n.__name__ for n in natives)
        raise LoadFailure(f"{file} defines several player classes ({names}): keep one per file")
    if natives and issubclass(natives[0], TrapPlayer):
        return NativeSession(construct(natives[0], file))
    if natives:
        return GameSession(construct(natives[0], file))
    course = getattr(module, "PlayerAI", None)
    if not isinstance(course, type):
        raise LoadFailure(f"{file} defines neither a TrapPlayer subclass nor a class PlayerAI")
    grid_module = import_bare("Grid", file)
    return CourseSession(course, grid_module.Grid, os.path.basename(folder))


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
