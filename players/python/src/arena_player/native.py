"""Players written against the native API (`arena_player.TrapPlayer`)."""

from __future__ import annotations

from typing import Any, Optional

from . import given
from .games import GamePlayer, GameSession, tell_bank
from .serve import serve
from .trap import GameInfo, GameResult, TrapPlayer, TrapState, TurnAnswer, play_turn
from .wire import Channel


class NativeSession:
    """One TrapPlayer instance for all the games of the process."""

    def __init__(self, player: TrapPlayer, declared: Optional[list[dict[str, Any]]] = None) -> None:
        self.player = player
        self.name = player.name or type(player).__name__
        self.author = player.author
        self.declared = declared or []
        self.keeps_memory = given.keeps_memory(player)
        given.give(player, given.defaults(self.declared), None)

    def set_up(self, params: dict[str, Any], memory: Optional[bytes]) -> None:
        given.give(self.player, params, memory)

    def save_memory(self) -> Optional[bytes]:
        return given.save(self.player)

    def new_game(self, info: GameInfo) -> None:
        self.player.new_game(info)

    def turn(self, state: TrapState) -> TurnAnswer:
        if state.bank is not None:
            tell_bank(self.player, state.bank)
        return play_turn(state, self.player.get_move, self.player.get_trap)

    def game_over(self, result: GameResult) -> None:
        self.player.game_over(result)


def run(player_class: type[TrapPlayer] | type[GamePlayer]) -> None:
    """Serves the protocol on stdin/stdout with a `player_class()`: what a
    player file calls under `if __name__ == "__main__":`, so that the file
    itself is a command the arena can run (`cmd:python3 my_bot.py`)."""
    channel = Channel.take_standard_streams()
    player = player_class()
    serve(GameSession(player) if isinstance(player, GamePlayer) else NativeSession(player), channel)
