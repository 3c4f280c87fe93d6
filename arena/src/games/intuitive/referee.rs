//! The Intuitive AI referee: one game on a world drawn from the game's
//! seed, validated, timed, recorded.
//!
//! The world depends on the seed alone, so every player given the same
//! seed plays the same world (the duplicate format of tournaments).

use std::{fmt, time::Duration};

use player_api::{
    intuitive::{
        Cell, IllegalReveal, IntuitiveGame, IntuitiveGameInfo, IntuitiveGameOver, IntuitivePlayer,
        IntuitiveRequest, IntuitiveView, IntuitiveWorld, Revealed, DEFAULT_SIZE,
    },
    Outcome,
};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use crate::referee::{calls::timed, InProcess};
use super::IntuitiveAi;
use crate::{
    clock::{Clock, Spent},
    fault::Fault,
    game::{Agent},
    seeds,
};

/// The settings of an Intuitive AI game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IntuitiveSettings {
    /// Board size N: N x N cells, N pits.
    pub size: u8,
    /// The budget for one reveal.
    pub turn_budget: Duration,
    /// The budget for `new_game` (a player's start-up).
    pub startup_budget: Duration,
    /// The clock budgets are charged on.
    pub clock: Clock,
}

impl Default for IntuitiveSettings {
    fn default() -> Self {
        IntuitiveSettings {
            size: DEFAULT_SIZE,
            turn_budget: Duration::from_secs(5),
            startup_budget: Duration::from_secs(10),
            clock: Clock::Wall,
        }
    }
}

/// One reveal as it was played.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RevealRecord {
    pub cell: Cell,
    pub shown: Revealed,
    /// The time the player used, on both clocks.
    pub time: Spent,
}

/// How a game ended.
#[derive(Clone, Debug, PartialEq)]
pub enum IntuitiveEnding {
    /// The monster was found: a win.
    Monster,
    /// A pit: a loss.
    Pit,
    /// An invalid reveal: a loss with score -1.
    Illegal { cell: Cell, why: IllegalReveal },
    /// The player failed (timeout, panic, ...): a loss with score -1.
    Fault(Fault),
}

impl IntuitiveEnding {
    pub fn outcome(&self) -> Outcome {
        match self {
            IntuitiveEnding::Monster => Outcome::Win,
            _ => Outcome::Loss,
        }
    }
}

impl fmt::Display for IntuitiveEnding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            IntuitiveEnding::Monster => write!(f, "found the monster"),
            IntuitiveEnding::Pit => write!(f, "fell into a pit"),
            IntuitiveEnding::Illegal { cell, why } => write!(f, "illegal reveal {cell}: {why}"),
            IntuitiveEnding::Fault(fault) => write!(f, "{fault}"),
        }
    }
}

/// A finished game: enough to replay it exactly.
#[derive(Clone, Debug, PartialEq)]
pub struct IntuitiveRecord {
    pub seed: u64,
    pub settings: IntuitiveSettings,
    pub world: IntuitiveWorld,
    pub reveals: Vec<RevealRecord>,
    pub ending: IntuitiveEnding,
    pub score: i8,
}

impl IntuitiveRecord {
    /// The views the player was shown, one per request, in order (rebuilt
    /// from the world and the reveals: the rules make them a function of both).
    pub fn views(&self) -> Vec<IntuitiveView> {
        let mut game = IntuitiveGame::new(self.world);
        let mut views = vec![*game.view()];
        for reveal in &self.reveals {
            if game.reveal(reveal.cell).is_ok() && !game.is_over() {
                views.push(*game.view());
            }
        }
        views
    }
}

/// The world of the game seeded `seed`: the arena's first draws.
pub fn world(size: u8, seed: u64) -> IntuitiveWorld {
    IntuitiveWorld::generate(size, &mut ChaCha8Rng::seed_from_u64(seed))
}

/// The seed of the player's own generator in a game seeded `seed`.
pub fn player_seed(seed: u64) -> u64 {
    seeds::derive(seed, u64::MAX)
}

/// Plays one game seeded `seed` with a player in the arena's process.
pub fn play(settings: &IntuitiveSettings, seed: u64, player: &mut dyn IntuitivePlayer) -> IntuitiveRecord {
    play_agent(settings, seed, &mut InProcess::<IntuitiveAi>(player))
}

/// Plays one game seeded `seed`. The player is told the result at the end.
pub fn play_agent(
    settings: &IntuitiveSettings,
    seed: u64,
    agent: &mut dyn Agent<IntuitiveAi>,
) -> IntuitiveRecord {
    play_world(settings, seed, world(settings.size, seed), agent)
}

/// Plays one game on a given world (hand-made worlds in tests and puzzles).
pub fn play_world(
    settings: &IntuitiveSettings,
    seed: u64,
    world: IntuitiveWorld,
    agent: &mut dyn Agent<IntuitiveAi>,
) -> IntuitiveRecord {
    let settings = IntuitiveSettings { size: world.size(), ..*settings };
    let mut game = IntuitiveGame::new(world);
    let mut reveals = Vec::new();
    let ending = run(&settings, seed, &mut game, &mut reveals, agent);
    if !matches!(ending, IntuitiveEnding::Monster | IntuitiveEnding::Pit) {
        game.forfeit();
    }
    let record = IntuitiveRecord { seed, settings, world, reveals, ending, score: game.score() };
    agent.game_over(IntuitiveGameOver {
        outcome: record.ending.outcome(),
        score: record.score,
        turns: record.reveals.len() as u32,
        reason: record.ending.to_string().into(),
    });
    record
}

fn run(
    settings: &IntuitiveSettings,
    seed: u64,
    game: &mut IntuitiveGame,
    reveals: &mut Vec<RevealRecord>,
    agent: &mut dyn Agent<IntuitiveAi>,
) -> IntuitiveEnding {
    let info = IntuitiveGameInfo {
        size: settings.size,
        turn_budget_us: settings.turn_budget.as_micros() as u64,
        seed: player_seed(seed),
    };
    if let (Err(fault), _) = timed(settings.clock, settings.startup_budget, "new_game", || {
        agent.new_game(info, settings.startup_budget)
    }) {
        return IntuitiveEnding::Fault(fault);
    }
    loop {
        let request = IntuitiveRequest {
            view: *game.view(),
            turn: reveals.len() as u32,
            time_left_us: settings.turn_budget.as_micros() as u64,
        };
        let (reply, time) =
            timed(settings.clock, settings.turn_budget, "turn", || agent.act(request, settings.turn_budget));
        let cell = match reply {
            Ok(cell) => cell,
            Err(fault) => return IntuitiveEnding::Fault(fault),
        };
        let shown = match game.reveal(cell) {
            Ok(shown) => shown,
            Err(why) => return IntuitiveEnding::Illegal { cell, why },
        };
        reveals.push(RevealRecord { cell, shown, time });
        match shown {
            Revealed::Monster => return IntuitiveEnding::Monster,
            Revealed::Pit => return IntuitiveEnding::Pit,
            Revealed::Gold | Revealed::Hint(_) => {}
        }
    }
}
