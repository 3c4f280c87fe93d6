//! What a game of Magic Forest leaves: its settings, its steps, how it ended,
//! the record the replay and the reports read (below the referee, which
//! makes it, and the replay, which reads it).

use std::fmt;

use player_api::{
    magic_forest::{Forest, ForestAction, ForestConfig, ForestEvent, ForestRequest, RunEnd},
    Outcome,
};

use crate::play::solo::{Budgeted, DebugAs, Timed};

/// The settings of a Magic Forest run; the rules must pass `ForestConfig::check`.
pub type ForestSettings = Budgeted<ForestConfig>;

impl DebugAs for ForestConfig {
    const NAME: &'static str = "ForestSettings";
    const TURN: &'static str = "step_budget";

    fn fields(&self, out: &mut fmt::DebugStruct<'_, '_>) {
        out.field("config", self);
    }
}

/// One step as it was played: what the wanderer was shown, what it did, what happened.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ForestStep {
    pub shown: ForestRequest,
    pub action: ForestAction,
    pub event: ForestEvent,
}

/// How a run ended: by the rules, or by a fault (scored as a death).
pub type Ending = crate::play::solo::Ending<RunEnd>;

/// A finished run: enough to replay it exactly.
#[derive(Clone, Debug, PartialEq)]
pub struct ForestRecord {
    pub seed: u64,
    pub config: ForestConfig,
    pub forests: Vec<Forest>,
    pub steps: Vec<Timed<ForestStep>>,
    pub ending: Ending,
    pub score: i32,
    pub cleared: u32,
    pub deaths: u32,
}

impl ForestRecord {
    /// Every forest cleared.
    pub fn won(&self) -> bool {
        self.ending == Ending::Rules(RunEnd::AllCleared)
    }

    pub fn outcome(&self) -> Outcome {
        match self.ending {
            Ending::Rules(RunEnd::AllCleared) => Outcome::Win,
            Ending::Rules(RunEnd::ActionCap { .. }) => Outcome::Draw,
            _ => Outcome::Loss,
        }
    }
}
