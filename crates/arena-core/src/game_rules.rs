//! What a game's settings are built from: the budgets every game has
//! (`Budgets`) and the rules options only some games have (`GameOptions`).
//! Each game declares the options it owns, and builds its settings from
//! them, in `games/<game>/mod.rs` (`GameSettings`); the game played with
//! its settings (`GameRules`) and the one check that an option belongs to
//! the game played (`GameRules::build`) are the table's (`games/rules.rs`).

use std::{collections::BTreeMap, fmt::Debug};

use crate::game::{Game, GameId};

pub use crate::play::clock::Budgets;

/// A rules option a game has, as the game declares it
/// (`GameSettings::OPTIONS`): the command line's flags and tournament
/// files' `[settings]` keys are made from these.
#[derive(Debug)]
pub struct GameOption {
    /// Its key in tournament files (`board_size`); its flag is `--board-size`.
    pub key: &'static str,
    pub kind: OptionKind,
    /// What `--help` says of it for this game ("the board size N (N x N),
    /// 3 to 8; default 7"); the flag's help names each game that has it.
    pub help: &'static str,
}

/// The values an option takes.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum OptionKind {
    /// A whole number (each game checks its range).
    Number,
    /// One of these words.
    Word(&'static [&'static str]),
}

/// An option's value as given.
#[derive(Debug, Clone, PartialEq)]
pub enum OptionValue {
    Number(u64),
    Word(String),
}

impl OptionValue {
    /// The value a TOML file gives (a tournament's or a course's
    /// `[settings]`): a number or a word.
    pub fn from_toml(value: &toml::Value) -> Result<OptionValue, String> {
        match value {
            toml::Value::Integer(n) => {
                u64::try_from(*n).map(OptionValue::Number).map_err(|_| format!("{n} is out of range"))
            }
            toml::Value::String(word) => Ok(OptionValue::Word(word.clone())),
            other => Err(format!("a {} is not a value of it", other.type_str())),
        }
    }
}

/// The rules options a command line or a tournament file gives, each of
/// some games only (the games say which: `GameSettings::OPTIONS`); an
/// option not given means the game's default.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct GameOptions {
    given: BTreeMap<&'static str, OptionValue>,
}

impl GameOptions {
    /// Gives `option` the value `value`; a value of the wrong kind is an
    /// error (said without the key: the caller names it as its user wrote
    /// it). Which option a key is, is the table's (`games::rules::option`).
    pub fn set(&mut self, option: &'static GameOption, value: OptionValue) -> Result<(), String> {
        match (&option.kind, &value) {
            // Which words: the game's own check says (`GameSettings::settings`).
            (OptionKind::Number, OptionValue::Number(_)) | (OptionKind::Word(_), OptionValue::Word(_)) => {}
            (OptionKind::Number, _) => return Err("a whole number is expected".to_string()),
            (OptionKind::Word(words), _) => return Err(format!("use {}", words.join(" or "))),
        }
        self.given.insert(option.key, value);
        Ok(())
    }

    /// Whether the option `key` is given.
    pub fn is_given(&self, key: &str) -> bool {
        self.given.contains_key(key)
    }

    /// The number given for `key`, if any, as a `T`: too large a number is
    /// an error.
    pub fn number<T: TryFrom<u64>>(&self, key: &'static str) -> Result<Option<T>, OptionError> {
        match self.given.get(key) {
            Some(OptionValue::Number(n)) => T::try_from(*n)
                .map(Some)
                .map_err(|_| OptionError { key, message: format!("{n} is out of range") }),
            _ => Ok(None),
        }
    }

    /// The word given for `key`, if any.
    pub fn word(&self, key: &str) -> Option<&str> {
        match self.given.get(key) {
            Some(OptionValue::Word(word)) => Some(word),
            _ => None,
        }
    }

    /// Only the options in `owned` (the others left out, not errors).
    pub fn owned_by(&self, owned: &[GameOption]) -> GameOptions {
        let given = self
            .given
            .iter()
            .filter(|(key, _)| owned.iter().any(|o| o.key == **key))
            .map(|(key, value)| (*key, value.clone()))
            .collect();
        GameOptions { given }
    }
}

/// A bad value of an option a game owns: the option's key (`board_size`,
/// `preset`, ...) and what is wrong with it.
#[derive(Debug, Clone, PartialEq)]
pub struct OptionError {
    pub key: &'static str,
    pub message: String,
}

/// An option the game played does not have, or a bad value of one it has.
#[derive(Debug, Clone, PartialEq)]
pub enum SettingsError {
    /// `key` was given to `game`, which does not have it; `owners` do.
    NotOwned {
        key: &'static str,
        game: GameId,
        owners: Vec<GameId>,
    },
    Bad(OptionError),
}

impl SettingsError {
    /// The error as the command line says it: `--board-size: wumpus has no
    /// such option (it is for trap, intuitive-ai)`.
    pub fn flag_line(&self) -> String {
        let flag = |key: &str| format!("--{}", key.replace('_', "-"));
        match self {
            SettingsError::NotOwned { key, game, owners } => {
                format!("{}: {game} has no such option (it is for {})", flag(key), names(owners))
            }
            SettingsError::Bad(e) => format!("{}: {}", flag(e.key), e.message),
        }
    }

    /// The error as a tournament file's check says it:
    /// `settings.turn_cap: hexapawn has no turn cap (it is for trap)`.
    pub fn setting_line(&self) -> String {
        match self {
            SettingsError::NotOwned { key, game, owners } => format!(
                "settings.{key}: {game} has no {} (it is for {})",
                key.replace('_', " "),
                names(owners)
            ),
            SettingsError::Bad(e) => format!("settings.{}: {}", e.key, e.message),
        }
    }
}

fn names(games: &[GameId]) -> String {
    games.iter().map(|g| g.name()).collect::<Vec<_>>().join(", ")
}

/// A game's own settings: the rules options it owns, declared once, and
/// its settings built from them and the budgets. Each game's impl is in
/// `games/<game>/mod.rs`.
pub trait GameSettings: Game {
    /// The game's settings, as its driver plays them (`TwoPlayerGame::
    /// Settings`, or a single-player game's `SoloSettings`).
    type Settings: Clone + Debug + PartialEq;
    /// The rules options it has.
    const OPTIONS: &'static [GameOption];

    /// Its settings from `options` (only options it owns are given: the
    /// ownership check is done) and `budgets`; a bad value is an error.
    fn settings(options: &GameOptions, budgets: Budgets) -> Result<Self::Settings, OptionError>;
}
