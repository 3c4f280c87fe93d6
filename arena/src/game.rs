//! The games the arena hosts: their ids (the one list that the command
//! line, tournament files, replays, the protocol and the worker read), each
//! game as a type (`Trap`, `Hexapawn`, ...), and `Agent`, a player of a game
//! as a referee drives it, wherever the player runs. Each game's glue (its
//! types, its ABI calls, its wire form) lives in `games/<game>.rs`.

use std::{fmt, str::FromStr, time::Duration};

use serde::{Deserialize, Serialize};

use crate::fault::Fault;

/// A game the arena hosts.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, clap::ValueEnum,
)]
#[serde(rename_all = "kebab-case")]
pub enum GameId {
    Trap,
    IntuitiveAi,
    Hexapawn,
    Wumpus,
    MagicForest,
}

impl GameId {
    /// Every game, in the order lists show them.
    pub const ALL: [GameId; 5] =
        [GameId::Trap, GameId::IntuitiveAi, GameId::Hexapawn, GameId::Wumpus, GameId::MagicForest];

    /// Its name: `trap`, `intuitive-ai`, `hexapawn`, `wumpus`, `magic-forest`.
    pub const fn name(self) -> &'static str {
        match self {
            GameId::Trap => "trap",
            GameId::IntuitiveAi => "intuitive-ai",
            GameId::Hexapawn => "hexapawn",
            GameId::Wumpus => "wumpus",
            GameId::MagicForest => "magic-forest",
        }
    }

    /// The game named `name`, if any.
    pub fn parse(name: &str) -> Option<GameId> {
        GameId::ALL.into_iter().find(|g| g.name() == name)
    }

    /// Whether one player plays it alone (scored over seeded worlds), as
    /// opposed to two players against each other.
    pub const fn is_single_player(self) -> bool {
        matches!(self, GameId::IntuitiveAi | GameId::Wumpus | GameId::MagicForest)
    }

    /// Every game's name, joined by `sep` (for messages).
    pub fn names(sep: &str) -> String {
        GameId::ALL.map(GameId::name).join(sep)
    }
}

impl fmt::Display for GameId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for GameId {
    type Err = String;

    fn from_str(name: &str) -> Result<GameId, String> {
        GameId::parse(name).ok_or_else(|| format!("unknown game '{name}': use {}", GameId::names(", ")))
    }
}

/// A game as the arena drives a player through it: what the player is
/// told when a game starts (`Info`), asked at each turn or step
/// (`Request`), answers (`Action`) and told at the end (`Over`).
/// Implemented in `games/<game>.rs`.
pub trait Game: Copy + fmt::Debug + 'static {
    const ID: GameId;
    type Info;
    type Request;
    type Action;
    type Over;
}

/// Trap: 7x7, move then throw a trap (`games/trap.rs`).
#[derive(Clone, Copy, Debug)]
pub enum Trap {}
/// Intuitive AI: reveal cells of a hidden grid (`games/intuitive.rs`).
#[derive(Clone, Copy, Debug)]
pub enum IntuitiveAi {}
/// Hexapawn: 3x3 pawns (`games/hexapawn.rs`).
#[derive(Clone, Copy, Debug)]
pub enum Hexapawn {}
/// Wumpus World (`games/wumpus.rs`).
#[derive(Clone, Copy, Debug)]
pub enum Wumpus {}
/// Magic Forest (`games/magic_forest.rs`).
#[derive(Clone, Copy, Debug)]
pub enum MagicForest {}

/// `$body` with `$G` standing for the type of game `$id` (a `GameId`):
/// the one place a game's id becomes its type. `$body` must compile for
/// every game.
macro_rules! with_game {
    ($id:expr, $G:ident => $body:expr) => {
        match $id {
            $crate::game::GameId::Trap => {
                type $G = $crate::game::Trap;
                $body
            }
            $crate::game::GameId::IntuitiveAi => {
                type $G = $crate::game::IntuitiveAi;
                $body
            }
            $crate::game::GameId::Hexapawn => {
                type $G = $crate::game::Hexapawn;
                $body
            }
            $crate::game::GameId::Wumpus => {
                type $G = $crate::game::Wumpus;
                $body
            }
            $crate::game::GameId::MagicForest => {
                type $G = $crate::game::MagicForest;
                $body
            }
        }
    };
}
pub(crate) use with_game;

/// A player of game `G` as a referee drives it, wherever it runs: in the
/// arena's process (`referee::InProcess`, `agent::AbiPlayer`), in a worker
/// (`isolation::IsolatedPlayer`), replayed (`replay::Scripted`), or not at
/// all (`Unavailable`). Every call a referee makes goes through here.
pub trait Agent<G: Game> {
    /// A game starts. `budget` is the start-up budget.
    fn new_game(&mut self, info: G::Info, budget: Duration) -> Result<(), Fault>;
    /// One turn or step: the player's answer to `request`, within `budget`.
    fn act(&mut self, request: G::Request, budget: Duration) -> Result<G::Action, Fault>;
    /// The game is over. Failures here do not change the result.
    fn game_over(&mut self, over: G::Over);
}

/// A player that could not be started: it fails its game at `new_game`,
/// so the referee records the fault like any other.
pub struct Unavailable(pub Fault);

impl<G: Game> Agent<G> for Unavailable {
    fn new_game(&mut self, _: G::Info, _: Duration) -> Result<(), Fault> {
        Err(self.0.clone())
    }
    fn act(&mut self, _: G::Request, _: Duration) -> Result<G::Action, Fault> {
        Err(self.0.clone())
    }
    fn game_over(&mut self, _: G::Over) {}
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
        let solo: Vec<GameId> = GameId::ALL.into_iter().filter(|g| g.is_single_player()).collect();
        assert_eq!(solo, [GameId::IntuitiveAi, GameId::Wumpus, GameId::MagicForest]);
    }
}
