//! Tournament statistics: score shares, Elo estimates with 95% intervals
//! (trinomial per game, pentanomial per seat-swapped pair), Bradley–Terry
//! ratings for a whole field, and "number of opponents defeated".
//!
//! Everything here is a plain function over counts; nothing knows about
//! games, players or files. Elo throughout is the logistic scale: a score
//! share `s` corresponds to `-400 * log10(1/s - 1)` Elo.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// The two-sided 95% quantile of the standard normal distribution.
pub const Z95: f64 = 1.959964;

/// Elo per natural-log unit of strength: `400 / ln 10`.
pub const ELO_PER_NAT: f64 = 400.0 / std::f64::consts::LN_10;

/// [`bradley_terry`]'s fit stops once no strength moves by more than this
/// fraction in one iteration...
pub const BT_TOLERANCE: f64 = 1e-9;
/// ...or after this many iterations.
const BT_MAX_ITERATIONS: usize = 10_000;

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

/// The per-game variance of the score under the trinomial model.
fn trinomial_variance(wdl: Wdl) -> f64 {
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

/// One player's Bradley–Terry rating: Elo (the field's mean is 0) and the
/// half-width of its 95% interval (`+inf` for a player without games).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Rating {
    pub elo: f64,
    pub error: f64,
}

/// All games between two players: how many, and `a`'s points in them
/// (wins + draws / 2, or any scores in `[0, 1]` summed). The form
/// [`bradley_terry_pairings`] fits: a league that keeps its results per
/// pair adds a game in O(1) and never recounts.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Pairing {
    pub a: usize,
    pub b: usize,
    pub games: f64,
    pub points_a: f64,
}

/// Merges `(a, b, score of a)` games into one [`Pairing`] per unordered pair
/// (`a < b`), in a fixed order. Games of a player against itself are dropped.
///
/// Panics on a player index `>= players` or a score outside `[0, 1]`.
fn pairings(players: usize, games: &[(usize, usize, f64)]) -> Vec<Pairing> {
    let mut by_pair: BTreeMap<(usize, usize), (f64, f64)> = BTreeMap::new();
    for &(a, b, s) in games {
        assert!(
            a < players && b < players,
            "game between players {a} and {b}, but there are only {players} players"
        );
        assert!((0.0..=1.0).contains(&s), "game score {s} is not within [0, 1]");
        if a == b {
            continue;
        }
        let (key, score_lo) = if a < b { ((a, b), s) } else { ((b, a), 1.0 - s) };
        let entry = by_pair.entry(key).or_insert((0.0, 0.0));
        entry.0 += 1.0;
        entry.1 += score_lo;
    }
    by_pair.into_iter().map(|((a, b), (games, points_a))| Pairing { a, b, games, points_a }).collect()
}

/// Logistic function `1 / (1 + e^-x)`: expected score at a log-strength
/// difference `x`.
fn logistic(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// Bradley–Terry ratings. Each game is `(a, b, score of a)` with the score
/// in {0, 0.5, 1} (any value in `[0, 1]` is accepted); a draw counts as half
/// a win for each side, so a game contributes
/// `s ln p_ab + (1 - s) ln(1 - p_ab)`, `p_ab = g_a / (g_a + g_b)`, to the
/// log-likelihood in strengths `g`.
///
/// Prior: every player is given one virtual draw against a virtual opponent
/// whose strength is the geometric mean of all (rated) players' strengths,
/// adding `sum_i ln(g_i g0) / 2 - ln(g_i + g0)`, `g0 = (prod g)^(1/m)`. It
/// keeps players who won or lost everything finite, keeps disconnected
/// groups comparable, and is worth about one game per player. The
/// objective is then scale-free; strengths are normalised to `g0 = 1`.
///
/// Fit: the MM algorithm (Hunter 2004): minorising `-ln(g_i + g_j)` and
/// `-ln(g_i + g0)` by their tangents and the convex `-g0` by its tangent
/// gives the separable update (with `g0 = 1`)
/// `g_k <- (W_k + 1) / (sum_j n_kj / (g_k + g_j) + 1 / (g_k + 1) + mean_i(1 / (g_i + 1)) / g_k)`,
/// `W_k` = points scored, `n_kj` = games between k and j; the likelihood
/// never decreases. The steps are accelerated by SQUAREM (extrapolations
/// kept only when they raise the objective), since plain MM crawls on
/// strict orders and ladders. Stops when a plain MM step changes no
/// strength by more than `1e-9` relatively, or after 10,000 MM steps.
///
/// Output: `elo = 400 log10(g)`, shifted so the mean is 0. `error` is
/// `1.959964 * (400 / ln 10) * se`, `se` from the observed Fisher
/// information (minus the Hessian of log-likelihood + prior in natural
/// log-strength), `I = P (L + D) P` with `L` the Laplacian weighted by
/// `n_ij p_ij (1 - p_ij)`, `D = diag(p_i0 (1 - p_i0))` from the prior and
/// `P = Id - J/m` the mean-zero projection; the covariance is its
/// pseudo-inverse `(I + J/m)^-1 - J/m` (Gauss-Jordan). Players without
/// games (self-play does not count) get elo 0 and error `+inf` and take no
/// part in the fit. Cost: `O(pairs)` per iteration plus `O(m^3)` once.
///
/// Panics on a player index `>= players` or a score outside `[0, 1]`.
pub fn bradley_terry(players: usize, games: &[(usize, usize, f64)]) -> Vec<Rating> {
    bradley_terry_pairings(players, &pairings(players, games), None, BT_TOLERANCE)
}

/// [`bradley_terry`] over games already merged per pair of players: the
/// same model, prior, fit and intervals (given the pairs `bradley_terry`
/// merges its games into, the same numbers), at `O(pairs)` per iteration
/// whatever the number of games. Pairs may come in any order and
/// orientation, and a pair may be listed more than once (its games add
/// up); pairs of a player with itself, or without games, are ignored.
///
/// `start`: the ratings of an earlier fit (indexed like the result), to
/// start the iteration from instead of all-equal strengths; players
/// without a finite earlier rating start at the mean. `tolerance`: the fit
/// stops once an iteration moves no strength by more than this fraction
/// ([`BT_TOLERANCE`] for [`bradley_terry`]'s results). The optimum is the
/// same from any start; a league refitting after each game, from its last
/// fit and at a looser tolerance, gets there in a fraction of the
/// iterations (the iteration converges linearly: from a nearby start, each
/// factor of 10 of tolerance costs a few more).
///
/// Panics on a player index `>= players`, games that are negative or not
/// finite, points outside `[0, games]`, or a `start` of another length.
pub fn bradley_terry_pairings(
    players: usize,
    pairs: &[Pairing],
    start: Option<&[Rating]>,
    tolerance: f64,
) -> Vec<Rating> {
    let mut out = vec![Rating { elo: 0.0, error: f64::INFINITY }; players];
    if let Some(start) = start {
        assert_eq!(start.len(), players, "{} starting ratings for {players} players", start.len());
    }

    // Dense indices for the players who have games.
    let mut index = vec![usize::MAX; players];
    let mut active = Vec::new();
    let mut edges = Vec::with_capacity(pairs.len());
    for p in pairs {
        assert!(
            p.a < players && p.b < players,
            "games between players {} and {}, but there are only {players} players",
            p.a,
            p.b
        );
        assert!(p.games.is_finite() && p.games >= 0.0, "{} games between two players", p.games);
        assert!(
            (0.0..=p.games).contains(&p.points_a),
            "{} points in {} games between two players",
            p.points_a,
            p.games
        );
        if p.a == p.b || p.games == 0.0 {
            continue;
        }
        for q in [p.a, p.b] {
            if index[q] == usize::MAX {
                index[q] = active.len();
                active.push(q);
            }
        }
        edges.push(Pairing { a: index[p.a], b: index[p.b], ..*p });
    }
    if active.is_empty() {
        return out;
    }

    let mut theta: Vec<f64> = active
        .iter()
        .map(|&player| match start {
            Some(start) if start[player].elo.is_finite() => start[player].elo / ELO_PER_NAT,
            _ => 0.0,
        })
        .collect();
    center(&mut theta);
    let theta = fit_log_strengths(theta, &edges, tolerance);
    let variance = covariance_diagonal(&theta, &edges);
    for (k, &player) in active.iter().enumerate() {
        out[player] = Rating { elo: ELO_PER_NAT * theta[k], error: Z95 * ELO_PER_NAT * variance[k].sqrt() };
    }
    out
}

/// `ln(logistic(x)) = -ln(1 + e^-x)`, without overflow.
fn ln_logistic(x: f64) -> f64 {
    let y = -x;
    -(y.max(0.0) + (-y.abs()).exp().ln_1p())
}

/// The fitting problem of [`bradley_terry`] over dense player indices, in
/// natural log-strengths `theta` with mean 0 (so the virtual opponent sits
/// at 0).
struct Fit<'a> {
    edges: &'a [Pairing],
    /// Points scored `W_k`, plus 1 for the prior (see the MM update).
    numerator: Vec<f64>,
}

impl<'a> Fit<'a> {
    fn new(m: usize, edges: &'a [Pairing]) -> Self {
        let mut numerator = vec![1.0; m];
        for e in edges {
            numerator[e.a] += e.points_a;
            numerator[e.b] += e.games - e.points_a;
        }
        Fit { edges, numerator }
    }

    /// One MM update `theta -> out`. The update of [`bradley_terry`]
    /// multiplied through by `g_k` reads
    /// `theta_k += ln(W_k + 1) - ln(E_k + p_k + mean_i(1 - p_i))`,
    /// `E_k = sum_j n_kj logistic(theta_k - theta_j)`, `p_k = logistic(theta_k)`,
    /// which cannot overflow. The result is re-centred.
    fn mm_step(&self, theta: &[f64], out: &mut [f64]) {
        let m = theta.len();
        out.fill(0.0);
        for e in self.edges {
            let p = logistic(theta[e.a] - theta[e.b]);
            out[e.a] += e.games * p;
            out[e.b] += e.games * (1.0 - p);
        }
        let anchor = theta.iter().map(|&t| logistic(-t)).sum::<f64>() / m as f64;
        for k in 0..m {
            out[k] = theta[k] + self.numerator[k].ln() - (out[k] + logistic(theta[k]) + anchor).ln();
        }
        center(out);
    }

    /// Log-likelihood plus prior at mean-zero `theta` (the MM ascends it).
    /// Per game pair with `d = theta_a - theta_b`:
    /// `s ln logistic(d) + (n - s) ln logistic(-d)`
    /// `= -n ln(1 + e^-|d|) - s max(-d, 0) - (n - s) max(d, 0)`.
    fn objective(&self, theta: &[f64]) -> f64 {
        let games: f64 = self
            .edges
            .iter()
            .map(|e| {
                let d = theta[e.a] - theta[e.b];
                -e.games * (-d.abs()).exp().ln_1p()
                    - e.points_a * (-d).max(0.0)
                    - (e.games - e.points_a) * d.max(0.0)
            })
            .sum();
        let prior: f64 = theta.iter().map(|&t| 0.5 * (ln_logistic(t) + ln_logistic(-t))).sum();
        games + prior
    }
}

/// Subtracts the mean.
fn center(v: &mut [f64]) {
    let mean = v.iter().sum::<f64>() / v.len() as f64;
    v.iter_mut().for_each(|x| *x -= mean);
}

/// The MM iteration of [`bradley_terry`], accelerated by SQUAREM (Varadhan
/// and Roland 2008): two MM steps `t1 = F(t0)`, `t2 = F(t1)` give
/// `r = t1 - t0`, `v = t2 - t1 - r`, the extrapolation
/// `t0 - 2a r + a^2 v` with `a = -max(1, |r| / |v|)`, and one more MM step
/// from there, which is kept only if its objective is at least that of
/// `t2` (else `t2` is kept), so the ascent stays monotone. Plain MM crawls
/// on long chains and strict orders; this does not. Stops when one plain MM
/// step changes no strength by more than `tolerance` relatively, or after
/// 10,000 MM steps. Starts from `start` (mean 0); returns log-strengths
/// with mean 0.
fn fit_log_strengths(start: Vec<f64>, edges: &[Pairing], tolerance: f64) -> Vec<f64> {
    let m = start.len();
    let fit = Fit::new(m, edges);
    let mut theta = start;
    let mut t1 = vec![0.0; m];
    let mut t2 = vec![0.0; m];
    let mut jump = vec![0.0; m];
    let mut t3 = vec![0.0; m];
    let mut current = fit.objective(&theta);
    let mut steps = 0;
    while steps < BT_MAX_ITERATIONS {
        fit.mm_step(&theta, &mut t1);
        steps += 1;
        let change = theta.iter().zip(&t1).map(|(a, b)| (b - a).exp_m1().abs()).fold(0.0, f64::max);
        if change < tolerance || steps == BT_MAX_ITERATIONS {
            return t1;
        }
        fit.mm_step(&t1, &mut t2);
        steps += 1;
        let (mut r2, mut v2) = (0.0, 0.0);
        for k in 0..m {
            let r = t1[k] - theta[k];
            let v = t2[k] - 2.0 * t1[k] + theta[k];
            r2 += r * r;
            v2 += v * v;
        }
        let a = if v2 > 0.0 { -(r2 / v2).sqrt().max(1.0) } else { -1.0 };
        for k in 0..m {
            let r = t1[k] - theta[k];
            let v = t2[k] - 2.0 * t1[k] + theta[k];
            jump[k] = theta[k] - 2.0 * a * r + a * a * v;
        }
        // Keep the extrapolation only if it beats the start of the cycle
        // (as SQUAREM does); else fall back on the plain MM result.
        let mut accepted = false;
        if a < -1.0 && jump.iter().all(|x| x.is_finite()) {
            fit.mm_step(&jump, &mut t3);
            steps += 1;
            if t3.iter().all(|x| x.is_finite()) {
                let value = fit.objective(&t3);
                if value >= current {
                    current = value;
                    accepted = true;
                }
            }
        }
        if accepted {
            std::mem::swap(&mut theta, &mut t3);
        } else {
            std::mem::swap(&mut theta, &mut t2);
            current = fit.objective(&theta);
        }
    }
    theta
}

/// Diagonal of the covariance of mean-zero log-strengths `theta` (see
/// [`bradley_terry`]): the pseudo-inverse of `I = P (L + D) P`, computed as
/// `(I + J/m)^-1 - J/m`, whose null space `span(1)` is filled by `J/m`.
fn covariance_diagonal(theta: &[f64], edges: &[Pairing]) -> Vec<f64> {
    let m = theta.len();
    let mut h = vec![0.0; m * m];
    for e in edges {
        let p = logistic(theta[e.a] - theta[e.b]);
        let w = e.games * p * (1.0 - p);
        h[e.a * m + e.a] += w;
        h[e.b * m + e.b] += w;
        h[e.a * m + e.b] -= w;
        h[e.b * m + e.a] -= w;
    }
    for (k, &t) in theta.iter().enumerate() {
        // Virtual opponent at log-strength 0, the mean.
        let q = logistic(t);
        h[k * m + k] += q * (1.0 - q);
    }
    // P H P + J/m: (PHP)_ij = h_ij - r_i - r_j + mean(r), r = row means.
    let rows: Vec<f64> = h.chunks(m).map(|r| r.iter().sum::<f64>() / m as f64).collect();
    let grand = rows.iter().sum::<f64>() / m as f64;
    let inv_m = 1.0 / m as f64;
    for i in 0..m {
        for j in 0..m {
            h[i * m + j] += grand - rows[i] - rows[j] + inv_m;
        }
    }
    match invert(h, m) {
        Some(inv) => (0..m).map(|k| (inv[k * m + k] - inv_m).max(0.0)).collect(),
        None => vec![f64::INFINITY; m],
    }
}

/// Inverse of the dense row-major `m x m` matrix `a` by Gauss-Jordan
/// elimination with partial pivoting; `None` if it is singular.
fn invert(mut a: Vec<f64>, m: usize) -> Option<Vec<f64>> {
    let mut inv = vec![0.0; m * m];
    for k in 0..m {
        inv[k * m + k] = 1.0;
    }
    for col in 0..m {
        let pivot_row =
            (col..m).max_by(|&r, &s| a[r * m + col].abs().total_cmp(&a[s * m + col].abs())).unwrap_or(col);
        let pivot = a[pivot_row * m + col];
        if pivot == 0.0 || !pivot.is_finite() {
            return None;
        }
        if pivot_row != col {
            for j in 0..m {
                a.swap(pivot_row * m + j, col * m + j);
                inv.swap(pivot_row * m + j, col * m + j);
            }
        }
        let scale = 1.0 / pivot;
        for j in 0..m {
            a[col * m + j] *= scale;
            inv[col * m + j] *= scale;
        }
        for r in 0..m {
            let f = a[r * m + col];
            if r == col || f == 0.0 {
                continue;
            }
            // Columns left of `col` are already zero in the pivot row.
            for j in col..m {
                a[r * m + j] -= f * a[col * m + j];
            }
            for j in 0..m {
                inv[r * m + j] -= f * inv[col * m + j];
            }
        }
    }
    Some(inv)
}

/// For each player, the number of distinct opponents it defeated: those
/// against whom its total score over all their games together is strictly
/// more than half the games (`2 * points > games`). Self-play is ignored.
///
/// Panics on a player index `>= players` or a score outside `[0, 1]`.
pub fn opponents_defeated(players: usize, games: &[(usize, usize, f64)]) -> Vec<u32> {
    let mut defeated = vec![0; players];
    for p in pairings(players, games) {
        if 2.0 * p.points_a > p.games {
            defeated[p.a] += 1;
        } else if 2.0 * p.points_a < p.games {
            defeated[p.b] += 1;
        }
    }
    defeated
}

/// Spearman's rank correlation of `x` and `y` (paired samples): Pearson's
/// correlation of their ranks, tied values sharing the average of the
/// ranks they span. 1 when the two orders agree, -1 when one reverses the
/// other. NaN when there are fewer than two samples or one side has a
/// single value throughout (no order to compare).
///
/// Panics if the two slices differ in length.
pub fn spearman(x: &[f64], y: &[f64]) -> f64 {
    assert_eq!(x.len(), y.len(), "Spearman's correlation of {} values against {}", x.len(), y.len());
    let (rx, ry) = (average_ranks(x), average_ranks(y));
    let n = x.len() as f64;
    let (mx, my) = (rx.iter().sum::<f64>() / n, ry.iter().sum::<f64>() / n);
    let (mut sxy, mut sxx, mut syy) = (0.0, 0.0, 0.0);
    for (a, b) in rx.iter().zip(&ry) {
        sxy += (a - mx) * (b - my);
        sxx += (a - mx) * (a - mx);
        syy += (b - my) * (b - my);
    }
    sxy / (sxx * syy).sqrt()
}

/// The rank of each value counted from 1 (smallest first); equal values
/// share the mean of the ranks they occupy.
fn average_ranks(values: &[f64]) -> Vec<f64> {
    let mut order: Vec<usize> = (0..values.len()).collect();
    order.sort_by(|&i, &j| values[i].total_cmp(&values[j]));
    let mut ranks = vec![0.0; values.len()];
    let mut start = 0;
    while start < order.len() {
        let mut end = start + 1;
        while end < order.len() && values[order[end]] == values[order[start]] {
            end += 1;
        }
        // Positions start..end hold ranks start+1 ..= end: their mean.
        let rank = (start + 1 + end) as f64 / 2.0;
        for &k in &order[start..end] {
            ranks[k] = rank;
        }
        start = end;
    }
    ranks
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(actual: f64, expected: f64, tolerance: f64) -> bool {
        (actual - expected).abs() <= tolerance
    }

    /// `n` copies of the game `(a, b, s)`.
    fn repeat(n: usize, a: usize, b: usize, s: f64) -> Vec<(usize, usize, f64)> {
        vec![(a, b, s); n]
    }

    /// Tiny deterministic generator (xorshift64*) for random fields.
    struct Rng(u64);
    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 >> 12;
            self.0 ^= self.0 << 25;
            self.0 ^= self.0 >> 27;
            self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
        }
        fn below(&mut self, n: usize) -> usize {
            (self.next() % n as u64) as usize
        }
        fn unit(&mut self) -> f64 {
            (self.next() >> 11) as f64 / (1u64 << 53) as f64
        }
    }

    /// Checks the optimality condition of the prior-regularised fit,
    /// derived independently of the MM update: with log-strengths `t`
    /// (mean 0), expected score `E_k = sum_j n_kj logistic(t_k - t_j)`,
    /// prior expectation `p_k = logistic(t_k)` against the mean, the
    /// gradient `W_k + 1/2 - E_k - p_k + mean_i(p_i - 1/2)` must vanish.
    fn assert_stationary(players: usize, games: &[(usize, usize, f64)], ratings: &[Rating]) {
        let t: Vec<f64> = ratings.iter().map(|r| r.elo / ELO_PER_NAT).collect();
        let mut active = vec![false; players];
        let mut grad = vec![0.0; players];
        for &(a, b, s) in games {
            if a == b {
                continue;
            }
            active[a] = true;
            active[b] = true;
            let p = logistic(t[a] - t[b]);
            grad[a] += s - p;
            grad[b] += (1.0 - s) - (1.0 - p);
        }
        let rated: Vec<usize> = (0..players).filter(|&k| active[k]).collect();
        let c = rated.iter().map(|&k| logistic(t[k]) - 0.5).sum::<f64>() / rated.len() as f64;
        for &k in &rated {
            let g = grad[k] + 0.5 - logistic(t[k]) + c;
            assert!(g.abs() < 1e-6, "gradient {g} at player {k}");
        }
    }

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
    fn wdl_games_and_score() {
        let w = Wdl::new(60, 20, 20);
        assert_eq!(w.games(), 100);
        assert_eq!(w.score(), 0.7);
        assert_eq!(Wdl::new(0, 0, 0).score(), 0.5);
        assert_eq!(Wdl::new(u32::MAX, u32::MAX, 0).games(), 2 * u64::from(u32::MAX));
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

    #[test]
    fn bt_two_players_75_percent() {
        // 300 wins, 100 losses. Without the prior the MLE is exactly
        // elo(0.75) = 190.85. With it (each side one draw against the mean,
        // at +-D/2 by symmetry), the optimum solves
        //   300 + 1/2 = 400 s(D) + s(D/2),   s(x) = 1 / (1 + 10^(-x/400)),
        // whose root (bisection) is D = 190.539: the prior costs about
        // (s(95.4) - 1/2) / (400 s'(190.85)) = 0.134 / 0.432 = 0.31 Elo.
        let mut games = repeat(300, 0, 1, 1.0);
        games.extend(repeat(100, 0, 1, 0.0));
        let r = bradley_terry(2, &games);
        let d = r[0].elo - r[1].elo;
        assert!(close(d, 190.539, 0.001), "difference {d}");
        assert!(d < 190.85);
        assert!(close(r[0].elo, -r[1].elo, 1e-9));
        assert_stationary(2, &games, &r);
        let s = |x: f64| 1.0 / (1.0 + 10f64.powf(-x / 400.0));
        assert!(close(400.0 * s(d) + s(d / 2.0), 300.5, 1e-6));
        // Error in closed form: with a = t_0 = -t_1 (nats), w = 400 p (1-p),
        // p = logistic(2a), d = q (1-q), q = logistic(a), the information
        // matrix is (2w + d) u u^T, u = (1, -1)/sqrt(2), so
        // var(t_0) = 1 / (2 (2w + d)).
        let a = r[0].elo / ELO_PER_NAT;
        let p = logistic(2.0 * a);
        let q = logistic(a);
        let info = 2.0 * (2.0 * 400.0 * p * (1.0 - p) + q * (1.0 - q));
        let expected = Z95 * ELO_PER_NAT / info.sqrt();
        assert!(close(r[0].error, expected, 1e-6), "{} vs {expected}", r[0].error);
        assert!(close(r[1].error, expected, 1e-6));
        // Roughly: Elo-difference se without prior = ELO_PER_NAT / sqrt(400 * 3/16)
        // = 20.05; each player's half of it times 1.96 = 19.65.
        assert!(close(r[0].error, 19.65, 0.1), "{}", r[0].error);
    }

    #[test]
    fn bt_three_players_in_order() {
        // 0 > 1 > 2, consistently: 0 beats 1 70%, 1 beats 2 70%, 0 beats 2 85%.
        let mut games = Vec::new();
        for (a, b, won) in [(0, 1, 70), (1, 2, 70), (0, 2, 85)] {
            games.extend(repeat(won, a, b, 1.0));
            games.extend(repeat(100 - won, b, a, 1.0));
        }
        let r = bradley_terry(3, &games);
        assert!(r[0].elo > r[1].elo && r[1].elo > r[2].elo, "{r:?}");
        assert!(close(r.iter().map(|x| x.elo).sum(), 0.0, 1e-9));
        assert_stationary(3, &games, &r);
    }

    #[test]
    fn bt_symmetric_round_robin_is_all_zero() {
        let mut games = Vec::new();
        for a in 0..5 {
            for b in 0..5 {
                if a != b {
                    games.extend(repeat(3, a, b, 1.0));
                    games.push((a, b, 0.5));
                }
            }
        }
        let r = bradley_terry(5, &games);
        for x in &r {
            assert!(x.elo.abs() < 1e-9, "{r:?}");
            assert!(close(x.error, r[0].error, 1e-9) && x.error.is_finite());
        }
    }

    #[test]
    fn bt_perfect_player_is_finite_and_top() {
        let mut games = Vec::new();
        for b in 1..4 {
            games.extend(repeat(10, 0, b, 1.0));
        }
        games.extend(repeat(6, 1, 2, 1.0));
        games.extend(repeat(4, 2, 1, 1.0));
        games.extend(repeat(10, 3, 2, 0.5));
        games.extend(repeat(10, 3, 1, 0.5));
        let r = bradley_terry(4, &games);
        assert!(r.iter().all(|x| x.elo.is_finite() && x.error.is_finite()), "{r:?}");
        assert!((1..4).all(|k| r[0].elo > r[k].elo));
        assert!(close(r.iter().map(|x| x.elo).sum(), 0.0, 1e-9));
        assert_stationary(4, &games, &r);

        // Two players, 100-0, at +-a nats. The optimum solves
        // 100 + 1/2 = 100 logistic(2a) + logistic(a), i.e. with x = e^-a
        //   100 x^2 / (1 + x^2) + x / (1 + x) = 1/2.
        // Dropping the denominators gives 100 x^2 + x = 1/2, x = (-1 +
        // sqrt(201)) / 200 = 0.065887, 2a = 945.0 Elo, an overestimate by
        // a few Elo; bisection on the exact equation gives 942.723 Elo.
        let r = bradley_terry(2, &repeat(100, 1, 0, 1.0));
        let d = r[1].elo - r[0].elo;
        assert!(close(d, 942.723, 0.001), "{r:?}");
        let x = (-d / 2.0 / ELO_PER_NAT).exp();
        assert!(close(100.0 * x * x / (1.0 + x * x) + x / (1.0 + x), 0.5, 1e-9));
    }

    #[test]
    fn bt_error_halves_with_four_times_the_games() {
        let field = |n: usize| {
            let mut games = Vec::new();
            for (a, b, won, drawn) in [(0, 1, 5, 2), (1, 2, 4, 3), (0, 2, 6, 2), (2, 3, 5, 1)] {
                for _ in 0..n {
                    games.extend(repeat(won, a, b, 1.0));
                    games.extend(repeat(drawn, a, b, 0.5));
                    games.extend(repeat(10 - won - drawn, a, b, 0.0));
                }
            }
            bradley_terry(4, &games)
        };
        let (small, large) = (field(5), field(20));
        for k in 0..4 {
            let ratio = large[k].error / small[k].error;
            assert!((0.45..=0.55).contains(&ratio), "player {k}: ratio {ratio}");
            // The prior's pull shrinks too, so the ratings barely move.
            assert!(close(large[k].elo, small[k].elo, 2.0));
        }
    }

    #[test]
    fn bt_idle_players_self_play_and_disconnected_groups() {
        // Players 0, 1 play each other; 3, 4 play each other; 2 only itself.
        let mut games = repeat(10, 0, 1, 1.0);
        games.extend(repeat(10, 1, 0, 0.5));
        games.extend(repeat(10, 3, 4, 0.5));
        games.extend(repeat(5, 2, 2, 1.0));
        let r = bradley_terry(6, &games);
        for k in [2, 5] {
            assert_eq!(r[k], Rating { elo: 0.0, error: f64::INFINITY });
        }
        for k in [0, 1, 3, 4] {
            assert!(r[k].elo.is_finite() && r[k].error.is_finite(), "{r:?}");
        }
        assert!(r[0].elo > 0.0 && r[1].elo < 0.0);
        assert!(close(r.iter().map(|x| x.elo).sum(), 0.0, 1e-9));
        assert_stationary(6, &games, &r);
        assert!(bradley_terry(3, &[]).iter().all(|x| x.elo == 0.0 && x.error.is_infinite()));
    }

    #[test]
    fn bt_large_random_field() {
        // 100 players with hidden strengths, 10,000 games drawn from the
        // model (a draw band in the middle).
        let mut rng = Rng(0x5EED_1234_ABCD_0001);
        let players = 100;
        let hidden: Vec<f64> = (0..players).map(|_| rng.unit() * 6.0 - 3.0).collect();
        let games: Vec<(usize, usize, f64)> = (0..10_000)
            .map(|_| {
                let a = rng.below(players);
                let b = (a + 1 + rng.below(players - 1)) % players;
                let p = logistic(hidden[a] - hidden[b]);
                let u = rng.unit();
                let s = if u < p - 0.05 {
                    1.0
                } else if u < p + 0.05 {
                    0.5
                } else {
                    0.0
                };
                (a, b, s)
            })
            .collect();
        let r = bradley_terry(players, &games);
        assert!(r.iter().all(|x| x.elo.is_finite() && x.error.is_finite() && x.error > 0.0));
        assert!(r.iter().map(|x| x.elo).sum::<f64>().abs() < 1e-6);
        assert_stationary(players, &games, &r);
        // Strongest and weakest hidden players (about +-500 Elo) land far
        // out (each has about 200 games: se around 35 Elo).
        let best = (0..players).max_by(|&i, &j| hidden[i].total_cmp(&hidden[j])).unwrap();
        let worst = (0..players).min_by(|&i, &j| hidden[i].total_cmp(&hidden[j])).unwrap();
        assert!(r[best].elo > 300.0 && r[worst].elo < -300.0, "{:?} {:?}", r[best], r[worst]);
    }

    #[test]
    fn bt_strict_orders_and_chains() {
        // Deterministic bots: in a double round robin of 30 the higher index
        // always wins. No finite MLE without the prior; with it, finite,
        // ordered, and at the optimum (plain MM crawls here).
        let n = 30;
        let mut games = Vec::new();
        for a in 0..n {
            for b in 0..n {
                if a < b {
                    games.push((a, b, 0.0));
                    games.push((b, a, 1.0));
                }
            }
        }
        let r = bradley_terry(n, &games);
        assert!(r.iter().all(|x| x.elo.is_finite() && x.error.is_finite()), "{r:?}");
        assert!((1..n).all(|k| r[k].elo > r[k - 1].elo), "{r:?}");
        assert_stationary(n, &games, &r);
        // A ladder: each player only meets its neighbours, 60-40.
        let mut games = Vec::new();
        for k in 0..n - 1 {
            games.extend(repeat(60, k + 1, k, 1.0));
            games.extend(repeat(40, k, k + 1, 1.0));
        }
        let r = bradley_terry(n, &games);
        assert!((1..n).all(|k| r[k].elo > r[k - 1].elo), "{r:?}");
        assert_stationary(n, &games, &r);
    }

    #[test]
    fn spearman_by_hand_with_ties() {
        // x = [10, 20, 20, 30, 40]: ranks [1, 2.5, 2.5, 4, 5].
        // y = [ 1,  3,  2,  2,  5]: ranks [1, 4, 2.5, 2.5, 5].
        // Means 3 and 3; deviations dx = [-2, -.5, -.5, 1, 2],
        // dy = [-2, 1, -.5, -.5, 2].
        // sum dx dy = 4 - .5 + .25 - .5 + 4 = 7.25;
        // sum dx^2 = sum dy^2 = 4 + .25 + .25 + 1 + 4 = 9.5.
        // rho = 7.25 / 9.5 = 0.763158.
        let x = [10.0, 20.0, 20.0, 30.0, 40.0];
        let y = [1.0, 3.0, 2.0, 2.0, 5.0];
        assert_eq!(average_ranks(&x), vec![1.0, 2.5, 2.5, 4.0, 5.0]);
        assert_eq!(average_ranks(&y), vec![1.0, 4.0, 2.5, 2.5, 5.0]);
        assert!(close(spearman(&x, &y), 7.25 / 9.5, 1e-12), "{}", spearman(&x, &y));
        assert!(close(spearman(&y, &x), spearman(&x, &y), 1e-12));
        // Only the order counts: any increasing map of x gives the same.
        let cubed: Vec<f64> = x.iter().map(|v| v * v * v).collect();
        assert!(close(spearman(&cubed, &y), 7.25 / 9.5, 1e-12));
    }

    #[test]
    fn spearman_extremes() {
        let x = [3.0, 1.0, 2.0, 5.0];
        assert!(close(spearman(&x, &x), 1.0, 1e-12));
        let reversed: Vec<f64> = x.iter().map(|v| -v).collect();
        assert!(close(spearman(&x, &reversed), -1.0, 1e-12));
        // No order on one side, or nothing to compare: NaN.
        assert!(spearman(&x, &[7.0; 4]).is_nan());
        assert!(spearman(&[1.0], &[2.0]).is_nan());
    }

    #[test]
    fn bt_pairings_equal_games_and_warm_start_converges_to_the_same() {
        // The per-game form is the pair form over its merged pairs; listing
        // the pairs in another order and orientation, or split in two,
        // reaches the same optimum; a warm start from a nearby fit too.
        let mut games = Vec::new();
        for (a, b, won, drawn, lost) in [(0, 1, 7, 2, 3), (1, 2, 5, 0, 5), (0, 2, 9, 1, 2), (3, 2, 2, 2, 6)] {
            games.extend(repeat(won, a, b, 1.0));
            games.extend(repeat(drawn, b, a, 0.5));
            games.extend(repeat(lost, b, a, 1.0));
        }
        let per_game = bradley_terry(5, &games);
        let merged = pairings(5, &games);
        assert_eq!(bradley_terry_pairings(5, &merged, None, BT_TOLERANCE), per_game);
        // Each pair in two halves, one of them seen from the other side,
        // plus an empty pair (ignored), last pair first.
        let split: Vec<Pairing> = merged
            .iter()
            .rev()
            .flat_map(|p| {
                let half = Pairing { games: p.games / 2.0, points_a: p.points_a / 2.0, ..*p };
                let flipped =
                    Pairing { a: p.b, b: p.a, games: half.games, points_a: half.games - half.points_a };
                [flipped, Pairing { games: 0.0, points_a: 0.0, ..*p }, half]
            })
            .collect();
        let reordered = bradley_terry_pairings(5, &split, None, BT_TOLERANCE);
        let nudged: Vec<Rating> = per_game.iter().map(|r| Rating { elo: r.elo * 1.3 + 20.0, ..*r }).collect();
        let warm = bradley_terry_pairings(5, &merged, Some(&nudged), BT_TOLERANCE);
        for k in 0..5 {
            assert!(close(reordered[k].elo, per_game[k].elo, 1e-6), "{reordered:?} {per_game:?}");
            assert!(close(warm[k].elo, per_game[k].elo, 1e-6), "{warm:?} {per_game:?}");
            assert!(close(warm[k].error, per_game[k].error, 1e-6) || per_game[k].error.is_infinite());
        }
        assert_eq!(per_game[4], Rating { elo: 0.0, error: f64::INFINITY });
        // A looser tolerance from a warm start: the same to a thousandth of an Elo.
        let loose = bradley_terry_pairings(5, &merged, Some(&nudged), 1e-6);
        for k in 0..4 {
            assert!(close(loose[k].elo, per_game[k].elo, 1e-3), "{loose:?} {per_game:?}");
        }
    }

    #[test]
    fn opponents_defeated_small_table() {
        // 0 vs 1: 0 scores 1 + 0.5 + 0 = 1.5 of 3 -> exactly half, nobody.
        // 0 vs 2: 0 scores 1 + 1 = 2 of 2 -> 0 defeated 2.
        // 1 vs 2: (1, 2, 0.5) -> 1 scores 0.5; (2, 1, 0.0) -> 1 scores 1:
        //   1.5 of 2 -> 1 defeated 2.
        // 3 vs 0: 3 scores 1 of 1 -> 3 defeated 0.
        // 3 vs 3: self-play, ignored.
        let games = [
            (0, 1, 1.0),
            (1, 0, 0.5),
            (1, 0, 1.0),
            (0, 2, 1.0),
            (2, 0, 0.0),
            (1, 2, 0.5),
            (2, 1, 0.0),
            (3, 0, 1.0),
            (3, 3, 1.0),
        ];
        assert_eq!(opponents_defeated(5, &games), vec![1, 1, 0, 1, 0]);
        assert_eq!(opponents_defeated(2, &[]), vec![0, 0]);
    }

    #[test]
    #[should_panic(expected = "only 2 players")]
    fn out_of_range_player_panics() {
        opponents_defeated(2, &[(0, 2, 1.0)]);
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
