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

    /// The built-in level named `name`.
    pub fn parse(name: &str) -> Option<Level> {
        Level::BUILTIN.into_iter().find(|l| l.name() == name)
    }
}
