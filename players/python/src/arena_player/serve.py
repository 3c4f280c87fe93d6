"""The player's side of the protocol: say hello, then answer the arena's
requests one by one until it says quit or closes the input."""

from __future__ import annotations

import os
import sys
import time
import traceback
from typing import Protocol

from . import given, luck
from .trap import GameInfo, GameResult, InvalidAction, TrapState, TurnAnswer
from .wire import PROTOCOL_VERSION, Channel, Message


class Session(Protocol):
    """A loaded player, whatever its style (native or course)."""

    name: str
    author: str

    def new_game(self, info: GameInfo) -> None: ...

    def turn(self, state: TrapState) -> TurnAnswer: ...

    def game_over(self, result: GameResult) -> None: ...


def describe_exception(error: BaseException) -> str:
    """One line: the exception and where in the player's code it was raised.
    The whole traceback goes to stderr, which the arena keeps in its logs."""
    traceback.print_exception(type(error), error, error.__traceback__, file=sys.stderr)
    text = f"{type(error).__name__}: {error}" if str(error) else type(error).__name__
    frames = traceback.extract_tb(error.__traceback__)
    here = os.path.dirname(__file__)
    theirs = [f for f in frames if not f.filename.startswith(here)]
    if theirs:
        last = theirs[-1]
        text += f" (at {os.path.basename(last.filename)}:{last.lineno}, in {last.name})"
    return text


def serve(session: Session, channel: Channel) -> None:
    hello: Message = {
        "type": "hello",
        "protocol": PROTOCOL_VERSION,
        "name": session.name,
        "author": session.author,
        "games": getattr(session, "games", ["trap"]),
    }
    # What the player declares (given.py): only when it does, so that the
    # arena sends `setup` and `save_memory` only to players that asked.
    if getattr(session, "declared", None):
        hello["params"] = session.declared
    if getattr(session, "keeps_memory", False):
        hello["memory"] = True
    channel.send(hello)
    while True:
        request = channel.receive()
        received = time.monotonic()
        if request is None or request["type"] == "quit":
            return
        reply = answer(session, request, received)
        # What the player printed for this request reaches the arena's logs with it.
        sys.stdout.flush()
        sys.stderr.flush()
        channel.send(reply)


def saved_memory(session: Session) -> Message:
    """The reply to `save_memory`: the memory, or one line saying why there
    is none that names save_memory (the arena keeps what it had)."""
    try:
        return given.memory_reply(session.save_memory())
    except given.BadMemory as bad:
        return {"type": "error", "message": str(bad)}
    except Exception as error:
        return {"type": "error", "message": f"save_memory raised {describe_exception(error)}"}


def answer(session: Session, request: Message, received: float) -> Message:
    kind = request["type"]
    try:
        if kind == "setup":
            session.set_up(request.get("params") or {}, given.decode(request))
            return {"type": "ok"}
        if kind == "save_memory":
            return saved_memory(session)
        if kind == "new_game" and "seed" in request:
            # Before the game's player is made or told: its luck is the game's.
            luck.seed(request["seed"])
        if kind == "new_game" and request["game"] not in getattr(session, "games", ["trap"]):
            return {"type": "error", "message": f"this player does not play {request['game']}"}
        if hasattr(session, "answer"):
            reply = session.answer(request)
            if reply is not None:
                return reply
            return {"type": "error", "message": f"unknown request {kind!r}"}
        if kind == "new_game":
            if request["game"] != "trap":
                return {"type": "error", "message": f"this player does not play {request['game']}"}
            session.new_game(
                GameInfo(
                    seat=request["seat"],
                    size=request["size"],
                    turn_budget=request["turn_budget_us"] / 1e6,
                    seed=request["seed"],
                )
            )
            return {"type": "ok"}
        if kind == "turn":
            turn = session.turn(TrapState.from_wire(request, received))
            reply: Message = {"type": "turn", "move": list(turn.move)}
            if turn.trap is not None:
                reply["trap"] = list(turn.trap)
            return reply
        if kind == "game_over":
            session.game_over(GameResult(request["outcome"], request["turns"], request["reason"]))
            return {"type": "ok"}
        return {"type": "error", "message": f"unknown request {kind!r}"}
    except InvalidAction as invalid:
        return {"type": "invalid", "message": str(invalid)}
    except Exception as error:  # the player's bug: it loses the game, the process lives on
        return {"type": "error", "message": describe_exception(error)}
