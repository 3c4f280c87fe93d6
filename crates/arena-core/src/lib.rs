//! The arena: loads players, referees their games, reports results.
//!
//! The core of the arena, package `arena-core` (crates/arena-core), whose
//! library is named `arena`: everything but the submissions server, which
//! is a crate of its own (crates/arena-server) so that tokio, axum and
//! SQLite are linked only by what serves. The `arena` binary
//! (arena/src/main.rs) is a thin command-line layer over both. See
//! docs/ARCHITECTURE.md for the map.

pub mod agent;
pub mod bench;
pub mod benchmarked;
pub mod check;
pub mod clock;
pub mod cores;
pub mod external;
pub mod fault;
pub mod game;
pub mod game_rules;
pub mod games;
pub mod isolation;
pub mod levels;
pub mod loading;
pub mod matchmaking_at_scale;
pub mod matchmaking_simulation;
pub mod output;
pub mod overhead;
pub mod parallel;
pub mod players;
pub mod plugin;
pub mod protocol;
pub mod referee;
pub mod replay;
pub mod report;
pub mod swiss_simulation;
/// The sandbox workers run in: a crate of its own (crates/arena-sandbox), which
/// can name nothing of the arena; `crate::sandbox::...` as before.
pub use arena_sandbox as sandbox;
pub mod scaffold;
pub mod seeds;
pub mod solo;
pub mod sprt;
pub mod table;
pub mod time_control;
pub mod time_sweep;
pub mod tournament;
pub mod two_player;
pub mod units;
pub mod worker;

// Ratings and matchmaking are a crate of their own (crates/arena-rating):
// the compiler keeps them free of games, players and the server.
pub use arena_rating::{matchmaking, stats};
