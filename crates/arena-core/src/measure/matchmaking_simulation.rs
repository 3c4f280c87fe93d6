//! `arena measure matchmaking`: how well a matchmade league ranks a class,
//! measured on simulated players of known strength.
//!
//! A class of N players gets true Elo strengths from a mixture around the
//! reference levels. The reference is the full round robin (every pairing,
//! `games_per_pairing` games in seat-swapped pairs, Bradley-Terry). The
//! matchmade league plays the same class from nothing, `in_flight` pairs at
//! once (the oldest finishes first, then its slot is refilled), refitting
//! after each pair; at each share of the round robin's game count its
//! ranking is compared with the round robin's and with the truth
//! (Spearman). A league pairing uniformly at random is measured alongside.
//! Second measurement: newcomers join the league once it has played a
//! share of the round robin's games, one at a time on copies of it; each
//! plays until its rating's 95% interval is within +-100 Elo.
//!
//! A game's outcome is drawn from the true Elo difference (logistic), with
//! a seat advantage for the first seat and draws taken evenly from the two
//! sides' chances, so the expected score stays the model's.

use std::{collections::VecDeque, fmt, time::Instant};

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::matchmaking::{EntrantId, GamePair, League, Policy, GAMES_PER_PAIR};
use crate::{
    play::parallel::play_in_order,
    play::seeds,
    report::units::thousands,
    stats::{bradley_terry_pairings, score_from_elo, spearman, Pairing, BT_TOLERANCE},
};

/// What to simulate.
#[derive(Debug, Clone)]
pub struct Config {
    pub students: usize,
    pub games_per_pairing: u32,
    pub seed: u64,
    pub trials: usize,
    /// Pairs played at once (the server's parallel games).
    pub in_flight: usize,
    pub policy: Policy,
    /// Shares of the round robin's games at which the rankings are
    /// compared, ascending, within `(0, 1]`.
    pub checkpoints: Vec<f64>,
    /// Newcomers measured per trial (each alone, on a copy of the league).
    pub newcomers: usize,
    /// The share of the round robin's games played before newcomers join.
    pub settled_share: f64,
}

impl Config {
    /// The defaults of `arena measure matchmaking`.
    pub fn new(students: usize, games_per_pairing: u32, seed: u64, trials: usize) -> Self {
        Config {
            students,
            games_per_pairing,
            seed,
            trials,
            in_flight: 8,
            policy: Policy::default(),
            checkpoints: vec![0.01, 0.02, 0.03, 0.05, 0.075, 0.10, 0.15, 0.20, 0.30, 0.50, 1.0],
            newcomers: 20,
            settled_share: 0.10,
        }
    }

    /// Games of the full round robin.
    pub fn round_robin_games(&self) -> u64 {
        let n = self.students as u64;
        n * n.saturating_sub(1) / 2 * u64::from(self.games_per_pairing)
    }
}

/// The class: shares of students around the reference levels, each a
/// normal spread, in Elo above Easy. The levels' Elo are docs/benchmarks.md's
/// head-to-head scores: Medium +146 over Easy (69.9%), Hard +265 over
/// Medium (82.2%), Expert +667 over Hard (97.9%). Most students land
/// between Medium and Hard; a few barely beat Easy or reach Expert.
const CLASS: [(f64, f64, f64); 5] = [
    // (share, mean, standard deviation)
    (0.15, 0.0, 80.0),
    (0.30, 146.0, 80.0),
    (0.35, 411.0, 100.0),
    (0.15, 650.0, 150.0),
    (0.05, 1078.0, 100.0),
];

/// The first seat's advantage, in Elo.
const SEAT_ELO: f64 = 30.0;

/// Draws at even strength (fewer the more one side is favoured).
const DRAW_RATE: f64 = 0.05;

/// The interval a newcomer's rating must reach: +-100 Elo at 95%.
pub const NEWCOMER_ERROR: f64 = 100.0;

/// A newcomer that has not got there after this many games counts as this.
const NEWCOMER_GAME_CAP: u32 = 2000;

/// A true strength drawn from [`CLASS`].
pub(crate) fn draw_strength(rng: &mut ChaCha8Rng) -> f64 {
    let mut u = rng.random::<f64>();
    let &(_, mean, sd) = CLASS
        .iter()
        .find(|&&(share, _, _)| {
            u -= share;
            u < 0.0
        })
        .unwrap_or(&CLASS[CLASS.len() - 1]);
    // Box-Muller.
    let (u1, u2) = (1.0 - rng.random::<f64>(), rng.random::<f64>());
    mean + sd * (-2.0 * u1.ln()).sqrt() * (2.0 * std::f64::consts::PI * u2).cos()
}

/// The score of a player of strength `a` in one game against `b`, `a` in
/// the first seat if `a_first`.
pub(crate) fn play_game(a: f64, b: f64, a_first: bool, rng: &mut ChaCha8Rng) -> f64 {
    let seat = if a_first { SEAT_ELO } else { -SEAT_ELO };
    simulated_score(score_from_elo(a - b + seat), DRAW_RATE, rng)
}

/// One simulated game's score (1, 0.5 or 0) for a side whose expected
/// score is `p`; draws take `draw_rate` of the outcomes at even odds, fewer
/// as the odds part (every simulation of games uses this one).
pub fn simulated_score(p: f64, draw_rate: f64, rng: &mut impl Rng) -> f64 {
    let draw = draw_rate * 2.0 * p.min(1.0 - p);
    let u = rng.random::<f64>();
    if u < p - draw / 2.0 {
        1.0
    } else if u < p + draw / 2.0 {
        0.5
    } else {
        0.0
    }
}

/// `first`'s scores in a seat-swapped pair against `second`.
pub(crate) fn play_pair(first: f64, second: f64, rng: &mut ChaCha8Rng) -> [f64; 2] {
    [play_game(first, second, true, rng), play_game(first, second, false, rng)]
}

/// The full round robin's results, merged per pairing.
fn round_robin(strengths: &[f64], games_per_pairing: u32, rng: &mut ChaCha8Rng) -> Vec<Pairing> {
    let n = strengths.len();
    let mut pairs = Vec::with_capacity(n * n / 2);
    for a in 0..n {
        for b in a + 1..n {
            let points: f64 =
                (0..games_per_pairing).map(|g| play_game(strengths[a], strengths[b], g % 2 == 0, rng)).sum();
            pairs.push(Pairing { a, b, games: f64::from(games_per_pairing), points_a: points });
        }
    }
    pairs
}

/// Who chooses the league's games.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Scheduler {
    Matchmaking,
    /// Uniformly random pairs (none in flight twice): the baseline.
    Random,
}

/// A league of the class being played, pair by pair.
#[derive(Clone)]
struct Run {
    league: League,
    /// True strengths by entrant id.
    strengths: Vec<f64>,
    in_flight: VecDeque<GamePair>,
    slots: usize,
    scheduler: Scheduler,
    /// The newcomer being measured: random pairing gives it every pair
    /// (against a random opponent), as matchmaking gives a newcomer most.
    newcomer: Option<EntrantId>,
    rng: ChaCha8Rng,
    seed: u64,
    calls: u64,
    /// Refits of the ratings, and choices of pairs.
    fitting: Timing,
    choosing: Timing,
}

/// Time spent in calls of one kind, and how many.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Timing {
    seconds: f64,
    calls: u64,
}

impl Timing {
    pub(crate) fn add(&mut self, started: Instant) {
        self.seconds += started.elapsed().as_secs_f64();
        self.calls += 1;
    }

    /// Milliseconds a call since `earlier` (0 if none).
    pub(crate) fn mean_ms_since(&self, earlier: Timing) -> f64 {
        let calls = self.calls - earlier.calls;
        if calls == 0 {
            return 0.0;
        }
        (self.seconds - earlier.seconds) / calls as f64 * 1e3
    }
}

impl Run {
    fn new(strengths: &[f64], config: &Config, scheduler: Scheduler, seed: u64) -> Self {
        let mut league = League::new(config.policy.clone());
        for k in 0..strengths.len() {
            league.add(EntrantId(k as i64)).expect("a new id");
        }
        Run {
            league,
            strengths: strengths.to_vec(),
            in_flight: VecDeque::new(),
            slots: config.in_flight.max(1),
            scheduler,
            newcomer: None,
            rng: ChaCha8Rng::seed_from_u64(seeds::derive(seed, 0)),
            seed,
            calls: 0,
            fitting: Timing::default(),
            choosing: Timing::default(),
        }
    }

    /// Plays until the league has `games` games, or nothing can be played.
    fn play_until(&mut self, games: u64) {
        while self.league.ledger().total_games() < games && self.step() {}
    }

    /// Fills the free slots, plays the oldest pair in flight, records it and
    /// refits; false if nothing could be played.
    fn step(&mut self) -> bool {
        let free = self.slots - self.in_flight.len();
        let flying: Vec<GamePair> = self.in_flight.iter().copied().collect();
        self.calls += 1;
        let started = Instant::now();
        let picked = match self.scheduler {
            Scheduler::Matchmaking => {
                self.league.next_pairs(free, &flying, seeds::derive(self.seed, self.calls))
            }
            Scheduler::Random => self.random_pairs(free, &flying),
        };
        self.choosing.add(started);
        self.in_flight.extend(picked);
        let Some(pair) = self.in_flight.pop_front() else { return false };
        let (a, b) = (pair.first, pair.second);
        let scores = play_pair(self.strengths[a.0 as usize], self.strengths[b.0 as usize], &mut self.rng);
        for score in scores {
            self.league.record(a, b, score).expect("live entrants");
        }
        // Random pairing reads no ratings, except a newcomer's.
        if self.scheduler == Scheduler::Matchmaking || self.newcomer.is_some() {
            self.refit();
        }
        true
    }

    fn refit(&mut self) {
        let started = Instant::now();
        self.league.refit();
        self.fitting.add(started);
    }

    /// Up to `how_many` uniformly random pairs of live entrants (of the
    /// newcomer, while one is measured), none in flight or picked twice.
    fn random_pairs(&mut self, how_many: usize, in_flight: &[GamePair]) -> Vec<GamePair> {
        let live: Vec<EntrantId> = self.league.ledger().live().collect();
        let mut busy: std::collections::HashSet<(EntrantId, EntrantId)> =
            in_flight.iter().map(|p| (p.first.min(p.second), p.first.max(p.second))).collect();
        let mut out = Vec::new();
        let mut tries = 0;
        while out.len() < how_many && live.len() >= 2 && tries < 100 * how_many {
            tries += 1;
            let a = self.newcomer.unwrap_or_else(|| live[self.rng.random_range(0..live.len())]);
            let b = live[self.rng.random_range(0..live.len())];
            if a != b && busy.insert((a.min(b), a.max(b))) {
                out.push(GamePair { first: a, second: b });
            }
        }
        out
    }

    /// The live elo of entrants `0..n`.
    fn elos(&mut self, n: usize) -> Vec<f64> {
        self.league.refit();
        (0..n).map(|k| self.league.rating(EntrantId(k as i64)).map_or(0.0, |r| r.elo)).collect()
    }

    /// Plays on until the league has `games` games, then measures each
    /// newcomer alone on a copy of it: the games each needed.
    fn newcomers_after(&mut self, games: u64, newcomers: &[f64]) -> Vec<u32> {
        if newcomers.is_empty() {
            return Vec::new();
        }
        self.play_until(games);
        newcomers.iter().map(|&strength| self.clone().newcomer_games(strength)).collect()
    }

    /// Adds a newcomer of a strength from the class and plays until its
    /// interval is narrow enough: the games it played by then.
    fn newcomer_games(mut self, strength: f64) -> u32 {
        let id = EntrantId(self.strengths.len() as i64);
        self.strengths.push(strength);
        self.league.add(id).expect("a new id");
        self.newcomer = Some(id);
        loop {
            let games = self.league.ledger().games_of(id).unwrap_or(0);
            let narrow = self.league.rating(id).is_some_and(|r| r.error <= NEWCOMER_ERROR);
            if narrow || games >= NEWCOMER_GAME_CAP || !self.step() {
                return games;
            }
        }
    }
}

/// One checkpoint's Spearman correlations, a value per trial.
#[derive(Debug, Clone, Default)]
pub struct Checkpoint {
    pub share: f64,
    pub games: u64,
    pub matchmade_vs_round_robin: Vec<f64>,
    pub matchmade_vs_truth: Vec<f64>,
    pub random_vs_round_robin: Vec<f64>,
    pub random_vs_truth: Vec<f64>,
    /// The matchmade league's mean refit and choice (one `next_pairs`
    /// call), in ms, since the previous checkpoint.
    pub refit_ms: Vec<f64>,
    pub choice_ms: Vec<f64>,
}

impl Checkpoint {
    /// Adds another trial's values.
    fn absorb(&mut self, other: Checkpoint) {
        self.matchmade_vs_round_robin.extend(other.matchmade_vs_round_robin);
        self.matchmade_vs_truth.extend(other.matchmade_vs_truth);
        self.random_vs_round_robin.extend(other.random_vs_round_robin);
        self.random_vs_truth.extend(other.random_vs_truth);
        self.refit_ms.extend(other.refit_ms);
        self.choice_ms.extend(other.choice_ms);
    }
}

/// What `arena measure matchmaking` measured.
#[derive(Debug, Clone)]
pub struct Report {
    pub config: Config,
    /// The round robin's ranking against the truth, a value per trial.
    pub round_robin_vs_truth: Vec<f64>,
    pub checkpoints: Vec<Checkpoint>,
    /// Games each newcomer played until its interval was narrow enough.
    pub newcomer_matchmade: Vec<u32>,
    pub newcomer_random: Vec<u32>,
    /// A cold fit of the round robin's results (first trial), in seconds.
    pub round_robin_fit: f64,
}

/// What one trial measured: a class, its round robin, its two leagues.
struct Trial {
    round_robin_vs_truth: f64,
    /// A value per checkpoint, in each of its fields.
    checkpoints: Vec<Checkpoint>,
    newcomer_matchmade: Vec<u32>,
    newcomer_random: Vec<u32>,
    round_robin_fit: f64,
}

/// Games at a share of the round robin's.
fn games_at(config: &Config, share: f64) -> u64 {
    (share * config.round_robin_games() as f64).ceil() as u64
}

/// Trial `index`: a class of its own, its round robin, then each league
/// from nothing to the last checkpoint (newcomers measured on the way).
fn trial(config: &Config, index: u64) -> Trial {
    let trial_seed = seeds::derive(config.seed, index);
    let mut rng = ChaCha8Rng::seed_from_u64(trial_seed);
    let strengths: Vec<f64> = (0..config.students).map(|_| draw_strength(&mut rng)).collect();
    let pairings = round_robin(&strengths, config.games_per_pairing, &mut rng);
    let started = Instant::now();
    let reference = bradley_terry_pairings(config.students, &pairings, None, BT_TOLERANCE);
    let round_robin_fit = started.elapsed().as_secs_f64();
    let reference: Vec<f64> = reference.iter().map(|r| r.elo).collect();
    let newcomers: Vec<f64> = (0..config.newcomers).map(|_| draw_strength(&mut rng)).collect();
    let settled = games_at(config, config.settled_share);

    let mut out = Trial {
        round_robin_vs_truth: spearman(&reference, &strengths),
        checkpoints: empty_checkpoints(config),
        newcomer_matchmade: Vec::new(),
        newcomer_random: Vec::new(),
        round_robin_fit,
    };
    for scheduler in [Scheduler::Matchmaking, Scheduler::Random] {
        let mut run = Run::new(&strengths, config, scheduler, seeds::derive(trial_seed, 1));
        // Measured on the way past `settled`, or at the end if no checkpoint is past it.
        let mut newcomer_games = None;
        for checkpoint in &mut out.checkpoints {
            let games = checkpoint.games;
            let (fitting, choosing) = (run.fitting, run.choosing);
            if newcomer_games.is_none() && games > settled {
                newcomer_games = Some(run.newcomers_after(settled, &newcomers));
            }
            run.play_until(games);
            let live = run.elos(config.students);
            let (vs_reference, vs_truth) = (spearman(&live, &reference), spearman(&live, &strengths));
            match scheduler {
                Scheduler::Matchmaking => {
                    checkpoint.matchmade_vs_round_robin.push(vs_reference);
                    checkpoint.matchmade_vs_truth.push(vs_truth);
                    // Newcomers' leagues are copies: their calls are not counted.
                    checkpoint.refit_ms.push(run.fitting.mean_ms_since(fitting));
                    checkpoint.choice_ms.push(run.choosing.mean_ms_since(choosing));
                }
                Scheduler::Random => {
                    checkpoint.random_vs_round_robin.push(vs_reference);
                    checkpoint.random_vs_truth.push(vs_truth);
                }
            }
        }
        let newcomer_games = newcomer_games.unwrap_or_else(|| run.newcomers_after(settled, &newcomers));
        match scheduler {
            Scheduler::Matchmaking => out.newcomer_matchmade = newcomer_games,
            Scheduler::Random => out.newcomer_random = newcomer_games,
        }
    }
    out
}

/// A checkpoint without values for each of `config`'s shares.
fn empty_checkpoints(config: &Config) -> Vec<Checkpoint> {
    config
        .checkpoints
        .iter()
        .map(|&share| Checkpoint { share, games: games_at(config, share), ..Default::default() })
        .collect()
}

/// Runs the simulation, its trials on as many threads as there are cores
/// (each trial is the same whatever thread plays it).
pub fn run(config: &Config) -> Report {
    let mut report = Report {
        config: config.clone(),
        round_robin_vs_truth: Vec::new(),
        checkpoints: empty_checkpoints(config),
        newcomer_matchmade: Vec::new(),
        newcomer_random: Vec::new(),
        round_robin_fit: 0.0,
    };
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    play_in_order(
        0..config.trials as u32,
        threads,
        || (),
        |_, index| trial(config, u64::from(index)),
        |index, t| {
            report.round_robin_vs_truth.push(t.round_robin_vs_truth);
            for (checkpoint, values) in report.checkpoints.iter_mut().zip(t.checkpoints) {
                checkpoint.absorb(values);
            }
            report.newcomer_matchmade.extend(t.newcomer_matchmade);
            report.newcomer_random.extend(t.newcomer_random);
            if index == 0 {
                report.round_robin_fit = t.round_robin_fit;
            }
        },
    );
    report
}

fn mean(values: &[f64]) -> f64 {
    values.iter().sum::<f64>() / values.len().max(1) as f64
}

fn lowest(values: &[f64]) -> f64 {
    values.iter().copied().fold(f64::INFINITY, f64::min)
}

/// The `q`-quantile of `values` by the nearest-rank method (0 if empty).
pub(crate) fn percentile(values: &[u32], q: f64) -> u32 {
    let mut sorted = values.to_vec();
    sorted.sort_unstable();
    match sorted.len() {
        0 => 0,
        n => sorted[((q * n as f64).ceil() as usize).clamp(1, n) - 1],
    }
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let c = &self.config;
        let p = &c.policy;
        writeln!(
            f,
            "League matchmaking: {} students, {} games a pairing, {} trials, seed {}, {} pairs ({} games each) in flight",
            c.students, c.games_per_pairing, c.trials, c.seed, c.in_flight, GAMES_PER_PAIR
        )?;
        writeln!(
            f,
            "policy: {} placement games, repeat scale {}, at most {} pairs of one entrant in flight, least share of the mean games {}",
            p.placement_games, p.repeat_scale, p.max_pairs_in_flight, p.min_share_of_games
        )?;
        let show = |v: &[f64]| format!("{:.3} ({:.3})", mean(v), lowest(v));
        writeln!(
            f,
            "round robin: {} games; its ranking vs true strength: Spearman {}",
            thousands(c.round_robin_games()),
            show(&self.round_robin_vs_truth)
        )?;
        writeln!(f)?;
        writeln!(
            f,
            "Spearman of the live ranking, mean over trials (lowest); the matchmade league's mean refit and choice of pairs since the row above, in ms:"
        )?;
        writeln!(f)?;
        writeln!(
            f,
            "| share of the round robin's games | games | matchmade vs round robin | matchmade vs truth | random vs round robin | random vs truth | refit | choice |"
        )?;
        writeln!(f, "| --- | --- | --- | --- | --- | --- | --- | --- |")?;
        for k in &self.checkpoints {
            writeln!(
                f,
                "| {}% | {} | {} | {} | {} | {} | {:.2} | {:.2} |",
                k.share * 100.0,
                thousands(k.games),
                show(&k.matchmade_vs_round_robin),
                show(&k.matchmade_vs_truth),
                show(&k.random_vs_round_robin),
                show(&k.random_vs_truth),
                mean(&k.refit_ms),
                mean(&k.choice_ms)
            )?;
        }
        writeln!(f)?;
        writeln!(
            f,
            "A newcomer joining after {}% of the round robin's games ({} a trial, each alone): games until its 95% interval is within +-{} Elo (capped at {}):",
            c.settled_share * 100.0,
            c.newcomers,
            NEWCOMER_ERROR,
            NEWCOMER_GAME_CAP
        )?;
        writeln!(f)?;
        writeln!(f, "| pairing | newcomers | median | 90th percentile | most |")?;
        writeln!(f, "| --- | --- | --- | --- | --- |")?;
        for (name, games) in [("matchmade", &self.newcomer_matchmade), ("random", &self.newcomer_random)] {
            writeln!(
                f,
                "| {name} | {} | {} | {} | {} |",
                games.len(),
                percentile(games, 0.5),
                percentile(games, 0.9),
                games.iter().max().copied().unwrap_or(0)
            )?;
        }
        writeln!(f)?;
        write!(
            f,
            "A refit starts from the last fit, after each pair; the full round robin's {} games fitted from cold: {:.1} ms",
            thousands(c.round_robin_games()),
            self.round_robin_fit * 1e3
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// How far a ranking falls short of agreeing: `1 - mean Spearman`.
    fn shortfall(values: &[f64]) -> f64 {
        1.0 - mean(values)
    }

    #[test]
    fn matchmaking_ranks_a_class_sooner_than_random_pairing() {
        // 40 students: the round robin is 7,800 games; 15% of it is 1,170,
        // about 58 games a student.
        let mut config = Config::new(40, 10, 1, 8);
        config.checkpoints = vec![0.15];
        config.newcomers = 3;
        let report = run(&config);
        let at = &report.checkpoints[0];
        assert!(
            at.matchmade_vs_round_robin.iter().all(|&s| s >= 0.9),
            "matchmade vs round robin at 15%: {:?}",
            at.matchmade_vs_round_robin
        );
        // Clearly better than random pairing after as many games: at least
        // a sixth less short of the round robin's ranking, a quarter less
        // short of the true one (measured: about a third and a half).
        let (matchmade, random) =
            (shortfall(&at.matchmade_vs_round_robin), shortfall(&at.random_vs_round_robin));
        assert!(
            matchmade <= 0.85 * random,
            "short of the round robin: matchmade {matchmade:.4}, random {random:.4}"
        );
        let (matchmade, random) = (shortfall(&at.matchmade_vs_truth), shortfall(&at.random_vs_truth));
        assert!(
            matchmade <= 0.75 * random,
            "short of the truth: matchmade {matchmade:.4}, random {random:.4}"
        );
        // Newcomers: rated within +-100 Elo in under 100 games, sooner than
        // against random opponents.
        let (matchmade, random) =
            (percentile(&report.newcomer_matchmade, 0.5), percentile(&report.newcomer_random, 0.5));
        assert_eq!(report.newcomer_matchmade.len(), 24);
        assert!(
            matchmade <= 100 && matchmade < random,
            "newcomers' median games: matchmade {matchmade}, random {random}"
        );
    }

    #[test]
    fn the_class_is_spread_around_the_reference_levels() {
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        let strengths: Vec<f64> = (0..20_000).map(|_| draw_strength(&mut rng)).collect();
        let expected: f64 = CLASS.iter().map(|&(share, mean, _)| share * mean).sum();
        assert!((mean(&strengths) - expected).abs() < 5.0, "{} vs {expected}", mean(&strengths));
        let above_hard = strengths.iter().filter(|&&s| s > 900.0).count() as f64 / 20_000.0;
        assert!((0.04..0.08).contains(&above_hard), "{above_hard}");
    }

    #[test]
    fn games_follow_the_strengths_with_draws_and_the_seat() {
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        let n = 100_000;
        let (mut points, mut draws, mut first_seat) = (0.0, 0, 0.0);
        for _ in 0..n {
            let [one, two] = play_pair(100.0, 0.0, &mut rng);
            points += one + two;
            draws += usize::from(one == 0.5) + usize::from(two == 0.5);
            first_seat += one;
        }
        // 100 Elo: 64.0%; the seat adds 30 Elo in one game of the two and
        // takes it in the other.
        let share = points / (2 * n) as f64;
        let expected = (score_from_elo(130.0) + score_from_elo(70.0)) / 2.0;
        assert!((share - expected).abs() < 0.005, "{share} vs {expected}");
        assert!((first_seat / n as f64 - score_from_elo(130.0)).abs() < 0.005);
        let draw_share = draws as f64 / (2 * n) as f64;
        assert!((0.02..0.05).contains(&draw_share), "{draw_share}");
    }

    #[test]
    fn percentiles_and_thousands() {
        assert_eq!(percentile(&[5, 1, 3, 2, 4], 0.5), 3);
        assert_eq!(percentile(&[5, 1, 3, 2, 4], 0.9), 5);
        assert_eq!(percentile(&[], 0.5), 0);
        assert_eq!(thousands(111_750), "111,750");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1_000_000), "1,000,000");
    }
}
