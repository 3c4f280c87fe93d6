//! What the arena prints. How a match or a series is shown by `arena
//! play`: a line per game, a board per turn (`--watch`), a summary, or one
//! JSON object for scripts (schema in docs/play-json.md); one file per kind
//! of game, the tally lines two-player games share here. Below them, what
//! every command's text is made of: tables (`table.rs`), units as people
//! type them (`units.rs`), others' words without a terminal's control
//! characters (`plain.rs`), and standard output that ends quietly on a
//! closed pipe (`output.rs`).

use std::{fmt::Write as _, time::Duration};

use crate::{
    play::two_player::{MatchResult, Tally, TwoPlayerGame},
    report::units::short,
};

pub mod output;
pub mod plain;
pub mod solo;
pub mod table;
pub mod units;

/// The summary after a match's games: a line per player (time per `unit`),
/// then the games' average length in `units`.
pub(crate) fn match_summary<G: TwoPlayerGame>(result: &MatchResult<G>, unit: &str, units: &str) -> String {
    let mut text = tally_lines(&result.tallies, unit);
    let _ = write!(
        text,
        "{} games, average {:.1} {units}, seed {}",
        result.games.len(),
        result.average_moves(),
        result.config.seed
    );
    text
}

/// A line per player: wins, draws, losses, failures, time per `unit`.
fn tally_lines(tallies: &[Tally; 2], unit: &str) -> String {
    let mut text = String::new();
    let width = tallies.iter().map(|t| t.name.len()).max().unwrap_or(0);
    for t in tallies {
        let _ = writeln!(
            text,
            "{:width$}  {} wins  {} draws  {} losses  {}  time per {unit}: mean {}, max {}",
            t.name,
            t.wins,
            t.draws,
            t.losses,
            failures(t),
            short(t.mean_turn_time().wall),
            short(t.time_max.wall),
        );
    }
    text
}

fn failures(t: &Tally) -> String {
    t.failure_summary().map_or_else(|| "no failures".to_string(), |found| format!("failures: {found}"))
}

/// A duration in milliseconds, as the JSON outputs give times.
pub(crate) fn ms(time: Duration) -> f64 {
    time.as_secs_f64() * 1e3
}
