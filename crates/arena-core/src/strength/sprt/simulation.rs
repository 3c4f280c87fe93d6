//! `arena measure sprt`: the test's error rates and length, measured on
//! simulated games between two players of a known Elo difference.
//!
//! Each pair is one opening played twice, seats swapped. The opening
//! favours seat 1 by a bias `c` drawn uniformly from
//! `[-opening_bias, opening_bias]` (in score), so NEW's expected scores in
//! the pair's games are `s + c` and `s - c`, `s` the score of the true Elo
//! difference (logistic): the pair's mean is exactly `s`, and its two games
//! pull against each other, as real openings make them. A game with
//! expected score `p` is a draw with probability `draw_rate * 2 min(p, 1-p)`
//! and a win with `p` minus half that, so its expected score stays `p`.
//!
//! Every run feeds the same pairs to the pentanomial test and to the
//! trinomial one (games taken as independent), each checked after every
//! pair, until both have a verdict or `max_games` are played.

use std::fmt;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::stats::{self, EloModel, Evidence, Hypotheses, Verdict};
use crate::{
    measure::matchmaking_simulation::simulated_score, play::parallel::play_in_order, play::seeds,
    stats::score_from_elo,
};

/// What to simulate.
#[derive(Debug, Clone)]
pub struct Config {
    /// Tests run at each true difference.
    pub runs: u32,
    pub seed: u64,
    /// The test (logistic Elo: the simulation's players are logistic).
    pub hypotheses: Hypotheses,
    /// A run without a verdict by then is inconclusive.
    pub max_games: u64,
    /// Draws at even strength.
    pub draw_rate: f64,
    /// The largest advantage an opening gives seat 1, in score.
    pub opening_bias: f64,
    /// The true Elo differences measured (NEW minus OLD).
    pub true_elos: Vec<f64>,
    /// The pseudo-count added to each outcome (`stats::PRIOR_COUNT` in
    /// `arena bench sprt`; others to show why).
    pub prior: f64,
    /// Runs simulated at once.
    pub threads: usize,
}

impl Config {
    /// The defaults of `arena measure sprt`: the `arena bench sprt` defaults' test
    /// (0 against 5 Elo, 5% errors) at elo0, elo1 and around them.
    pub fn new(runs: u32, seed: u64, hypotheses: Hypotheses) -> Config {
        let (elo0, elo1) = (hypotheses.elo0, hypotheses.elo1);
        let width = elo1 - elo0;
        Config {
            runs,
            seed,
            hypotheses,
            max_games: 200_000,
            draw_rate: 0.1,
            opening_bias: 0.2,
            true_elos: vec![elo0 - width, elo0, (elo0 + elo1) / 2.0, elo1, elo1 + width],
            prior: stats::PRIOR_COUNT,
            threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
        }
    }
}

/// How one test fared over the runs at one true difference.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct VerdictTally {
    pub h1: u32,
    pub h0: u32,
    pub inconclusive: u32,
    /// Games played until the verdict (`max_games` for an inconclusive run).
    pub games: u64,
}

impl VerdictTally {
    fn add(&mut self, ending: Option<Verdict>, games: u64) {
        match ending {
            Some(Verdict::H1) => self.h1 += 1,
            Some(Verdict::H0) => self.h0 += 1,
            None => self.inconclusive += 1,
        }
        self.games += games;
    }

    pub fn runs(&self) -> u32 {
        self.h1 + self.h0 + self.inconclusive
    }

    pub fn share_h1(&self) -> f64 {
        f64::from(self.h1) / f64::from(self.runs().max(1))
    }

    pub fn share_h0(&self) -> f64 {
        f64::from(self.h0) / f64::from(self.runs().max(1))
    }

    pub fn mean_games(&self) -> f64 {
        self.games as f64 / f64::from(self.runs().max(1))
    }
}

/// Both tests at one true difference.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Row {
    pub true_elo: f64,
    pub pentanomial: VerdictTally,
    pub trinomial: VerdictTally,
}

#[derive(Debug, Clone)]
pub struct Report {
    pub config: Config,
    pub rows: Vec<Row>,
}

/// Runs the simulation: `config.runs` tests at each true difference.
pub fn run(config: &Config) -> Report {
    assert_eq!(config.hypotheses.model, EloModel::Logistic, "the simulated players are logistic");
    let rows = config
        .true_elos
        .iter()
        .enumerate()
        .map(|(i, &true_elo)| {
            let mut row =
                Row { true_elo, pentanomial: VerdictTally::default(), trinomial: VerdictTally::default() };
            // Each run its own seed: the same report at any thread count.
            let base = seeds::derive(config.seed, i as u64);
            play_in_order(
                0..config.runs,
                config.threads,
                || (),
                |_, run| one_run(config, true_elo, seeds::derive(base, u64::from(run))),
                |_, [(penta, penta_games), (tri, tri_games)]| {
                    row.pentanomial.add(penta, penta_games);
                    row.trinomial.add(tri, tri_games);
                },
            );
            row
        })
        .collect();
    Report { config: config.clone(), rows }
}

/// One run: each test's verdict (None: inconclusive) and games played.
fn one_run(config: &Config, true_elo: f64, seed: u64) -> [(Option<Verdict>, u64); 2] {
    let h = &config.hypotheses;
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let score = score_from_elo(true_elo);
    let mut evidence = Evidence::default();
    let mut pentanomial = None;
    let mut trinomial = None;
    while evidence.games() < config.max_games {
        evidence.add_pair(play_pair(score, config, &mut rng));
        let games = evidence.games();
        if pentanomial.is_none() {
            let llr = stats::llr_pentanomial_with_prior(&evidence.pentanomial, h, config.prior);
            pentanomial = h.verdict(llr).map(|v| (Some(v), games));
        }
        if trinomial.is_none() {
            let llr = stats::llr_trinomial_with_prior(&evidence.wdl, h, config.prior);
            trinomial = h.verdict(llr).map(|v| (Some(v), games));
        }
        if pentanomial.is_some() && trinomial.is_some() {
            break;
        }
    }
    let undecided = (None, evidence.games());
    [pentanomial.unwrap_or(undecided), trinomial.unwrap_or(undecided)]
}

/// NEW's scores in one pair, its expected score per game `score`.
fn play_pair(score: f64, config: &Config, rng: &mut ChaCha8Rng) -> [f64; 2] {
    // The bias can move a game's expected score no further than 0 or 1.
    let room = score.min(1.0 - score);
    let bias = ((rng.random::<f64>() * 2.0 - 1.0) * config.opening_bias).clamp(-room, room);
    [score + bias, score - bias].map(|p| simulated_score(p, config.draw_rate, rng))
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        let c = &self.config;
        let h = &c.hypotheses;
        writeln!(
            f,
            "SPRT H0: elo <= {} against H1: elo >= {} (logistic), alpha {}, beta {}; {} runs per row, seed {}",
            h.elo0, h.elo1, h.alpha, h.beta, c.runs, c.seed
        )?;
        writeln!(
            f,
            "games: draw rate {}, opening bias +-{} score, at most {} games a run; prior {} a count\n",
            c.draw_rate, c.opening_bias, c.max_games, c.prior
        )?;
        writeln!(
            f,
            "| true Elo | pentanomial: H1 | H0 | inconclusive | mean games | trinomial: H1 | H0 | inconclusive | mean games |"
        )?;
        writeln!(f, "|---:|---:|---:|---:|---:|---:|---:|---:|---:|")?;
        for row in &self.rows {
            let cells = |t: &VerdictTally| {
                format!(
                    "{:.1}% | {:.1}% | {} | {:.0}",
                    100.0 * t.share_h1(),
                    100.0 * t.share_h0(),
                    t.inconclusive,
                    t.mean_games()
                )
            };
            writeln!(f, "| {:+} | {} | {} |", row.true_elo, cells(&row.pentanomial), cells(&row.trinomial))?;
        }
        // The error rates with their sampling noise (95%), where they are defined.
        let noise = |share: f64| 1.959964 * (share * (1.0 - share) / f64::from(c.runs.max(1))).sqrt();
        writeln!(f)?;
        for row in &self.rows {
            let tests = [("pentanomial", &row.pentanomial), ("trinomial", &row.trinomial)];
            for (name, t) in tests.into_iter().filter(|_| row.true_elo == h.elo0) {
                let share = t.share_h1();
                writeln!(
                    f,
                    "{name} at elo0: H1 accepted {:.1}% +- {:.1}% (alpha {})",
                    100.0 * share,
                    100.0 * noise(share),
                    h.alpha
                )?;
            }
            for (name, t) in tests.into_iter().filter(|_| row.true_elo == h.elo1) {
                let share = t.share_h0();
                writeln!(
                    f,
                    "{name} at elo1: H0 accepted {:.1}% +- {:.1}% (beta {})",
                    100.0 * share,
                    100.0 * noise(share),
                    h.beta
                )?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A wide test (0 against 40 Elo) so that a run is a few hundred
    /// games: the error rates do not depend on the width, the length does.
    fn config(runs: u32) -> Config {
        let h = Hypotheses::new(0.0, 40.0, 0.05, 0.05, EloModel::Logistic).unwrap();
        Config { true_elos: vec![0.0, 40.0], ..Config::new(runs, 7, h) }
    }

    #[test]
    fn error_rates_are_within_alpha_and_beta() {
        // Seeded: the same numbers every time. At 400 runs a share's
        // standard error is about 1.1%; 5% + 3 of them is the ceiling.
        let report = run(&config(400));
        let [at_elo0, at_elo1] = [report.rows[0], report.rows[1]];
        for t in [at_elo0.pentanomial, at_elo0.trinomial] {
            assert!(t.share_h1() <= 0.05 + 0.033, "H1 at elo0: {t:?}");
        }
        for t in [at_elo1.pentanomial, at_elo1.trinomial] {
            assert!(t.share_h0() <= 0.05 + 0.033, "H0 at elo1: {t:?}");
        }
        // Pairs pull against each other: the pentanomial test needs fewer games.
        for row in [at_elo0, at_elo1] {
            assert!(row.pentanomial.mean_games() < row.trinomial.mean_games(), "{row:?}");
        }
    }

    #[test]
    fn the_report_is_the_same_at_any_thread_count() {
        let one = run(&Config { threads: 1, ..config(20) });
        let three = run(&Config { threads: 3, ..config(20) });
        assert_eq!(one.rows, three.rows);
        assert!(one.to_string().contains("| +40 | "), "{one}");
    }

    #[test]
    fn a_pair_keeps_its_expected_score() {
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        let config = config(1);
        let n = 200_000;
        let total: f64 = (0..n).map(|_| play_pair(0.7, &config, &mut rng).iter().sum::<f64>()).sum();
        assert!((total / (2 * n) as f64 - 0.7).abs() < 0.005);
    }
}
