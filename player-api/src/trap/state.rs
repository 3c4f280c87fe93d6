//! `TrapState`: a Trap position; legal moves, the checks of a move and a
//! target, making a move and placing a trap. It answers through the fast
//! core (`bitboard.rs`); the conversions between the two, and
//! `Bitboard::new` (the start position, which is `TrapState::new`'s), are
//! here so that the core does not name `TrapState`.

use std::fmt;

use abi_stable::StableAbi;

use super::{bitboard::Bitboard, cells::Cells, pos::Pos, throw::Throw, DEFAULT_SIZE, MAX_SIZE, MIN_SIZE};
use crate::Seat;

/// A Trap position: board size, where the traps are, where the players stand.
///
/// Plain data (`Copy`, 24 bytes): players copy it freely for their own search.
#[repr(C)]
#[derive(StableAbi, Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct TrapState {
    size: u8,
    players: [Pos; 2],
    traps: u64,
}

/// What stands on a cell.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Cell {
    Empty,
    Trap,
    Player(Seat),
}

/// Why a move is illegal.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum IllegalMove {
    OffBoard,
    NotAKingStep { from: Pos },
    Trap,
    Opponent,
}

/// Why a throw's target is illegal.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum IllegalTrap {
    OffBoard,
    OnPlayer(Seat),
}

impl fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            IllegalMove::OffBoard => write!(f, "off the board"),
            IllegalMove::NotAKingStep { from } => write!(f, "not one king step from {from}"),
            IllegalMove::Trap => write!(f, "a trap is there"),
            IllegalMove::Opponent => write!(f, "the opponent is there"),
        }
    }
}

impl fmt::Display for IllegalTrap {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            IllegalTrap::OffBoard => write!(f, "off the board"),
            IllegalTrap::OnPlayer(seat) => write!(f, "{seat} stands there"),
        }
    }
}

impl Default for TrapState {
    fn default() -> Self {
        TrapState::new(DEFAULT_SIZE)
    }
}

impl TrapState {
    /// The start position: player 1 at (0, N/2), player 2 at (N-1, N/2), no traps.
    ///
    /// # Panics
    /// If `size` is outside `MIN_SIZE..=MAX_SIZE` (3 to 8).
    pub fn new(size: u8) -> TrapState {
        assert!(
            (MIN_SIZE..=MAX_SIZE).contains(&size),
            "board size {size} is not supported: use {MIN_SIZE} to {MAX_SIZE}"
        );
        TrapState { size, players: [Pos::new(0, size / 2), Pos::new(size - 1, size / 2)], traps: 0 }
    }

    /// A position built from parts, for tests and analysis. Traps on the
    /// players' cells or off the board are dropped.
    pub fn from_parts(size: u8, players: [Pos; 2], traps: impl IntoIterator<Item = Pos>) -> TrapState {
        let mut state = TrapState::new(size);
        assert!(players.iter().all(|p| p.is_on_board(size)) && players[0] != players[1]);
        state.players = players;
        for trap in traps {
            if state.cell(trap) == Some(Cell::Empty) {
                state.place_trap(trap);
            }
        }
        state
    }

    /// A position drawn as text, one board row per line, cells separated by
    /// spaces, in the symbols of this type's `Display`: `1`, `2` the players,
    /// `#` a trap, `.` a free cell. The board is as wide as it is tall.
    /// For tests and puzzles; a malformed drawing says what is wrong.
    pub fn from_diagram(text: &str) -> Result<TrapState, String> {
        let rows: Vec<Vec<&str>> = text
            .lines()
            .map(|l| l.split_whitespace().collect::<Vec<_>>())
            .filter(|r| !r.is_empty())
            .collect();
        let size = u8::try_from(rows.len()).unwrap_or(u8::MAX);
        if !(MIN_SIZE..=MAX_SIZE).contains(&size) {
            return Err(format!("the drawing has {} rows; a board has {MIN_SIZE} to {MAX_SIZE}", rows.len()));
        }
        let (mut one, mut two, mut traps) = (None, None, Vec::new());
        for (r, row) in rows.iter().enumerate() {
            if row.len() != rows.len() {
                return Err(format!("row {r} of the drawing is {} wide, not {size}", row.len()));
            }
            for (c, &symbol) in row.iter().enumerate() {
                let here = Pos::new(r as u8, c as u8);
                match symbol {
                    "1" => one = Some(here),
                    "2" => two = Some(here),
                    "#" => traps.push(here),
                    "." => {}
                    other => return Err(format!("unknown symbol {other:?} at {here} in the drawing")),
                }
            }
        }
        match (one, two) {
            (Some(one), Some(two)) => Ok(TrapState::from_parts(size, [one, two], traps)),
            _ => Err("the drawing needs both players, 1 and 2".into()),
        }
    }

    pub const fn size(&self) -> u8 {
        self.size
    }

    /// Where the player in `seat` stands.
    pub const fn position(&self, seat: Seat) -> Pos {
        self.players[seat.index()]
    }

    /// Every cell that holds a trap.
    pub const fn traps(&self) -> Cells {
        Cells::from_bits(self.traps)
    }

    pub fn has_trap(&self, pos: Pos) -> bool {
        self.traps().contains(pos)
    }

    /// What stands on `pos`, or `None` off the board.
    pub fn cell(&self, pos: Pos) -> Option<Cell> {
        if !pos.is_on_board(self.size) {
            None
        } else if self.has_trap(pos) {
            Some(Cell::Trap)
        } else if pos == self.players[0] {
            Some(Cell::Player(Seat::One))
        } else if pos == self.players[1] {
            Some(Cell::Player(Seat::Two))
        } else {
            Some(Cell::Empty)
        }
    }

    /// This position in the fast core's form, for search (`Copy`, 16 bytes).
    pub fn bitboard(&self) -> Bitboard {
        Bitboard::from(self)
    }

    /// Cells with neither a trap nor a player.
    pub fn free_cells(&self) -> Cells {
        Cells::from_bits(self.bitboard().free())
    }

    /// Whether `pos` is on the board with neither a trap nor a player.
    pub fn is_free(&self, pos: Pos) -> bool {
        self.free_cells().contains(pos)
    }

    /// The free cells around `pos`: where a player standing there could step.
    pub fn free_neighbours(&self, pos: Pos) -> Cells {
        match pos.bit_index(self.size) {
            Some(square) => Cells::from_bits(self.bitboard().free_neighbours(square)),
            None => Cells::EMPTY,
        }
    }

    /// How many free cells surround `pos` (the course's "mobility").
    pub fn free_neighbour_count(&self, pos: Pos) -> u32 {
        self.free_neighbours(pos).len()
    }

    /// The legal moves of the player in `seat`.
    pub fn legal_moves(&self, seat: Seat) -> Cells {
        Cells::from_bits(self.bitboard().moves(seat))
    }

    /// Whether the player in `seat` has at least one legal move. A player
    /// without one is trapped: that is how a game is won.
    pub fn can_move(&self, seat: Seat) -> bool {
        self.bitboard().can_move(seat)
    }

    /// Checks a move of the player in `seat` to `to`.
    pub fn check_move(&self, seat: Seat, to: Pos) -> Result<(), IllegalMove> {
        match self.cell(to) {
            None => Err(IllegalMove::OffBoard),
            Some(_) if !self.position(seat).is_king_step(to) => {
                Err(IllegalMove::NotAKingStep { from: self.position(seat) })
            }
            Some(Cell::Trap) => Err(IllegalMove::Trap),
            Some(Cell::Player(_)) => Err(IllegalMove::Opponent),
            Some(Cell::Empty) => Ok(()),
        }
    }

    /// Checks a throw's target: any cell on the board that holds no player
    /// (a cell that already holds a trap is legal, and wasted).
    pub fn check_target(&self, target: Pos) -> Result<(), IllegalTrap> {
        match self.cell(target) {
            None => Err(IllegalTrap::OffBoard),
            Some(Cell::Player(seat)) => Err(IllegalTrap::OnPlayer(seat)),
            Some(_) => Ok(()),
        }
    }

    /// Moves the player in `seat` to `to`. The move is assumed legal
    /// (see [`check_move`](Self::check_move)).
    pub fn move_player(&mut self, seat: Seat, to: Pos) {
        debug_assert_eq!(self.check_move(seat, to), Ok(()), "illegal move {to}");
        self.players[seat.index()] = to;
    }

    /// Puts a trap on `pos`. A cell off the board or under a player is
    /// left as it is (the rules never put a trap there).
    pub fn place_trap(&mut self, pos: Pos) {
        debug_assert_eq!(self.check_target(pos), Ok(()), "trap on {pos}");
        if let Some(i) = pos.bit_index(self.size) {
            self.traps |= (1 << i) & !self.player_bits();
        }
    }

    /// Where a trap thrown by the player in `seat` at `target` may land,
    /// with what probability. `target` should pass [`check_target`](Self::check_target).
    pub fn throw(&self, seat: Seat, target: Pos) -> Throw {
        let misses = match target.bit_index(self.size) {
            Some(square) => self.bitboard().throw(seat, square).misses,
            None => 0,
        };
        Throw::new(target, self.position(seat).manhattan(target), Cells::from_bits(misses))
    }

    fn player_bits(&self) -> u64 {
        self.bitboard().players()
    }
}

impl fmt::Display for TrapState {
    /// The board as text: `1` and `2` the players, `#` a trap, `.` a free cell.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "  ")?;
        for c in 0..self.size {
            write!(f, " {c}")?;
        }
        writeln!(f)?;
        for r in 0..self.size {
            write!(f, "{r:>2}")?;
            for c in 0..self.size {
                let symbol = match self.cell(Pos::new(r, c)) {
                    Some(Cell::Player(seat)) => char::from(b'0' + seat.number()),
                    Some(Cell::Trap) => '#',
                    _ => '.',
                };
                write!(f, " {symbol}")?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

// Here, not in bitboard.rs: the start position is defined once, by `TrapState::new`.
impl Bitboard {
    /// The start position of a `size` board (see [`TrapState::new`]).
    pub fn new(size: u8) -> Bitboard {
        Bitboard::from(&TrapState::new(size))
    }
}

impl From<&TrapState> for Bitboard {
    fn from(state: &TrapState) -> Bitboard {
        let square = |seat| state.position(seat).bit_index(8).expect("players stand on the board") as u8;
        Bitboard::from_parts(
            state.traps().bits() ^ Cells::board(state.size()).bits(),
            [square(Seat::One), square(Seat::Two)],
            state.size(),
        )
    }
}

impl From<&Bitboard> for TrapState {
    fn from(board: &Bitboard) -> TrapState {
        let pos = |seat| Pos::from_bit_index(board.at(seat));
        let traps = Cells::from_bits(board.traps());
        TrapState::from_parts(board.size(), [pos(Seat::One), pos(Seat::Two)], traps)
    }
}
