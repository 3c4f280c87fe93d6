//! `ForestPlayer`, the trait a Magic Forest player implements (`step`), and
//! its request types, with `ForestState::request`, which builds a request:
//! here rather than in `state.rs`, which sits below this module (it defines
//! `ForestAction`, the answer to a request).

use abi_stable::{std_types::RString, StableAbi};

use super::{
    config::ForestConfig,
    state::{ForestAction, ForestState},
};
use crate::{grid::Coord, Outcome};

/// What the wanderer is told when a run starts.
#[repr(C)]
#[derive(StableAbi, Clone, Copy, PartialEq, Debug)]
pub struct ForestGameInfo {
    pub config: ForestConfig,
    /// Wall-clock budget for one step, in microseconds.
    pub step_budget_us: u64,
    /// A seed for the player's own randomness (never the arena's own seed).
    pub seed: u64,
}

/// One step: what the wanderer perceives on its tile.
#[repr(C)]
#[derive(StableAbi, Clone, Copy, PartialEq, Eq, Debug)]
pub struct ForestRequest {
    pub at: Coord,
    /// The current forest is `size` x `size`; a new size means a new forest.
    pub size: u8,
    /// Which forest of the run this is, from 0.
    pub forest: u8,
    /// A monster (alive or killed) is on a 4-neighbour.
    pub bones: bool,
    /// A trap is on a 4-neighbour.
    pub leaves: bool,
    /// The last action killed the wanderer; it is back at this forest's start.
    pub died: bool,
    /// Actions left in this forest before the run ends.
    pub actions_left: u32,
    pub score: i32,
}

impl ForestState {
    /// What the wanderer is shown before its next action.
    pub fn request(&self) -> ForestRequest {
        let forest = self.forest();
        ForestRequest {
            at: self.at(),
            size: forest.size,
            forest: self.forest_index() as u8,
            bones: forest.bones(self.at()),
            leaves: forest.leaves(self.at()),
            died: self.just_died(),
            actions_left: self.actions_left(),
            score: self.score(),
        }
    }
}

/// What the wanderer is told when the run ends.
#[repr(C)]
#[derive(StableAbi, Clone, PartialEq, Eq, Debug)]
pub struct ForestOver {
    /// Win: every forest cleared. Loss: a fault. Draw: an action cap.
    pub outcome: Outcome,
    pub score: i32,
    pub forests_cleared: u32,
    pub deaths: u32,
    pub actions: u32,
    /// Why the run ended, as the arena records it.
    pub reason: RString,
}

/// A Magic Forest wanderer. Implement this; the arena calls `step` once per
/// action until the run ends.
pub trait ForestPlayer: Send {
    /// A run starts. One player instance may play several runs in a row.
    fn new_game(&mut self, _info: &ForestGameInfo) {}

    /// The next action.
    fn step(&mut self, req: &ForestRequest) -> ForestAction;

    /// The run is over, with this result.
    fn game_over(&mut self, _result: &ForestOver) {}

    /// The match is over: the memory to keep for this player's next match
    /// (`--memory DIR`; it gets it back in its `Setup`), or None to keep
    /// what it had. At most 1 MiB unless the arena says otherwise.
    fn save_memory(&mut self) -> Option<Vec<u8>> {
        None
    }
}
