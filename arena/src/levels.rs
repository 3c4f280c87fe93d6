//! The built-in reference bots, by level: each game's Easy, Medium, Hard
//! (and Expert) as a player box in this process. Below `players` and
//! `isolation`, which both name levels.

use player_api::abi::{
    forest_player_box, hexapawn_player_box, intuitive_player_box, trap_player_box, wumpus_player_box,
    ForestPlayerBox, HexapawnPlayerBox, IntuitivePlayerBox, TrapPlayerBox, WumpusPlayerBox,
};
use reference_bots::trap::{Easy, Expert, Hard, Medium};

/// A reference level, built into the arena.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Level {
    Easy,
    Medium,
    Hard,
    /// Beyond the course: the strongest bot we build (not part of grading).
    Expert,
}

impl Level {
    /// The course's three levels: the ladder a student is graded against.
    pub const ALL: [Level; 3] = [Level::Easy, Level::Medium, Level::Hard];
    /// Every built-in bot, by name.
    pub const BUILTIN: [Level; 4] = [Level::Easy, Level::Medium, Level::Hard, Level::Expert];

    pub fn name(self) -> &'static str {
        match self {
            Level::Easy => "easy",
            Level::Medium => "medium",
            Level::Hard => "hard",
            Level::Expert => "expert",
        }
    }

    /// This level as an Intuitive AI player in this process.
    pub fn new_intuitive_player(self) -> IntuitivePlayerBox {
        use reference_bots::intuitive as bots;
        match self {
            Level::Easy => intuitive_player_box(bots::Easy::default()),
            Level::Medium => intuitive_player_box(bots::Medium::default()),
            Level::Hard => intuitive_player_box(bots::Hard),
            Level::Expert => intuitive_player_box(bots::Expert::default()),
        }
    }

    /// This level as a Hexapawn player in this process. Hard already plays
    /// perfectly, so Expert plays as Hard.
    pub fn new_hexapawn_player(self) -> HexapawnPlayerBox {
        use reference_bots::hexapawn as bots;
        match self {
            Level::Easy => hexapawn_player_box(bots::Easy::default()),
            Level::Medium => hexapawn_player_box(bots::Medium::default()),
            Level::Hard | Level::Expert => hexapawn_player_box(bots::Hard::default()),
        }
    }

    /// This level as a Wumpus World player in this process. The game has
    /// three levels; Expert plays as Hard, the strongest.
    pub fn new_wumpus_player(self) -> WumpusPlayerBox {
        use reference_bots::wumpus as bots;
        match self {
            Level::Easy => wumpus_player_box(bots::Easy::default()),
            Level::Medium => wumpus_player_box(bots::Medium::default()),
            Level::Hard | Level::Expert => wumpus_player_box(bots::Hard::default()),
        }
    }

    /// This level as a Magic Forest player in this process. The game has
    /// three levels; Expert plays as Hard, the strongest.
    pub fn new_forest_player(self) -> ForestPlayerBox {
        use reference_bots::magic_forest as bots;
        match self {
            Level::Easy => forest_player_box(bots::Easy::default()),
            Level::Medium => forest_player_box(bots::Medium::default()),
            Level::Hard | Level::Expert => forest_player_box(bots::Hard::default()),
        }
    }

    /// This level as a Trap player in this process.
    pub fn new_trap_player(self) -> TrapPlayerBox {
        match self {
            Level::Easy => trap_player_box(Easy::default()),
            Level::Medium => trap_player_box(Medium),
            Level::Hard => trap_player_box(Hard),
            Level::Expert => trap_player_box(Expert::default()),
        }
    }
}
