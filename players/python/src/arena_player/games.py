"""The four newer games for Python players (docs/writing-a-player.md):
Intuitive AI, Hexapawn, Wumpus World and Magic Forest. A player extends one
class below and answers one method per request; what it is shown is the
request's JSON as a dict (docs/protocol.md says every field).

The arena keeps the true state and judges every answer: what is checked
here is only that an answer is an action at all."""

from __future__ import annotations

from typing import Any, Optional

from . import given
from .trap import Cell, InvalidAction, TimeBank, _short, as_cell

Message = dict[str, Any]

WUMPUS_ACTIONS = ("forward", "turn_left", "turn_right", "grab", "shoot", "climb")
FOREST_ACTIONS = ("move", "throw")
DIRS = ("north", "east", "south", "west")


class GamePlayer:
    """What every game's player shares. `new_game(info)` gets the
    `new_game` request (seed, budget, the game's settings); `game_over(result)`
    the `game_over` request (outcome, score, reason); `time_bank(bank)`, under
    a time bank only, what is left in it before each turn. All may be left out."""

    game: str = ""  # the game's name on the wire
    name: str = ""
    author: str = ""

    def new_game(self, info: Message) -> None:
        pass

    def game_over(self, result: Message) -> None:
        pass

    def time_bank(self, bank: TimeBank) -> None:
        """Before a turn under a time bank (`--tc 60s+1s`): what is left in
        it. Never called under a budget per turn."""


class IntuitivePlayer(GamePlayer):
    """Intuitive AI: `reveal(state)` returns the (row, col) cell to open.
    `state` holds `size`, `score`, `gold`, and the lists `open`, `breeze`,
    `smell`, `glitter` of [row, col] cells."""

    game = "intuitive-ai"

    def reveal(self, state: Message) -> Cell:
        raise NotImplementedError


class HexapawnPlayer(GamePlayer):
    """Hexapawn: `get_move(state)` returns ((row, col), (row, col)), the
    pawn's square and where it goes, or "resign". `state` holds `white` and
    `black` (lists of [row, col]; row 0 is Black's home row), `to_move`
    (1 White, 2 Black) and `seat` (the player's own)."""

    game = "hexapawn"

    def get_move(self, state: Message) -> Any:
        raise NotImplementedError


class WumpusPlayer(GamePlayer):
    """Wumpus World: `step(percept)` returns an action name (forward,
    turn_left, turn_right, grab, shoot, climb). `percept` holds `percept`
    (stench, breeze, glitter, bump, scream), `at` ([x, y], y up), `facing`,
    `arrows`, `has_gold`, `actions` and `score`."""

    game = "wumpus"

    def step(self, percept: Message) -> str:
        raise NotImplementedError


class ForestPlayer(GamePlayer):
    """Magic Forest: `step(percept)` returns (action, dir): action "move" or
    "throw", dir "north", "east", "south" or "west". `percept` holds `at`
    ([x, y], y up), `size`, `forest`, `bones`, `leaves`, `died`,
    `actions_left` and `score`."""

    game = "magic-forest"

    def step(self, percept: Message) -> Any:
        raise NotImplementedError


GAME_CLASSES = (IntuitivePlayer, HexapawnPlayer, WumpusPlayer, ForestPlayer)
# Each game's request for an action: the one a time bank comes with.
ACTION_REQUESTS = (
    (IntuitivePlayer, "reveal"),
    (HexapawnPlayer, "get_move"),
    (WumpusPlayer, "step"),
    (ForestPlayer, "step"),
)


def tell_bank(player: object, bank: TimeBank) -> None:
    """Tells `player` its time bank before a turn, as a Rust player's
    `time_bank` is: a player without the method is told nothing."""
    hook = getattr(player, "time_bank", None)
    if hook is not None:
        hook(bank)


def _name(answer: object, allowed: tuple[str, ...], method: str) -> str:
    if not isinstance(answer, str) or answer not in allowed:
        raise InvalidAction(f"{method} returned {_short(answer)}: return one of {', '.join(allowed)}")
    return answer


def reveal_reply(answer: object) -> Message:
    return {"type": "reveal", "cell": list(as_cell(answer, "reveal"))}


def move_reply(answer: object) -> Message:
    if answer == "resign":
        return {"type": "resign"}
    fix = 'get_move must return ((row, col), (row, col)) or "resign"'
    if not isinstance(answer, tuple) or len(answer) != 2 or not all(isinstance(c, tuple) for c in answer):
        raise InvalidAction(f"get_move returned {_short(answer)}: {fix}")
    start, end = (as_cell(cell, "get_move") for cell in answer)
    return {"type": "move", "from": list(start), "to": list(end)}


def wumpus_reply(answer: object) -> Message:
    return {"type": "action", "action": _name(answer, WUMPUS_ACTIONS, "step")}


def forest_reply(answer: object) -> Message:
    if not isinstance(answer, tuple) or len(answer) != 2:
        raise InvalidAction(f"step returned {_short(answer)}: return (action, dir), e.g. ('move', 'north')")
    action, direction = answer
    return {"type": "action", "action": _name(action, FOREST_ACTIONS, "step"), "dir": _name(direction, DIRS, "step")}


class GameSession:
    """One player instance of a newer game for all the games of the process
    (a learner keeps learning): answers that game's requests."""

    def __init__(self, player: GamePlayer, declared: Optional[list[Message]] = None) -> None:
        self.player = player
        self.name = player.name or type(player).__name__
        self.author = player.author
        self.games = [player.game]
        self.declared = declared or []
        self.keeps_memory = given.keeps_memory(player)
        given.give(player, given.defaults(self.declared), None)
        # The request that asks this player for an action.
        self.action = next((kind for cls, kind in ACTION_REQUESTS if isinstance(player, cls)), None)

    def set_up(self, params: Message, memory: Optional[bytes]) -> None:
        given.give(self.player, params, memory)

    def save_memory(self) -> Optional[bytes]:
        return given.save(self.player)

    def answer(self, request: Message) -> Optional[Message]:
        """The reply to `request`, or None if it is not one of this game's."""
        kind, player = request["type"], self.player
        if kind == "new_game":
            player.new_game(request)
            return {"type": "ok"}
        if kind == "game_over":
            player.game_over(request)
            return {"type": "ok"}
        if kind == self.action and "bank" in request:
            bank = TimeBank.from_wire(request)
            if bank is not None:
                tell_bank(player, bank)
        if kind == "reveal" and isinstance(player, IntuitivePlayer):
            return reveal_reply(player.reveal(request["state"]))
        if kind == "get_move" and isinstance(player, HexapawnPlayer):
            return move_reply(player.get_move({**request["state"], "seat": request["seat"]}))
        if kind == "step" and isinstance(player, WumpusPlayer):
            return wumpus_reply(player.step(request["state"]))
        if kind == "step" and isinstance(player, ForestPlayer):
            return forest_reply(player.step(request["state"]))
        return None
