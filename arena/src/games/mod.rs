//! The games the arena hosts: the table below is the one list of them.
//! Each game is one folder, `games/<game>/`: its glue (`mod.rs`: the game
//! as a type and its `Game`, `LocalGame`, `AbiGame`, `WireGame`,
//! `ReplayGame` and `TwoPlayerGame` or `SinglePlayerGame` impls), its
//! referee, its replay body, its reports, its wire form and its viewer
//! script. The layers below name no game: they are generic over these
//! traits, and what must list every game (`GameId`, `with_game!`, the
//! replay `Body`, the single-player registries) is generated from the
//! table (`game::games!`). A game missing a piece is a compile error.

pub mod hexapawn;
pub mod intuitive;
pub mod magic_forest;
pub mod trap;
pub mod wumpus;

/// The table: a line per game, in the order lists show them. `table!({m}
/// (args))` calls macro `m` with `(args)` and the lines; `game::games!(only
/// single_player {m} (args) lines)` keeps one kind's lines.
macro_rules! table {
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
pub(crate) use table;

table!({crate::game::game_ids} ());

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
        const fn is<G: crate::two_player::TwoPlayerGame>() {}
        is::<$game>();
    }};
}
table!({complete} ());

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
