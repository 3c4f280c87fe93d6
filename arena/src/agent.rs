//! The players of the ABI (`TrapPlayerBox` and the other games' boxes) as
//! agents a referee drives in the arena's process, and `play_turn`, the
//! Trap turn order that the arena and its workers share. (A player in a
//! worker process is `isolation::IsolatedPlayer`.)

use std::time::{Duration, Instant};

use player_api::{
    abi::{
        FfiForestPlayer, FfiHexapawnPlayer, FfiIntuitivePlayer, FfiTrapPlayer, FfiWumpusPlayer,
        ForestPlayerBox, HexapawnPlayerBox, IntuitivePlayerBox, PlayerError, TrapPlayerBox, WumpusPlayerBox,
    },
    hexapawn::{HexapawnAction, HexapawnGameInfo, HexapawnRequest},
    intuitive::{Cell, IntuitiveGameInfo, IntuitiveGameOver, IntuitiveRequest},
    magic_forest::{ForestAction, ForestGameInfo, ForestOver, ForestRequest},
    trap::{TrapGameInfo, TrapRequest},
    wumpus::{WumpusAction, WumpusGameInfo, WumpusOver, WumpusRequest},
    GameOver,
};

use crate::{
    fault::Fault,
    protocol::wire_cell,
    referee::{
        hexapawn::HexapawnAgent,
        intuitive::IntuitiveAgent,
        magic_forest::ForestAgent,
        trap::{TrapAgent, TurnActions},
        wumpus::WumpusAgent,
    },
};

/// Asks `player` for a whole turn, as the rules order it: `get_move`, then
/// (unless the move is illegal or wins at once) `get_trap` on the position
/// after the move, told the wall-clock time left. It is asked even with no
/// time left: the referee judges lateness, on its clock (`--clock cpu`
/// charges CPU time, which the wall clock here cannot tell). Used in
/// the arena's process and inside workers alike. `Err` is a caught panic.
pub fn play_turn(player: &mut TrapPlayerBox, request: TrapRequest) -> Result<TurnActions, String> {
    let started = Instant::now();
    let step = player.get_move(request).into_result().map_err(String::from)?;
    let mut after = request.state;
    let only_move = TurnActions { step: wire_cell(step), trap: None };
    if after.check_move(request.seat, step).is_err() {
        return Ok(only_move);
    }
    after.move_player(request.seat, step);
    let left = request.time_left().saturating_sub(started.elapsed());
    if !after.can_move(request.seat.other()) {
        return Ok(only_move);
    }
    let trap_request = TrapRequest { state: after, time_left_us: left.as_micros() as u64, ..request };
    let target = player.get_trap(trap_request).into_result().map_err(String::from)?;
    Ok(TurnActions { trap: Some(wire_cell(target)), ..only_move })
}

/// In the arena's process: calls straight through the ABI. A call that
/// never returns cannot be stopped here; isolated players can be.
impl TrapAgent for TrapPlayerBox {
    fn new_game(&mut self, info: TrapGameInfo, _budget: Duration) -> Result<(), Fault> {
        FfiTrapPlayer::new_game(self, info).into_result().map_err(panicked)
    }

    fn turn(&mut self, request: TrapRequest, _budget: Duration) -> Result<TurnActions, Fault> {
        play_turn(self, request).map_err(Fault::Panicked)
    }

    fn game_over(&mut self, result: GameOver) {
        if let Err(panic) = FfiTrapPlayer::game_over(self, result).into_result() {
            tracing::warn!("a player panicked in game_over: {panic}");
        }
    }
}

/// An Intuitive AI player in the arena's process, through the ABI.
impl IntuitiveAgent for IntuitivePlayerBox {
    fn new_game(&mut self, info: IntuitiveGameInfo, _budget: Duration) -> Result<(), Fault> {
        FfiIntuitivePlayer::new_game(self, info).into_result().map_err(panicked)
    }

    fn reveal(&mut self, request: IntuitiveRequest, _budget: Duration) -> Result<Cell, Fault> {
        FfiIntuitivePlayer::reveal(self, request).into_result().map_err(panicked)
    }

    fn game_over(&mut self, result: IntuitiveGameOver) {
        if let Err(panic) = FfiIntuitivePlayer::game_over(self, result).into_result() {
            tracing::warn!("a player panicked in game_over: {panic}");
        }
    }
}

/// A Hexapawn player in the arena's process, through the ABI.
impl HexapawnAgent for HexapawnPlayerBox {
    fn new_game(&mut self, info: HexapawnGameInfo, _budget: Duration) -> Result<(), Fault> {
        FfiHexapawnPlayer::new_game(self, info).into_result().map_err(panicked)
    }

    fn get_move(&mut self, request: HexapawnRequest, _budget: Duration) -> Result<HexapawnAction, Fault> {
        FfiHexapawnPlayer::get_move(self, request).into_result().map_err(panicked)
    }

    fn game_over(&mut self, result: GameOver) {
        if let Err(panic) = FfiHexapawnPlayer::game_over(self, result).into_result() {
            tracing::warn!("a player panicked in game_over: {panic}");
        }
    }
}

/// A Wumpus World player in the arena's process, through the ABI.
impl WumpusAgent for WumpusPlayerBox {
    fn new_game(&mut self, info: WumpusGameInfo, _budget: Duration) -> Result<(), Fault> {
        FfiWumpusPlayer::new_game(self, info).into_result().map_err(panicked)
    }

    fn step(&mut self, request: WumpusRequest, _budget: Duration) -> Result<WumpusAction, Fault> {
        FfiWumpusPlayer::step(self, request).into_result().map_err(panicked)
    }

    fn game_over(&mut self, result: WumpusOver) {
        if let Err(panic) = FfiWumpusPlayer::game_over(self, result).into_result() {
            tracing::warn!("a player panicked in game_over: {panic}");
        }
    }
}

/// A Magic Forest player in the arena's process, through the ABI.
impl ForestAgent for ForestPlayerBox {
    fn new_game(&mut self, info: ForestGameInfo, _budget: Duration) -> Result<(), Fault> {
        FfiForestPlayer::new_game(self, info).into_result().map_err(panicked)
    }

    fn step(&mut self, request: ForestRequest, _budget: Duration) -> Result<ForestAction, Fault> {
        FfiForestPlayer::step(self, request).into_result().map_err(panicked)
    }

    fn game_over(&mut self, result: ForestOver) {
        if let Err(panic) = FfiForestPlayer::game_over(self, result).into_result() {
            tracing::warn!("a player panicked in game_over: {panic}");
        }
    }
}

fn panicked(message: PlayerError) -> Fault {
    Fault::Panicked(message.into())
}
