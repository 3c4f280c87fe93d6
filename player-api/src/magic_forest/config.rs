//! `ForestConfig`: the parameters of a Magic Forest run.

use std::fmt;

use abi_stable::StableAbi;

use super::SMALLEST_SIZE;
use crate::grid::MAX_SIDE;

/// The parameters of a Magic Forest run.
#[repr(C)]
#[derive(StableAbi, Clone, Copy, PartialEq, Debug)]
pub struct ForestConfig {
    /// The last forest of the run is `largest` x `largest` (3 to 8).
    pub largest: u8,
    /// Each tile holds a monster with this chance...
    pub monster_chance: f64,
    /// ...or else a trap with this chance (one draw: the two never share a tile).
    pub trap_chance: f64,
    /// A forest of n tiles allows `actions_per_tile * n` actions, deaths
    /// included; when they are spent the run ends.
    pub actions_per_tile: u32,
}

/// Why a configuration cannot be played.
#[derive(Clone, Debug, PartialEq)]
pub enum ForestConfigError {
    Largest(u8),
    Chances { monster: f64, trap: f64 },
    NoActions,
}

impl fmt::Display for ForestConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ForestConfigError::Largest(size) => {
                write!(f, "largest forest {size} is not supported: use {SMALLEST_SIZE} to {MAX_SIDE}")
            }
            ForestConfigError::Chances { monster, trap } => write!(
                f,
                "monster chance {monster} and trap chance {trap} must be at least 0 and sum to at most 0.5"
            ),
            ForestConfigError::NoActions => write!(f, "actions per tile must be at least 1"),
        }
    }
}

impl Default for ForestConfig {
    fn default() -> Self {
        ForestConfig { largest: 7, monster_chance: 0.05, trap_chance: 0.05, actions_per_tile: 20 }
    }
}

impl ForestConfig {
    /// Whether a run can be played with these parameters. Hazard chances are
    /// capped at 0.5 together so that a forest with a safe start is drawn
    /// in a few tries.
    pub fn check(&self) -> Result<(), ForestConfigError> {
        if !(SMALLEST_SIZE..=MAX_SIDE).contains(&self.largest) {
            return Err(ForestConfigError::Largest(self.largest));
        }
        let (monster, trap) = (self.monster_chance, self.trap_chance);
        if !(monster >= 0.0 && trap >= 0.0 && monster + trap <= 0.5) {
            return Err(ForestConfigError::Chances { monster, trap });
        }
        if self.actions_per_tile == 0 {
            return Err(ForestConfigError::NoActions);
        }
        Ok(())
    }

    /// The sizes of the run's forests, in order.
    pub fn sizes(&self) -> impl Iterator<Item = u8> {
        SMALLEST_SIZE..=self.largest
    }

    /// The action cap of a forest of `size` x `size`.
    pub fn action_cap(&self, size: u8) -> u32 {
        self.actions_per_tile * u32::from(size) * u32::from(size)
    }
}
