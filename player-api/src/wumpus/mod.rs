//! Wumpus World: one agent in a dark cave of pits and wumpuses, looking for
//! the gold by its percepts (stench, breeze, glitter, bump, scream).
//!
//! One game with a table of parameters ([`WumpusConfig`]) and two named
//! presets: [`WumpusConfig::aima`] (the textbook's 4x4 world, the default)
//! and [`WumpusConfig::project`] (the source document's variant with
//! obstacles, several wumpuses and no Climb). The rules live here once:
//! [`WumpusState::apply`] is the only place an action changes a game.

mod config;
mod player;
mod state;
mod world;

pub use config::{ArrowRule, ConfigError, Goal, WumpusConfig, WumpusPlacement};
pub use player::{WumpusGameInfo, WumpusOver, WumpusPlayer, WumpusRequest};
pub use state::{Hazard, InvalidAction, Percept, StepEnd, WumpusAction, WumpusState};
pub use world::WumpusWorld;

pub use crate::grid::{Area, Coord, Dir};

/// Points for leaving the cave with the gold (`aima`) or grabbing it (`project`).
pub const GOLD_REWARD: i32 = 1000;
/// Points lost by dying (and by an invalid action, which ends the game the same way).
pub const DEATH_PENALTY: i32 = 1000;
/// Points every action costs.
pub const ACTION_COST: i32 = 1;
/// Actions after which a game ends with the score so far.
pub const DEFAULT_ACTION_CAP: u32 = 1000;
