//! Referees: one per game. A referee keeps the true state itself, asks the
//! players for actions, validates every one against the rules in
//! `player-api`, draws every chance event from its seeded generator, times
//! every call, and records how the game ended and why.
//!
//! Given the same seed and the same player actions, a referee produces the
//! same game, bit for bit.

mod calls;
pub mod hexapawn;
pub mod intuitive;
pub mod magic_forest;
pub mod trap;
pub mod wumpus;
