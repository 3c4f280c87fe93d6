//! The Magic Forest referee: one run (every forest), validated, timed and recorded.

use std::{fmt, time::Duration};

use player_api::{
    magic_forest::{
        Forest, ForestAction, ForestConfig, ForestEvent, ForestGameInfo, ForestOver, ForestPlayer,
        ForestRequest, ForestState, RunEnd,
    },
    Outcome,
};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use crate::referee::{calls::timed, InProcess};
use super::MagicForest;
use crate::{
    clock::{Clock, Spent},
    fault::Fault,
    game::{Agent},
    seeds,
};

/// The settings of a Magic Forest run.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ForestSettings {
    pub config: ForestConfig,
    pub step_budget: Duration,
    /// The budget for `new_game` (a player's start-up).
    pub startup_budget: Duration,
    /// The clock budgets are charged on.
    pub clock: Clock,
}

impl Default for ForestSettings {
    fn default() -> Self {
        ForestSettings {
            config: ForestConfig::default(),
            step_budget: Duration::from_secs(5),
            startup_budget: Duration::from_secs(10),
            clock: Clock::Wall,
        }
    }
}

/// One step as it was played: what the wanderer was shown, what it did, what happened.
#[derive(Clone, Copy, Debug)]
pub struct ForestStep {
    pub shown: ForestRequest,
    pub action: ForestAction,
    pub event: ForestEvent,
    /// The time the player took to answer, on both clocks.
    pub time: Spent,
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

/// Plays one run through the forests drawn from `seed` with a player in
/// the arena's process. `settings.config` must pass `ForestConfig::check`.
pub fn play(settings: &ForestSettings, seed: u64, player: &mut dyn ForestPlayer) -> ForestRun {
    play_agent(settings, seed, &mut InProcess::<MagicForest>(player))
}

/// Plays one run through given forests (hand-made forests in tests) with a
/// player in the arena's process.
pub fn play_in(
    settings: &ForestSettings,
    seed: u64,
    forests: Vec<Forest>,
    player: &mut dyn ForestPlayer,
) -> ForestRun {
    play_agent_in(settings, seed, forests, &mut InProcess::<MagicForest>(player))
}

/// Plays one run through the forests drawn from `seed`. The player is told
/// the result at the end.
pub fn play_agent(settings: &ForestSettings, seed: u64, player: &mut dyn Agent<MagicForest>) -> ForestRun {
    play_agent_in(settings, seed, forests(&settings.config, seed), player)
}

/// Plays one run through given forests.
pub fn play_agent_in(
    settings: &ForestSettings,
    seed: u64,
    forests: Vec<Forest>,
    player: &mut dyn Agent<MagicForest>,
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
    player.game_over(ForestOver {
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
    player: &mut dyn Agent<MagicForest>,
) -> Ending {
    let info = ForestGameInfo {
        config: settings.config,
        step_budget_us: settings.step_budget.as_micros() as u64,
        seed: seeds::derive(seed, u64::MAX),
    };
    if let (Err(fault), _) = timed(settings.clock, settings.startup_budget, "new_game", || {
        player.new_game(info, settings.startup_budget)
    }) {
        state.forfeit();
        return Ending::Fault(fault);
    }
    loop {
        let shown = state.request();
        let (answer, time) =
            timed(settings.clock, settings.step_budget, "step", || player.act(shown, settings.step_budget));
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
