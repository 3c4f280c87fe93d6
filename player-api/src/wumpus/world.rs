//! `WumpusWorld`: a cave (where everything is), and its seeded generation.

use std::fmt;

use abi_stable::StableAbi;
use rand::Rng;

use super::config::{WumpusConfig, WumpusPlacement};
use crate::grid::{Area, Coord};

/// A cave: where everything is. The agent starts on [`START`](Self::START),
/// which never holds a wumpus, pit or obstacle.
#[repr(C)]
#[derive(StableAbi, Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct WumpusWorld {
    pub size: u8,
    pub pits: Area,
    pub wumpuses: Area,
    pub obstacles: Area,
    pub gold: Coord,
}

impl WumpusWorld {
    /// The bottom-left square, AIMA's [1,1].
    pub const START: Coord = Coord::new(0, 0);

    /// Draws a world. `config` must pass [`WumpusConfig::check`].
    ///
    /// `aima`: every square but the start is a pit with `pit_chance`; then
    /// the wumpus and the gold are each uniform over the squares but the
    /// start, independently (either may share a square with a pit, or with
    /// each other). `project`: every square but the start is a wumpus with
    /// `wumpus_chance`, else a pit with `pit_chance`, else an obstacle with
    /// `obstacle_chance`; the gold is uniform over the remaining empty
    /// squares but the start, and a world without one is drawn again.
    pub fn generate<R: Rng + ?Sized>(config: &WumpusConfig, rng: &mut R) -> WumpusWorld {
        let others = Area::grid(config.size).minus(Area::from_iter([Self::START]));
        let mut world = WumpusWorld {
            size: config.size,
            pits: Area::EMPTY,
            wumpuses: Area::EMPTY,
            obstacles: Area::EMPTY,
            gold: Self::START,
        };
        match config.wumpus {
            WumpusPlacement::One => {
                world.pits = others.squares().filter(|_| rng.random_bool(config.pit_chance)).collect();
                world.wumpuses = Area::from_iter(others.pick(rng));
                world.gold = others.pick(rng).expect("a cave of 2x2 or more has squares besides the start");
                world
            }
            WumpusPlacement::EachSquare => loop {
                (world.pits, world.wumpuses, world.obstacles) = (Area::EMPTY, Area::EMPTY, Area::EMPTY);
                for square in others.squares() {
                    if rng.random_bool(config.wumpus_chance) {
                        world.wumpuses.insert(square);
                    } else if rng.random_bool(config.pit_chance) {
                        world.pits.insert(square);
                    } else if rng.random_bool(config.obstacle_chance) {
                        world.obstacles.insert(square);
                    }
                }
                let empty = others.minus(world.pits).minus(world.wumpuses).minus(world.obstacles);
                if let Some(gold) = empty.pick(rng) {
                    world.gold = gold;
                    return world;
                }
            },
        }
    }

    /// Whether walking onto `square` is impossible (a wall or an obstacle): a bump.
    pub fn blocks(&self, square: Option<Coord>) -> bool {
        square.is_none_or(|s| self.obstacles.contains(s))
    }

    /// Whether a pit is next to `square` (4-neighbours): a breeze there.
    pub fn breezy(&self, square: Coord) -> bool {
        !square.neighbours(self.size).intersection(self.pits).is_empty()
    }
}

impl fmt::Display for WumpusWorld {
    /// The cave as text, the top row first: `W` a wumpus, `P` a pit, `#` an
    /// obstacle, `G` the gold (`g` the gold under a pit or wumpus), `.` empty.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for y in (0..self.size).rev() {
            let row: Vec<String> = (0..self.size)
                .map(|x| {
                    let s = Coord::new(x, y);
                    let hazard = if self.obstacles.contains(s) {
                        Some('#')
                    } else if self.wumpuses.contains(s) {
                        Some('W')
                    } else if self.pits.contains(s) {
                        Some('P')
                    } else {
                        None
                    };
                    match (hazard, self.gold == s) {
                        (Some(_), true) => "g".into(),
                        (Some(c), false) => c.to_string(),
                        (None, true) => "G".into(),
                        (None, false) => ".".into(),
                    }
                })
                .collect();
            writeln!(f, "{}", row.join(" "))?;
        }
        Ok(())
    }
}
