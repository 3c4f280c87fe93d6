//! `Forest`: one forest (its hazards, its portal, the start), and its seeded
//! generation.

use std::fmt;

use abi_stable::StableAbi;
use rand::Rng;

use super::config::ForestConfig;
use crate::grid::{Area, Coord};

/// One forest: its hazards, its portal and where the wanderer starts.
#[repr(C)]
#[derive(StableAbi, Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Forest {
    pub size: u8,
    pub monsters: Area,
    pub traps: Area,
    pub portal: Coord,
    pub start: Coord,
}

impl Forest {
    /// Draws a forest of `size` x `size`. Each tile holds a monster with
    /// `monster_chance`, else a trap with `trap_chance` (one uniform draw per
    /// tile); the portal is uniform over the tiles with neither; the start is
    /// uniform over the tiles with no hazard, no portal and no hazard on a
    /// 4-neighbour. A forest with no room for either is drawn again.
    pub fn generate<R: Rng + ?Sized>(size: u8, config: &ForestConfig, rng: &mut R) -> Forest {
        loop {
            let (mut monsters, mut traps) = (Area::EMPTY, Area::EMPTY);
            for tile in Area::grid(size).squares() {
                let roll: f64 = rng.random();
                if roll < config.monster_chance {
                    monsters.insert(tile);
                } else if roll < config.monster_chance + config.trap_chance {
                    traps.insert(tile);
                }
            }
            let hazards = monsters.union(traps);
            let free = Area::grid(size).minus(hazards);
            let Some(portal) = free.pick(rng) else { continue };
            let starts: Area = free
                .minus(Area::from_iter([portal]))
                .squares()
                .filter(|t| t.neighbours(size).intersection(hazards).is_empty())
                .collect();
            if let Some(start) = starts.pick(rng) {
                return Forest { size, monsters, traps, portal, start };
            }
        }
    }

    /// Tiles of the forest: n.
    pub fn tiles(&self) -> i32 {
        i32::from(self.size) * i32::from(self.size)
    }

    /// Bones on `tile`: a monster (alive or killed) is on a 4-neighbour.
    pub fn bones(&self, tile: Coord) -> bool {
        !tile.neighbours(self.size).intersection(self.monsters).is_empty()
    }

    /// Leaves on `tile`: a trap is on a 4-neighbour.
    pub fn leaves(&self, tile: Coord) -> bool {
        !tile.neighbours(self.size).intersection(self.traps).is_empty()
    }
}

impl fmt::Display for Forest {
    /// The forest as text, the top row first: `M` a monster, `T` a trap, `O`
    /// the portal, `S` the start, `.` nothing.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for y in (0..self.size).rev() {
            let row: Vec<&str> = (0..self.size)
                .map(|x| {
                    let t = Coord::new(x, y);
                    match () {
                        _ if self.monsters.contains(t) => "M",
                        _ if self.traps.contains(t) => "T",
                        _ if self.portal == t => "O",
                        _ if self.start == t => "S",
                        _ => ".",
                    }
                })
                .collect();
            writeln!(f, "{}", row.join(" "))?;
        }
        Ok(())
    }
}
