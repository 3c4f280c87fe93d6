//! Zobrist hashing and the transposition table.

use player_api::{trap::Bitboard, Seat};

/// Random keys, one per (feature, square), fixed at compile time.
pub struct Keys {
    trap: [u64; 64],
    at: [[u64; 64]; 2],
    size: [u64; 9],
    /// Added when seat two is to act.
    pub seat_two: u64,
    /// Added for the throw half of a turn (the move is made, the target not chosen).
    pub throwing: u64,
}

pub const KEYS: Keys = {
    let mut state = 0x7261_7020_6578_7065u64;
    let mut keys = Keys { trap: [0; 64], at: [[0; 64]; 2], size: [0; 9], seat_two: 0, throwing: 0 };
    let mut i = 0;
    while i < 64 {
        keys.trap[i] = splitmix(&mut state);
        keys.at[0][i] = splitmix(&mut state);
        keys.at[1][i] = splitmix(&mut state);
        i += 1;
    }
    let mut n = 0;
    while n < 9 {
        keys.size[n] = splitmix(&mut state);
        n += 1;
    }
    keys.seat_two = splitmix(&mut state);
    keys.throwing = splitmix(&mut state);
    keys
};

const fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

impl Keys {
    /// The hash of a position (who is to act is added by the caller).
    pub fn of(&self, board: &Bitboard) -> u64 {
        let mut hash = self.size[board.size() as usize];
        let mut traps = board.traps();
        while traps != 0 {
            hash ^= self.trap[traps.trailing_zeros() as usize];
            traps &= traps - 1;
        }
        hash ^ self.at[0][board.at(Seat::One) as usize] ^ self.at[1][board.at(Seat::Two) as usize]
    }

    /// What a step of `seat` from `from` to `to` changes.
    pub fn step(&self, seat: Seat, from: u32, to: u32) -> u64 {
        self.at[seat.index()][from as usize] ^ self.at[seat.index()][to as usize]
    }

    /// What a new trap on `square` changes.
    pub fn trap(&self, square: u32) -> u64 {
        self.trap[square as usize]
    }

    pub fn to_act(&self, seat: Seat) -> u64 {
        if seat == Seat::Two {
            self.seat_two
        } else {
            0
        }
    }
}

/// What a stored value says about the true value.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum Bound {
    #[default]
    Exact,
    /// The true value is at least this (a cut-off above beta).
    Lower,
    /// The true value is at most this (nothing reached alpha).
    Upper,
}

/// 16 bytes: the full key, the value, the depth searched, the best choice.
#[derive(Clone, Copy)]
pub struct Entry {
    key: u64,
    pub value: f32,
    pub depth: u8,
    pub bound: Bound,
    /// The best move or target found (a square), or `NONE`.
    pub best: u8,
}

pub const NONE: u8 = u8::MAX;

impl Default for Entry {
    fn default() -> Entry {
        Entry { key: 0, value: 0.0, depth: 0, bound: Bound::Exact, best: NONE }
    }
}

pub struct Table {
    entries: Vec<Entry>,
    mask: usize,
}

impl Table {
    /// A table of 2^`bits` entries, allocated and written once, here: an
    /// all-zero table would come from calloc and fault its pages in during
    /// the first searches, which costs tens of milliseconds on these VMs.
    pub fn new(bits: u32) -> Table {
        Table { entries: vec![Entry::default(); 1 << bits], mask: (1 << bits) - 1 }
    }

    pub fn probe(&self, key: u64) -> Option<Entry> {
        let entry = self.entries[key as usize & self.mask];
        (entry.key == key && key != 0).then_some(entry)
    }

    /// Stores, keeping a deeper result for the same position.
    pub fn store(&mut self, key: u64, value: f64, depth: u32, bound: Bound, best: u8) {
        let slot = &mut self.entries[key as usize & self.mask];
        if slot.key == key && u32::from(slot.depth) > depth {
            return;
        }
        *slot = Entry { key, value: value as f32, depth: depth.min(255) as u8, bound, best };
    }
}
