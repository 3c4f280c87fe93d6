//! The games the arena hosts, by id: the one list that the command line,
//! tournament files, replays, the protocol and the worker read. A game's
//! name here is the one players, files and the command line use.

use std::{fmt, str::FromStr};

use serde::{Deserialize, Serialize};

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
