//! `Cells`: a set of cells as a `u64` (row-major, stride 8), and
//! `Pos::neighbours`, a cell's neighbourhood as such a set (here rather than
//! in `pos.rs`, which sits below this module).

use super::pos::Pos;

/// A set of cells, stored as a 64-bit board (row-major, stride 8). Iterating
/// yields the cells in row-major order without allocating.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct Cells(u64);

impl Cells {
    pub const EMPTY: Cells = Cells(0);

    pub const fn from_bits(bits: u64) -> Cells {
        Cells(bits)
    }

    pub const fn bits(self) -> u64 {
        self.0
    }

    /// Every cell of a `size` x `size` board.
    pub const fn board(size: u8) -> Cells {
        let size = if size > 8 { 8 } else { size };
        Cells(BOARD_MASKS[size as usize])
    }

    pub const fn len(self) -> u32 {
        self.0.count_ones()
    }

    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    pub fn contains(self, pos: Pos) -> bool {
        pos.bit_index(8).is_some_and(|i| self.0 >> i & 1 == 1)
    }

    /// Adds `pos` (a cell of an 8x8 or smaller board) to the set.
    pub fn insert(&mut self, pos: Pos) {
        if let Some(i) = pos.bit_index(8) {
            self.0 |= 1 << i;
        }
    }

    /// The `n`-th cell in row-major order, if there are more than `n`.
    pub fn nth_cell(self, n: u32) -> Option<Pos> {
        let mut bits = self.0;
        for _ in 0..n {
            bits &= bits.wrapping_sub(1);
        }
        (bits != 0).then(|| Pos::from_bit_index(bits.trailing_zeros()))
    }
}

impl Iterator for Cells {
    type Item = Pos;

    fn next(&mut self) -> Option<Pos> {
        if self.0 == 0 {
            return None;
        }
        let index = self.0.trailing_zeros();
        self.0 &= self.0 - 1;
        Some(Pos::from_bit_index(index))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        // Not `self.len()`: on `&Cells` that resolves to ExactSizeIterator::len,
        // which calls size_hint again.
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for Cells {}

impl Pos {
    /// The in-bounds 8-neighbourhood of this cell on a `size` board (itself
    /// excluded), whatever stands on those cells.
    pub fn neighbours(self, size: u8) -> Cells {
        match self.bit_index(size) {
            Some(i) => Cells::from_bits(neighbour_mask(i) & Cells::board(size).bits()),
            None => Cells::EMPTY,
        }
    }
}

impl FromIterator<Pos> for Cells {
    fn from_iter<I: IntoIterator<Item = Pos>>(iter: I) -> Cells {
        let mut cells = Cells::EMPTY;
        iter.into_iter().for_each(|pos| cells.insert(pos));
        cells
    }
}

/// The 8-neighbourhood of bit `index` on the 8x8 grid.
pub(crate) const fn neighbour_mask(index: u32) -> u64 {
    NEIGHBOURS[index as usize]
}

const NEIGHBOURS: [u64; 64] = {
    let mut table = [0u64; 64];
    let mut i = 0;
    while i < 64 {
        let (r, c) = ((i / 8) as i32, (i % 8) as i32);
        let mut dr = -1;
        while dr <= 1 {
            let mut dc = -1;
            while dc <= 1 {
                let (nr, nc) = (r + dr, c + dc);
                if (dr != 0 || dc != 0) && nr >= 0 && nr < 8 && nc >= 0 && nc < 8 {
                    table[i] |= 1 << (nr * 8 + nc);
                }
                dc += 1;
            }
            dr += 1;
        }
        i += 1;
    }
    table
};

const BOARD_MASKS: [u64; 9] = {
    let mut masks = [0u64; 9];
    let mut size = 0;
    while size <= 8 {
        let mut r = 0;
        while r < size {
            let mut c = 0;
            while c < size {
                masks[size] |= 1 << (r * 8 + c);
                c += 1;
            }
            r += 1;
        }
        size += 1;
    }
    masks
};
