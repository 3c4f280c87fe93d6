//! `HexapawnBoard`: the position; legal moves, the check of a move, the
//! winner, and the mirrored board.

use std::fmt;

use abi_stable::StableAbi;

use super::SIZE;
use crate::Seat;

/// A square: `row` 0 is the top row (Black's home), `col` 0 the left column.
#[repr(C)]
#[derive(StableAbi, Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord, Default)]
pub struct Square {
    pub row: u8,
    pub col: u8,
}

impl Square {
    pub const fn new(row: u8, col: u8) -> Square {
        Square { row, col }
    }

    pub const fn is_on_board(self) -> bool {
        self.row < SIZE && self.col < SIZE
    }

    const fn bit(self) -> u16 {
        1 << (self.row * SIZE + self.col)
    }

    const fn from_index(index: u32) -> Square {
        Square::new((index / SIZE as u32) as u8, (index % SIZE as u32) as u8)
    }

    /// The square seen in a mirror down the middle file.
    pub const fn mirrored(self) -> Square {
        Square::new(self.row, SIZE - 1 - self.col)
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({},{})", self.row, self.col)
    }
}

/// A move: the pawn on `from` goes to `to`.
#[repr(C)]
#[derive(StableAbi, Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord, Default)]
pub struct HexMove {
    pub from: Square,
    pub to: Square,
}

impl HexMove {
    pub const fn new(from: Square, to: Square) -> HexMove {
        HexMove { from, to }
    }

    /// The move seen in a mirror down the middle file.
    pub const fn mirrored(self) -> HexMove {
        HexMove::new(self.from.mirrored(), self.to.mirrored())
    }
}

impl fmt::Display for HexMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}->{}", self.from, self.to)
    }
}

/// How a game was won.
#[repr(u8)]
#[derive(StableAbi, Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum HexWin {
    /// A pawn reached the far row.
    FarRow,
    /// Every enemy pawn was captured.
    AllCaptured,
    /// The opponent had no legal move on its turn.
    NoMove,
}

impl fmt::Display for HexWin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HexWin::FarRow => write!(f, "reached the far row"),
            HexWin::AllCaptured => write!(f, "captured every pawn"),
            HexWin::NoMove => write!(f, "the opponent has no move"),
        }
    }
}

/// Why a move is illegal.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum IllegalHexMove {
    OffBoard,
    /// `from` holds no pawn of the side to move.
    NotYourPawn,
    /// Not one square forward, straight or diagonal.
    NotAPawnStep,
    /// A straight step onto an occupied square.
    Blocked,
    /// A diagonal step onto a square with no enemy pawn.
    NothingToCapture,
    /// The game is already decided.
    GameOver,
}

impl fmt::Display for IllegalHexMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            IllegalHexMove::OffBoard => write!(f, "off the board"),
            IllegalHexMove::NotYourPawn => write!(f, "no pawn of the side to move stands there"),
            IllegalHexMove::NotAPawnStep => write!(f, "not one square forward"),
            IllegalHexMove::Blocked => write!(f, "a pawn blocks the square ahead"),
            IllegalHexMove::NothingToCapture => write!(f, "a diagonal step must capture"),
            IllegalHexMove::GameOver => write!(f, "the game is over"),
        }
    }
}

/// A position: where each side's pawns stand and whose turn it is.
/// Seat `One` is White (starts on the bottom row, moves up, moves first);
/// seat `Two` is Black.
///
/// Plain data (`Copy`, 6 bytes): players copy it freely for their own search.
#[repr(C)]
#[derive(StableAbi, Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct HexapawnBoard {
    /// Bit `row * 3 + col` of `pawns[seat]` is set where that seat has a pawn.
    pawns: [u16; 2],
    to_move: Seat,
}

const ROW_MASK: u16 = 0b111;
const BOARD_MASK: u16 = 0x1ff;

impl Default for HexapawnBoard {
    fn default() -> Self {
        HexapawnBoard::start()
    }
}

impl HexapawnBoard {
    /// The start: White's pawns on row 2, Black's on row 0, White to move.
    pub const fn start() -> HexapawnBoard {
        HexapawnBoard { pawns: [ROW_MASK << 6, ROW_MASK], to_move: Seat::One }
    }

    /// A position drawn as in this type's `Display`: three rows of `W`, `B`
    /// and `.`, top row first, separated by line breaks or spaces. For tests
    /// and puzzles; a malformed drawing says what is wrong.
    pub fn from_diagram(text: &str, to_move: Seat) -> Result<HexapawnBoard, String> {
        let (mut white, mut black) = (Vec::new(), Vec::new());
        for (r, line) in text.split_whitespace().enumerate() {
            for (c, ch) in line.chars().enumerate() {
                let square = Square::new(r as u8, c as u8);
                match ch {
                    'W' => white.push(square),
                    'B' => black.push(square),
                    '.' => {}
                    other => return Err(format!("unknown symbol {other:?} in the drawing")),
                }
            }
        }
        HexapawnBoard::from_squares(&white, &black, to_move)
            .ok_or_else(|| "the drawing puts a pawn off the 3x3 board".to_string())
    }

    /// A position laid out by hand (for tests and puzzles). Squares off the
    /// board or taken twice are rejected.
    pub fn from_squares(white: &[Square], black: &[Square], to_move: Seat) -> Option<HexapawnBoard> {
        let mut pawns = [0u16; 2];
        for (seat, squares) in [(0, white), (1, black)] {
            for &square in squares {
                if !square.is_on_board() || (pawns[0] | pawns[1]) & square.bit() != 0 {
                    return None;
                }
                pawns[seat] |= square.bit();
            }
        }
        Some(HexapawnBoard { pawns, to_move })
    }

    pub const fn to_move(&self) -> Seat {
        self.to_move
    }

    /// Who stands on `square`.
    pub const fn at(&self, square: Square) -> Option<Seat> {
        if !square.is_on_board() {
            None
        } else if self.pawns[0] & square.bit() != 0 {
            Some(Seat::One)
        } else if self.pawns[1] & square.bit() != 0 {
            Some(Seat::Two)
        } else {
            None
        }
    }

    /// The squares of `seat`'s pawns, in row-major order.
    pub fn pawns(&self, seat: Seat) -> impl Iterator<Item = Square> + '_ {
        let bits = self.pawns[seat.index()];
        (0..9).filter(move |i| bits >> i & 1 == 1).map(Square::from_index)
    }

    pub const fn pawn_count(&self, seat: Seat) -> u32 {
        self.pawns[seat.index()].count_ones()
    }

    /// The row `seat`'s pawns move toward, one per step.
    const fn forward(seat: Seat) -> i8 {
        match seat {
            Seat::One => -1,
            Seat::Two => 1,
        }
    }

    /// The row a `seat` pawn must reach to win.
    pub const fn far_row(seat: Seat) -> u8 {
        match seat {
            Seat::One => 0,
            Seat::Two => SIZE - 1,
        }
    }

    /// Whether the side to move may play `mv`.
    pub fn check_move(&self, mv: HexMove) -> Result<(), IllegalHexMove> {
        if self.winner().is_some() {
            return Err(IllegalHexMove::GameOver);
        }
        if !mv.from.is_on_board() || !mv.to.is_on_board() {
            return Err(IllegalHexMove::OffBoard);
        }
        let seat = self.to_move;
        if self.at(mv.from) != Some(seat) {
            return Err(IllegalHexMove::NotYourPawn);
        }
        let row_step = mv.to.row as i8 - mv.from.row as i8;
        let col_step = mv.to.col.abs_diff(mv.from.col);
        if row_step != Self::forward(seat) || col_step > 1 {
            return Err(IllegalHexMove::NotAPawnStep);
        }
        match (col_step, self.at(mv.to)) {
            (0, None) => Ok(()),
            (0, Some(_)) => Err(IllegalHexMove::Blocked),
            (_, Some(other)) if other != seat => Ok(()),
            _ => Err(IllegalHexMove::NothingToCapture),
        }
    }

    /// The moves the side to move may play (none once the game is decided).
    pub fn legal_moves(&self) -> Vec<HexMove> {
        if self.winner().is_some() {
            return Vec::new();
        }
        self.steps(self.to_move).collect()
    }

    /// `seat`'s pawn steps on this board, whoever is to move.
    fn steps(&self, seat: Seat) -> impl Iterator<Item = HexMove> + '_ {
        let forward = Self::forward(seat);
        self.pawns(seat).flat_map(move |from| {
            let row = from.row as i8 + forward;
            [-1i8, 0, 1].into_iter().filter_map(move |dc| {
                let col = from.col as i8 + dc;
                if !(0..SIZE as i8).contains(&row) || !(0..SIZE as i8).contains(&col) {
                    return None;
                }
                let to = Square::new(row as u8, col as u8);
                let ok = match (dc, self.at(to)) {
                    (0, None) => true,
                    (0, Some(_)) => false,
                    (_, Some(other)) => other != seat,
                    (_, None) => false,
                };
                ok.then_some(HexMove::new(from, to))
            })
        })
    }

    /// The position after the side to move plays `mv` (which must be legal).
    pub fn play(&self, mv: HexMove) -> HexapawnBoard {
        let seat = self.to_move.index();
        let mut pawns = self.pawns;
        pawns[seat] = pawns[seat] & !mv.from.bit() | mv.to.bit();
        pawns[1 - seat] &= !mv.to.bit();
        HexapawnBoard { pawns, to_move: self.to_move.other() }
    }

    /// The winner, once the game is decided.
    pub fn winner(&self) -> Option<Seat> {
        self.decided().map(|(seat, _)| seat)
    }

    /// The winner and how it won, once the game is decided: a pawn on its
    /// far row, no enemy pawn left, or the side to move has no legal move.
    pub fn decided(&self) -> Option<(Seat, HexWin)> {
        for seat in Seat::BOTH {
            let far = ROW_MASK << (Self::far_row(seat) * SIZE);
            if self.pawns[seat.index()] & far != 0 {
                return Some((seat, HexWin::FarRow));
            }
            if self.pawns[seat.other().index()] == 0 {
                return Some((seat, HexWin::AllCaptured));
            }
        }
        self.steps(self.to_move).next().is_none().then_some((self.to_move.other(), HexWin::NoMove))
    }

    /// The position seen in a mirror down the middle file.
    pub fn mirrored(&self) -> HexapawnBoard {
        let flip = |bits: u16| -> u16 {
            (0..9u32)
                .filter(|i| bits >> i & 1 == 1)
                .map(|i| Square::from_index(i).mirrored().bit())
                .fold(0, |acc, b| acc | b)
        };
        HexapawnBoard { pawns: [flip(self.pawns[0]), flip(self.pawns[1])], to_move: self.to_move }
    }

    /// The pawn bits as one number (White's in bits 0-8, Black's in 9-17):
    /// a compact key for tables.
    pub const fn key(&self) -> u32 {
        (self.pawns[0] & BOARD_MASK) as u32 | ((self.pawns[1] & BOARD_MASK) as u32) << 9
    }
}

impl fmt::Display for HexapawnBoard {
    /// Three rows, top first: `W` White, `B` Black, `.` empty.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for row in 0..SIZE {
            for col in 0..SIZE {
                let symbol = match self.at(Square::new(row, col)) {
                    Some(Seat::One) => 'W',
                    Some(Seat::Two) => 'B',
                    None => '.',
                };
                write!(f, "{symbol}")?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}
