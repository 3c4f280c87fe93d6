//! Wins, draws and losses, and the score shares and means made of them,
//! each with its 95% interval (normal approximation). Elo from the same
//! counts is in `elo.rs`.

use serde::{Deserialize, Serialize};

use super::Z95;

/// Wins, draws and losses of one side (a player, or one player against
/// another).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Wdl {
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
}

impl Wdl {
    pub fn new(wins: u32, draws: u32, losses: u32) -> Self {
        Wdl { wins, draws, losses }
    }

    /// `n = wins + draws + losses`.
    pub fn games(&self) -> u64 {
        u64::from(self.wins) + u64::from(self.draws) + u64::from(self.losses)
    }

    /// Points won: `wins + draws / 2`.
    pub fn points(&self) -> f64 {
        f64::from(self.wins) + 0.5 * f64::from(self.draws)
    }

    /// Points share `(wins + draws / 2) / n`; 0.5 (no evidence either way)
    /// when no game was played.
    pub fn score(&self) -> f64 {
        match self.games() {
            0 => 0.5,
            n => self.points() / n as f64,
        }
    }
}

/// The per-game variance of the score under the trinomial model.
pub(super) fn trinomial_variance(wdl: Wdl) -> f64 {
    let mu = wdl.score();
    (f64::from(wdl.wins) * (1.0 - mu).powi(2)
        + f64::from(wdl.draws) * (0.5 - mu).powi(2)
        + f64::from(wdl.losses) * mu.powi(2))
        / wdl.games().max(1) as f64
}

/// A score share with its 95% interval, clamped to [0, 1].
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct ScoreInterval {
    pub score: f64,
    pub lower: f64,
    pub upper: f64,
}

/// The score share of `wdl` with its 95% interval (trinomial model, as in
/// [`elo_from_wdl`]); no games: 0.5 within [0, 1].
pub fn score_interval(wdl: Wdl) -> ScoreInterval {
    let n = wdl.games();
    if n == 0 {
        return ScoreInterval { score: 0.5, lower: 0.0, upper: 1.0 };
    }
    let (mu, half) = (wdl.score(), Z95 * (trinomial_variance(wdl) / n as f64).sqrt());
    ScoreInterval { score: mu, lower: (mu - half).max(0.0), upper: (mu + half).min(1.0) }
}

/// A mean with its 95% interval (normal approximation; fine for the
/// hundreds of games a score is averaged over).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct MeanInterval {
    pub mean: f64,
    pub lower: f64,
    pub upper: f64,
}

/// The mean of `samples` with its 95% interval (sample variance); no
/// samples: 0 within [0, 0]; one sample: an interval of zero width.
pub fn mean_interval(samples: &[f64]) -> MeanInterval {
    let n = samples.len() as f64;
    if samples.is_empty() {
        return MeanInterval { mean: 0.0, lower: 0.0, upper: 0.0 };
    }
    let mean = samples.iter().sum::<f64>() / n;
    let var = samples.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0).max(1.0);
    let half = Z95 * (var / n).sqrt();
    MeanInterval { mean, lower: mean - half, upper: mean + half }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::{elo_from_score, elo_from_wdl};

    #[test]
    fn score_interval_matches_the_elo_interval() {
        // 60-20-20: mu = 0.7, var = (60*0.09 + 20*0.04 + 20*0.49)/100 = 0.16,
        // se = 0.04, half-width = 1.959964 * 0.04 = 0.0783986.
        let s = score_interval(Wdl::new(60, 20, 20));
        assert!((s.score - 0.7).abs() < 1e-12);
        assert!((s.lower - (0.7 - 0.0783986)).abs() < 1e-6 && (s.upper - (0.7 + 0.0783986)).abs() < 1e-6);
        let e = elo_from_wdl(Wdl::new(60, 20, 20));
        assert!(
            (e.lower - elo_from_score(s.lower)).abs() < 1e-9
                && (e.upper - elo_from_score(s.upper)).abs() < 1e-9
        );
        assert_eq!(score_interval(Wdl::new(0, 0, 0)), ScoreInterval { score: 0.5, lower: 0.0, upper: 1.0 });
    }

    #[test]
    fn wdl_games_and_score() {
        let w = Wdl::new(60, 20, 20);
        assert_eq!(w.games(), 100);
        assert_eq!(w.score(), 0.7);
        assert_eq!(Wdl::new(0, 0, 0).score(), 0.5);
        assert_eq!(Wdl::new(u32::MAX, u32::MAX, 0).games(), 2 * u64::from(u32::MAX));
    }

    #[test]
    fn mean_interval_is_the_normal_approximation() {
        let m = mean_interval(&[1.0, -1.0, 1.0, 1.0]);
        assert!((m.mean - 0.5).abs() < 1e-12);
        // sample sd = 1, n = 4: half-width 1.96 / 2
        assert!((m.upper - m.mean - Z95 / 2.0).abs() < 1e-12 && (m.mean - m.lower - Z95 / 2.0).abs() < 1e-12);
        assert_eq!(mean_interval(&[3.0]), MeanInterval { mean: 3.0, lower: 3.0, upper: 3.0 });
        assert_eq!(mean_interval(&[]).mean, 0.0);
    }
}
