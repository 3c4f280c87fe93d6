//! `TrapPlayer`, the trait a Trap player implements, and what it is told and
//! asked (`TrapGameInfo`, `TrapRequest`).

use std::time::Duration;

use abi_stable::StableAbi;

use super::{pos::Pos, state::TrapState};
use crate::{GameOver, Seat};

/// What a player is told when a game starts.
#[repr(C)]
#[derive(StableAbi, Clone, Copy, PartialEq, Eq, Debug)]
pub struct TrapGameInfo {
    /// The seat this player plays: `Seat::One` moves first.
    pub seat: Seat,
    /// Board size N (the board is N x N).
    pub size: u8,
    /// Wall-clock budget for one turn (move and throw together), in microseconds.
    pub turn_budget_us: u64,
    /// A seed for the player's own randomness (never the arena's own seed).
    pub seed: u64,
}

impl TrapGameInfo {
    pub fn turn_budget(&self) -> Duration {
        Duration::from_micros(self.turn_budget_us)
    }
}

/// One request: the position as the player must see it, and its clock.
#[repr(C)]
#[derive(StableAbi, Clone, Copy, PartialEq, Eq, Debug)]
pub struct TrapRequest {
    /// The position. For `get_trap` it is the position after this player's move.
    pub state: TrapState,
    /// The seat of the player asked.
    pub seat: Seat,
    /// Turns played so far in this game (both players counted).
    pub turn: u32,
    /// What is left of this turn's budget, in microseconds.
    pub time_left_us: u64,
}

impl TrapRequest {
    /// Where this player stands.
    pub fn me(&self) -> Pos {
        self.state.position(self.seat)
    }

    /// Where the opponent stands.
    pub fn opponent(&self) -> Pos {
        self.state.position(self.seat.other())
    }

    /// What is left of this turn's budget.
    pub fn time_left(&self) -> Duration {
        Duration::from_micros(self.time_left_us)
    }
}

/// A Trap player. Implement this, then export it with
/// [`export_player!`](crate::export_player).
///
/// Every turn the arena calls `get_move`, then (unless the move already won)
/// `get_trap`; one budget covers both. A panic in any method is caught and
/// loses the game ("panicked: ..."); it never takes down the arena.
pub trait TrapPlayer: Send {
    /// A game starts. One player instance may play several games in a row.
    fn new_game(&mut self, _info: &TrapGameInfo) {}

    /// Where to step: one of `req.state.legal_moves(req.seat)`. The arena
    /// only asks when there is one.
    fn get_move(&mut self, req: &TrapRequest) -> Pos;

    /// Where to aim the trap: any cell on the board that holds no player.
    /// `req.state` already shows this turn's move.
    fn get_trap(&mut self, req: &TrapRequest) -> Pos;

    /// The game is over, with this result.
    fn game_over(&mut self, _result: &GameOver) {}

    /// The match is over: the memory to keep for this player's next match
    /// (`--memory DIR`; it gets it back in its `Setup`), or None to keep
    /// what it had. At most 1 MiB unless the arena says otherwise.
    fn save_memory(&mut self) -> Option<Vec<u8>> {
        None
    }
}
