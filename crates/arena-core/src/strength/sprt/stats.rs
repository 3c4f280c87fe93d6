//! The sequential probability ratio test's statistics: the hypotheses and
//! their bounds, the log-likelihood ratio (LLR) of pentanomial pair counts
//! and of trinomial W/D/L counts, and the Elo estimate in either model.
//! Plain functions over counts; nothing here knows about games.
//!
//! The LLR is the generalized SPRT's normal approximation that fishtest
//! uses (M. Van den Bergh, "A practical introduction to the GSPRT",
//! fishtest's `LLRcalc.py`, `LLR_alt`; also OpenBench and fastchess). Take
//! `N` samples (pairs, or games) with outcome shares `x`, their mean
//! `s = mean(x)` and variance `var = mean((x - s)^2)`. The mean of `N`
//! samples is about normal with variance `var / N`, so the log-likelihood
//! of a true mean `m` is `-N (s - m)^2 / (2 var)` up to a constant, and
//! the LLR of H1 (mean `s1`) against H0 (mean `s0`) is
//!
//! ```text
//! LLR = N / (2 var) * ((s - s0)^2 - (s - s1)^2)
//!     = N (s1 - s0) (2s - s0 - s1) / (2 var)
//! ```
//!
//! A pair's share is its points over 2, so its mean is the per-game score
//! and `s0`, `s1` are the same for both models of the counts:
//!
//! - logistic Elo: `s_i = 1 / (1 + 10^(-elo_i / 400))`;
//! - normalized Elo (fishtest's): `s_i = 0.5 + elo_i / (800 / ln 10) *
//!   sigma`, where `sigma` is the per-game standard deviation: `sqrt(var)`
//!   over games, `sqrt(2 var)` over pairs (two games a pair).
//!
//! Worked example 1 (docs/sprt.md has both; the tests check them):
//! pentanomial counts [10, 20, 40, 20, 10] (pairs scoring 0, 0.5, 1, 1.5,
//! 2), logistic Elo, elo0 = 0, elo1 = 5:
//!
//! ```text
//! N    = 100
//! s    = (10*0 + 20*0.25 + 40*0.5 + 20*0.75 + 10*1) / 100 = 50/100 = 0.5
//! var  = (10*0.5^2 + 20*0.25^2 + 40*0^2 + 20*0.25^2 + 10*0.5^2) / 100
//!      = (2.5 + 1.25 + 0 + 1.25 + 2.5) / 100 = 0.075
//! s0   = 1 / (1 + 10^0) = 0.5
//! s1   = 1 / (1 + 10^(-5/400)) = 1 / (1 + 0.971628) = 0.5071951
//! LLR  = 100 * (0.5071951 - 0.5) * (2*0.5 - 0.5 - 0.5071951) / (2 * 0.075)
//!      = 100 * 0.0071951 * (-0.0071951) / 0.15 = -0.0345128
//! ```
//!
//! Worked example 2: [5, 10, 30, 30, 25], same test:
//!
//! ```text
//! N    = 100
//! s    = (0 + 10*0.25 + 30*0.5 + 30*0.75 + 25*1) / 100 = 65/100 = 0.65
//! var  = (5*0.65^2 + 10*0.4^2 + 30*0.15^2 + 30*0.1^2 + 25*0.35^2) / 100
//!      = (2.1125 + 1.6 + 0.675 + 0.3 + 3.0625) / 100 = 0.0775
//! LLR  = 100 * 0.0071951 * (1.3 - 0.5 - 0.5071951) / (2 * 0.0775)
//!      = 100 * 0.0071951 * 0.2928049 / 0.155 = 1.3591970
//! ```
//!
//! With normalized Elo, example 2 has `sigma = sqrt(2 * 0.0775) =
//! 0.3937004`, `s1 = 0.5 + 5 / 347.43559 * 0.3937004 = 0.5056658`, and
//! `LLR = 100 * 0.0056658 * (1.3 - 1.0056658) / 0.155 = 1.0758967`.
//!
//! The test stops when the LLR leaves `(ln(beta / (1 - alpha)),
//! ln((1 - beta) / alpha))`: about (-2.944, 2.944) at alpha = beta = 0.05.

use serde::Serialize;

use crate::stats::{self, EloEstimate, Pentanomial, Wdl, Z95};

/// Normalized Elo per unit of `(score - 0.5) / sigma`: `800 / ln 10`, so
/// that without draws a small normalized Elo is the logistic Elo.
pub const NORMALIZED_ELO_PER_T: f64 = 800.0 / std::f64::consts::LN_10;

/// Pseudo-counts added to every outcome before the LLR is taken. Without
/// them two pairs won 2-0 have a variance near 0 and an LLR past the upper
/// bound: equal players would be told apart after four games one time in
/// sixteen. Half a count of each (a Jeffreys prior) keeps the variance
/// honest at a handful of samples and is lost in the noise at hundreds
/// (docs/sprt.md, "Why a prior"; the simulation measures the error rates
/// with it: `arena measure sprt`). fishtest uses 1e-3 for zero counts only,
/// which is enough there because its first LLR comes after hundreds of
/// games.
pub const PRIOR_COUNT: f64 = 0.5;

/// How an Elo difference maps to an expected score.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, clap::ValueEnum)]
#[serde(rename_all = "lowercase")]
pub enum EloModel {
    /// Elo as the rest of the arena reports it: a score `s` is
    /// `-400 log10(1/s - 1)` Elo, whatever the draws.
    Logistic,
    /// fishtest's normalized Elo: the score's distance from 50% in units
    /// of the per-game standard deviation, times `800 / ln 10`; a test's
    /// length then depends little on the draw rate.
    Normalized,
}

impl EloModel {
    pub fn name(self) -> &'static str {
        match self {
            EloModel::Logistic => "logistic",
            EloModel::Normalized => "normalized",
        }
    }
}

/// The test: H0 `elo <= elo0` against H1 `elo >= elo1`, false positive
/// rate `alpha`, false negative rate `beta`.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Hypotheses {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
    pub model: EloModel,
}

/// Where the test ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Verdict {
    /// The LLR reached the upper bound: stronger by elo1 (or near it).
    H1,
    /// The LLR reached the lower bound: not stronger by elo1.
    H0,
}

impl Hypotheses {
    /// The hypotheses, checked: `elo1 > elo0`, both finite, `alpha` and
    /// `beta` in (0, 1) with `alpha + beta < 1` (else the lower bound is
    /// not below the upper one).
    pub fn new(elo0: f64, elo1: f64, alpha: f64, beta: f64, model: EloModel) -> Result<Hypotheses, String> {
        if !elo0.is_finite() || !elo1.is_finite() {
            return Err(format!("--elo0 {elo0} --elo1 {elo1}: both must be numbers"));
        }
        if elo1 <= elo0 {
            return Err(format!(
                "--elo1 {elo1} must be above --elo0 {elo0} (H1: elo >= elo1, H0: elo <= elo0)"
            ));
        }
        for (name, p) in [("--alpha", alpha), ("--beta", beta)] {
            if !(p > 0.0 && p < 1.0) {
                return Err(format!(
                    "{name} {p}: an error rate is between 0 and 1, both excluded (e.g. 0.05)"
                ));
            }
        }
        if alpha + beta >= 1.0 {
            return Err(format!("--alpha {alpha} --beta {beta}: their sum must be below 1"));
        }
        Ok(Hypotheses { elo0, elo1, alpha, beta, model })
    }

    /// `(ln(beta / (1 - alpha)), ln((1 - beta) / alpha))`: H0 is accepted
    /// at or below the first, H1 at or above the second.
    pub fn bounds(&self) -> (f64, f64) {
        ((self.beta / (1.0 - self.alpha)).ln(), ((1.0 - self.beta) / self.alpha).ln())
    }

    /// The verdict at `llr`, if it has left the bounds.
    pub fn verdict(&self, llr: f64) -> Option<Verdict> {
        let (lower, upper) = self.bounds();
        if llr >= upper {
            Some(Verdict::H1)
        } else if llr <= lower {
            Some(Verdict::H0)
        } else {
            None
        }
    }
}

/// The mean and variance of samples given as `(count, share)`, with `n`
/// the total count (counts may be fractional: a prior).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Moments {
    pub n: f64,
    pub mean: f64,
    pub variance: f64,
}

impl Moments {
    pub fn of(outcomes: &[(f64, f64)]) -> Moments {
        let n: f64 = outcomes.iter().map(|&(c, _)| c).sum();
        if n <= 0.0 {
            return Moments { n: 0.0, mean: 0.5, variance: 0.0 };
        }
        let mean = outcomes.iter().map(|&(c, x)| c * x).sum::<f64>() / n;
        let variance = outcomes.iter().map(|&(c, x)| c * (x - mean).powi(2)).sum::<f64>() / n;
        Moments { n, mean, variance }
    }
}

/// The LLR of `moments` for `h`, each sample worth `games_per_sample`
/// games (2 for pairs, 1 for games): `N (s1 - s0) (2s - s0 - s1) / (2 var)`
/// (the module's comment derives it). 0 without samples or variance.
pub fn llr(moments: Moments, games_per_sample: f64, h: &Hypotheses) -> f64 {
    let Moments { n, mean, variance } = moments;
    if n <= 0.0 || variance <= 0.0 {
        return 0.0;
    }
    let [s0, s1] = [h.elo0, h.elo1].map(|elo| match h.model {
        EloModel::Logistic => stats::score_from_elo(elo),
        EloModel::Normalized => 0.5 + elo / NORMALIZED_ELO_PER_T * (games_per_sample * variance).sqrt(),
    });
    n * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * variance)
}

/// `(count, share)` of each pentanomial outcome: a pair's points over 2.
pub fn pentanomial_outcomes(p: &Pentanomial) -> [(f64, f64); 5] {
    [(p.ll, 0.0), (p.ld, 0.25), (p.dd_or_wl, 0.5), (p.wd, 0.75), (p.ww, 1.0)].map(|(c, x)| (f64::from(c), x))
}

/// `(count, share)` of each game outcome: loss, draw, win.
pub fn trinomial_outcomes(wdl: &Wdl) -> [(f64, f64); 3] {
    [(wdl.losses, 0.0), (wdl.draws, 0.5), (wdl.wins, 1.0)].map(|(c, x)| (f64::from(c), x))
}

/// Each count plus `prior`.
fn with_prior<const K: usize>(outcomes: [(f64, f64); K], prior: f64) -> [(f64, f64); K] {
    outcomes.map(|(c, x)| (c + prior, x))
}

/// The test's LLR over seat-swapped pairs (with [`PRIOR_COUNT`]).
pub fn llr_pentanomial(p: &Pentanomial, h: &Hypotheses) -> f64 {
    llr_pentanomial_with_prior(p, h, PRIOR_COUNT)
}

/// The test's LLR over games taken as independent (with [`PRIOR_COUNT`]):
/// what a test that ignores the pairing sees.
pub fn llr_trinomial(wdl: &Wdl, h: &Hypotheses) -> f64 {
    llr_trinomial_with_prior(wdl, h, PRIOR_COUNT)
}

/// [`llr_pentanomial`] with another prior (the simulation measures them).
pub fn llr_pentanomial_with_prior(p: &Pentanomial, h: &Hypotheses, prior: f64) -> f64 {
    if p.pairs() == 0 {
        return 0.0;
    }
    llr(Moments::of(&with_prior(pentanomial_outcomes(p), prior)), 2.0, h)
}

/// [`llr_trinomial`] with another prior.
pub fn llr_trinomial_with_prior(wdl: &Wdl, h: &Hypotheses, prior: f64) -> f64 {
    if wdl.games() == 0 {
        return 0.0;
    }
    llr(Moments::of(&with_prior(trinomial_outcomes(wdl), prior)), 1.0, h)
}

/// The Elo difference the pairs show, with its 95% interval, in `model`
/// (no prior: the counts as they are). Logistic: `stats::elo_from_pentanomial`.
/// Normalized: `(s - 0.5) / sqrt(2 var) * 800 / ln 10`, the interval's
/// ends from `s +- 1.96 sqrt(var / N)`.
pub fn elo_estimate(p: &Pentanomial, model: EloModel) -> EloEstimate {
    match model {
        EloModel::Logistic => stats::elo_from_pentanomial(*p),
        EloModel::Normalized => {
            let m = Moments::of(&pentanomial_outcomes(p));
            if m.n == 0.0 {
                return EloEstimate { elo: 0.0, lower: f64::NEG_INFINITY, upper: f64::INFINITY };
            }
            let sigma = (2.0 * m.variance).sqrt();
            let nelo = |score: f64| {
                let distance = score - 0.5;
                if sigma > 0.0 {
                    distance / sigma * NORMALIZED_ELO_PER_T
                } else if distance == 0.0 {
                    0.0
                } else {
                    distance.signum() * f64::INFINITY
                }
            };
            let half = Z95 * (m.variance / m.n).sqrt();
            EloEstimate { elo: nelo(m.mean), lower: nelo(m.mean - half), upper: nelo(m.mean + half) }
        }
    }
}

/// The counts a test has seen: pairs by NEW's points (pentanomial), and
/// the same games one by one (NEW's wins, draws, losses).
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize)]
pub struct Evidence {
    pub pentanomial: Pentanomial,
    pub wdl: Wdl,
}

impl Evidence {
    /// Counts a pair: NEW's score in each of its two games (1, 0.5 or 0).
    pub fn add_pair(&mut self, scores: [f64; 2]) {
        for score in scores {
            match score {
                s if s >= 1.0 => self.wdl.wins += 1,
                s if s > 0.0 => self.wdl.draws += 1,
                _ => self.wdl.losses += 1,
            }
        }
        let p = &mut self.pentanomial;
        let slot = match ((scores[0] + scores[1]) * 2.0).round() as u8 {
            0 => &mut p.ll,
            1 => &mut p.ld,
            2 => &mut p.dd_or_wl,
            3 => &mut p.wd,
            _ => &mut p.ww,
        };
        *slot += 1;
    }

    pub fn games(&self) -> u64 {
        self.wdl.games()
    }

    pub fn llr(&self, h: &Hypotheses) -> f64 {
        llr_pentanomial(&self.pentanomial, h)
    }

    pub fn llr_trinomial(&self, h: &Hypotheses) -> f64 {
        llr_trinomial(&self.wdl, h)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn test(model: EloModel) -> Hypotheses {
        Hypotheses::new(0.0, 5.0, 0.05, 0.05, model).unwrap()
    }

    fn penta([ll, ld, dd_or_wl, wd, ww]: [u32; 5]) -> Pentanomial {
        Pentanomial { ll, ld, dd_or_wl, wd, ww }
    }

    fn close(a: f64, b: f64) {
        assert!((a - b).abs() < 1e-6, "{a} != {b}");
    }

    #[test]
    fn bounds_are_the_logs_of_the_error_rates() {
        let (lower, upper) = test(EloModel::Logistic).bounds();
        // ln(0.05 / 0.95) and ln(0.95 / 0.05).
        close(lower, -2.944439);
        close(upper, 2.944439);
        let (lower, upper) = Hypotheses::new(0.0, 5.0, 0.1, 0.2, EloModel::Logistic).unwrap().bounds();
        close(lower, (0.2f64 / 0.9).ln());
        close(upper, (0.8f64 / 0.1).ln());
    }

    #[test]
    fn worked_example_1_by_hand() {
        // The module's comment: s = 0.5, var = 0.075, LLR = -0.0345128.
        let m = Moments::of(&pentanomial_outcomes(&penta([10, 20, 40, 20, 10])));
        close(m.n, 100.0);
        close(m.mean, 0.5);
        close(m.variance, 0.075);
        close(llr(m, 2.0, &test(EloModel::Logistic)), -0.0345128);
        close(llr(m, 2.0, &test(EloModel::Normalized)), -0.0207105);
    }

    #[test]
    fn worked_example_2_by_hand() {
        // The module's comment: s = 0.65, var = 0.0775, LLR = 1.3591970.
        let m = Moments::of(&pentanomial_outcomes(&penta([5, 10, 30, 30, 25])));
        close(m.mean, 0.65);
        close(m.variance, 0.0775);
        close(llr(m, 2.0, &test(EloModel::Logistic)), 1.3591970);
        close(llr(m, 2.0, &test(EloModel::Normalized)), 1.0758967);
    }

    #[test]
    fn the_prior_adds_half_a_pair_of_each_outcome() {
        // [5.5, 10.5, 30.5, 30.5, 25.5]: N = 102.5, s = 66.25 / 102.5.
        let p = penta([5, 10, 30, 30, 25]);
        let m = Moments::of(&[(5.5, 0.0), (10.5, 0.25), (30.5, 0.5), (30.5, 0.75), (25.5, 1.0)]);
        close(m.mean, 66.25 / 102.5);
        close(llr_pentanomial(&p, &test(EloModel::Logistic)), llr(m, 2.0, &test(EloModel::Logistic)));
        // Hundreds of pairs: the prior moves the LLR by a few percent at most.
        let raw = llr(Moments::of(&pentanomial_outcomes(&p)), 2.0, &test(EloModel::Logistic));
        assert!((llr_pentanomial(&p, &test(EloModel::Logistic)) - raw).abs() < 0.05 * raw);
    }

    #[test]
    fn trinomial_by_hand() {
        // 30 losses, 40 draws, 30 wins: s = 0.5, var = (30*0.25 + 0 + 30*0.25) / 100 = 0.15;
        // LLR = 100 * 0.0071951 * (-0.0071951) / 0.3 = -0.0172564.
        let m = Moments::of(&trinomial_outcomes(&Wdl::new(30, 40, 30)));
        close(m.variance, 0.15);
        close(llr(m, 1.0, &test(EloModel::Logistic)), -0.0172564);
    }

    #[test]
    fn two_pairs_won_twice_do_not_end_the_test() {
        let h = test(EloModel::Logistic);
        assert_eq!(h.verdict(llr_pentanomial(&penta([0, 0, 0, 0, 2]), &h)), None);
        // Without the prior they would have: a near-zero variance.
        let raw =
            llr(Moments::of(&[(1e-3, 0.0), (1e-3, 0.25), (1e-3, 0.5), (1e-3, 0.75), (2.0, 1.0)]), 2.0, &h);
        assert_eq!(h.verdict(raw), Some(Verdict::H1));
    }

    #[test]
    fn a_clear_winner_is_accepted_and_a_clear_loser_rejected() {
        let h = test(EloModel::Logistic);
        assert_eq!(h.verdict(llr_pentanomial(&penta([0, 1, 5, 20, 40]), &h)), Some(Verdict::H1));
        assert_eq!(h.verdict(llr_pentanomial(&penta([40, 20, 5, 1, 0]), &h)), Some(Verdict::H0));
        assert_eq!(h.verdict(llr_pentanomial(&penta([30, 0, 0, 0, 0]), &h)), Some(Verdict::H0));
        assert_eq!(llr_pentanomial(&Pentanomial::default(), &h), 0.0);
    }

    #[test]
    fn evidence_counts_pairs_and_games() {
        let mut e = Evidence::default();
        for pair in [[1.0, 1.0], [1.0, 0.0], [0.5, 0.5], [0.0, 0.5], [1.0, 0.5], [0.0, 0.0]] {
            e.add_pair(pair);
        }
        assert_eq!(e.pentanomial, penta([1, 1, 2, 1, 1]));
        assert_eq!(e.wdl, Wdl::new(4, 4, 4));
        assert_eq!(e.games(), 12);
    }

    #[test]
    fn bad_hypotheses_are_refused() {
        for (elo0, elo1, alpha, beta) in
            [(5.0, 5.0, 0.05, 0.05), (5.0, 0.0, 0.05, 0.05), (0.0, 5.0, 0.0, 0.05), (0.0, 5.0, 0.05, 1.0)]
        {
            assert!(Hypotheses::new(elo0, elo1, alpha, beta, EloModel::Logistic).is_err());
        }
        assert!(Hypotheses::new(0.0, 5.0, 0.6, 0.5, EloModel::Logistic).is_err());
        assert!(Hypotheses::new(f64::NAN, 5.0, 0.05, 0.05, EloModel::Logistic).is_err());
    }

    #[test]
    fn normalized_elo_of_even_pairs_is_zero_and_of_example_2_positive() {
        let even = elo_estimate(&penta([10, 20, 40, 20, 10]), EloModel::Normalized);
        close(even.elo, 0.0);
        // (0.65 - 0.5) / sqrt(0.155) * 347.43559 = 132.372.
        let e = elo_estimate(&penta([5, 10, 30, 30, 25]), EloModel::Normalized);
        close(e.elo, 0.15 / 0.155f64.sqrt() * NORMALIZED_ELO_PER_T);
        assert!(e.lower < e.elo && e.elo < e.upper);
        let logistic = elo_estimate(&penta([5, 10, 30, 30, 25]), EloModel::Logistic);
        close(logistic.elo, stats::elo_from_score(0.65));
    }
}
