//! `Hint` and `IntuitiveView`: what the player has seen. The view's start on
//! a world (`IntuitiveView::start`) and whether a world is consistent with it
//! (`IntuitiveView::is_consistent`) are in `world.rs`: a world's cells show
//! `Hint`s, so the world is built on this module and this one does not name
//! the world.

use std::fmt;

use abi_stable::StableAbi;

use super::cell::{Cell, CellSet};

/// What an opened cell that holds no pit, gold or monster tells about its
/// four orthogonal neighbours: presence flags, not counts.
#[repr(C)]
#[derive(StableAbi, Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct Hint {
    /// At least one pit is next to the cell.
    pub breeze: bool,
    /// The monster is next to the cell.
    pub smell: bool,
    /// The gold is next to the cell.
    pub glitter: bool,
}

impl Hint {
    /// No flag: nothing is next to the cell.
    pub const NOTHING: Hint = Hint { breeze: false, smell: false, glitter: false };

    /// The hint of cell `index` of a `size` board with these pits, monster and gold.
    pub fn around(size: u8, index: u8, pits: CellSet, monster: u8, gold: u8) -> Hint {
        let near = Cell::from_index(index, size).neighbours(size);
        Hint {
            breeze: !near.intersection(pits).is_empty(),
            smell: near.contains(monster),
            glitter: near.contains(gold),
        }
    }

    /// The three flags as bits (breeze 1, smell 2, glitter 4): 0 to 7.
    pub const fn code(self) -> u8 {
        self.breeze as u8 | (self.smell as u8) << 1 | (self.glitter as u8) << 2
    }

    /// The hint with flags `code` (see [`Hint::code`]; higher bits are ignored).
    pub const fn from_code(code: u8) -> Hint {
        Hint { breeze: code & 1 != 0, smell: code & 2 != 0, glitter: code & 4 != 0 }
    }
}

impl fmt::Display for Hint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let flags = [(self.breeze, "breeze"), (self.smell, "smell"), (self.glitter, "glitter")];
        let names: Vec<&str> = flags.iter().filter(|(on, _)| *on).map(|(_, name)| *name).collect();
        if names.is_empty() {
            write!(f, "nothing")
        } else {
            write!(f, "{}", names.join("+"))
        }
    }
}

/// Everything the player knows: which cells are open, the hints they
/// showed, whether and where the gold was found, the score so far.
///
/// Plain data (`Copy`): players copy it freely for their own search.
#[repr(C)]
#[derive(StableAbi, Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct IntuitiveView {
    size: u8,
    /// The gold's cell number once it is found, else `NO_GOLD`.
    gold: u8,
    score: i8,
    /// Every open cell, the gold's included.
    open: CellSet,
    breeze: CellSet,
    smell: CellSet,
    glitter: CellSet,
}

const NO_GOLD: u8 = u8::MAX;

impl IntuitiveView {
    /// A view of a `size` board with no cell open, no gold found and no
    /// points: what `IntuitiveView::start` (in `world.rs`) opens the start on.
    pub(super) const fn unopened(size: u8) -> IntuitiveView {
        IntuitiveView {
            size,
            gold: NO_GOLD,
            score: 0,
            open: CellSet::EMPTY,
            breeze: CellSet::EMPTY,
            smell: CellSet::EMPTY,
            glitter: CellSet::EMPTY,
        }
    }

    /// A view from its parts, as a player process receives it on the wire.
    /// `None` when the parts cannot be a view: cells off the board, hints or
    /// gold on closed cells.
    pub fn from_parts(
        size: u8,
        score: i8,
        gold: Option<u8>,
        open: CellSet,
        [breeze, smell, glitter]: [CellSet; 3],
    ) -> Option<IntuitiveView> {
        let on_board = CellSet::board(size);
        let within = |set: CellSet| set.minus(open).is_empty();
        let fits = (super::MIN_SIZE..=super::MAX_SIZE).contains(&size)
            && open.minus(on_board).is_empty()
            && within(breeze)
            && within(smell)
            && within(glitter)
            && gold.is_none_or(|g| open.contains(g));
        fits.then_some(IntuitiveView {
            size,
            gold: gold.unwrap_or(NO_GOLD),
            score,
            open,
            breeze,
            smell,
            glitter,
        })
    }

    /// Opens cell `index` showing `hint` (for a player's own look-ahead).
    pub fn open_hint(&mut self, index: u8, hint: Hint) {
        self.open.insert(index);
        let bit = CellSet::single(index);
        let set = |flag: bool, set: &mut CellSet| {
            if flag {
                *set = set.union(bit);
            }
        };
        set(hint.breeze, &mut self.breeze);
        set(hint.smell, &mut self.smell);
        set(hint.glitter, &mut self.glitter);
    }

    /// Opens cell `index`, which held the gold (for a player's own look-ahead).
    pub fn open_gold(&mut self, index: u8) {
        self.open.insert(index);
        self.gold = index;
    }

    pub(crate) fn add_score(&mut self, points: i8) {
        self.score += points;
    }

    pub const fn size(&self) -> u8 {
        self.size
    }

    /// Pits on the board: as many as the board is wide.
    pub const fn pit_count(&self) -> u8 {
        self.size
    }

    /// Points so far (the gold's, once found).
    pub const fn score(&self) -> i8 {
        self.score
    }

    /// Every open cell, the gold's included.
    pub const fn open(&self) -> CellSet {
        self.open
    }

    /// The cells still closed: the ones a player may reveal.
    pub const fn closed(&self) -> CellSet {
        CellSet::board(self.size).minus(self.open)
    }

    /// Open cells that showed a breeze (resp. smell, glitter).
    pub const fn breeze(&self) -> CellSet {
        self.breeze
    }

    pub const fn smell(&self) -> CellSet {
        self.smell
    }

    pub const fn glitter(&self) -> CellSet {
        self.glitter
    }

    /// The gold's cell number, once found.
    pub const fn gold(&self) -> Option<u8> {
        if self.gold == NO_GOLD {
            None
        } else {
            Some(self.gold)
        }
    }

    /// The hint cell number `index` showed, if it is open and not the gold's.
    pub fn hint(&self, index: u8) -> Option<Hint> {
        (self.open.contains(index) && self.gold != index).then(|| Hint {
            breeze: self.breeze.contains(index),
            smell: self.smell.contains(index),
            glitter: self.glitter.contains(index),
        })
    }

    /// The hint cell `cell` showed, if it is on the board, open and not the gold's.
    pub fn hint_at(&self, cell: Cell) -> Option<Hint> {
        cell.index(self.size).and_then(|i| self.hint(i))
    }
}
