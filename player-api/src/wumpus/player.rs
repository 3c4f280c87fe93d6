//! `WumpusPlayer`, the trait a Wumpus World player implements (`step`), and
//! its request types, with `WumpusState::request`, which builds a request:
//! here rather than in `state.rs`, which sits below this module (it defines
//! `Percept` and `WumpusAction`).

use abi_stable::{std_types::RString, StableAbi};

use super::{
    config::{Goal, WumpusConfig},
    state::{check_action, InvalidAction, Percept, WumpusAction, WumpusState},
};
use crate::{
    grid::{Coord, Dir},
    Outcome,
};

/// What the player is told when a game starts.
#[repr(C)]
#[derive(StableAbi, Clone, Copy, PartialEq, Debug)]
pub struct WumpusGameInfo {
    /// The rules of this game (size, chances, scoring, goal).
    pub config: WumpusConfig,
    /// Where the agent starts (and where it climbs out).
    pub start: Coord,
    /// Arrows at the start (with `ArrowRule::OnePerWumpus`: the number of wumpuses).
    pub arrows: u8,
    /// Wall-clock budget for one step, in microseconds.
    pub step_budget_us: u64,
    /// A seed for the player's own randomness (never the arena's own seed).
    pub seed: u64,
}

/// One step: the percept, and the agent's own state (which a careful agent
/// could track itself; it is given so that nobody has to).
#[repr(C)]
#[derive(StableAbi, Clone, Copy, PartialEq, Eq, Debug)]
pub struct WumpusRequest {
    pub percept: Percept,
    pub at: Coord,
    pub facing: Dir,
    pub arrows: u8,
    pub has_gold: bool,
    /// Actions taken so far.
    pub actions: u32,
    pub score: i32,
}

impl WumpusRequest {
    /// Whether `action` is allowed now, in a game of goal `goal`: the
    /// referee's own check, from what the request shows (glitter is the
    /// gold on this square, not yet picked up).
    pub fn check(&self, goal: Goal, action: WumpusAction) -> Result<(), InvalidAction> {
        check_action(goal, self.at, self.arrows, self.percept.glitter, action)
    }
}

impl WumpusState {
    /// What the player is shown before its next action.
    pub fn request(&self) -> WumpusRequest {
        WumpusRequest {
            percept: self.percept(),
            at: self.at(),
            facing: self.facing(),
            arrows: self.arrows(),
            has_gold: self.has_gold(),
            actions: self.actions(),
            score: self.score(),
        }
    }
}

/// What the player is told when the game ends.
#[repr(C)]
#[derive(StableAbi, Clone, PartialEq, Eq, Debug)]
pub struct WumpusOver {
    /// Win: out with the gold. Loss: died, invalid action or fault. Draw:
    /// climbed out without the gold, or the action cap.
    pub outcome: Outcome,
    pub score: i32,
    pub actions: u32,
    /// Why the game ended, as the arena records it.
    pub reason: RString,
}

/// A Wumpus World agent. Implement this; the arena calls `step` once per
/// action until the game ends.
pub trait WumpusPlayer: Send {
    /// A game starts. One player instance may play several games in a row.
    fn new_game(&mut self, _info: &WumpusGameInfo) {}

    /// The next action, given what the agent senses now.
    fn step(&mut self, req: &WumpusRequest) -> WumpusAction;

    /// The game is over, with this result.
    fn game_over(&mut self, _result: &WumpusOver) {}

    /// The match is over: the memory to keep for this player's next match
    /// (`--memory DIR`; it gets it back in its `Setup`), or None to keep
    /// what it had. At most 1 MiB unless the arena says otherwise.
    fn save_memory(&mut self) -> Option<Vec<u8>> {
        None
    }
}
