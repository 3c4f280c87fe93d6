//! Where players come from: a built-in reference bot named on the command
//! line (`easy`, `medium`, `hard`), run in-process, or a player library
//! loaded from a path.

use std::{fmt, path::PathBuf, str::FromStr};

use player_api::abi::{trap_player_box, TrapPlayerBox};
use reference_bots::trap::{Easy, Hard, Medium};

use crate::plugin::{LoadError, PlayerLibrary};

/// A reference level, built into the arena.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Level {
    Easy,
    Medium,
    Hard,
}

impl Level {
    pub const ALL: [Level; 3] = [Level::Easy, Level::Medium, Level::Hard];

    pub fn name(self) -> &'static str {
        match self {
            Level::Easy => "easy",
            Level::Medium => "medium",
            Level::Hard => "hard",
        }
    }

    fn new_trap_player(self) -> TrapPlayerBox {
        match self {
            Level::Easy => trap_player_box(Easy::default()),
            Level::Medium => trap_player_box(Medium::default()),
            Level::Hard => trap_player_box(Hard),
        }
    }
}

/// How a player was named: a built-in level or a library path.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum PlayerSpec {
    Builtin(Level),
    Library(PathBuf),
}

impl FromStr for PlayerSpec {
    type Err = String;

    /// A built-in name, or a path. A word that is neither is an error that
    /// lists the built-in names (rather than a confusing "file not found").
    fn from_str(text: &str) -> Result<PlayerSpec, String> {
        if let Some(level) = Level::ALL
            .into_iter()
            .find(|l| l.name() == text.to_ascii_lowercase())
        {
            return Ok(PlayerSpec::Builtin(level));
        }
        let path = PathBuf::from(text);
        let looks_like_path = text.contains(std::path::MAIN_SEPARATOR) || text.contains('.');
        if looks_like_path || path.exists() {
            Ok(PlayerSpec::Library(path))
        } else {
            Err(format!(
                "unknown player '{text}': name a built-in bot (easy, medium, hard) or the path of a player library (.so)"
            ))
        }
    }
}

impl fmt::Display for PlayerSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayerSpec::Builtin(level) => write!(f, "{}", level.name()),
            PlayerSpec::Library(path) => write!(f, "{}", path.display()),
        }
    }
}

/// A player ready to make instances: a built-in level or a loaded library.
#[derive(Clone)]
pub enum Player {
    Builtin(Level),
    Library(PlayerLibrary),
}

impl Player {
    /// Loads the player a spec names.
    pub fn load(spec: &PlayerSpec) -> Result<Player, LoadError> {
        Ok(match spec {
            PlayerSpec::Builtin(level) => Player::Builtin(*level),
            PlayerSpec::Library(path) => Player::Library(PlayerLibrary::load(path)?),
        })
    }

    /// The display name: the level, or the name the library gives itself.
    pub fn name(&self) -> &str {
        match self {
            Player::Builtin(level) => level.name(),
            Player::Library(library) => library.name(),
        }
    }

    /// A fresh Trap player instance.
    pub fn new_trap_player(&self) -> Result<TrapPlayerBox, String> {
        match self {
            Player::Builtin(level) => Ok(level.new_trap_player()),
            Player::Library(library) => library.new_trap_player(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builtin_names_and_paths_are_told_apart() {
        assert_eq!("hard".parse(), Ok(PlayerSpec::Builtin(Level::Hard)));
        assert_eq!("Easy".parse(), Ok(PlayerSpec::Builtin(Level::Easy)));
        assert_eq!(
            "./bot.so".parse(),
            Ok(PlayerSpec::Library(PathBuf::from("./bot.so")))
        );
        let err = "expert".parse::<PlayerSpec>().unwrap_err();
        assert!(
            err.contains("unknown player 'expert'") && err.contains("easy, medium, hard"),
            "{err}"
        );
    }
}
