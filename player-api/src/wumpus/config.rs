//! `WumpusConfig`: every parameter of a Wumpus World game, and its presets
//! (`aima`, `project`).

use std::fmt;

use abi_stable::StableAbi;

use super::DEFAULT_ACTION_CAP;
use crate::grid::{Dir, MAX_SIDE};

/// How wumpuses are placed.
#[repr(u8)]
#[derive(StableAbi, Clone, Copy, PartialEq, Eq, Debug)]
pub enum WumpusPlacement {
    /// Exactly one, uniform over the squares other than the start (`aima`).
    One,
    /// Each square other than the start independently, with `wumpus_chance` (`project`).
    EachSquare,
}

/// How many arrows the agent carries.
#[repr(u8)]
#[derive(StableAbi, Clone, Copy, PartialEq, Eq, Debug)]
pub enum ArrowRule {
    One,
    /// As many as there are wumpuses in the world (`project`).
    OnePerWumpus,
}

/// What ends a game with the gold.
#[repr(u8)]
#[derive(StableAbi, Clone, Copy, PartialEq, Eq, Debug)]
pub enum Goal {
    /// Grab the gold, walk back to the start and Climb out (`aima`).
    ClimbWithGold,
    /// Grabbing the gold ends the game; there is no Climb (`project`).
    GrabGold,
}

/// Every parameter of a Wumpus World game. Start from a preset and change
/// fields; [`check`](Self::check) says whether the result is playable.
#[repr(C)]
#[derive(StableAbi, Clone, Copy, PartialEq, Debug)]
pub struct WumpusConfig {
    /// The cave is `size` x `size` squares, walled all round (2 to 8).
    pub size: u8,
    pub wumpus: WumpusPlacement,
    /// Used by [`WumpusPlacement::EachSquare`].
    pub wumpus_chance: f64,
    /// Each square other than the start (and, with `EachSquare`, holding no
    /// wumpus) is a pit with this chance.
    pub pit_chance: f64,
    /// Each square other than the start holding neither wumpus nor pit is an
    /// obstacle with this chance (walking into one is a bump).
    pub obstacle_chance: f64,
    pub arrows: ArrowRule,
    /// Points a shot costs on top of the action itself.
    pub arrow_cost: i32,
    /// The score before the first action.
    pub start_score: i32,
    pub goal: Goal,
    /// Which way the agent faces at the start, on square (0,0).
    pub start_facing: Dir,
    /// Actions after which the game ends with the score so far.
    pub action_cap: u32,
}

/// Why a configuration cannot be played.
#[derive(Clone, Debug, PartialEq)]
pub enum ConfigError {
    Size(u8),
    Chance {
        name: &'static str,
        value: f64,
    },
    /// Chances so high that a world with a free square for the gold is (almost) never drawn.
    NoRoomForGold,
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ConfigError::Size(size) => write!(f, "cave size {size} is not supported: use 2 to {MAX_SIDE}"),
            ConfigError::Chance { name, value } => {
                write!(f, "{name} {value} is not a probability: use 0 to 1")
            }
            ConfigError::NoRoomForGold => {
                write!(f, "hazard chances leave no free square for the gold: lower them below 1")
            }
        }
    }
}

impl Default for WumpusConfig {
    fn default() -> Self {
        WumpusConfig::aima()
    }
}

impl WumpusConfig {
    /// The AIMA textbook's world: 4x4, one wumpus, pits with 0.2, one arrow,
    /// climb out with the gold; the agent starts facing east.
    pub const fn aima() -> WumpusConfig {
        WumpusConfig {
            size: 4,
            wumpus: WumpusPlacement::One,
            wumpus_chance: 0.0,
            pit_chance: 0.2,
            obstacle_chance: 0.0,
            arrows: ArrowRule::One,
            arrow_cost: 10,
            start_score: 0,
            goal: Goal::ClimbWithGold,
            start_facing: Dir::East,
            action_cap: DEFAULT_ACTION_CAP,
        }
    }

    /// The source document's variant: 6x6 inside a border of obstacles;
    /// each square a wumpus (0.05), else a pit (0.1), else an obstacle
    /// (0.1); an arrow per wumpus; score starts at 1000; grabbing the gold
    /// ends the game; the agent starts facing north.
    pub const fn project() -> WumpusConfig {
        WumpusConfig {
            size: 6,
            wumpus: WumpusPlacement::EachSquare,
            wumpus_chance: 0.05,
            pit_chance: 0.1,
            obstacle_chance: 0.1,
            arrows: ArrowRule::OnePerWumpus,
            arrow_cost: 0,
            start_score: 1000,
            goal: Goal::GrabGold,
            start_facing: Dir::North,
            action_cap: DEFAULT_ACTION_CAP,
        }
    }

    /// A preset by its name: `aima` or `project`.
    pub fn preset(name: &str) -> Option<WumpusConfig> {
        match name {
            "aima" => Some(WumpusConfig::aima()),
            "project" => Some(WumpusConfig::project()),
            _ => None,
        }
    }

    /// Whether the game can be played with these parameters.
    pub fn check(&self) -> Result<(), ConfigError> {
        if !(2..=MAX_SIDE).contains(&self.size) {
            return Err(ConfigError::Size(self.size));
        }
        let chances = [
            ("wumpus_chance", self.wumpus_chance),
            ("pit_chance", self.pit_chance),
            ("obstacle_chance", self.obstacle_chance),
        ];
        for (name, value) in chances {
            if !(0.0..=1.0).contains(&value) {
                return Err(ConfigError::Chance { name, value });
            }
        }
        let blocked = match self.wumpus {
            WumpusPlacement::One => false,
            WumpusPlacement::EachSquare => {
                let free =
                    (1.0 - self.wumpus_chance) * (1.0 - self.pit_chance) * (1.0 - self.obstacle_chance);
                free < 1e-3
            }
        };
        if blocked {
            return Err(ConfigError::NoRoomForGold);
        }
        Ok(())
    }
}
