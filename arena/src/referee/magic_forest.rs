//! The Magic Forest referee: one run (every forest), validated, timed and recorded.

use std::{
    fmt,
    time::{Duration, Instant},
};

use player_api::{
    magic_forest::{
        Forest, ForestAction, ForestConfig, ForestEvent, ForestGameInfo, ForestOver, ForestPlayer,
        ForestRequest, ForestState, RunEnd,
    },
    Outcome,
};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use super::wumpus::timed;
use crate::{fault::Fault, seeds};

/// The settings of a Magic Forest run.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ForestSettings {
    pub config: ForestConfig,
    pub step_budget: Duration,
    /// The budget for `new_game` (a player's start-up).
    pub startup_budget: Duration,
}

impl Default for ForestSettings {
    fn default() -> Self {
        ForestSettings {
            config: ForestConfig::default(),
            step_budget: Duration::from_secs(5),
            startup_budget: Duration::from_secs(10),
        }
    }
}

/// A Magic Forest player as the referee drives it. Every player type is one
/// (in process, a call cannot fail); the integration layer adds workers.
pub trait ForestAgent {
    fn new_game(&mut self, info: &ForestGameInfo) -> Result<(), Fault>;
    fn step(&mut self, req: &ForestRequest) -> Result<ForestAction, Fault>;
    fn game_over(&mut self, result: &ForestOver);
}

impl<P: ForestPlayer + ?Sized> ForestAgent for P {
    fn new_game(&mut self, info: &ForestGameInfo) -> Result<(), Fault> {
        ForestPlayer::new_game(self, info);
        Ok(())
    }

    fn step(&mut self, req: &ForestRequest) -> Result<ForestAction, Fault> {
        Ok(ForestPlayer::step(self, req))
    }

    fn game_over(&mut self, result: &ForestOver) {
        ForestPlayer::game_over(self, result)
    }
}

/// One step as it was played: what the wanderer was shown, what it did, what happened.
#[derive(Clone, Copy, Debug)]
pub struct ForestStep {
    pub shown: ForestRequest,
    pub action: ForestAction,
    pub event: ForestEvent,
    /// Wall-clock time the player took to answer.
    pub time: Duration,
}

/// Steps are equal when the game is: the time taken is left out (same seed
/// and same actions give the same record, however long the player thought).
impl PartialEq for ForestStep {
    fn eq(&self, other: &Self) -> bool {
        self.shown == other.shown && self.action == other.action && self.event == other.event
    }
}

impl Eq for ForestStep {}

/// How a run ended.
#[derive(Clone, Debug, PartialEq)]
pub enum Ending {
    Rules(RunEnd),
    /// The player failed to answer properly: scored as a death.
    Fault(Fault),
}

impl fmt::Display for Ending {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Ending::Rules(end) => write!(f, "{end}"),
            Ending::Fault(fault) => write!(f, "{fault}"),
        }
    }
}

/// A finished run: enough to replay it exactly.
#[derive(Clone, Debug, PartialEq)]
pub struct ForestRun {
    pub seed: u64,
    pub config: ForestConfig,
    pub forests: Vec<Forest>,
    pub steps: Vec<ForestStep>,
    pub ending: Ending,
    pub score: i32,
    pub cleared: u32,
    pub deaths: u32,
}

impl ForestRun {
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

/// The forests of the run seeded `seed`: what [`play`] draws first.
pub fn forests(config: &ForestConfig, seed: u64) -> Vec<Forest> {
    ForestState::generate(config, &mut ChaCha8Rng::seed_from_u64(seed))
}

/// Plays one run through the forests drawn from `seed`. `settings.config`
/// must pass `ForestConfig::check`. The player is told the result at the end.
pub fn play(settings: &ForestSettings, seed: u64, player: &mut dyn ForestAgent) -> ForestRun {
    play_in(settings, seed, forests(&settings.config, seed), player)
}

/// Plays one run through given forests (for hand-made forests in tests).
pub fn play_in(
    settings: &ForestSettings,
    seed: u64,
    forests: Vec<Forest>,
    player: &mut dyn ForestAgent,
) -> ForestRun {
    let mut state = ForestState::new(&settings.config, forests.clone());
    let mut steps = Vec::new();
    let ending = run(settings, seed, &mut state, &mut steps, player);
    let record = ForestRun {
        seed,
        config: settings.config,
        forests,
        steps,
        ending,
        score: state.score(),
        cleared: state.cleared(),
        deaths: state.deaths(),
    };
    player.game_over(&ForestOver {
        outcome: record.outcome(),
        score: record.score,
        forests_cleared: record.cleared,
        deaths: record.deaths,
        actions: state.actions(),
        reason: record.ending.to_string().into(),
    });
    record
}

fn run(
    settings: &ForestSettings,
    seed: u64,
    state: &mut ForestState,
    steps: &mut Vec<ForestStep>,
    player: &mut dyn ForestAgent,
) -> Ending {
    let info = ForestGameInfo {
        config: settings.config,
        step_budget_us: settings.step_budget.as_micros() as u64,
        seed: seeds::derive(seed, u64::MAX),
    };
    if let Err(fault) = timed("new_game", settings.startup_budget, || player.new_game(&info)) {
        state.forfeit();
        return Ending::Fault(fault);
    }
    loop {
        let shown = state.request();
        let started = Instant::now();
        let answer = timed("step", settings.step_budget, || player.step(&shown));
        let time = started.elapsed();
        let action = match answer {
            Ok(action) => action,
            Err(fault) => {
                state.forfeit();
                return Ending::Fault(fault);
            }
        };
        let (event, end) = state.apply(action);
        steps.push(ForestStep { shown, action, event, time });
        if let Some(end) = end {
            return Ending::Rules(end);
        }
    }
}
