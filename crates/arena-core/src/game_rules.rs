//! The game a match, a series or a tournament plays, with its own
//! settings: what the command line and tournament files both build, from
//! the budgets every game has (`Budgets`) and the rules options only some
//! games have (`GameOptions`). Each game declares the options it owns, and
//! builds its settings from them, in `games/<game>/mod.rs`
//! (`GameSettings`); the one check that an option belongs to the game
//! played is `GameRules::build`'s.

use std::collections::BTreeMap;

use crate::{
    game::{with_game, Game, GameId},
    solo::SoloSettings,
    time_control::TimeControl,
    two_player::TwoPlayerGame,
};

pub use crate::clock::Budgets;

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
    /// Every game's options, one per key, in the table's order (a key two
    /// games share is declared alike: a test checks it), with the games that
    /// have each.
    pub fn every() -> Vec<(&'static GameOption, Vec<GameId>)> {
        let mut every: Vec<(&'static GameOption, Vec<GameId>)> = Vec::new();
        for game in GameId::ALL {
            for option in options_of(game) {
                match every.iter_mut().find(|(o, _)| o.key == option.key) {
                    Some((_, games)) => games.push(game),
                    None => every.push((option, vec![game])),
                }
            }
        }
        every
    }

    /// Every option's key, in the order errors check them.
    pub fn keys() -> Vec<&'static str> {
        GameOptions::every().into_iter().map(|(o, _)| o.key).collect()
    }

    /// Gives option `key` the value `value`; a key no game has, or a value
    /// of the wrong kind, is an error (said without the key: the caller
    /// names it as its user wrote it).
    pub fn set(&mut self, key: &str, value: OptionValue) -> Result<(), String> {
        let Some((option, _)) = GameOptions::every().into_iter().find(|(o, _)| o.key == key) else {
            return Err(format!(
                "no game has such an option (the options: {})",
                GameOptions::keys().join(", ")
            ));
        };
        match (&option.kind, &value) {
            // Which words: the game's own check says (`GameSettings::rules`).
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

    /// Only the options `game` owns (the others left out, not errors).
    pub fn owned_by(&self, game: GameId) -> GameOptions {
        let owned = options_of(game);
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
    /// The rules options it has.
    const OPTIONS: &'static [GameOption];

    /// Its settings from `options` (only options it owns are given: the
    /// ownership check is done) and `budgets`; a bad value is an error.
    fn rules(options: &GameOptions, budgets: Budgets) -> Result<GameRules, OptionError>;
}

/// The rules options game `game` owns.
pub fn options_of(game: GameId) -> &'static [GameOption] {
    with_game!(game, G => <G as GameSettings>::OPTIONS)
}

/// The games that own the option `key`, in `GameId::ALL`'s order.
pub fn owners(key: &str) -> Vec<GameId> {
    GameId::ALL.into_iter().filter(|&g| options_of(g).iter().any(|o| o.key == key)).collect()
}

/// `GameRules`: a variant per two-player line of the games table (its
/// settings), and `Solo` for every single-player game.
macro_rules! game_rules {
    (() $($variant:ident = $game:path, $name:literal, $kind:ident;)*) => {
        /// The game played, with its own settings.
        #[derive(Debug, Clone, PartialEq)]
        pub enum GameRules {
            $($variant(<$game as TwoPlayerGame>::Settings),)*
            Solo(SoloSettings),
        }

        impl GameRules {
            /// The game played.
            pub fn id(&self) -> GameId {
                match self {
                    $(GameRules::$variant(_) => <$game as Game>::ID,)*
                    GameRules::Solo(settings) => settings.id(),
                }
            }

            /// How one turn (a move, a reveal, a step) is timed, for players
            /// without their own control.
            pub fn time_control(&self) -> TimeControl {
                match self {
                    $(GameRules::$variant(settings) => <$game as TwoPlayerGame>::time_control(settings),)*
                    GameRules::Solo(settings) => settings.time_control(),
                }
            }

            /// The course's own graded games (`TwoPlayerGame::COURSE_GRADING`):
            /// the server's default course and its league play the first.
            pub fn course_graded_games() -> Vec<GameId> {
                let mut games = Vec::new();
                $(if <$game as TwoPlayerGame>::COURSE_GRADING { games.push(<$game as Game>::ID); })*
                games
            }

            /// Whether its players learn across a pairing, which is then played
            /// whole and in order, on one thread (`TwoPlayerGame::LEARNS`).
            pub fn learns(&self) -> bool {
                match self {
                    $(GameRules::$variant(_) => <$game as TwoPlayerGame>::LEARNS,)*
                    GameRules::Solo(_) => false,
                }
            }
        }
    };
}
crate::games::table!({crate::game::games} only two_player {game_rules} ());

/// `$two` with `$G` the type of the two-player game `$rules` (a
/// `GameRules`, or a reference to one) plays and `$settings` its settings,
/// or `$solo` with `$settings` the single-player game's: where rules become
/// a game's type, as `with_game!` does for an id.
#[macro_export]
macro_rules! with_rules {
    ($rules:expr, $G:ident, $settings:ident => $two:expr, solo => $solo:expr) => {
        $crate::games::table!({$crate::game::games} only two_player {$crate::game_rules::with_rules_arms}
            ($rules, $G, $settings, $two, $solo))
    };
}
pub use crate::with_rules;

#[doc(hidden)]
#[macro_export]
macro_rules! with_rules_arms {
    (($rules:expr, $G:ident, $settings:ident, $two:expr, $solo:expr)
        $($variant:ident = $game:path, $name:literal, $kind:ident;)*) => {
        match $rules {
            $($crate::game_rules::GameRules::$variant($settings) => {
                type $G = $game;
                $two
            })*
            $crate::game_rules::GameRules::Solo($settings) => $solo,
        }
    };
}
pub use crate::with_rules_arms;

impl GameRules {
    /// The settings of `game` from `options` and `budgets`: an option the
    /// game does not have is an error (the one ownership check, for the
    /// command line and tournament files alike), and so is a bad value.
    pub fn build(game: GameId, options: &GameOptions, budgets: Budgets) -> Result<GameRules, SettingsError> {
        let owned = options_of(game);
        let not_owned = |key: &&str| options.is_given(key) && !owned.iter().any(|o| o.key == *key);
        if let Some(key) = GameOptions::keys().into_iter().find(not_owned) {
            return Err(SettingsError::NotOwned { key, game, owners: owners(key) });
        }
        with_game!(game, G => <G as GameSettings>::rules(options, budgets)).map_err(SettingsError::Bad)
    }

    pub fn name(&self) -> &'static str {
        self.id().name()
    }
}
