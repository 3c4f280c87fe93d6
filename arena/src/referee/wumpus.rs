//! The Wumpus World referee: one game, validated, timed and recorded.

use std::{
    fmt,
    time::{Duration, Instant},
};

use player_api::{
    wumpus::{
        StepEnd, WumpusAction, WumpusConfig, WumpusGameInfo, WumpusOver, WumpusPlayer, WumpusRequest,
        WumpusState, WumpusWorld,
    },
    Outcome,
};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use crate::{fault::Fault, seeds};

/// The settings of a Wumpus World game.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WumpusSettings {
    /// The rules: a preset (`WumpusConfig::aima()`, `::project()`) or a variant of one.
    pub config: WumpusConfig,
    pub step_budget: Duration,
    /// The budget for `new_game` (a player's start-up).
    pub startup_budget: Duration,
}

impl Default for WumpusSettings {
    fn default() -> Self {
        WumpusSettings {
            config: WumpusConfig::aima(),
            step_budget: Duration::from_secs(5),
            startup_budget: Duration::from_secs(10),
        }
    }
}

/// A Wumpus player as the referee drives it. Every player type is one (in
/// process, a call cannot fail); the integration layer adds workers.
pub trait WumpusAgent {
    fn new_game(&mut self, info: &WumpusGameInfo) -> Result<(), Fault>;
    fn step(&mut self, req: &WumpusRequest) -> Result<WumpusAction, Fault>;
    fn game_over(&mut self, result: &WumpusOver);
}

impl<P: WumpusPlayer + ?Sized> WumpusAgent for P {
    fn new_game(&mut self, info: &WumpusGameInfo) -> Result<(), Fault> {
        WumpusPlayer::new_game(self, info);
        Ok(())
    }

    fn step(&mut self, req: &WumpusRequest) -> Result<WumpusAction, Fault> {
        Ok(WumpusPlayer::step(self, req))
    }

    fn game_over(&mut self, result: &WumpusOver) {
        WumpusPlayer::game_over(self, result)
    }
}

/// One step as it was played: what the player was shown, what it did.
#[derive(Clone, Copy, Debug)]
pub struct WumpusStep {
    pub shown: WumpusRequest,
    pub action: WumpusAction,
    /// Wall-clock time the player took to answer.
    pub time: Duration,
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

/// Plays one game in the world drawn from `seed`. `settings.config` must
/// pass `WumpusConfig::check`. The player is told the result at the end.
pub fn play(settings: &WumpusSettings, seed: u64, player: &mut dyn WumpusAgent) -> WumpusGame {
    play_in(settings, seed, world(&settings.config, seed), player)
}

/// Plays one game in a given world (for hand-made worlds in tests).
pub fn play_in(
    settings: &WumpusSettings,
    seed: u64,
    world: WumpusWorld,
    player: &mut dyn WumpusAgent,
) -> WumpusGame {
    let mut state = WumpusState::new(&settings.config, world);
    let mut steps = Vec::new();
    let ending = run(settings, seed, &mut state, &mut steps, player);
    let record = WumpusGame { seed, config: settings.config, world, steps, ending, score: state.score() };
    player.game_over(&WumpusOver {
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
    player: &mut dyn WumpusAgent,
) -> Ending {
    let info = WumpusGameInfo {
        config: settings.config,
        start: WumpusWorld::START,
        arrows: state.arrows(),
        step_budget_us: settings.step_budget.as_micros() as u64,
        seed: seeds::derive(seed, u64::MAX),
    };
    if let Err(fault) = timed("new_game", settings.startup_budget, || player.new_game(&info)) {
        state.forfeit(None);
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

/// Runs one player call under a budget: the one place the referee calls the player.
pub(crate) fn timed<T>(
    what: &'static str,
    budget: Duration,
    call: impl FnOnce() -> Result<T, Fault>,
) -> Result<T, Fault> {
    let started = Instant::now();
    let answer = call()?;
    let used = started.elapsed();
    if used > budget {
        return Err(Fault::Timeout { what, used, budget, killed: false });
    }
    Ok(answer)
}
