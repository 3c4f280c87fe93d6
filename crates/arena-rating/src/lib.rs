//! Ratings and matchmaking, apart from the arena that plays the games:
//! `stats` (score shares, Elo and Bradley-Terry estimates with their
//! intervals, opponents defeated, rank agreement) and `matchmaking` (a live
//! league's choice of its next games). Entrants are ids and games are
//! scores: nothing here knows a game, a player, a file or the server, and
//! the compiler keeps it so (this crate depends on none of them). The arena
//! re-exports both modules (`arena_core::stats`, `arena_core::matchmaking`).

pub mod matchmaking;
pub mod stats;
