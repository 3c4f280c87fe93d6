//! `Pos`: a cell of the board, with distances (`manhattan`) and king steps.
//! Its neighbourhood, a set of cells, is `Pos::neighbours` in `cells.rs`:
//! `Cells` is built on `Pos`, so this module does not name `Cells`.

use std::fmt;

use abi_stable::StableAbi;

/// A cell of the board: `row` 0 is the top row, `col` 0 the left column.
///
/// A `Pos` can name a cell off the board (a player may return one); the
/// rules reject it where it matters.
#[repr(C)]
#[derive(StableAbi, Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord, Default)]
pub struct Pos {
    pub row: u8,
    pub col: u8,
}

impl Pos {
    pub const fn new(row: u8, col: u8) -> Pos {
        Pos { row, col }
    }

    /// |row difference| + |column difference|: the throw's distance.
    pub const fn manhattan(self, other: Pos) -> u32 {
        self.row.abs_diff(other.row) as u32 + self.col.abs_diff(other.col) as u32
    }

    /// True when `other` is one king step away (8 directions, not the same cell).
    pub const fn is_king_step(self, other: Pos) -> bool {
        let dr = self.row.abs_diff(other.row);
        let dc = self.col.abs_diff(other.col);
        dr <= 1 && dc <= 1 && (dr | dc) != 0
    }

    /// Whether the cell lies on a `size` x `size` board.
    pub const fn is_on_board(self, size: u8) -> bool {
        self.row < size && self.col < size
    }

    /// The bit of this cell (row-major, stride 8) if it is on a `size` board.
    pub(crate) const fn bit_index(self, size: u8) -> Option<u32> {
        if self.is_on_board(size) {
            Some(self.row as u32 * 8 + self.col as u32)
        } else {
            None
        }
    }

    pub(crate) const fn from_bit_index(index: u32) -> Pos {
        Pos::new((index / 8) as u8, (index % 8) as u8)
    }
}

impl From<(u8, u8)> for Pos {
    fn from((row, col): (u8, u8)) -> Pos {
        Pos { row, col }
    }
}

impl fmt::Display for Pos {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({},{})", self.row, self.col)
    }
}
