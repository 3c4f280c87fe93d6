//! Magic Forest: a wanderer crosses a run of misty forests (3x3, 4x4, ...),
//! looking for each forest's portal by the clues on its tiles (bones next to
//! a monster, leaves next to a trap), with a slingshot for the monsters.
//!
//! The rules live here once: [`ForestState::apply`] is the only place an
//! action changes a run. Directions are the grid's: `North` is up.

mod config;
mod forest;
mod player;
mod state;

pub use config::{ForestConfig, ForestConfigError};
pub use forest::Forest;
pub use player::{ForestGameInfo, ForestOver, ForestPlayer, ForestRequest};
pub use state::{ActionKind, ForestAction, ForestEvent, ForestState, RunEnd};

pub use crate::grid::{Area, Coord, Dir};

/// The first forest of a run is `SMALLEST_SIZE` x `SMALLEST_SIZE`.
pub const SMALLEST_SIZE: u8 = 3;
/// Points a move costs (also into the edge).
pub const MOVE_COST: i32 = 1;
/// Points a stone costs.
pub const THROW_COST: i32 = 10;
/// Reaching the portal of a forest of n tiles gives `PORTAL_REWARD_PER_TILE * n`;
/// dying there costs `DEATH_PENALTY_PER_TILE * n`.
pub const PORTAL_REWARD_PER_TILE: i32 = 10;
pub const DEATH_PENALTY_PER_TILE: i32 = 10;
