//! The fast core of the rules: a position as two bit indices and one mask,
//! every query a few bit operations on a `u64` (row-major, stride 8).
//!
//! [`TrapState`](super::TrapState) (the readable API players see) answers
//! its rule questions through this type, and searching bots use it directly:
//! it is `Copy` and 16 bytes, so "make" is a copy, and `step`/`unstep`,
//! `trap`/`untrap` are there for make/unmake. Nothing here allocates.
//!
//! `Bitboard::new` and the conversions to and from `TrapState` are in
//! `state.rs`, which is built on this module (so this one does not name
//! `TrapState`).

use super::cells::{neighbour_mask, Cells};
use crate::Seat;

/// A Trap position for search. Squares are bit indices: `row * 8 + col`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Bitboard {
    /// On-board cells without a trap; the players' own cells are included.
    open: u64,
    /// The square of each player, by seat index.
    at: [u8; 2],
    size: u8,
}

/// Where a throw may land, as bits: the target with `hit_twentieths` / 20,
/// else one of `misses`, each with the same share of the rest.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Landing {
    pub target: u32,
    pub hit_twentieths: u32,
    /// The target's on-board neighbours without a player (trapped ones included).
    pub misses: u64,
}

impl Landing {
    /// The square a throw lands on, given `roll` uniform in `0..20` and `pick`
    /// uniform in `0..misses.count_ones()` (ignored on a hit).
    pub fn land(&self, roll: u32, pick: u32) -> u32 {
        missed(self.hit_twentieths, self.misses, roll, pick).unwrap_or(self.target)
    }
}

/// The square a miss lands on, or None for a hit: the one place the arena's
/// two draws become a landing (`roll` in `0..20`, `pick` in `0..n` misses).
pub fn missed(hit_twentieths: u32, misses: u64, roll: u32, pick: u32) -> Option<u32> {
    if roll < hit_twentieths {
        None
    } else {
        nth_square(misses, pick)
    }
}

/// The bit of square `square`.
pub const fn bit(square: u32) -> u64 {
    1 << square
}

/// The `n`-th set square of `bits` (lowest first), if there are more than `n`.
pub fn nth_square(mut bits: u64, n: u32) -> Option<u32> {
    for _ in 0..n {
        bits &= bits.wrapping_sub(1);
    }
    (bits != 0).then(|| bits.trailing_zeros())
}

/// The 8 neighbours of `square` on the 8x8 grid (mask with the board's cells).
pub const fn neighbours(square: u32) -> u64 {
    neighbour_mask(square)
}

/// Hit chance in twentieths at manhattan distance `distance`:
/// p = clamp(1 - 0.05 (d - 1), 0, 1), d = 0 counted as 1.
pub const fn hit_twentieths(distance: u32) -> u32 {
    let d = if distance == 0 { 1 } else { distance };
    21u32.saturating_sub(d)
}

/// Manhattan distance between two squares.
pub const fn distance(a: u32, b: u32) -> u32 {
    (a / 8).abs_diff(b / 8) + (a % 8).abs_diff(b % 8)
}

impl Bitboard {
    /// A position from its fields: `open` the on-board cells without a trap,
    /// `at` the players' squares by seat index. For the conversion from
    /// `TrapState` in `state.rs`.
    pub(super) const fn from_parts(open: u64, at: [u8; 2], size: u8) -> Bitboard {
        Bitboard { open, at, size }
    }

    pub const fn size(&self) -> u8 {
        self.size
    }

    /// The square of the player in `seat`.
    pub const fn at(&self, seat: Seat) -> u32 {
        self.at[seat.index()] as u32
    }

    /// Every cell of the board.
    pub const fn cells(&self) -> u64 {
        Cells::board(self.size).bits()
    }

    /// Cells that hold a trap.
    pub const fn traps(&self) -> u64 {
        self.cells() & !self.open
    }

    /// Both players' cells.
    pub const fn players(&self) -> u64 {
        bit(self.at[0] as u32) | bit(self.at[1] as u32)
    }

    /// Cells with neither a trap nor a player.
    pub const fn free(&self) -> u64 {
        self.open & !self.players()
    }

    /// The free cells around `square`.
    pub const fn free_neighbours(&self, square: u32) -> u64 {
        neighbour_mask(square) & self.free()
    }

    /// Where the player in `seat` may step.
    pub const fn moves(&self, seat: Seat) -> u64 {
        self.free_neighbours(self.at(seat))
    }

    /// How many moves the player in `seat` has (its mobility).
    pub const fn mobility(&self, seat: Seat) -> u32 {
        self.moves(seat).count_ones()
    }

    /// Whether the player in `seat` has a move; a player without one is trapped.
    pub const fn can_move(&self, seat: Seat) -> bool {
        self.moves(seat) != 0
    }

    /// Moves the player in `seat` to `to` (a square of `moves(seat)`);
    /// returns where it came from, for [`unstep`](Self::unstep).
    pub fn step(&mut self, seat: Seat, to: u32) -> u32 {
        debug_assert!(self.moves(seat) & bit(to) != 0, "illegal step to square {to}");
        std::mem::replace(&mut self.at[seat.index()], to as u8) as u32
    }

    /// Undoes [`step`](Self::step).
    pub fn unstep(&mut self, seat: Seat, from: u32) {
        self.at[seat.index()] = from as u8;
    }

    /// Puts a trap on `square` (a cell without a player); returns whether
    /// it was new (only then does [`untrap`](Self::untrap) undo it).
    pub fn trap(&mut self, square: u32) -> bool {
        debug_assert!(self.players() & bit(square) == 0 && self.cells() & bit(square) != 0);
        let new = self.open & bit(square) != 0;
        self.open &= !bit(square);
        new
    }

    /// Undoes a [`trap`](Self::trap) that returned true.
    pub fn untrap(&mut self, square: u32) {
        self.open |= bit(square);
    }

    /// The landing distribution of a throw by `seat` at `target` (a cell
    /// without a player).
    pub const fn throw(&self, seat: Seat, target: u32) -> Landing {
        let misses = neighbour_mask(target) & self.cells() & !self.players();
        let hit = if misses == 0 { 20 } else { hit_twentieths(distance(self.at(seat), target)) };
        Landing { target, hit_twentieths: if hit > 20 { 20 } else { hit }, misses }
    }
}
