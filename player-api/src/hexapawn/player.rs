//! `HexapawnPlayer`, the trait a Hexapawn player implements, its request
//! types, and `HexapawnAction`: a move, or resigning.

use std::time::Duration;

use abi_stable::StableAbi;

use super::board::{HexMove, HexapawnBoard};
use crate::{GameOver, Seat};

/// What a player is told when a game starts.
#[repr(C)]
#[derive(StableAbi, Clone, Copy, PartialEq, Eq, Debug)]
pub struct HexapawnGameInfo {
    /// The seat this player plays: `Seat::One` is White and moves first.
    pub seat: Seat,
    /// Wall-clock budget for one move, in microseconds.
    pub turn_budget_us: u64,
    /// A seed for the player's own randomness (never the arena's own seed).
    pub seed: u64,
}

impl HexapawnGameInfo {
    pub fn turn_budget(&self) -> Duration {
        Duration::from_micros(self.turn_budget_us)
    }
}

/// One request: the position (this player to move) and its clock.
#[repr(C)]
#[derive(StableAbi, Clone, Copy, PartialEq, Eq, Debug)]
pub struct HexapawnRequest {
    pub board: HexapawnBoard,
    /// The seat of the player asked (the side to move).
    pub seat: Seat,
    /// Plies played so far in this game.
    pub ply: u32,
    /// What is left of this move's budget, in microseconds.
    pub time_left_us: u64,
}

impl HexapawnRequest {
    pub fn time_left(&self) -> Duration {
        Duration::from_micros(self.time_left_us)
    }
}

/// A player's answer: a move, or resigning (Gardner's matchbox learner
/// resigns when a box is empty). Resigning loses the game.
#[repr(C, u8)]
#[derive(StableAbi, Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum HexapawnAction {
    Move(HexMove),
    Resign,
}

/// A Hexapawn player. Implement this; the arena calls `get_move` on this
/// player's turns. One instance plays every game of a match and is told
/// each result, so it may learn. A panic in any method is caught and loses
/// the game.
pub trait HexapawnPlayer: Send {
    /// A game starts. One player instance may play several games in a row.
    fn new_game(&mut self, _info: &HexapawnGameInfo) {}

    /// The move to play: one of `req.board.legal_moves()` (the arena only
    /// asks when there is one), or `Resign`.
    fn get_move(&mut self, req: &HexapawnRequest) -> HexapawnAction;

    /// The game is over, with this result.
    fn game_over(&mut self, _result: &GameOver) {}

    /// The match is over: the memory to keep for this player's next match
    /// (`--memory DIR`; it gets it back in its `Setup`), or None to keep
    /// what it had. At most 1 MiB unless the arena says otherwise.
    fn save_memory(&mut self) -> Option<Vec<u8>> {
        None
    }
}
