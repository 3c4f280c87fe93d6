//! The game played with its own settings (`GameRules`, a variant per line
//! of the table), and what needs every game's options: which game owns an
//! option, and the one check that an option belongs to the game played
//! (`GameRules::build`), for the command line and tournament files alike.

use crate::{
    game::GameId,
    game_rules::{Budgets, GameOption, GameOptions, GameSettings, OptionValue, SettingsError},
    play::time_control::TimeControl,
    play::two_player::TwoPlayerGame,
};

/// Generates `GameRules` from the table: a variant per game, holding its
/// `GameSettings::Settings`.
macro_rules! game_rules {
    (() $($variant:ident = $game:path, $name:literal, $kind:ident;)+) => {
        /// The game played, with its own settings.
        #[derive(Debug, Clone, PartialEq)]
        pub enum GameRules {
            $($variant(<$game as GameSettings>::Settings),)+
        }

        /// The settings of `game` from `options` (the ownership check done).
        fn settings_of(game: GameId, options: &GameOptions, budgets: Budgets)
            -> Result<GameRules, $crate::game_rules::OptionError>
        {
            match game {
                $(GameId::$variant => <$game as GameSettings>::settings(options, budgets).map(GameRules::$variant),)+
            }
        }

        impl GameRules {
            /// The game played.
            pub fn id(&self) -> GameId {
                match self { $(GameRules::$variant(_) => GameId::$variant,)+ }
            }

            /// The course's own graded games (`TwoPlayerGame::COURSE_GRADING`):
            /// the server's default course and its league play the first.
            pub fn course_graded_games() -> Vec<GameId> {
                let mut games = Vec::new();
                $(if $crate::game_kind!($kind,
                    <$game as $crate::play::two_player::TwoPlayerGame>::COURSE_GRADING, false)
                {
                    games.push(GameId::$variant);
                })+
                games
            }
        }
    };
}
crate::game_table!({ game_rules }());

impl GameRules {
    /// The settings of `game` from `options` and `budgets`: an option the
    /// game does not have is an error (the one ownership check, for the
    /// command line and tournament files alike), and so is a bad value.
    pub fn build(game: GameId, options: &GameOptions, budgets: Budgets) -> Result<GameRules, SettingsError> {
        let owned = options_of(game);
        let not_owned = |key: &&str| options.is_given(key) && !owned.iter().any(|o| o.key == *key);
        if let Some(key) = keys().into_iter().find(not_owned) {
            return Err(SettingsError::NotOwned { key, game, owners: owners(key) });
        }
        settings_of(game, options, budgets).map_err(SettingsError::Bad)
    }

    pub fn name(&self) -> &'static str {
        self.id().name()
    }

    /// How one turn (a move, a reveal, a step) is timed, for players
    /// without their own control.
    pub fn time_control(&self) -> TimeControl {
        crate::with_rules!(self, G, settings => <G as TwoPlayerGame>::time_control(settings), solo => settings.budgets.turn)
    }

    /// Whether its players learn across a pairing, which is then played
    /// whole and in order, on one thread (`TwoPlayerGame::LEARNS`).
    pub fn learns(&self) -> bool {
        crate::with_rules!(self, G, _settings => <G as TwoPlayerGame>::LEARNS, solo => false)
    }
}

/// The rules options game `game` owns.
pub fn options_of(game: GameId) -> &'static [GameOption] {
    crate::with_game!(game, G => <G as GameSettings>::OPTIONS)
}

/// The games that own the option `key`, in `GameId::ALL`'s order.
pub fn owners(key: &str) -> Vec<GameId> {
    GameId::ALL.into_iter().filter(|&g| options_of(g).iter().any(|o| o.key == key)).collect()
}

/// Every game's options, one per key, in the table's order (a key two
/// games share is declared alike: a test checks it), with the games that
/// have each.
pub fn every_option() -> Vec<(&'static GameOption, Vec<GameId>)> {
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
    every_option().into_iter().map(|(o, _)| o.key).collect()
}

/// Gives option `key` the value `value` in `options`; a key no game has,
/// or a value of the wrong kind, is an error (said without the key: the
/// caller names it as its user wrote it).
pub fn set_option(options: &mut GameOptions, key: &str, value: OptionValue) -> Result<(), String> {
    let Some((option, _)) = every_option().into_iter().find(|(o, _)| o.key == key) else {
        return Err(format!("no game has such an option (the options: {})", keys().join(", ")));
    };
    options.set(option, value)
}

/// Only the options `game` owns of `options` (the others left out, not
/// errors), for commands that play every game.
pub fn owned_by(options: &GameOptions, game: GameId) -> GameOptions {
    options.owned_by(options_of(game))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::trap::referee::TrapSettings;

    fn build(game: GameId, options: GameOptions) -> Result<GameRules, SettingsError> {
        GameRules::build(game, &options, Budgets::default())
    }

    fn given(key: &str, value: OptionValue) -> GameOptions {
        let mut options = GameOptions::default();
        set_option(&mut options, key, value).unwrap();
        options
    }

    #[test]
    fn every_option_has_an_owner_and_every_game_its_settings() {
        assert_eq!(keys(), ["board_size", "turn_cap", "preset", "largest_forest"]);
        for (option, games) in every_option() {
            assert_eq!(owners(option.key), games);
            for &game in &games {
                let declared = options_of(game).iter().find(|o| o.key == option.key).unwrap();
                assert_eq!(declared.kind, option.kind, "{game} declares {} as the others do", option.key);
            }
        }
        assert_eq!(owners("board_size"), [GameId::Trap, GameId::IntuitiveAi]);
        for game in GameId::ALL {
            let rules = build(game, GameOptions::default()).unwrap();
            assert_eq!(rules.id(), game);
            assert_eq!(rules.time_control(), Budgets::default().turn);
        }
        let trap = build(GameId::Trap, GameOptions::default()).unwrap();
        let GameRules::Trap(settings) = trap else { panic!("{trap:?}") };
        assert_eq!(settings, TrapSettings::default());
    }

    #[test]
    fn an_option_of_another_game_is_named_with_its_owners() {
        let board = given("board_size", OptionValue::Number(5));
        let e = build(GameId::Wumpus, board.clone()).unwrap_err();
        assert_eq!(e.flag_line(), "--board-size: wumpus has no such option (it is for trap, intuitive-ai)");
        assert_eq!(
            e.setting_line(),
            "settings.board_size: wumpus has no board size (it is for trap, intuitive-ai)"
        );
        let cap = given("turn_cap", OptionValue::Number(9));
        assert_eq!(
            build(GameId::Hexapawn, cap.clone()).unwrap_err().setting_line(),
            "settings.turn_cap: hexapawn has no turn cap (it is for trap)"
        );
        assert!(build(GameId::Trap, cap).is_ok());
        assert!(build(GameId::IntuitiveAi, board.clone()).is_ok());
        // Only the options a game owns, for commands that play every game.
        assert_eq!(owned_by(&board, GameId::Wumpus), GameOptions::default());
        assert_eq!(owned_by(&board, GameId::Trap), board);
    }

    #[test]
    fn a_bad_value_is_the_games_own_error() {
        let preset = given("preset", OptionValue::Word("huge".into()));
        assert_eq!(
            build(GameId::Wumpus, preset).unwrap_err().setting_line(),
            "settings.preset: unknown preset \"huge\": use aima or project"
        );
        let board = given("board_size", OptionValue::Number(9));
        assert_eq!(
            build(GameId::Trap, board).unwrap_err().flag_line(),
            "--board-size: board size 9: Trap boards are 3 to 8"
        );
        let huge = given("board_size", OptionValue::Number(300));
        assert_eq!(build(GameId::Trap, huge).unwrap_err().flag_line(), "--board-size: 300 is out of range");
        let mut options = GameOptions::default();
        assert_eq!(
            set_option(&mut options, "colour", OptionValue::Word("red".into())),
            Err("no game has such an option (the options: board_size, turn_cap, preset, largest_forest)"
                .into())
        );
        assert_eq!(
            set_option(&mut options, "preset", OptionValue::Number(1)),
            Err("use aima or project".into())
        );
        assert_eq!(
            set_option(&mut options, "turn_cap", OptionValue::Word("x".into())),
            Err("a whole number is expected".into())
        );
    }
}
