"""Python players for the arena (docs/python-players.md).

Write a player by extending `TrapPlayer`; run it with
`arena play python:my_bot.py hard`. Course `PlayerAI.py` folders run as they
are: `arena play python:path/to/folder hard`."""

from .native import run
from .trap import Cell, GameInfo, GameResult, InvalidAction, TrapPlayer, TrapState

__all__ = ["Cell", "GameInfo", "GameResult", "InvalidAction", "TrapPlayer", "TrapState", "run"]
