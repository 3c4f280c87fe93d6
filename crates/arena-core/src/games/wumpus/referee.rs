//! The Wumpus World referee: its rules, the step and how it ends a game,
//! for the single-player referee (`solo::play`) to drive.

use std::{fmt, time::Duration};

use player_api::{
    wumpus::{
        StepEnd, WumpusAction, WumpusConfig, WumpusGameInfo, WumpusOver, WumpusRequest, WumpusState,
        WumpusWorld,
    },
    Outcome,
};
use rand_chacha::ChaCha8Rng;

use crate::replay::live::LiveTurn;
use crate::{
    games::wumpus::Wumpus,
    solo::{Budgeted, DebugAs, SoloReferee, Timed},
};

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
pub type Ending = crate::solo::Ending<StepEnd>;

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
