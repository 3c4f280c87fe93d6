//! `IntuitiveWorld`: the hidden grid (where the pits, the gold and the
//! monster are), its seeded generation, and the hint each cell shows. Also
//! the view's relations to a world, `IntuitiveView::start` and
//! `IntuitiveView::is_consistent`: here rather than in `view.rs`, which sits
//! below this module (it defines `Hint`).

use std::fmt;

use abi_stable::StableAbi;
use rand::Rng;

use super::{
    cell::{Cell, CellSet},
    view::{Hint, IntuitiveView},
    MAX_SIZE, MIN_SIZE,
};

/// A hidden grid: where the pits, the gold and the monster are, and which
/// safe cell is open at the start. The arena keeps it; a player only sees
/// what it has opened ([`IntuitiveView`]).
#[repr(C)]
#[derive(StableAbi, Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct IntuitiveWorld {
    size: u8,
    gold: u8,
    monster: u8,
    start: u8,
    pits: CellSet,
}

/// What a cell holds.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Content {
    Pit,
    Gold,
    Monster,
    /// A cell with none of the three: it shows this hint when opened.
    Hint(Hint),
}

/// Why a hand-made world breaks the rules.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum WorldError {
    Size(u8),
    OffBoard(Cell),
    /// The board needs exactly `size` distinct pits.
    PitCount {
        wanted: u8,
        got: u8,
    },
    /// Two of the pits, the gold and the monster share this cell.
    Overlap(Cell),
    /// The start cell must hold no pit, gold or monster.
    UnsafeStart(Cell),
}

impl fmt::Display for WorldError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WorldError::Size(size) => {
                write!(f, "board size {size} is not supported: use {MIN_SIZE} to {MAX_SIZE}")
            }
            WorldError::OffBoard(cell) => write!(f, "cell {cell} is off the board"),
            WorldError::PitCount { wanted, got } => {
                write!(f, "{got} distinct pits, the board needs {wanted}")
            }
            WorldError::Overlap(cell) => write!(f, "cell {cell} holds two things"),
            WorldError::UnsafeStart(cell) => write!(f, "the start cell {cell} is not safe"),
        }
    }
}

impl IntuitiveWorld {
    /// A random world: `size` pits, the gold and the monster on distinct
    /// cells, every placement equally likely; then the start, uniform among
    /// the cells that hold none of them.
    ///
    /// # Panics
    /// If `size` is outside `MIN_SIZE..=MAX_SIZE` (3 to 8).
    pub fn generate<R: Rng + ?Sized>(size: u8, rng: &mut R) -> IntuitiveWorld {
        assert!((MIN_SIZE..=MAX_SIZE).contains(&size), "{}", WorldError::Size(size));
        let n = size * size;
        // A partial Fisher-Yates shuffle: the first size + 2 cells of a
        // uniformly shuffled board are pits, then the gold, then the monster.
        let mut cells: [u8; 64] = std::array::from_fn(|i| i as u8);
        let hazards = size as usize + 2;
        for i in 0..hazards {
            let j = rng.random_range(i..n as usize);
            cells.swap(i, j);
        }
        let pits: CellSet = cells[..size as usize].iter().copied().collect();
        let (gold, monster) = (cells[size as usize], cells[size as usize + 1]);
        let safe =
            CellSet::board(size).minus(pits).minus(CellSet::single(gold)).minus(CellSet::single(monster));
        let start = safe.nth_index(rng.random_range(0..safe.len())).expect("the board has safe cells");
        IntuitiveWorld { size, gold, monster, start, pits }
    }

    /// A world laid out by hand (for tests and puzzles), checked against the rules.
    pub fn from_parts(
        size: u8,
        pits: &[Cell],
        gold: Cell,
        monster: Cell,
        start: Cell,
    ) -> Result<IntuitiveWorld, WorldError> {
        if !(MIN_SIZE..=MAX_SIZE).contains(&size) {
            return Err(WorldError::Size(size));
        }
        let index = |cell: Cell| cell.index(size).ok_or(WorldError::OffBoard(cell));
        let mut taken = CellSet::EMPTY;
        for &cell in pits.iter().chain([&gold, &monster]) {
            let i = index(cell)?;
            if taken.contains(i) {
                return Err(WorldError::Overlap(cell));
            }
            taken.insert(i);
        }
        if pits.len() != size as usize {
            return Err(WorldError::PitCount { wanted: size, got: pits.len() as u8 });
        }
        if taken.contains(index(start)?) {
            return Err(WorldError::UnsafeStart(start));
        }
        Ok(IntuitiveWorld {
            size,
            gold: index(gold)?,
            monster: index(monster)?,
            start: index(start)?,
            pits: pits.iter().map(|&c| index(c)).collect::<Result<_, _>>()?,
        })
    }

    pub const fn size(&self) -> u8 {
        self.size
    }

    pub const fn pits(&self) -> CellSet {
        self.pits
    }

    pub const fn gold(&self) -> u8 {
        self.gold
    }

    pub const fn monster(&self) -> u8 {
        self.monster
    }

    /// The cell open at the start.
    pub const fn start(&self) -> u8 {
        self.start
    }

    /// What cell number `index` holds.
    pub fn content(&self, index: u8) -> Content {
        if self.pits.contains(index) {
            Content::Pit
        } else if index == self.gold {
            Content::Gold
        } else if index == self.monster {
            Content::Monster
        } else {
            Content::Hint(self.hint(index))
        }
    }

    /// The hint cell number `index` would show: what its orthogonal neighbours hold.
    pub fn hint(&self, index: u8) -> Hint {
        Hint::around(self.size, index, self.pits, self.monster, self.gold)
    }
}

impl IntuitiveView {
    /// The view at the start of a game on `world`: its start cell open.
    pub fn start(world: &IntuitiveWorld) -> IntuitiveView {
        let mut view = IntuitiveView::unopened(world.size());
        view.open_hint(world.start(), world.hint(world.start()));
        view
    }

    /// Whether `world` could be the hidden grid: it agrees with every cell opened.
    pub fn is_consistent(&self, world: &IntuitiveWorld) -> bool {
        if world.size() != self.size() {
            return false;
        }
        let open = self.open();
        let gold_agrees = match self.gold() {
            Some(gold) => world.gold() == gold,
            None => !open.contains(world.gold()),
        };
        gold_agrees
            && open.intersection(world.pits()).is_empty()
            && !open.contains(world.monster())
            && open.minus(CellSet::single(world.gold())).all(|i| self.hint(i) == Some(world.hint(i)))
    }
}
