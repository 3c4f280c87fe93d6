//! Trap: a 7x7 (by default) board, two players; each turn a king step, then
//! a throw whose landing is random. Trap the opponent to win.
//!
//! The rules live here once: the arena's referee and every bot call these.
//! Cells are stored as bits of a `u64` (row-major, stride 8), so boards up
//! to 8x8 are supported and every query is a few bit operations.

pub mod bitboard;
mod cells;
mod player;
mod pos;
mod state;
mod throw;

pub use bitboard::{Bitboard, Landing};
pub use cells::Cells;
pub use player::{TrapGameInfo, TrapPlayer, TrapRequest};
pub use pos::Pos;
pub use state::{Cell, IllegalMove, IllegalTrap, TrapState};
pub use throw::Throw;

/// The board size of the course's game.
pub const DEFAULT_SIZE: u8 = 7;
/// The smallest board the rules allow (every cell needs a neighbour to miss onto).
pub const MIN_SIZE: u8 = 3;
/// The largest board: 8x8 cells fill the 64-bit board.
pub const MAX_SIZE: u8 = 8;
/// Turns (one player's move and throw) after which a game is a draw.
pub const DEFAULT_TURN_CAP: u32 = 400;
