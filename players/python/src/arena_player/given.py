"""What a player is given from outside: its parameters and its memory
(docs/python-players.md).

Parameters: a player file declares the ones it accepts at module level,

    ARENA_PARAMS = {"mobility": ("float", 1.0, 0.0, 10.0), "depth": ("int", 3, 1, 8)}

(name: type, default, min, max). The arena checks every value given
(`--param mobility=2.5`) and sends every declared one; the host puts them,
as a dict, in the module's global `arena_params` and on the player as
`self.params`: a course `PlayerAI` is made with `params` already set (so
its `__init__` can read it), a native player gets it before its first game.

Memory: a player with `save_memory(self)` (returning bytes, or None to keep
what it had) keeps a memory across matches (`--memory DIR`); it gets it
back through `load_memory(self, data)`, before its first game. A course
player, made afresh each game, is handed the memory its previous game's
instance saved."""

from __future__ import annotations

import base64
import math
from types import ModuleType
from typing import Any, Optional

KINDS = ("int", "float")


class BadDeclaration(Exception):
    """ARENA_PARAMS is not a declaration: the message says which entry and why."""


def declared(module: ModuleType) -> list[dict[str, Any]]:
    """The module's ARENA_PARAMS as the protocol's `hello` lists them."""
    table = getattr(module, "ARENA_PARAMS", None)
    if table is None:
        return []
    if not isinstance(table, dict):
        raise BadDeclaration("ARENA_PARAMS must be a dict: {name: (type, default, min, max)}")
    params = []
    for name, entry in table.items():
        if not (isinstance(entry, (tuple, list)) and len(entry) == 4 and entry[0] in KINDS):
            raise BadDeclaration(
                f"ARENA_PARAMS[{name!r}] must be (type, default, min, max) with type 'int' or 'float', not {entry!r}"
            )
        kind, default, low, high = entry
        numbers = {"default": wire_number(default), "min": wire_number(low), "max": wire_number(high)}
        params.append({"name": str(name), "type": kind, **numbers})
    return params


def wire_number(x: Any) -> Any:
    """A declared number as `hello` sends it: JSON has no NaN or infinity
    (json.dumps would write a bare NaN, which is no JSON), so those go as
    text ("nan", "inf"), for the arena to refuse naming the parameter."""
    x = float(x)
    return x if math.isfinite(x) else repr(x)


def defaults(params: list[dict[str, Any]]) -> dict[str, Any]:
    """Every declared parameter at its default (one sent as text, which the
    arena refuses at `hello`, as it is)."""
    given = {}
    for p in params:
        default = p["default"]
        given[p["name"]] = int(default) if p["type"] == "int" and isinstance(default, float) else default
    return given


def keeps_memory(player: Any) -> bool:
    """Whether a player (an instance or a class) keeps a memory."""
    return callable(getattr(player, "save_memory", None)) or callable(getattr(player, "load_memory", None))


def decode(request: dict[str, Any]) -> Optional[bytes]:
    """The memory a `setup` request gives, if any."""
    data = request.get("memory")
    return None if data is None else base64.b64decode(data)


def memory_reply(data: Optional[bytes]) -> dict[str, Any]:
    """The `memory` reply handing `data` back (None: keep what it had)."""
    return {"type": "memory", "data": None if data is None else base64.b64encode(data).decode("ascii")}


def give(player: Any, params: dict[str, Any], memory: Optional[bytes]) -> None:
    """Gives a made player its parameters, and its memory if it has one."""
    player.params = dict(params)
    if memory is not None and callable(getattr(player, "load_memory", None)):
        player.load_memory(memory)


class BadMemory(Exception):
    """A `save_memory` that returned something other than bytes or None:
    the message says what, in one line that names memory."""


def save(player: Any) -> Optional[bytes]:
    """What a player hands back as its memory (None if it keeps none).
    BadMemory if its `save_memory` returns anything but bytes or None (an
    int would otherwise become that many zero bytes); what it raises goes
    up as it is."""
    hook = getattr(player, "save_memory", None)
    data = hook() if callable(hook) else None
    if data is None or isinstance(data, (bytes, bytearray)):
        return None if data is None else bytes(data)
    shown = repr(data)
    shown = shown if len(shown) <= 60 else shown[:57] + "..."
    raise BadMemory(
        f"save_memory returned {type(data).__name__}, not bytes: {shown}; "
        "return bytes (json.dumps(x).encode(), for one), or None to keep what it had"
    )
