//! What a game of Wumpus World leaves: its settings, its steps, how it ended,
//! the record the replay and the reports read (below the referee, which
//! makes it, and the replay, which reads it).

use std::fmt;

use player_api::{
    wumpus::{StepEnd, WumpusAction, WumpusConfig, WumpusRequest, WumpusWorld},
    Outcome,
};

use crate::play::solo::{Budgeted, DebugAs, Timed};

/// The settings of a Wumpus World game: the rules, a preset
/// (`WumpusConfig::aima()`, `::project()`) or a variant of one, which must
/// pass `WumpusConfig::check`.
pub type WumpusSettings = Budgeted<WumpusConfig>;

impl DebugAs for WumpusConfig {
    const NAME: &'static str = "WumpusSettings";
    const TURN: &'static str = "step_budget";

    fn fields(&self, out: &mut fmt::DebugStruct<'_, '_>) {
        out.field("config", self);
    }
}

/// One step as it was played: what the player was shown, what it did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WumpusStep {
    pub shown: WumpusRequest,
    pub action: WumpusAction,
}

/// How a game ended: by the rules (out with the gold, climbed out, died,
/// the cap, an invalid action) or by a fault (scored as a death).
pub type Ending = crate::play::solo::Ending<StepEnd>;

/// A finished game: enough to replay it exactly.
#[derive(Clone, Debug, PartialEq)]
pub struct WumpusRecord {
    pub seed: u64,
    pub config: WumpusConfig,
    pub world: WumpusWorld,
    pub steps: Vec<Timed<WumpusStep>>,
    pub ending: Ending,
    pub score: i32,
}

impl WumpusRecord {
    /// Out with the gold.
    pub fn won(&self) -> bool {
        self.ending == Ending::Rules(StepEnd::GoldOut)
    }

    /// Killed by a pit or a wumpus (invalid actions and faults are scored
    /// as deaths but not counted here).
    pub fn died(&self) -> bool {
        matches!(self.ending, Ending::Rules(StepEnd::Died { .. }))
    }

    pub fn outcome(&self) -> Outcome {
        match self.ending {
            Ending::Rules(StepEnd::GoldOut) => Outcome::Win,
            Ending::Rules(StepEnd::ClimbedOut | StepEnd::ActionCap(_)) => Outcome::Draw,
            _ => Outcome::Loss,
        }
    }
}
