//! The reference players, one module per game, one type per level.
//!
//! The level libraries in `players/easy`, `players/medium` and
//! `players/hard` export these through the ABI; the arena also links them
//! directly to run them in-process as built-in bots.

mod frontier;
pub mod hexapawn;
pub mod intuitive;
pub mod magic_forest;
pub mod trap;
pub mod wumpus;
