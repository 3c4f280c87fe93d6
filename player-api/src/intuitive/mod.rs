//! Intuitive AI: an N x N grid (4x4 by default) hides N pits, one gold and
//! one monster. One safe cell is open at the start; the player opens one
//! cell per call. The monster wins (+1), the gold is a bonus (+1, the game
//! goes on), a pit loses (-1). Every other cell shows a hint about its four
//! orthogonal neighbours: breeze (a pit), smell (the monster), glitter (the
//! gold).
//!
//! The rules live here once: the arena's referee and every bot call these.
//! Cells are numbered row-major (`row * size + col`) and sets of cells are
//! bits of a `u64`, so boards up to 8x8 are supported.

mod cell;
mod game;
mod player;
mod view;
mod world;

pub use cell::{Cell, CellSet};
pub use game::{IllegalReveal, IntuitiveGame, Revealed};
pub use player::{IntuitiveGameInfo, IntuitiveGameOver, IntuitivePlayer, IntuitiveRequest};
pub use view::{Hint, IntuitiveView};
pub use world::{Content, IntuitiveWorld, WorldError};

/// The board size of the source document's game.
pub const DEFAULT_SIZE: u8 = 4;
/// The smallest board: 3x3 leaves 4 safe cells around 5 hazards and the gold.
pub const MIN_SIZE: u8 = 3;
/// The largest board: 8x8 cells fill the 64-bit sets.
pub const MAX_SIZE: u8 = 8;

/// Score for opening the monster (the game ends, won).
pub const MONSTER_SCORE: i8 = 1;
/// Score for opening the gold (the game goes on).
pub const GOLD_SCORE: i8 = 1;
/// Score for falling into a pit (added to the score so far; the game ends, lost).
pub const PIT_SCORE: i8 = -1;
/// The final score of a game ended by an invalid reveal, whatever was found before.
pub const INVALID_SCORE: i8 = -1;
