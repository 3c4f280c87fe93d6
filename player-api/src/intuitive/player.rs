//! `IntuitivePlayer`, the trait an Intuitive AI player implements, and its
//! request types.

use std::time::Duration;

use abi_stable::{std_types::RString, StableAbi};

use super::{cell::Cell, view::IntuitiveView};
use crate::Outcome;

/// What a player is told when a game starts.
#[repr(C)]
#[derive(StableAbi, Clone, Copy, PartialEq, Eq, Debug)]
pub struct IntuitiveGameInfo {
    /// Board size N (the board is N x N, with N pits).
    pub size: u8,
    /// Wall-clock budget for one reveal, in microseconds.
    pub turn_budget_us: u64,
    /// A seed for the player's own randomness (never the arena's own seed).
    pub seed: u64,
}

impl IntuitiveGameInfo {
    pub fn turn_budget(&self) -> Duration {
        Duration::from_micros(self.turn_budget_us)
    }
}

/// One request: what the player has seen so far, and its clock.
#[repr(C)]
#[derive(StableAbi, Clone, Copy, PartialEq, Eq, Debug)]
pub struct IntuitiveRequest {
    pub view: IntuitiveView,
    /// Reveals made so far in this game (the start cell not counted).
    pub turn: u32,
    /// What is left of this reveal's budget, in microseconds.
    pub time_left_us: u64,
}

impl IntuitiveRequest {
    pub fn time_left(&self) -> Duration {
        Duration::from_micros(self.time_left_us)
    }
}

/// What a player is told when a game ends.
#[repr(C)]
#[derive(StableAbi, Clone, PartialEq, Eq, Debug)]
pub struct IntuitiveGameOver {
    /// `Win`: the monster was found; `Loss`: a pit, or a failure.
    pub outcome: Outcome,
    /// The game's final score: -1, 0, +1 or +2.
    pub score: i8,
    /// Reveals made in the game (the start cell not counted).
    pub turns: u32,
    /// Why the game ended, as the arena records it ("monster", "pit", "illegal reveal ...").
    pub reason: RString,
}

/// An Intuitive AI player. Implement this; the arena calls `reveal` until
/// the game ends. A panic in any method is caught and loses the game.
pub trait IntuitivePlayer: Send {
    /// A game starts. One player instance may play several games in a row.
    fn new_game(&mut self, _info: &IntuitiveGameInfo) {}

    /// The cell to open next: one of `req.view.closed()`.
    fn reveal(&mut self, req: &IntuitiveRequest) -> Cell;

    /// The game is over, with this result.
    fn game_over(&mut self, _result: &IntuitiveGameOver) {}

    /// The match is over: the memory to keep for this player's next match
    /// (`--memory DIR`; it gets it back in its `Setup`), or None to keep
    /// what it had. At most 1 MiB unless the arena says otherwise.
    fn save_memory(&mut self) -> Option<Vec<u8>> {
        None
    }
}
