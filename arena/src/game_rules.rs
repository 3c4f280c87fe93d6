//! The game a match, a series or a tournament plays, with its own
//! settings: what the command line and tournament files both build, from
//! the budgets every game has (`Budgets`) and the rules options only some
//! games have (`GameOptions`). Each game declares the options it owns, and
//! builds its settings from them, in `games/<game>/mod.rs`
//! (`GameSettings`); the one check that an option belongs to the game
//! played is `GameRules::build`'s.

use std::time::Duration;

use crate::{
    game::{with_game, Game, GameId},
    solo::SoloSettings,
    two_player::TwoPlayerGame,
};

pub use crate::clock::Budgets;

/// The rules options a command line or a tournament file gives, each of
/// some games only (the games say which: `GameSettings::OPTIONS`); `None`
/// means the game's default.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct GameOptions {
    /// Trap, Intuitive AI: the board size N (N x N).
    pub board_size: Option<u8>,
    /// Trap: turns after which a game is a draw.
    pub turn_cap: Option<u32>,
    /// Wumpus World: `aima` (default) or `project`.
    pub preset: Option<String>,
    /// Magic Forest: the size of the last (largest) forest.
    pub largest_forest: Option<u8>,
}

impl GameOptions {
    /// Every option's key, in the order errors check them.
    pub const KEYS: [&'static str; 4] = ["board_size", "turn_cap", "preset", "largest_forest"];

    /// Whether the option `key` is given.
    pub fn is_given(&self, key: &str) -> bool {
        match key {
            "board_size" => self.board_size.is_some(),
            "turn_cap" => self.turn_cap.is_some(),
            "preset" => self.preset.is_some(),
            "largest_forest" => self.largest_forest.is_some(),
            _ => false,
        }
    }

    /// Only the options `game` owns (the others left out, not errors).
    pub fn owned_by(&self, game: GameId) -> GameOptions {
        let keep = |key: &str| options_of(game).contains(&key);
        GameOptions {
            board_size: self.board_size.filter(|_| keep("board_size")),
            turn_cap: self.turn_cap.filter(|_| keep("turn_cap")),
            preset: self.preset.clone().filter(|_| keep("preset")),
            largest_forest: self.largest_forest.filter(|_| keep("largest_forest")),
        }
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
    /// The keys of the `GameOptions` it has.
    const OPTIONS: &'static [&'static str];

    /// Its settings from `options` (only options it owns are given: the
    /// ownership check is done) and `budgets`; a bad value is an error.
    fn rules(options: &GameOptions, budgets: Budgets) -> Result<GameRules, OptionError>;
}

/// The rules options game `game` owns.
pub fn options_of(game: GameId) -> &'static [&'static str] {
    with_game!(game, G => <G as GameSettings>::OPTIONS)
}

/// The games that own the option `key`, in `GameId::ALL`'s order.
pub fn owners(key: &str) -> Vec<GameId> {
    GameId::ALL.into_iter().filter(|&g| options_of(g).contains(&key)).collect()
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

            /// The budget of one turn (a move, a reveal, a step).
            pub fn turn_budget(&self) -> Duration {
                match self {
                    $(GameRules::$variant(settings) => <$game as TwoPlayerGame>::turn_budget(settings),)*
                    GameRules::Solo(settings) => settings.turn_budget(),
                }
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

impl GameRules {
    /// The settings of `game` from `options` and `budgets`: an option the
    /// game does not have is an error (the one ownership check, for the
    /// command line and tournament files alike), and so is a bad value.
    pub fn build(game: GameId, options: &GameOptions, budgets: Budgets) -> Result<GameRules, SettingsError> {
        let owned = options_of(game);
        if let Some(key) = GameOptions::KEYS.into_iter().find(|k| options.is_given(k) && !owned.contains(k)) {
            return Err(SettingsError::NotOwned { key, game, owners: owners(key) });
        }
        with_game!(game, G => <G as GameSettings>::rules(options, budgets)).map_err(SettingsError::Bad)
    }

    pub fn name(&self) -> &'static str {
        self.id().name()
    }
}
