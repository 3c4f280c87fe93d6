//! Tournament statistics: score shares, Elo estimates with 95% intervals
//! (trinomial per game, pentanomial per seat-swapped pair), Bradley–Terry
//! ratings for a whole field, "number of opponents defeated", and how far
//! two rankings agree.
//!
//! Everything here is a plain function over counts; nothing knows about
//! games, players or files. Elo throughout is the logistic scale: a score
//! share `s` corresponds to `-400 * log10(1/s - 1)` Elo.
//!
//! A file per idea, all of it re-exported here (callers name `stats::X`):
//! `score.rs` (W/D/L counts, score shares and means with their intervals),
//! `elo.rs` (the Elo scale, Elo from games and from game pairs),
//! `bradley_terry/` (ratings of a whole field), `online.rs` (a rating
//! updated game by game), `defeated.rs` (opponents
//! defeated), `agreement.rs` (Spearman's rank correlation).

mod agreement;
mod bradley_terry;
mod defeated;
mod elo;
mod online;
mod score;

pub use agreement::spearman;
pub use bradley_terry::{
    bradley_terry, bradley_terry_pairings, bradley_terry_pairings_with, Intervals, Pairing, Rating,
    BT_TOLERANCE, DENSE_LIMIT,
};
pub use defeated::opponents_defeated;
pub use elo::{
    elo_from_pentanomial, elo_from_score, elo_from_wdl, score_from_elo, EloEstimate, Pentanomial, ELO_PER_NAT,
};
pub use online::{Belief, PRIOR_VARIANCE};
pub use score::{mean_interval, score_interval, MeanInterval, ScoreInterval, Wdl};

/// The two-sided 95% quantile of the standard normal distribution.
pub const Z95: f64 = 1.959964;

/// Whether `actual` is within `tolerance` of `expected`: the tests' test.
#[cfg(test)]
fn close(actual: f64, expected: f64, tolerance: f64) -> bool {
    (actual - expected).abs() <= tolerance
}
