//! The Elo scale (a score share and an Elo difference, each from the
//! other), and Elo estimates with their 95% intervals: from independent
//! games (trinomial) and from seat-swapped game pairs (pentanomial).

use serde::{Deserialize, Serialize};

use super::{score::trinomial_variance, Wdl, Z95};

/// Elo per natural-log unit of strength: `400 / ln 10`.
pub const ELO_PER_NAT: f64 = 400.0 / std::f64::consts::LN_10;

/// Elo difference implied by a score share `s`: `-400 * log10(1/s - 1)`.
///
/// `+inf` for `s >= 1`, `-inf` for `s <= 0`; NaN only for a NaN input.
pub fn elo_from_score(s: f64) -> f64 {
    if s >= 1.0 {
        f64::INFINITY
    } else if s <= 0.0 {
        f64::NEG_INFINITY
    } else {
        -400.0 * (1.0 / s - 1.0).log10()
    }
}

/// The expected score at an Elo difference `d`, the inverse of
/// [`elo_from_score`]: `1 / (1 + 10^(-d / 400))`.
pub fn score_from_elo(d: f64) -> f64 {
    logistic(d / ELO_PER_NAT)
}

/// An Elo point estimate with its 95% confidence interval `[lower, upper]`.
/// Bounds may be infinite (no games, or a 100% / 0% score), never NaN.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct EloEstimate {
    pub elo: f64,
    pub lower: f64,
    pub upper: f64,
}

impl EloEstimate {
    /// Half-width of the interval, `(upper - lower) / 2`, when both bounds
    /// are finite; `+inf` otherwise. (The interval is not symmetric about
    /// `elo` in Elo, since it is symmetric in score.)
    pub fn error(&self) -> f64 {
        if self.lower.is_finite() && self.upper.is_finite() {
            (self.upper - self.lower) / 2.0
        } else {
            f64::INFINITY
        }
    }
}

/// Maps a mean score `mu` with per-sample variance `var` over `samples`
/// samples to Elo: `se = sqrt(var / samples)`, interval
/// `mu ± Z95 * se` clamped to `[0, 1]`, each end through [`elo_from_score`].
/// No samples: elo 0 and an infinite interval.
fn estimate(mu: f64, var: f64, samples: u64) -> EloEstimate {
    if samples == 0 {
        return EloEstimate { elo: 0.0, lower: f64::NEG_INFINITY, upper: f64::INFINITY };
    }
    let half = Z95 * (var.max(0.0) / samples as f64).sqrt();
    EloEstimate {
        elo: elo_from_score(mu),
        lower: elo_from_score((mu - half).max(0.0)),
        upper: elo_from_score((mu + half).min(1.0)),
    }
}

/// Elo from independent games (trinomial model). With `n` games and mean
/// score `mu = (w + d/2) / n`, the per-game variance is
/// `var = (w (1-mu)^2 + d (1/2-mu)^2 + l (0-mu)^2) / n`, the standard error
/// `se = sqrt(var / n)`, and the interval `mu ± 1.959964 se` (clamped to
/// `[0, 1]`) is mapped through [`elo_from_score`].
pub fn elo_from_wdl(wdl: Wdl) -> EloEstimate {
    let n = wdl.games();
    if n == 0 {
        return estimate(0.5, 0.0, 0);
    }
    estimate(wdl.score(), trinomial_variance(wdl), n)
}

/// Counts of game pairs (the same opening played twice with seats swapped)
/// by the pair's score for the side of interest, as fastchess reports them:
/// `ll` = 0, `ld` = 0.5, `dd_or_wl` = 1, `wd` = 1.5, `ww` = 2 points.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Pentanomial {
    pub ll: u32,
    pub ld: u32,
    pub dd_or_wl: u32,
    pub wd: u32,
    pub ww: u32,
}

impl Pentanomial {
    /// Tallies pair scores (points out of 2 for each pair). `None` if some
    /// score is not one of 0, 0.5, 1, 1.5, 2.
    pub fn from_pair_scores(scores: &[f64]) -> Option<Self> {
        let mut p = Pentanomial::default();
        for &s in scores {
            let halves = 2.0 * s;
            if !(0.0..=4.0).contains(&halves) || halves.fract() != 0.0 {
                return None;
            }
            let slot = match halves as u8 {
                0 => &mut p.ll,
                1 => &mut p.ld,
                2 => &mut p.dd_or_wl,
                3 => &mut p.wd,
                _ => &mut p.ww,
            };
            *slot += 1;
        }
        Some(p)
    }

    /// Number of pairs `N = ll + ld + dd_or_wl + wd + ww`.
    pub fn pairs(&self) -> u64 {
        self.counts().iter().map(|&(c, _)| u64::from(c)).sum()
    }

    /// Mean per-pair score share `mu = sum(count * x) / N` with
    /// `x = pair points / 2`; 0.5 when there are no pairs.
    pub fn score(&self) -> f64 {
        match self.pairs() {
            0 => 0.5,
            n => self.counts().iter().map(|&(c, x)| f64::from(c) * x).sum::<f64>() / n as f64,
        }
    }

    /// `(count, share x)` for each of the five outcomes.
    fn counts(&self) -> [(u32, f64); 5] {
        [(self.ll, 0.0), (self.ld, 0.25), (self.dd_or_wl, 0.5), (self.wd, 0.75), (self.ww, 1.0)]
    }
}

/// Elo from seat-swapped game pairs (pentanomial model). Each pair is one
/// sample with share `x` in {0, 1/4, 1/2, 3/4, 1}; over `N` pairs
/// `mu = mean(x)`, `var = sum(count * (x - mu)^2) / N`,
/// `se = sqrt(var / N)`, and the interval `mu ± 1.959964 se` (clamped to
/// `[0, 1]`) is mapped through [`elo_from_score`]. Correlation within a
/// pair (the opening favouring one seat) no longer inflates the variance.
pub fn elo_from_pentanomial(p: Pentanomial) -> EloEstimate {
    let n = p.pairs();
    if n == 0 {
        return estimate(0.5, 0.0, 0);
    }
    let mu = p.score();
    let var = p.counts().iter().map(|&(c, x)| f64::from(c) * (x - mu).powi(2)).sum::<f64>() / n as f64;
    estimate(mu, var, n)
}

/// Logistic function `1 / (1 + e^-x)`: expected score at a log-strength
/// difference `x`.
pub(super) fn logistic(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::close;

    #[test]
    fn elo_from_score_known_values() {
        assert_eq!(elo_from_score(0.5), 0.0);
        // 400 * log10(3) = 400 * 0.4771213 = 190.8485
        assert!(close(elo_from_score(0.75), 190.85, 0.01));
        assert!(close(elo_from_score(0.25), -190.85, 0.01));
        for s in [0.01, 0.1, 0.3, 0.45, 0.6, 0.99] {
            assert!(close(elo_from_score(s), -elo_from_score(1.0 - s), 1e-9));
        }
        assert_eq!(elo_from_score(1.0), f64::INFINITY);
        assert_eq!(elo_from_score(0.0), f64::NEG_INFINITY);
        for d in [-600.0, -190.85, 0.0, 35.0, 400.0] {
            assert!(close(elo_from_score(score_from_elo(d)), d, 1e-9));
        }
        // 400 Elo: 10 to 1.
        assert!(close(score_from_elo(400.0), 10.0 / 11.0, 1e-12));
    }

    #[test]
    fn trinomial_interval_by_hand() {
        // mu = (60 + 20/2) / 100 = 0.7.
        // var = (60 * 0.3^2 + 20 * 0.2^2 + 20 * 0.7^2) / 100
        //     = (5.4 + 0.8 + 9.8) / 100 = 0.16.
        // se = sqrt(0.16 / 100) = 0.04; 1.959964 * 0.04 = 0.07839856.
        // Interval in score: [0.62160144, 0.77839856].
        // elo(0.7) = 400 log10(7/3) = 147.1907;
        // elo(0.62160144) = 400 log10(0.62160144 / 0.37839856) = 86.2250;
        // elo(0.77839856) = 400 log10(0.77839856 / 0.22160144) = 218.2518.
        let e = elo_from_wdl(Wdl::new(60, 20, 20));
        assert!(close(e.elo, 147.19, 0.01), "{e:?}");
        assert!(close(e.lower, 86.23, 0.01), "{e:?}");
        assert!(close(e.upper, 218.25, 0.01), "{e:?}");
        assert!(close(e.error(), (218.2518 - 86.2250) / 2.0, 0.01));
    }

    #[test]
    fn trinomial_edge_cases() {
        // All draws: zero variance, the interval collapses onto 0.
        let e = elo_from_wdl(Wdl::new(0, 50, 0));
        assert_eq!((e.elo, e.lower, e.upper), (0.0, 0.0, 0.0));
        assert_eq!(e.error(), 0.0);
        // 10-0-0: mu = 1, var = 0: everything +inf, no NaN.
        let e = elo_from_wdl(Wdl::new(10, 0, 0));
        assert_eq!((e.elo, e.lower, e.upper), (f64::INFINITY, f64::INFINITY, f64::INFINITY));
        assert_eq!(e.error(), f64::INFINITY);
        let e = elo_from_wdl(Wdl::new(0, 0, 10));
        assert_eq!(e.elo, f64::NEG_INFINITY);
        assert!(!e.lower.is_nan() && !e.upper.is_nan());
        // 9-0-1: mu = 0.9, var = 0.09, se = 0.0949, upper end clamps to 1.
        let e = elo_from_wdl(Wdl::new(9, 0, 1));
        assert!(e.elo.is_finite() && e.lower.is_finite());
        assert_eq!(e.upper, f64::INFINITY);
        // No games: no information.
        let e = elo_from_wdl(Wdl::default());
        assert_eq!((e.elo, e.lower, e.upper), (0.0, f64::NEG_INFINITY, f64::INFINITY));
    }

    #[test]
    fn pentanomial_from_pair_scores_by_hand() {
        let scores = [2.0, 1.5, 1.0, 2.0, 0.5, 1.5, 2.0, 1.0, 1.5, 2.0];
        let p = Pentanomial::from_pair_scores(&scores).unwrap();
        assert_eq!(p, Pentanomial { ll: 0, ld: 1, dd_or_wl: 2, wd: 3, ww: 4 });
        assert_eq!(p.pairs(), 10);
        // Shares: 1 x 0.25, 2 x 0.5, 3 x 0.75, 4 x 1 -> sum 7.5, mu = 0.75.
        assert_eq!(p.score(), 0.75);
        // var = (1 * 0.5^2 + 2 * 0.25^2 + 3 * 0 + 4 * 0.25^2) / 10
        //     = (0.25 + 0.125 + 0.25) / 10 = 0.0625.
        // se = sqrt(0.0625 / 10) = 0.0790569; 1.959964 se = 0.1549488.
        // Interval [0.5950512, 0.9049488]:
        // elo = 400 log10(0.5950512 / 0.4049488) = 66.86,
        //       400 log10(0.9049488 / 0.0950512) = 391.47; centre 190.85.
        let e = elo_from_pentanomial(p);
        assert!(close(e.elo, 190.85, 0.01), "{e:?}");
        assert!(close(e.lower, 66.86, 0.01), "{e:?}");
        assert!(close(e.upper, 391.47, 0.01), "{e:?}");
    }

    #[test]
    fn pentanomial_rejects_bad_scores_and_handles_edges() {
        assert_eq!(Pentanomial::from_pair_scores(&[1.0, 0.25]), None);
        assert_eq!(Pentanomial::from_pair_scores(&[2.5]), None);
        assert_eq!(Pentanomial::from_pair_scores(&[-0.5]), None);
        assert_eq!(Pentanomial::from_pair_scores(&[f64::NAN]), None);
        let empty = Pentanomial::from_pair_scores(&[]).unwrap();
        let e = elo_from_pentanomial(empty);
        assert_eq!((e.elo, e.lower, e.upper), (0.0, f64::NEG_INFINITY, f64::INFINITY));
        let all_won = Pentanomial { ww: 5, ..Default::default() };
        let e = elo_from_pentanomial(all_won);
        assert_eq!((e.elo, e.lower, e.upper), (f64::INFINITY, f64::INFINITY, f64::INFINITY));
        let all_lost = Pentanomial { ll: 5, ..Default::default() };
        let e = elo_from_pentanomial(all_lost);
        assert!(e.elo == f64::NEG_INFINITY && !e.lower.is_nan() && !e.upper.is_nan());
    }

    #[test]
    fn pentanomial_narrower_than_trinomial_for_split_pairs() {
        // 20 pairs, each won with one seat and lost with the other.
        // Trinomial: 20-0-20, mu = 0.5, var = 0.25, se = sqrt(0.25/40) = 0.079,
        // interval about ±54 Elo. Pentanomial: every pair shares 0.5,
        // variance 0, interval [0, 0].
        let tri = elo_from_wdl(Wdl::new(20, 0, 20));
        let penta = elo_from_pentanomial(Pentanomial::from_pair_scores(&[1.0; 20]).unwrap());
        assert_eq!((penta.elo, penta.lower, penta.upper), (0.0, 0.0, 0.0));
        assert_eq!(tri.elo, 0.0);
        // 1.959964 * sqrt(0.25 / 40) = 0.154949 -> elo(0.654949)
        // = 400 log10(0.654949 / 0.345051) = 400 log10(1.898120) = 111.33.
        assert!(close(tri.upper, 111.33, 0.01), "{tri:?}");
        assert!(close(tri.lower, -111.33, 0.01), "{tri:?}");
        assert!(penta.error() < tri.error());
    }
}
