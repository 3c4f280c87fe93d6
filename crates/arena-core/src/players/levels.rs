//! The built-in reference bots, by level: Easy, Medium, Hard (and Expert).
//! Each game makes its level's player box (`AbiGame::builtin`). Below `players` and
//! `isolation`, which both name levels.

/// A reference level, built into the arena.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Level {
    Easy,
    Medium,
    Hard,
    /// Beyond the course: the strongest bot we build (not part of grading).
    Expert,
    /// Gardner's matchbox learner (Hexapawn only): learns from its losses,
    /// and, with `--memory`, across matches.
    Menace,
}

impl Level {
    /// The course's three levels: the ladder a student is graded against.
    pub const ALL: [Level; 3] = [Level::Easy, Level::Medium, Level::Hard];
    /// Every built-in bot, by name.
    pub const BUILTIN: [Level; 5] = [Level::Easy, Level::Medium, Level::Hard, Level::Expert, Level::Menace];

    pub fn name(self) -> &'static str {
        match self {
            Level::Easy => "easy",
            Level::Medium => "medium",
            Level::Hard => "hard",
            Level::Expert => "expert",
            Level::Menace => "menace",
        }
    }

    /// The built-in level named `name`.
    pub fn parse(name: &str) -> Option<Level> {
        Level::BUILTIN.into_iter().find(|l| l.name() == name)
    }
}

/// The course's pass marks, out of 10 games per level.
pub fn needed_wins(level: Level) -> u32 {
    match level {
        Level::Easy => 6,
        Level::Medium => 4,
        Level::Hard => 2,
        // Not one of the course's levels: nothing to pass.
        Level::Expert | Level::Menace => 0,
    }
}

/// The course's marks scaled to `games` per level: `needed_wins` of 10,
/// rounded up (6, 4 and 2 of 10 are 3, 2 and 1 of 4).
pub fn default_wins(levels: &[Level], games: u32) -> Vec<u32> {
    // In u64: no overflow however many games (the result is at most 0.6 x games).
    levels
        .iter()
        .map(|&level| (u64::from(needed_wins(level)) * u64::from(games)).div_ceil(10) as u32)
        .collect()
}
