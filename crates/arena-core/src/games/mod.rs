//! The games the arena hosts: the table below is the one list of them.
//! Each game is one folder, `games/<game>/`: its glue (`mod.rs`: the game
//! as a type and its `Game`, `LocalGame`, `AbiGame`, `WireGame`,
//! `ReplayGame` and `TwoPlayerGame` or `SinglePlayerGame` impls), its
//! referee, its replay body, its reports, its wire form and its viewer
//! script. The layers below name no game: they are generic over these
//! traits. What must list every game is generated from the table, here:
//! `GameRules` (rules.rs), the replay `Body` (replays.rs), and the
//! dispatch the entry points use (`with_game!`, `with_rules!`); `GameId`
//! is generated from its names in `game.rs`, below every layer. A game
//! missing a piece is a compile error.
//!
//! Adding a game, in order:
//!
//! 1. `player-api/src/<game>.rs` (and its folder): its rules as plain
//!    values, its player trait and request types; its constructor in a new
//!    ABI version beside the released ones (`player-api/src/abi/mod.rs`
//!    has the rule: a root module of its own with one `ffi_player!` call
//!    more, its `export_player!` key, its snapshot and frozen fixture;
//!    older libraries lack the game). A released version never changes:
//!    appending to it would refuse every library built before.
//! 2. Reference levels in `players/reference/src/<game>/`, and a line in
//!    each level crate's `export_player!`.
//! 3. Its folder here, `games/<game>/`: `mod.rs` (the game as a type, `pub
//!    enum NewGame {}`, and its `Game`, `LocalGame` and `AbiGame`'s calls
//!    by their names (`player_calls`), `AbiGame`, `WireGame` both ways,
//!    `ReplayGame`, `GameSettings` (its settings, the options it owns),
//!    and `SinglePlayerGame` with its `SoloReferee`, or `TwoPlayerGame`);
//!    `referee.rs` (every call through `referee::calls`); `wire.rs` (its
//!    typed wire forms, each with `deny_unknown_fields`, carried as a
//!    `protocol::Payload`, and a test that its frames are
//!    docs/protocol.md's); `replay.rs` (its `GameBody`); `viewer.js`;
//!    for a two-player game `report.rs` (`arena play`'s lines, its
//!    `LadderReport`).
//! 4. Here: `pub mod <game>;` and its line in the table.
//! 5. Outside the folder, only what the wire lacks: a new kind of request
//!    or reply is a variant of `players/protocol/mod.rs`'s `Request`/`Reply`. Its rules
//!    options become flags and `[settings]` keys by themselves, and the
//!    entry points play it through `with_rules!`. (A throwaway sixth game
//!    needed no other edit of the library's sources than its folder and
//!    its line here: docs/benchmarks.md, "A sixth game, tried again".)
//! 6. Tests: its rules, its referee, its replays' round trip
//!    (`arena/tests/it/replay/`), cases in `arena/tests/it/golden.rs`.
//!    `arena/tests/it/layering.rs` fails if code outside the folder names it.

pub mod hexapawn;
pub mod intuitive;
pub mod magic_forest;
pub mod trap;
pub mod wumpus;

pub mod player_calls;
pub mod replays;
pub mod rules;

use crate::game::GameId;

/// The table: a line per game, in the order lists show them.
/// `game_table!({m} (args))` calls macro `m` with `(args)` and the lines.
/// Expanded here, for what holds or dispatches over the games' types
/// (`GameRules`, the replay `Body`, `with_game!`, `with_rules!`), and in
/// `game.rs` for `GameId`, which reads the names only (every layer names
/// a game by its id; none below this module names a game's type).
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

/// `$two` for a line of kind `two_player`, `$solo` for one of kind
/// `single_player` (the other is not compiled).
#[doc(hidden)]
#[macro_export]
macro_rules! game_kind {
    (two_player, $two:expr, $solo:expr) => {
        $two
    };
    (single_player, $two:expr, $solo:expr) => {
        $solo
    };
}

/// `$body` with `$G` standing for the type of game `$id` (a `GameId`):
/// where a game's id becomes its type, for the entry points. `$body` must
/// compile for every game.
#[macro_export]
macro_rules! with_game {
    ($id:expr, $G:ident => $body:expr) => {
        $crate::game_table!({ $crate::with_game_arms }($id, $G, $body))
    };
}

#[doc(hidden)]
#[macro_export]
macro_rules! with_game_arms {
    (($id:expr, $G:ident, $body:expr) $($variant:ident = $game:path, $name:literal, $kind:ident;)+) => {
        match $id {
            $($crate::game::GameId::$variant => {
                type $G = $game;
                $body
            })+
        }
    };
}

/// `$two` with `$G` the type of the two-player game `$rules` (a
/// `GameRules`, or a reference to one) plays and `$settings` its settings,
/// or `$solo` with `$G` the single-player game's type and `$settings` its
/// settings: where rules become a game's type, for the entry points.
#[macro_export]
macro_rules! with_rules {
    ($rules:expr, $G:ident, $settings:ident => $two:expr, solo => $solo:expr) => {
        $crate::game_table!({ $crate::with_rules_arms }($rules, $G, $settings, $two, $solo))
    };
}

#[doc(hidden)]
#[macro_export]
macro_rules! with_rules_arms {
    (($rules:expr, $G:ident, $settings:ident, $two:expr, $solo:expr)
        $($variant:ident = $game:path, $name:literal, $kind:ident;)+) => {
        match $rules {
            $($crate::games::rules::GameRules::$variant($settings) => {
                // (Unused where an arm of the other kind is taken.)
                #[allow(dead_code)]
                type $G = $game;
                $crate::game_kind!($kind, $two, $solo)
            })+
        }
    };
}

pub use crate::{with_game, with_rules};

impl GameId {
    /// The game commands and files play when they name none: the course's.
    pub const DEFAULT: GameId = GameId::Trap;
}

/// The game the arena's own benchmarks measure with (it implements
/// `benchmarked::BenchmarkedGame`).
pub type Benchmarked = trap::Trap;

/// Each line's type is that game, with every piece the arena needs: a
/// game missing one is a compile error here, not a failure at run time.
macro_rules! complete {
    (() $($variant:ident = $game:path, $name:literal, $kind:ident;)+) => {
        $(const _: () = {
            const fn complete<G: crate::game::Game + crate::players::agent::AbiGame + crate::players::isolation::WireGame
                + crate::replay::ReplayGame + crate::game_rules::GameSettings>() {}
            complete::<$game>();
            complete!(@kind $kind $game);
            assert!(matches!(<$game as crate::game::Game>::ID, crate::game::GameId::$variant), "the table and the type agree");
        };)+
    };
    (@kind single_player $game:path) => {{
        const fn is<G: crate::play::solo::SoloReferee>() {}
        is::<$game>();
    }};
    (@kind two_player $game:path) => {{
        const fn is<G: crate::play::two_player::TwoPlayerGame + crate::strength::bench::LadderReport>() {}
        is::<$game>();
    }};
}
crate::game_table!({ complete }());

/// What the single-player games count of how far a run got, in the
/// table's order (one each at most).
pub fn progress_measures() -> Vec<crate::play::solo::RunMeasure> {
    GameId::ALL.into_iter().filter_map(progress_of).collect()
}

/// What game `game` counts of how far a run got, if it is a single-player
/// game that counts something.
pub fn progress_of(game: GameId) -> Option<crate::play::solo::RunMeasure> {
    macro_rules! progress {
        (($game_id:expr) $($variant:ident = $game:path, $name:literal, $kind:ident;)+) => {
            match $game_id {
                $(crate::game::GameId::$variant => crate::game_kind!($kind, None,
                    <$game as crate::play::solo::SinglePlayerGame>::PROGRESS),)+
            }
        };
    }
    crate::game_table!({ progress }(game))
}

#[cfg(test)]
mod tests {
    use super::*;

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
            assert_eq!(crate::with_game!(game, G => <G as crate::game::Game>::ID), game);
        }
        let solo: Vec<GameId> = GameId::ALL.into_iter().filter(|g| g.is_single_player()).collect();
        assert_eq!(solo, [GameId::IntuitiveAi, GameId::Wumpus, GameId::MagicForest]);
    }
}
