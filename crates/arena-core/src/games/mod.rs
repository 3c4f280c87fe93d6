//! The games the arena hosts: the table below is the one list of them.
//! Each game is one folder, `games/<game>/`: its glue (`mod.rs`: the game
//! as a type and its `Game`, `LocalGame`, `AbiGame`, `WireGame`,
//! `ReplayGame` and `TwoPlayerGame` or `SinglePlayerGame` impls), its
//! referee, its replay body, its reports, its wire form and its viewer
//! script. The layers below name no game: they are generic over these
//! traits, and what must list every game (`GameId`, `with_game!`, the
//! replay `Body`, the single-player registries) is generated from the
//! table (`game::games!`). A game missing a piece is a compile error.
//!
//! Adding a game, in order:
//!
//! 1. `player-api/src/<game>.rs` (and its folder): its rules as plain
//!    values, its player trait and request types; in `abi.rs` one
//!    `ffi_player!` call, a constructor field appended to `PlayerLib` and
//!    its `export_player!` key (then bless `player-api/tests/abi_layout.txt`).
//!    Appending keeps libraries built later loadable in older arenas, but
//!    refuses those built before until they are rebuilt (abi_stable's
//!    check: player-api/src/abi.rs); changing a field breaks both ways.
//! 2. Reference levels in `players/reference/src/<game>/`, and a line in
//!    each level crate's `export_player!`.
//! 3. Its folder here, `games/<game>/`: `mod.rs` (the game as a type, `pub
//!    enum NewGame {}`, and its `Game`, `LocalGame`, `AbiGame`, `WireGame`
//!    both ways, `ReplayGame`, `GameSettings` (the rules options it owns),
//!    and `SinglePlayerGame` with its `SoloReferee`, or `TwoPlayerGame`);
//!    `referee.rs` (every call through `referee::calls`); `wire.rs` (its
//!    typed wire forms, each with `deny_unknown_fields`, carried as a
//!    `protocol::Payload`, and a test that its frames are
//!    docs/protocol.md's); `replay.rs` (its `ReplayBody`); `viewer.js`;
//!    for a two-player game `report.rs` (`arena play`'s lines, its
//!    `LadderReport`).
//! 4. Here: `pub mod <game>;` and its line in the table.
//! 5. Outside the folder, only what the wire lacks: a new kind of request
//!    or reply is a variant of `protocol.rs`'s `Request`/`Reply`. Its rules
//!    options become flags and `[settings]` keys by themselves, and the
//!    drivers play it through `with_rules!`. (A throwaway sixth game needed
//!    no other edit in `arena/src`: docs/benchmarks.md, "A game is one
//!    folder".)
//! 6. Tests: its rules, its referee, its replays' round trip
//!    (`arena/tests/it/replay/`), cases in `arena/tests/it/golden.rs`.
//!    `arena/tests/it/layering.rs` fails if code outside the folder names it.

pub mod hexapawn;
pub mod intuitive;
pub mod magic_forest;
pub mod trap;
pub mod wumpus;

/// The table: a line per game, in the order lists show them. `table!({m}
/// (args))` calls macro `m` with `(args)` and the lines; `game::games!(only
/// single_player {m} (args) lines)` keeps one kind's lines. (Exported for
/// the binary's `with_rules!`, as `arena::game_table!`.)
#[doc(hidden)]
#[macro_export]
macro_rules! game_table {
    ({$($callback:tt)*} $($args:tt)*) => {
        $($callback)*! {
            $($args)*
            // id        = its type,                            name,           how it is played
            Trap        = $crate::games::trap::Trap,            "trap",         two_player;
            IntuitiveAi = $crate::games::intuitive::IntuitiveAi, "intuitive-ai", single_player;
            Hexapawn    = $crate::games::hexapawn::Hexapawn,    "hexapawn",     two_player;
            Wumpus      = $crate::games::wumpus::Wumpus,        "wumpus",       single_player;
            MagicForest = $crate::games::magic_forest::MagicForest, "magic-forest", single_player;
        }
    };
}
pub use crate::game_table as table;

table!({ crate::game::game_ids }());

impl GameId {
    /// The game commands and files play when they name none: the course's.
    pub const DEFAULT: GameId = GameId::Trap;
}

/// The game the arena's own benchmarks measure with
/// (`benchmarked::Benchmarked`; it implements `BenchmarkedGame`).
pub type BenchmarkedGameType = trap::Trap;

/// Each line's type is that game, with every piece the arena needs: a
/// game missing one is a compile error here, not a failure at run time.
macro_rules! complete {
    (() $($variant:ident = $game:path, $name:literal, $kind:ident;)+) => {
        $(const _: () = {
            const fn complete<G: crate::game::Game + crate::agent::AbiGame + crate::isolation::WireGame
                + crate::replay::ReplayGame>() {}
            complete::<$game>();
            complete!(@kind $kind $game);
            assert!(matches!(<$game as crate::game::Game>::ID, GameId::$variant), "the table and the type agree");
        };)+
    };
    (@kind single_player $game:path) => {{
        const fn is<G: crate::solo::SinglePlayerGame>() {}
        is::<$game>();
    }};
    (@kind two_player $game:path) => {{
        const fn is<G: crate::two_player::TwoPlayerGame + crate::bench::LadderReport>() {}
        is::<$game>();
    }};
}
table!({ complete }());

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::with_game;

    #[test]
    fn names_parse_back_and_match_serde() {
        for game in GameId::ALL {
            assert_eq!(GameId::parse(game.name()), Some(game));
            assert_eq!(serde_json::to_string(&game).unwrap(), format!("\"{game}\""));
            assert_eq!(
                <GameId as clap::ValueEnum>::to_possible_value(&game).unwrap().get_name(),
                game.name()
            );
        }
        assert_eq!(
            "chess".parse::<GameId>().unwrap_err(),
            "unknown game 'chess': use trap, intuitive-ai, hexapawn, wumpus, magic-forest"
        );
        for game in GameId::ALL {
            assert_eq!(with_game!(game, G => <G as crate::game::Game>::ID), game);
        }
        let solo: Vec<GameId> = GameId::ALL.into_iter().filter(|g| g.is_single_player()).collect();
        assert_eq!(solo, [GameId::IntuitiveAi, GameId::Wumpus, GameId::MagicForest]);
    }
}

/// The one ownership check, with the table's games (game_rules.rs).
#[cfg(test)]
mod settings_tests {
    use crate::{
        game_rules::*,
        games::{trap::referee::TrapSettings, GameId},
    };

    fn build(game: GameId, options: GameOptions) -> Result<GameRules, SettingsError> {
        GameRules::build(game, &options, Budgets::default())
    }

    fn given(key: &str, value: OptionValue) -> GameOptions {
        let mut options = GameOptions::default();
        options.set(key, value).unwrap();
        options
    }

    #[test]
    fn every_option_has_an_owner_and_every_game_its_settings() {
        assert_eq!(GameOptions::keys(), ["board_size", "turn_cap", "preset", "largest_forest"]);
        for (option, games) in GameOptions::every() {
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
        assert_eq!(board.owned_by(GameId::Wumpus), GameOptions::default());
        assert_eq!(board.owned_by(GameId::Trap), board);
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
            options.set("colour", OptionValue::Word("red".into())),
            Err("no game has such an option (the options: board_size, turn_cap, preset, largest_forest)"
                .into())
        );
        assert_eq!(options.set("preset", OptionValue::Number(1)), Err("use aima or project".into()));
        assert_eq!(
            options.set("turn_cap", OptionValue::Word("x".into())),
            Err("a whole number is expected".into())
        );
    }
}
