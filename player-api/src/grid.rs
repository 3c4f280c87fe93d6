//! A small square grid with 4-neighbour steps, shared by the two games that
//! walk one: Wumpus World and Magic Forest.
//!
//! Coordinates follow the AIMA textbook: `x` is the column counted from the
//! left, `y` the row counted from the bottom, both from 0. Grids are at most
//! 8x8, so a set of squares is one `u64` ([`Area`], bit `8y + x`).

use std::fmt;

use abi_stable::StableAbi;
use rand::Rng;

/// The largest grid side: 8x8 squares fill an [`Area`].
pub const MAX_SIDE: u8 = 8;

/// A square of the grid. A `Coord` may lie off a given grid; the games
/// check with [`is_on`](Self::is_on).
#[repr(C)]
#[derive(StableAbi, Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord, Default)]
pub struct Coord {
    pub x: u8,
    pub y: u8,
}

/// One of the four directions. North is up (y + 1), East is right (x + 1).
#[repr(u8)]
#[derive(StableAbi, Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Dir {
    North = 0,
    East = 1,
    South = 2,
    West = 3,
}

/// A set of squares of an 8x8 (or smaller) grid.
#[repr(C)]
#[derive(StableAbi, Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct Area {
    bits: u64,
}

impl Coord {
    pub const fn new(x: u8, y: u8) -> Coord {
        Coord { x, y }
    }

    /// Whether the square lies on a `side` x `side` grid.
    pub const fn is_on(self, side: u8) -> bool {
        self.x < side && self.y < side
    }

    /// The next square in direction `dir`, if it is on a `side` grid.
    pub fn step(self, dir: Dir, side: u8) -> Option<Coord> {
        let (dx, dy) = dir.delta();
        let next = Coord::new(self.x.wrapping_add_signed(dx), self.y.wrapping_add_signed(dy));
        next.is_on(side).then_some(next)
    }

    /// The on-grid squares one step away (up to four).
    pub fn neighbours(self, side: u8) -> Area {
        Dir::ALL.iter().filter_map(|&d| self.step(d, side)).collect()
    }

    /// The direction of a neighbouring square, if `to` is one step away.
    pub fn dir_to(self, to: Coord) -> Option<Dir> {
        Dir::ALL.into_iter().find(|&d| self.step(d, MAX_SIDE) == Some(to))
    }

    /// |dx| + |dy|.
    pub const fn manhattan(self, other: Coord) -> u32 {
        self.x.abs_diff(other.x) as u32 + self.y.abs_diff(other.y) as u32
    }

    /// The square's bit in an [`Area`] (only for squares of an 8x8 grid).
    pub const fn index(self) -> u32 {
        self.y as u32 * 8 + self.x as u32
    }

    pub const fn from_index(index: u32) -> Coord {
        Coord::new((index % 8) as u8, (index / 8) as u8)
    }
}

impl fmt::Display for Coord {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({},{})", self.x, self.y)
    }
}

impl Dir {
    pub const ALL: [Dir; 4] = [Dir::North, Dir::East, Dir::South, Dir::West];

    /// (dx, dy) of one step.
    pub const fn delta(self) -> (i8, i8) {
        match self {
            Dir::North => (0, 1),
            Dir::East => (1, 0),
            Dir::South => (0, -1),
            Dir::West => (-1, 0),
        }
    }

    /// A quarter turn counter-clockwise.
    pub const fn left(self) -> Dir {
        Dir::ALL[(self as usize + 3) % 4]
    }

    /// A quarter turn clockwise.
    pub const fn right(self) -> Dir {
        Dir::ALL[(self as usize + 1) % 4]
    }
}

impl fmt::Display for Dir {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = match self {
            Dir::North => "north",
            Dir::East => "east",
            Dir::South => "south",
            Dir::West => "west",
        };
        f.write_str(name)
    }
}

impl Area {
    pub const EMPTY: Area = Area { bits: 0 };

    pub const fn from_bits(bits: u64) -> Area {
        Area { bits }
    }

    pub const fn bits(self) -> u64 {
        self.bits
    }

    /// Every square of a `side` x `side` grid.
    pub fn grid(side: u8) -> Area {
        (0..side.min(MAX_SIDE)).flat_map(|y| (0..side.min(MAX_SIDE)).map(move |x| Coord::new(x, y))).collect()
    }

    pub const fn len(self) -> u32 {
        self.bits.count_ones()
    }

    pub const fn is_empty(self) -> bool {
        self.bits == 0
    }

    pub const fn contains(self, square: Coord) -> bool {
        square.x < MAX_SIDE && square.y < MAX_SIDE && self.bits >> square.index() & 1 == 1
    }

    /// Adds a square of an 8x8 (or smaller) grid; others are ignored.
    pub fn insert(&mut self, square: Coord) {
        if square.is_on(MAX_SIDE) {
            self.bits |= 1 << square.index();
        }
    }

    pub fn remove(&mut self, square: Coord) {
        if square.is_on(MAX_SIDE) {
            self.bits &= !(1 << square.index());
        }
    }

    pub const fn union(self, other: Area) -> Area {
        Area { bits: self.bits | other.bits }
    }

    pub const fn intersection(self, other: Area) -> Area {
        Area { bits: self.bits & other.bits }
    }

    pub const fn minus(self, other: Area) -> Area {
        Area { bits: self.bits & !other.bits }
    }

    /// The squares in order of their bit (row by row from the bottom).
    pub fn squares(self) -> impl Iterator<Item = Coord> {
        let mut bits = self.bits;
        std::iter::from_fn(move || {
            (bits != 0).then(|| {
                let index = bits.trailing_zeros();
                bits &= bits - 1;
                Coord::from_index(index)
            })
        })
    }

    /// A uniformly random square of the area (one draw), if it has any.
    pub fn pick<R: Rng + ?Sized>(self, rng: &mut R) -> Option<Coord> {
        match self.len() {
            0 => None,
            n => self.nth(rng.random_range(0..n)),
        }
    }

    /// The `n`-th square in the order of [`squares`](Self::squares).
    pub fn nth(self, n: u32) -> Option<Coord> {
        self.squares().nth(n as usize)
    }
}

impl FromIterator<Coord> for Area {
    fn from_iter<I: IntoIterator<Item = Coord>>(iter: I) -> Area {
        let mut area = Area::EMPTY;
        iter.into_iter().for_each(|square| area.insert(square));
        area
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn steps_stay_on_the_grid() {
        let corner = Coord::new(0, 0);
        assert_eq!(corner.step(Dir::North, 4), Some(Coord::new(0, 1)));
        assert_eq!(corner.step(Dir::East, 4), Some(Coord::new(1, 0)));
        assert_eq!(corner.step(Dir::South, 4), None);
        assert_eq!(corner.step(Dir::West, 4), None);
        assert_eq!(Coord::new(3, 3).step(Dir::North, 4), None);
        assert_eq!(corner.neighbours(4), Area::from_iter([Coord::new(0, 1), Coord::new(1, 0)]));
        assert_eq!(Coord::new(1, 1).neighbours(4).len(), 4);
    }

    #[test]
    fn turns_go_round() {
        assert_eq!(Dir::East.left(), Dir::North);
        assert_eq!(Dir::East.right(), Dir::South);
        assert_eq!(Dir::North.left(), Dir::West);
        assert_eq!(Dir::West.right(), Dir::North);
        for d in Dir::ALL {
            assert_eq!(d.left().right(), d);
            assert_eq!(d.left().left().left().left(), d);
        }
    }

    #[test]
    fn areas_hold_squares() {
        let grid = Area::grid(3);
        assert_eq!(grid.len(), 9);
        assert!(grid.contains(Coord::new(2, 2)) && !grid.contains(Coord::new(3, 0)));
        let squares: Vec<Coord> = grid.squares().take(4).collect();
        assert_eq!(squares, [Coord::new(0, 0), Coord::new(1, 0), Coord::new(2, 0), Coord::new(0, 1)]);
        assert_eq!(grid.nth(8), Some(Coord::new(2, 2)));
        assert_eq!(grid.nth(9), None);
        let mut a = Area::EMPTY;
        a.insert(Coord::new(9, 0));
        assert!(a.is_empty());
        assert_eq!(Coord::new(0, 0).dir_to(Coord::new(0, 1)), Some(Dir::North));
        assert_eq!(Coord::new(0, 0).dir_to(Coord::new(1, 1)), None);
    }
}
