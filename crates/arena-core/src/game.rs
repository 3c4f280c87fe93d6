//! What every game is to the arena: `GameId` (generated from the names in
//! the table of `games/mod.rs`, the one list of games), the `Game` trait
//! (what a player of a game is told, asked and answers), and `Agent` (a
//! player of a game as a referee drives it, wherever the player runs).

use std::{fmt, str::FromStr, time::Duration};

use crate::{play::fault::Fault, play::time_control::TimeBank};

impl GameId {
    /// The game named `name`, if any.
    pub fn parse(name: &str) -> Option<GameId> {
        GameId::ALL.into_iter().find(|g| g.name() == name)
    }

    /// Its name as a title: "Hexapawn".
    pub fn title(self) -> String {
        let name = self.name();
        name[..1].to_uppercase() + &name[1..]
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
/// Implemented in `games/<game>/mod.rs`.
pub trait Game: Copy + fmt::Debug + 'static {
    const ID: GameId;
    type Info;
    type Request;
    type Action;
    type Over;
}

/// Generates `GameId` from the table's names (its types are passed over,
/// not named: what holds or dispatches over them is `games/`'s): a
/// variant per game, named as the table spells it everywhere (command
/// line, files, protocol), and `ALL`, `name`, `is_single_player`.
macro_rules! game_ids {
    (() $($variant:ident = $game:path, $name:literal, $kind:ident;)+) => {
        /// A game the arena hosts.
        #[derive(
            Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord,
            serde::Serialize, serde::Deserialize, clap::ValueEnum,
        )]
        pub enum GameId {
            $(#[serde(rename = $name)] #[value(name = $name)] $variant,)+
        }

        impl GameId {
            /// Every game, in the order lists show them.
            pub const ALL: [GameId; [$($name),+].len()] = [$(GameId::$variant),+];

            /// Its name, as the table spells it.
            pub const fn name(self) -> &'static str {
                match self { $(GameId::$variant => $name,)+ }
            }

            /// Whether one player plays it alone (scored over seeded worlds),
            /// as opposed to two players against each other.
            pub const fn is_single_player(self) -> bool {
                match self { $(GameId::$variant => $crate::game_kind!($kind, false, true),)+ }
            }
        }
    };
}
crate::game_table!({ game_ids }());

/// A player of game `G` as a referee drives it, wherever it runs: in the
/// arena's process (`referee::InProcess`, `agent::AbiPlayer`), in a worker
/// (`isolation::IsolatedPlayer`), replayed (`replay::fault::Recorded`, `SeatScript`), or not at
/// all (`Unavailable`). Every call a referee makes goes through here.
pub trait Agent<G: Game> {
    /// A game starts. `budget` is the start-up budget.
    fn new_game(&mut self, info: G::Info, budget: Duration) -> Result<(), Fault>;
    /// One turn or step: the player's answer to `request`, within `budget`.
    fn act(&mut self, request: G::Request, budget: Duration) -> Result<G::Action, Fault>;
    /// Before `act`, under a time bank: what is left in it. Part of the
    /// turn (timed with it). Only a program is told (in its request's
    /// `bank`); a library knows its turn's limit from its request.
    fn time_bank(&mut self, _bank: TimeBank) -> Result<(), Fault> {
        Ok(())
    }
    /// The game is over. Failures here do not change the result.
    fn game_over(&mut self, over: G::Over);
    /// The match is over: the memory the player hands back to keep for its
    /// next match (None: keep what it had), within `budget`.
    fn save_memory(&mut self, _budget: Duration) -> Result<Option<Vec<u8>>, Fault> {
        Ok(None)
    }
    /// What the player printed during its last `act` (its notes), taken:
    /// only a player in a worker has any (`replay::notes`).
    fn take_notes(&mut self) -> Option<Printed> {
        None
    }
}

/// What a player printed during one call: the bytes its worker kept, and
/// how many more it printed that were dropped.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Printed {
    pub bytes: Vec<u8>,
    pub dropped: u64,
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
