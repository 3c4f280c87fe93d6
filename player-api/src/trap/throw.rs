//! `Throw`: the landing distribution of one throw, and `land`, which maps
//! the referee's draws (a roll, a pick) to the cell the trap lands on.

use super::{cells::Cells, pos::Pos};

/// The landing distribution of one throw.
///
/// With distance d = manhattan(thrower, target), the trap lands on the target
/// with p = clamp(1 - 0.05 (d - 1), 0, 1); otherwise on one of the target's
/// in-bounds 8-neighbours that holds no player, each equally likely (cells
/// that already hold a trap count). If no neighbour can take a miss, the trap
/// lands on the target.
///
/// p is a whole number of twentieths, so the arena draws it exactly:
/// [`land`](Self::land) maps two uniform draws to a cell.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Throw {
    target: Pos,
    distance: u32,
    misses: Cells,
}

impl Throw {
    pub(crate) fn new(target: Pos, distance: u32, misses: Cells) -> Throw {
        Throw { target, distance, misses }
    }

    pub const fn target(&self) -> Pos {
        self.target
    }

    /// Manhattan distance from the thrower to the target.
    pub const fn distance(&self) -> u32 {
        self.distance
    }

    /// The chance of a hit, in twentieths (0 to 20).
    pub const fn hit_twentieths(&self) -> u32 {
        if self.misses.is_empty() {
            return 20;
        }
        super::bitboard::hit_twentieths(self.distance)
    }

    /// The chance p that the trap lands on the target.
    pub fn hit_chance(&self) -> f64 {
        self.hit_twentieths() as f64 / 20.0
    }

    /// The cells a miss may land on (each with [`miss_chance_each`](Self::miss_chance_each)).
    pub const fn miss_cells(&self) -> Cells {
        self.misses
    }

    /// The chance of landing on one given miss cell: (1 - p) / n.
    pub fn miss_chance_each(&self) -> f64 {
        match self.misses.len() {
            0 => 0.0,
            n => (1.0 - self.hit_chance()) / n as f64,
        }
    }

    /// The chance that the trap lands on `cell`.
    pub fn chance_of(&self, cell: Pos) -> f64 {
        if cell == self.target {
            self.hit_chance()
        } else if self.misses.contains(cell) {
            self.miss_chance_each()
        } else {
            0.0
        }
    }

    /// Every cell the trap may land on with its chance: the target first,
    /// then the miss cells in row-major order. The chances sum to 1.
    pub fn outcomes(&self) -> impl Iterator<Item = (Pos, f64)> + '_ {
        let miss = self.miss_chance_each();
        std::iter::once((self.target, self.hit_chance()))
            .chain(self.misses.filter(move |_| miss > 0.0).map(move |c| (c, miss)))
    }

    /// Where the trap lands, given `roll` uniform in `0..20` and `pick`
    /// uniform in `0..miss_cells().len()` (ignored on a hit). The arena draws
    /// both from its seeded generator; this keeps the formula in one place.
    pub fn land(&self, roll: u32, pick: u32) -> Pos {
        match super::bitboard::missed(self.hit_twentieths(), self.misses.bits(), roll, pick) {
            Some(square) => Pos::from_bit_index(square),
            None => self.target,
        }
    }
}
