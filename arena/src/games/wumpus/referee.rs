//! The Wumpus World referee: one game, validated, timed and recorded.

use std::{fmt, time::Duration};

use player_api::{
    wumpus::{
        StepEnd, WumpusAction, WumpusConfig, WumpusGameInfo, WumpusOver, WumpusPlayer, WumpusRequest,
        WumpusState, WumpusWorld,
    },
    Outcome,
};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use crate::referee::{calls::timed, InProcess};
use super::Wumpus;
use crate::{
    clock::{Clock, Spent},
    fault::Fault,
    game::{Agent},
    seeds,
};

/// The settings of a Wumpus World game.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WumpusSettings {
    /// The rules: a preset (`WumpusConfig::aima()`, `::project()`) or a variant of one.
    pub config: WumpusConfig,
    pub step_budget: Duration,
    /// The budget for `new_game` (a player's start-up).
    pub startup_budget: Duration,
    /// The clock budgets are charged on.
    pub clock: Clock,
}

impl Default for WumpusSettings {
    fn default() -> Self {
        WumpusSettings {
            config: WumpusConfig::aima(),
            step_budget: Duration::from_secs(5),
            startup_budget: Duration::from_secs(10),
            clock: Clock::Wall,
        }
    }
}

/// One step as it was played: what the player was shown, what it did.
#[derive(Clone, Copy, Debug)]
pub struct WumpusStep {
    pub shown: WumpusRequest,
    pub action: WumpusAction,
    /// The time the player took to answer, on both clocks.
    pub time: Spent,
}

/// Steps are equal when the game is: the time taken is left out (same seed
/// and same actions give the same record, however long the player thought).
impl PartialEq for WumpusStep {
    fn eq(&self, other: &Self) -> bool {
        self.shown == other.shown && self.action == other.action
    }
}

impl Eq for WumpusStep {}

/// How a game ended.
#[derive(Clone, Debug, PartialEq)]
pub enum Ending {
    /// By the rules: out with the gold, climbed out, died, the cap, an invalid action.
    Rules(StepEnd),
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

/// A finished game: enough to replay it exactly.
#[derive(Clone, Debug, PartialEq)]
pub struct WumpusGame {
    pub seed: u64,
    pub config: WumpusConfig,
    pub world: WumpusWorld,
    pub steps: Vec<WumpusStep>,
    pub ending: Ending,
    pub score: i32,
}

impl WumpusGame {
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

/// The world of the game seeded `seed`: what [`play`] draws first.
pub fn world(config: &WumpusConfig, seed: u64) -> WumpusWorld {
    WumpusWorld::generate(config, &mut ChaCha8Rng::seed_from_u64(seed))
}

/// Plays one game in the world drawn from `seed` with a player in the
/// arena's process. `settings.config` must pass `WumpusConfig::check`.
pub fn play(settings: &WumpusSettings, seed: u64, player: &mut dyn WumpusPlayer) -> WumpusGame {
    play_agent(settings, seed, &mut InProcess::<Wumpus>(player))
}

/// Plays one game in a given world (hand-made worlds in tests) with a
/// player in the arena's process.
pub fn play_in(
    settings: &WumpusSettings,
    seed: u64,
    world: WumpusWorld,
    player: &mut dyn WumpusPlayer,
) -> WumpusGame {
    play_agent_in(settings, seed, world, &mut InProcess::<Wumpus>(player))
}

/// Plays one game in the world drawn from `seed`. The player is told the
/// result at the end.
pub fn play_agent(settings: &WumpusSettings, seed: u64, player: &mut dyn Agent<Wumpus>) -> WumpusGame {
    play_agent_in(settings, seed, world(&settings.config, seed), player)
}

/// Plays one game in a given world.
pub fn play_agent_in(
    settings: &WumpusSettings,
    seed: u64,
    world: WumpusWorld,
    player: &mut dyn Agent<Wumpus>,
) -> WumpusGame {
    let mut state = WumpusState::new(&settings.config, world);
    let mut steps = Vec::new();
    let ending = run(settings, seed, &mut state, &mut steps, player);
    let record = WumpusGame { seed, config: settings.config, world, steps, ending, score: state.score() };
    player.game_over(WumpusOver {
        outcome: record.outcome(),
        score: record.score,
        actions: state.actions(),
        reason: record.ending.to_string().into(),
    });
    record
}

fn run(
    settings: &WumpusSettings,
    seed: u64,
    state: &mut WumpusState,
    steps: &mut Vec<WumpusStep>,
    player: &mut dyn Agent<Wumpus>,
) -> Ending {
    let info = WumpusGameInfo {
        config: settings.config,
        start: WumpusWorld::START,
        arrows: state.arrows(),
        step_budget_us: settings.step_budget.as_micros() as u64,
        seed: seeds::derive(seed, u64::MAX),
    };
    if let (Err(fault), _) = timed(settings.clock, settings.startup_budget, "new_game", || {
        player.new_game(info, settings.startup_budget)
    }) {
        state.forfeit(None);
        return Ending::Fault(fault);
    }
    loop {
        let shown = state.request();
        let (answer, time) =
            timed(settings.clock, settings.step_budget, "step", || player.act(shown, settings.step_budget));
        let action = match answer {
            Ok(action) => action,
            Err(fault) => {
                state.forfeit(None);
                return Ending::Fault(fault);
            }
        };
        steps.push(WumpusStep { shown, action, time });
        let end = match state.check(action) {
            Ok(()) => state.apply(action),
            Err(why) => Some(state.forfeit(Some((action, why)))),
        };
        if let Some(end) = end {
            return Ending::Rules(end);
        }
    }
}
