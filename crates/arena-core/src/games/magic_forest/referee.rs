//! The Magic Forest referee: its rules, the step and how it ends a run,
//! for the single-player referee (`solo::play`) to drive.

use std::{fmt, time::Duration};

use player_api::{
    magic_forest::{
        Forest, ForestAction, ForestConfig, ForestEvent, ForestGameInfo, ForestOver, ForestRequest,
        ForestState, RunEnd,
    },
    Outcome,
};
use rand_chacha::ChaCha8Rng;

use crate::replay::live::LiveTurn;
use crate::{
    games::magic_forest::MagicForest,
    solo::{Budgeted, DebugAs, SoloReferee, Timed},
};

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
pub type Ending = crate::solo::Ending<RunEnd>;

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

impl SoloReferee for MagicForest {
    /// The run's forests, smallest first.
    type World = Vec<Forest>;
    type State = ForestState;
    type Step = ForestStep;
    type End = RunEnd;

    fn draw(config: &ForestConfig, rng: &mut ChaCha8Rng) -> Vec<Forest> {
        ForestState::generate(config, rng)
    }

    fn start(config: &ForestConfig, forests: &Vec<Forest>) -> ForestState {
        ForestState::new(config, forests.clone())
    }

    fn info(_: &ForestState, settings: &ForestSettings, seed: u64) -> ForestGameInfo {
        ForestGameInfo {
            config: settings.rules,
            step_budget_us: settings.budgets.turn.first_turn().as_micros() as u64,
            seed,
        }
    }

    fn request(state: &ForestState, _: u32, _: Duration) -> ForestRequest {
        state.request()
    }

    fn step(
        state: &mut ForestState,
        shown: ForestRequest,
        action: ForestAction,
    ) -> (Option<ForestStep>, Option<RunEnd>) {
        let (event, end) = state.apply(action);
        (Some(ForestStep { shown, action, event }), end)
    }

    fn forfeit(state: &mut ForestState) {
        state.forfeit();
    }

    fn live_step(_: &ForestRequest, step: &Timed<ForestStep>, state: &ForestState) -> LiveTurn {
        super::replay::live_step(step, state)
    }

    fn finish(
        seed: u64,
        settings: &ForestSettings,
        forests: Vec<Forest>,
        steps: Vec<Timed<ForestStep>>,
        ending: Ending,
        state: &ForestState,
    ) -> (ForestRecord, ForestOver) {
        let record = ForestRecord {
            seed,
            config: settings.rules,
            forests,
            steps,
            ending,
            score: state.score(),
            cleared: state.cleared(),
            deaths: state.deaths(),
        };
        let over = ForestOver {
            outcome: record.outcome(),
            score: record.score,
            forests_cleared: record.cleared,
            deaths: record.deaths,
            actions: state.actions(),
            reason: record.ending.to_string().into(),
        };
        (record, over)
    }
}
