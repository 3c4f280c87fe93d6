//! `Cell` (a cell of the grid) and `CellSet` (a set of cells as a `u64`).

use std::fmt;

use abi_stable::StableAbi;

/// A cell of the grid: `row` 0 is the top row, `col` 0 the left column.
///
/// A `Cell` can name a cell off the board (a player may return one); the
/// rules reject it where it matters.
#[repr(C)]
#[derive(StableAbi, Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord, Default)]
pub struct Cell {
    pub row: u8,
    pub col: u8,
}

impl Cell {
    pub const fn new(row: u8, col: u8) -> Cell {
        Cell { row, col }
    }

    /// Whether the cell lies on a `size` x `size` board.
    pub const fn is_on_board(self, size: u8) -> bool {
        self.row < size && self.col < size
    }

    /// The cell's number on a `size` board (row-major), if it is on it.
    pub const fn index(self, size: u8) -> Option<u8> {
        if self.is_on_board(size) {
            Some(self.row * size + self.col)
        } else {
            None
        }
    }

    /// The cell numbered `index` on a `size` board.
    pub const fn from_index(index: u8, size: u8) -> Cell {
        Cell::new(index / size, index % size)
    }

    /// The in-bounds orthogonal neighbours (up, down, left, right) of a cell
    /// of a `size` board.
    pub fn neighbours(self, size: u8) -> CellSet {
        let mut set = CellSet::EMPTY;
        if !self.is_on_board(size) {
            return set;
        }
        let (r, c) = (self.row, self.col);
        let steps = [(r.wrapping_sub(1), c), (r + 1, c), (r, c.wrapping_sub(1)), (r, c + 1)];
        for (row, col) in steps {
            if let Some(i) = Cell::new(row, col).index(size) {
                set.insert(i);
            }
        }
        set
    }
}

impl From<(u8, u8)> for Cell {
    fn from((row, col): (u8, u8)) -> Cell {
        Cell { row, col }
    }
}

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({},{})", self.row, self.col)
    }
}

/// A set of cell numbers (see [`Cell::index`]) as the bits of a `u64`.
/// Iterating yields the numbers in increasing order without allocating.
#[repr(transparent)]
#[derive(StableAbi, Clone, Copy, PartialEq, Eq, Hash, Debug, Default, PartialOrd, Ord)]
pub struct CellSet(u64);

impl CellSet {
    pub const EMPTY: CellSet = CellSet(0);

    pub const fn from_bits(bits: u64) -> CellSet {
        CellSet(bits)
    }

    pub const fn bits(self) -> u64 {
        self.0
    }

    /// Every cell of a `size` x `size` board.
    pub const fn board(size: u8) -> CellSet {
        let n = size as u32 * size as u32;
        CellSet(if n >= 64 { u64::MAX } else { (1u64 << n) - 1 })
    }

    pub const fn single(index: u8) -> CellSet {
        CellSet(1 << index)
    }

    pub const fn len(self) -> u32 {
        self.0.count_ones()
    }

    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    pub const fn contains(self, index: u8) -> bool {
        index < 64 && self.0 >> index & 1 == 1
    }

    pub fn insert(&mut self, index: u8) {
        self.0 |= 1 << index;
    }

    pub fn remove(&mut self, index: u8) {
        self.0 &= !(1 << index);
    }

    pub const fn union(self, other: CellSet) -> CellSet {
        CellSet(self.0 | other.0)
    }

    pub const fn intersection(self, other: CellSet) -> CellSet {
        CellSet(self.0 & other.0)
    }

    /// The cells of `self` that are not in `other`.
    pub const fn minus(self, other: CellSet) -> CellSet {
        CellSet(self.0 & !other.0)
    }

    /// The `n`-th number of the set in increasing order, if there are more than `n`.
    pub fn nth_index(self, n: u32) -> Option<u8> {
        let mut bits = self.0;
        for _ in 0..n {
            bits &= bits.wrapping_sub(1);
        }
        (bits != 0).then(|| bits.trailing_zeros() as u8)
    }
}

impl Iterator for CellSet {
    type Item = u8;

    fn next(&mut self) -> Option<u8> {
        if self.0 == 0 {
            return None;
        }
        let index = self.0.trailing_zeros() as u8;
        self.0 &= self.0 - 1;
        Some(index)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for CellSet {}

impl FromIterator<u8> for CellSet {
    fn from_iter<I: IntoIterator<Item = u8>>(iter: I) -> CellSet {
        let mut set = CellSet::EMPTY;
        iter.into_iter().for_each(|i| set.insert(i));
        set
    }
}
