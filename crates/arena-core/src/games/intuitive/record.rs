//! What a game of Intuitive AI leaves: its settings, its steps, how it ended,
//! the record the replay and the reports read (below the referee, which
//! makes it, and the replay, which reads it).

use std::fmt;

use player_api::{
    intuitive::{Cell, IllegalReveal, IntuitiveGame, IntuitiveView, IntuitiveWorld, Revealed, DEFAULT_SIZE},
    Outcome,
};

use crate::play::solo::{Budgeted, DebugAs, Ending, Timed};

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
