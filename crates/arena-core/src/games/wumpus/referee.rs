//! The Wumpus World referee: how a step is checked and applied and how a game
//! ends, for the single-player referee (`play::solo`) to drive; what the
//! game leaves is `record.rs`'s.

use std::time::Duration;

use player_api::wumpus::{
    StepEnd, WumpusAction, WumpusConfig, WumpusGameInfo, WumpusOver, WumpusRequest, WumpusState, WumpusWorld,
};
use rand_chacha::ChaCha8Rng;

use super::record::*;
use crate::replay::live::LiveTurn;
use crate::{
    games::wumpus::Wumpus,
    play::solo::{SoloReferee, Timed},
};

impl SoloReferee for Wumpus {
    type World = WumpusWorld;
    type State = WumpusState;
    type Step = WumpusStep;
    type End = StepEnd;

    fn draw(config: &WumpusConfig, rng: &mut ChaCha8Rng) -> WumpusWorld {
        WumpusWorld::generate(config, rng)
    }

    fn start(config: &WumpusConfig, world: &WumpusWorld) -> WumpusState {
        WumpusState::new(config, *world)
    }

    fn info(state: &WumpusState, settings: &WumpusSettings, seed: u64) -> WumpusGameInfo {
        WumpusGameInfo {
            config: settings.rules,
            start: WumpusWorld::START,
            arrows: state.arrows(),
            step_budget_us: settings.budgets.turn.first_turn().as_micros() as u64,
            seed,
        }
    }

    fn request(state: &WumpusState, _: u32, _: Duration) -> WumpusRequest {
        state.request()
    }

    fn step(
        state: &mut WumpusState,
        shown: WumpusRequest,
        action: WumpusAction,
    ) -> (Option<WumpusStep>, Option<StepEnd>) {
        let end = match state.check(action) {
            Ok(()) => state.apply(action),
            Err(why) => Some(state.forfeit(Some((action, why)))),
        };
        (Some(WumpusStep { shown, action }), end)
    }

    fn forfeit(state: &mut WumpusState) {
        state.forfeit(None);
    }

    fn live_step(_: &WumpusRequest, step: &Timed<WumpusStep>, state: &WumpusState) -> LiveTurn {
        super::replay::live_step(step, state)
    }

    fn finish(
        seed: u64,
        settings: &WumpusSettings,
        world: WumpusWorld,
        steps: Vec<Timed<WumpusStep>>,
        ending: Ending,
        state: &WumpusState,
    ) -> (WumpusRecord, WumpusOver) {
        let record =
            WumpusRecord { seed, config: settings.rules, world, steps, ending, score: state.score() };
        let over = WumpusOver {
            outcome: record.outcome(),
            score: record.score,
            actions: state.actions(),
            reason: record.ending.to_string().into(),
        };
        (record, over)
    }
}
