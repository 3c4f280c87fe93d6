//! Hexapawn: a 3x3 board, three pawns a side. White (player 1, the bottom
//! row) moves first. A pawn steps straight forward onto an empty square or
//! diagonally forward to capture. Reach the far row, capture every enemy
//! pawn, or leave the opponent without a move to win; there are no draws.
//!
//! The rules live here once: the arena's referee and every bot call these.

mod board;
mod player;

pub use board::{HexMove, HexWin, HexapawnBoard, IllegalHexMove, Square};
pub use player::{HexapawnAction, HexapawnGameInfo, HexapawnPlayer, HexapawnRequest};

/// The board is 3 x 3.
pub const SIZE: u8 = 3;
/// No game lasts longer: every ply advances a pawn, and the pawns of one
/// file block each other, so the board fills up within 7 plies.
pub const MAX_PLIES: u32 = 7;
