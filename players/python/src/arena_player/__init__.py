"""Python players for the arena (docs/python-players.md).

Write a player by extending `TrapPlayer` (or `IntuitivePlayer`,
`HexapawnPlayer`, `WumpusPlayer`, `ForestPlayer` for the other games); run it with
`arena play python:my_bot.py hard`. Course `PlayerAI.py` folders run as they
are: `arena play python:path/to/folder hard`."""

from .games import ForestPlayer, HexapawnPlayer, IntuitivePlayer, WumpusPlayer
from .native import run
from .trap import Cell, GameInfo, GameResult, InvalidAction, TimeBank, TrapPlayer, TrapState

__all__ = [
    "Cell",
    "ForestPlayer",
    "GameInfo",
    "GameResult",
    "HexapawnPlayer",
    "IntuitivePlayer",
    "InvalidAction",
    "TimeBank",
    "TrapPlayer",
    "TrapState",
    "WumpusPlayer",
    "run",
]
