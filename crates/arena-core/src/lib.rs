//! The arena's core: loads players, referees their games, runs
//! tournaments, reports results.
//!
//! Package `arena-core` (crates/arena-core), library `arena_core`:
//! everything but the submissions server, which is a crate of its own
//! (crates/arena-server) so that tokio, axum and SQLite are linked only by
//! what serves. The `arena` binary (arena/src/main.rs) is a thin
//! command-line layer over both. docs/ARCHITECTURE.md has the map; by
//! folder:
//!
//! - `game.rs`, `game_rules.rs`: what a game is to the arena, and what its
//!   settings are built from; `games/`: the table (the one list of games)
//!   and each game's folder.
//! - `play/`: one game between players, matches and series of them.
//! - `players/`: what a player is and how it is reached (libraries,
//!   programs, workers, the sandbox's host side, the protocol), `arena
//!   check` and `arena new`.
//! - `replay/`: replay files, their viewers, live feeds.
//! - `report/`: what the commands print (tables, units).
//! - `tournament/`: file -> schedule -> games -> journal -> standings.
//! - `analysis/` (`arena analyse`): why a game was lost, every turn judged.
//! - `strength/`: how strong a player is: `bench/` (`arena bench`) against
//!   the levels, `sprt/` (`arena bench sprt`) against its previous version,
//!   `tune/` (`arena tune`) SPSA over its declared parameters.
//! - `measure/`: the arena measuring itself (`arena measure`).

pub mod analysis;
pub mod game;
pub mod game_rules;
pub mod games;
pub mod measure;
pub mod play;
pub mod players;
pub mod replay;
pub mod report;
pub mod strength;
pub mod tournament;

/// The sandbox workers run in: a crate of its own (crates/arena-sandbox),
/// which can name nothing of the arena.
pub use arena_sandbox as sandbox;
// Ratings and matchmaking are a crate of their own (crates/arena-rating):
// the compiler keeps them free of games, players and the server.
pub use arena_rating::{matchmaking, stats};
