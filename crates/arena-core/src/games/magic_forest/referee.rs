//! The Magic Forest referee: how a step is checked and applied and how a game
//! ends, for the single-player referee (`play::solo`) to drive; what the
//! game leaves is `record.rs`'s.

use std::time::Duration;

use player_api::magic_forest::{
    Forest, ForestAction, ForestConfig, ForestGameInfo, ForestOver, ForestRequest, ForestState, RunEnd,
};
use rand_chacha::ChaCha8Rng;

use super::record::*;
use crate::replay::live::LiveTurn;
use crate::{
    games::magic_forest::MagicForest,
    play::solo::{SoloReferee, Timed},
};

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
