//! `arena measure matchmaking --games-per-entrant ...`: the live league's
//! matchmaking in a field of thousands, measured in games per entrant (a
//! round robin's share means nothing at this size, and its 50 million
//! pairings at 10,000 are out of reach).
//!
//! A field of N simulated players (strengths as `matchmaking_simulation`'s
//! class) plays a league from nothing in rounds: each round the league
//! chooses `batch` pairs (the server's parallel games, scaled with the
//! field), they are played (each game moving its two ratings online), and
//! the ratings are refreshed as the server's are (`League::refresh`:
//! refitted when due; every round up to 300 entrants). At each
//! checkpoint (games per entrant) the live ranking is compared with the
//! true strengths (Spearman). Newcomers then join the settled league, one
//! at a time on copies of it, and play (with the rest of the league, in
//! rounds of the server's 8 pairs) until their rating's 95% interval is
//! within +-100 Elo, as a fit confirms (an online interval that says so
//! first is checked by a refit).

use std::{fmt, time::Instant};

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use crate::{
    matchmaking::{EntrantId, League, Policy, GAMES_PER_PAIR},
    measure::matchmaking_simulation::{draw_strength, percentile, play_pair, Timing, NEWCOMER_ERROR},
    play::seeds,
    report::units::thousands,
    stats::spearman,
};

/// What to simulate.
#[derive(Debug, Clone)]
pub struct Config {
    pub entrants: usize,
    /// Checkpoints, ascending: games per entrant.
    pub games_per_entrant: Vec<u32>,
    pub seed: u64,
    pub policy: Policy,
    /// Newcomers measured, each alone on a copy of the settled league.
    pub newcomers: usize,
    /// Pairs chosen and played per round (0: the field's hundredth, at least 8).
    pub batch: usize,
}

/// A newcomer not rated closely enough after this many games counts as this.
const NEWCOMER_GAME_CAP: u32 = 1000;

/// Pairs a round while newcomers are measured: the server's parallel games.
const NEWCOMER_BATCH: usize = 8;

/// What was measured.
#[derive(Debug, Clone)]
pub struct Report {
    pub config: Config,
    pub batch: usize,
    /// Per checkpoint: games played, Spearman vs truth, mean refresh and
    /// choice (one `next_pairs` call) in ms since the previous one.
    pub checkpoints: Vec<(u32, u64, f64, f64, f64)>,
    /// Games each newcomer needed.
    pub newcomers: Vec<u32>,
}

/// A league being played in rounds.
#[derive(Clone)]
struct Field {
    league: League,
    strengths: Vec<f64>,
    rng: ChaCha8Rng,
    seed: u64,
    rounds: u64,
    fitting: Timing,
    choosing: Timing,
}

impl Field {
    /// Chooses and plays one round of `batch` pairs, then refreshes the
    /// ratings; false if nothing could be played.
    fn round(&mut self, batch: usize) -> bool {
        self.rounds += 1;
        let started = Instant::now();
        let pairs = self.league.next_pairs(batch, &[], seeds::derive(self.seed, self.rounds));
        self.choosing.add(started);
        if pairs.is_empty() {
            return false;
        }
        for pair in pairs {
            let (a, b) = (pair.first, pair.second);
            let scores = play_pair(self.strengths[a.0 as usize], self.strengths[b.0 as usize], &mut self.rng);
            for score in scores {
                self.league.record(a, b, score).expect("live entrants");
            }
        }
        let started = Instant::now();
        self.league.refresh();
        self.fitting.add(started);
        true
    }

    /// Rounds of a newcomer of `strength` in the league until its interval
    /// is narrow enough: the games it played by then.
    fn newcomer_games(mut self, strength: f64) -> u32 {
        let id = EntrantId(self.strengths.len() as i64);
        self.strengths.push(strength);
        self.league.add(id).expect("a new id");
        self.league.refit();
        loop {
            let games = self.league.ledger().games_of(id).unwrap_or(0);
            let narrow = |league: &League| league.rating(id).is_some_and(|r| r.error <= NEWCOMER_ERROR);
            let narrow = narrow(&self.league) && {
                self.league.refit();
                narrow(&self.league)
            };
            if narrow || games >= NEWCOMER_GAME_CAP || !self.round(NEWCOMER_BATCH) {
                return games;
            }
        }
    }
}

/// Runs the simulation.
pub fn run(config: &Config) -> Report {
    let n = config.entrants;
    let batch = if config.batch > 0 { config.batch } else { (n / 100).max(8) };
    let mut rng = ChaCha8Rng::seed_from_u64(config.seed);
    let strengths: Vec<f64> = (0..n).map(|_| draw_strength(&mut rng)).collect();
    let newcomers: Vec<f64> = (0..config.newcomers).map(|_| draw_strength(&mut rng)).collect();
    let mut league = League::new(config.policy.clone());
    for k in 0..n {
        league.add(EntrantId(k as i64)).expect("a new id");
    }
    let mut field = Field {
        league,
        strengths: strengths.clone(),
        rng: ChaCha8Rng::seed_from_u64(seeds::derive(config.seed, 1)),
        seed: config.seed,
        rounds: 0,
        fitting: Timing::default(),
        choosing: Timing::default(),
    };
    let mut checkpoints = Vec::new();
    for &per_entrant in &config.games_per_entrant {
        let target = n as u64 * u64::from(per_entrant) / 2;
        let (fitting, choosing) = (field.fitting, field.choosing);
        while field.league.ledger().total_games() < target && field.round(batch) {}
        let elos: Vec<f64> =
            (0..n).map(|k| field.league.rating(EntrantId(k as i64)).map_or(0.0, |r| r.elo)).collect();
        checkpoints.push((
            per_entrant,
            field.league.ledger().total_games(),
            spearman(&elos, &strengths),
            field.fitting.mean_ms_since(fitting),
            field.choosing.mean_ms_since(choosing),
        ));
    }
    let newcomers = newcomers.iter().map(|&strength| field.clone().newcomer_games(strength)).collect();
    Report { config: config.clone(), batch, checkpoints, newcomers }
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let c = &self.config;
        writeln!(
            f,
            "League matchmaking at scale: {} entrants, seed {}, {} pairs ({} games each) a round, refreshed after each round (refitted when due)",
            thousands(c.entrants as u64),
            c.seed,
            self.batch,
            GAMES_PER_PAIR
        )?;
        writeln!(f)?;
        writeln!(f, "| games per entrant | games | Spearman vs truth | refresh (ms) | choice (ms) |")?;
        writeln!(f, "| --- | --- | --- | --- | --- |")?;
        for (per_entrant, games, spearman, refit, choice) in &self.checkpoints {
            writeln!(
                f,
                "| {per_entrant} | {} | {spearman:.3} | {refit:.1} | {choice:.1} |",
                thousands(*games)
            )?;
        }
        writeln!(f)?;
        let last = c.games_per_entrant.last().copied().unwrap_or(0);
        write!(
            f,
            "Newcomers joining after {last} games per entrant ({}, each alone, rounds of {NEWCOMER_BATCH} pairs): games until the 95% interval is within +-{NEWCOMER_ERROR} Elo (capped at {NEWCOMER_GAME_CAP}): median {}, 90th percentile {}, most {}",
            self.newcomers.len(),
            percentile(&self.newcomers, 0.5),
            percentile(&self.newcomers, 0.9),
            self.newcomers.iter().max().copied().unwrap_or(0)
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_field_of_a_thousand_is_ranked_by_games_per_entrant_and_newcomers_placed() {
        // Small for a test (debug build): 500 entrants to 40 games each.
        let config = Config {
            entrants: 500,
            games_per_entrant: vec![10, 40],
            seed: 3,
            policy: Policy::default(),
            newcomers: 3,
            batch: 0,
        };
        let report = run(&config);
        let [(_, early_games, early, _, _), (_, games, late, _, _)] = report.checkpoints[..] else {
            panic!()
        };
        assert!(early_games >= 2_500 && games >= 10_000, "{early_games} {games}");
        assert!(late > early && late >= 0.9, "Spearman {early:.3} at 10, {late:.3} at 40 games an entrant");
        assert_eq!(report.newcomers.len(), 3);
        assert!(report.newcomers.iter().all(|&g| g > 0 && g < NEWCOMER_GAME_CAP), "{:?}", report.newcomers);
        assert!(report.to_string().contains("| 40 | "), "{report}");
    }
}
