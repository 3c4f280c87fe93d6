//! The Intuitive AI referee: its rules, the reveal and how it ends a game,
//! for the single-player referee (`solo::play`) to drive.

use std::{fmt, time::Duration};

use player_api::{
    intuitive::{
        Cell, IllegalReveal, IntuitiveGame, IntuitiveGameInfo, IntuitiveGameOver, IntuitiveRequest,
        IntuitiveView, IntuitiveWorld, Revealed, DEFAULT_SIZE,
    },
    Outcome,
};
use rand_chacha::ChaCha8Rng;

use crate::replay::live::LiveTurn;
use crate::{
    games::intuitive::IntuitiveAi,
    solo::{Budgeted, DebugAs, Ending, SoloReferee, Timed},
};

/// The rules of an Intuitive AI game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IntuitiveRules {
    /// Board size N: N x N cells, N pits.
    pub size: u8,
}

impl Default for IntuitiveRules {
    fn default() -> Self {
        IntuitiveRules { size: DEFAULT_SIZE }
    }
}

impl DebugAs for IntuitiveRules {
    const NAME: &'static str = "IntuitiveSettings";
    const TURN: &'static str = "turn_budget";

    fn fields(&self, out: &mut fmt::DebugStruct<'_, '_>) {
        out.field("size", &self.size);
    }
}

/// The settings of an Intuitive AI game.
pub type IntuitiveSettings = Budgeted<IntuitiveRules>;

/// One reveal as it was played.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Reveal {
    pub cell: Cell,
    pub shown: Revealed,
}

/// How the rules end a game.
#[derive(Clone, Debug, PartialEq)]
pub enum IntuitiveEnd {
    /// The monster was found: a win.
    Monster,
    /// A pit: a loss.
    Pit,
    /// An invalid reveal: a loss with score -1.
    Illegal { cell: Cell, why: IllegalReveal },
}

impl fmt::Display for IntuitiveEnd {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            IntuitiveEnd::Monster => write!(f, "found the monster"),
            IntuitiveEnd::Pit => write!(f, "fell into a pit"),
            IntuitiveEnd::Illegal { cell, why } => write!(f, "illegal reveal {cell}: {why}"),
        }
    }
}

/// How a game ended; a fault is a loss with score -1.
pub type IntuitiveEnding = Ending<IntuitiveEnd>;

impl IntuitiveEnding {
    pub fn outcome(&self) -> Outcome {
        match self {
            Ending::Rules(IntuitiveEnd::Monster) => Outcome::Win,
            _ => Outcome::Loss,
        }
    }
}

/// A finished game: enough to replay it exactly.
#[derive(Clone, Debug, PartialEq)]
pub struct IntuitiveRecord {
    pub seed: u64,
    /// The settings, with the size of the world played.
    pub settings: IntuitiveSettings,
    pub world: IntuitiveWorld,
    pub reveals: Vec<Timed<Reveal>>,
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

impl SoloReferee for IntuitiveAi {
    type World = IntuitiveWorld;
    type State = IntuitiveGame;
    type Step = Reveal;
    type End = IntuitiveEnd;

    fn draw(rules: &IntuitiveRules, rng: &mut ChaCha8Rng) -> IntuitiveWorld {
        IntuitiveWorld::generate(rules.size, rng)
    }

    fn start(_: &IntuitiveRules, world: &IntuitiveWorld) -> IntuitiveGame {
        IntuitiveGame::new(*world)
    }

    fn info(game: &IntuitiveGame, settings: &IntuitiveSettings, seed: u64) -> IntuitiveGameInfo {
        let size = game.world().size();
        IntuitiveGameInfo {
            size,
            turn_budget_us: settings.budgets.turn.first_turn().as_micros() as u64,
            seed,
        }
    }

    fn request(game: &IntuitiveGame, turn: u32, budget: Duration) -> IntuitiveRequest {
        IntuitiveRequest { view: *game.view(), turn, time_left_us: budget.as_micros() as u64 }
    }

    fn step(
        game: &mut IntuitiveGame,
        _: IntuitiveRequest,
        cell: Cell,
    ) -> (Option<Reveal>, Option<IntuitiveEnd>) {
        match game.reveal(cell) {
            Ok(shown) => {
                let end = match shown {
                    Revealed::Monster => Some(IntuitiveEnd::Monster),
                    Revealed::Pit => Some(IntuitiveEnd::Pit),
                    Revealed::Gold | Revealed::Hint(_) => None,
                };
                (Some(Reveal { cell, shown }), end)
            }
            Err(why) => {
                game.forfeit();
                (None, Some(IntuitiveEnd::Illegal { cell, why }))
            }
        }
    }

    fn forfeit(game: &mut IntuitiveGame) {
        game.forfeit();
    }

    fn live_step(request: &IntuitiveRequest, step: &Timed<Reveal>, _: &IntuitiveGame) -> LiveTurn {
        super::replay::live_step(request, step)
    }

    fn finish(
        seed: u64,
        settings: &IntuitiveSettings,
        world: IntuitiveWorld,
        reveals: Vec<Timed<Reveal>>,
        ending: IntuitiveEnding,
        game: &IntuitiveGame,
    ) -> (IntuitiveRecord, IntuitiveGameOver) {
        let settings = Budgeted { rules: IntuitiveRules { size: world.size() }, ..*settings };
        let record = IntuitiveRecord { seed, settings, world, reveals, ending, score: game.score() };
        let over = IntuitiveGameOver {
            outcome: record.ending.outcome(),
            score: record.score,
            turns: record.reveals.len() as u32,
            reason: record.ending.to_string().into(),
        };
        (record, over)
    }
}
