//! What the arena's own benchmarks measure with (docs/benchmarks.md): one
//! game, named beside the games table (`games::Benchmarked`), so that runs
//! compare.
//! `arena measure engine` times its rules engine and search, as the game
//! itself measures them; `measure isolation`, `measure program` and
//! `measure tournament` (overhead.rs) play it to time the machinery around
//! a game.

use std::time::Duration;

use crate::play::two_player::TwoPlayerGame;

/// What a game gives the arena's benchmarks. Implemented by the
/// benchmarked game, in `games/<game>/mod.rs`.
pub trait BenchmarkedGame: TwoPlayerGame<Settings: Default, Request: Clone> {
    /// What one request asks for, as the report says it: "one turn: move + throw".
    const REQUEST: &'static str;

    /// `arena measure engine`'s report: `games` random playouts of the rules
    /// engine, and its strongest bot's search for each of `search_times`,
    /// on one core, in process.
    fn engine_report(games: u64, search_times: &[Duration]) -> String;
    /// The start of a game and a request of it, answered again and again
    /// to time round trips.
    fn round_trip() -> (Self::Info, Self::Request);
}
