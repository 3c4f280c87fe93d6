//! `arena tune`: SPSA over a player's declared parameters, as OpenBench
//! runs it (docs/tuning.md has the formulas). The pieces are pure
//! functions: the parameter lines (`param.rs`), the gain schedules
//! (`gains.rs`), one iteration's perturbation and update (`step.rs`).
//! This file is the loop over iterations, journaled (`journal.rs`) so an
//! interrupted tune resumes where it stopped; `games.rs` plays an
//! iteration's game pairs with the match machinery, `slurm.rs` spreads
//! them over a job array, `trajectory.rs` writes the CSV and the SVG plot.
//!
//! Determinism: iteration k's perturbation and game seeds come from the
//! tune's seed and k alone, and theta from the results before it; the
//! same seed and settings give the same trajectory, through a resume or
//! on Slurm.

pub mod gains;
pub mod games;
pub mod journal;
pub mod param;
pub mod slurm;
pub mod step;
pub mod trajectory;

use std::path::Path;

use anyhow::Result;
use serde::{Deserialize, Serialize};

pub use gains::Schedule;
pub use param::{Kind, TunedParam};
pub use step::Perturbation;

/// A tune: what decides its trajectory.
#[derive(Debug, Clone)]
pub struct TuneConfig {
    pub params: Vec<TunedParam>,
    pub schedule: Schedule,
    /// Game pairs per iteration (per perturbed player, against an opponent).
    pub pairs: u32,
    pub seed: u64,
    /// What else decides the games (player, opponent, game, settings,
    /// time controls), as text: part of the journal's fingerprint.
    pub games_print: String,
}

impl TuneConfig {
    /// Theta before the first iteration.
    pub fn start(&self) -> Vec<f64> {
        self.params.iter().map(|p| p.start).collect()
    }

    fn header(&self) -> journal::Header {
        let lines: Vec<String> = self.params.iter().map(ToString::to_string).collect();
        let s = &self.schedule;
        journal::Header {
            arena_tune: 1,
            seed: self.seed,
            fingerprint: format!(
                "params [{}]; iterations {}; alpha {}; gamma {}; A ratio {}; pairs {}; {}",
                lines.join("; "),
                s.iterations,
                s.alpha,
                s.gamma,
                s.a_ratio,
                self.pairs,
                self.games_print
            ),
        }
    }
}

/// Games won, drawn and lost.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Wdl {
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
}

impl Wdl {
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// Wins minus losses.
    pub fn net(&self) -> f64 {
        f64::from(self.wins) - f64::from(self.losses)
    }

    pub fn add(&mut self, other: Wdl) {
        self.wins += other.wins;
        self.draws += other.draws;
        self.losses += other.losses;
    }
}

/// What an iteration's games gave.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    /// Theta+ against theta-: theta+'s games.
    Duel(Wdl),
    /// Each against the opponent: theta+'s games, then theta-'s.
    Against { plus: Wdl, minus: Wdl },
}

impl Outcome {
    /// The result the update takes: theta+'s wins minus losses over
    /// theta-. Against an opponent, half the difference of the two
    /// players' wins minus losses: the same scale as a duel's (a duel's
    /// pair compares the two directly, an opponent's twice through it).
    pub fn result(&self) -> f64 {
        match self {
            Outcome::Duel(wdl) => wdl.net(),
            Outcome::Against { plus, minus } => (plus.net() - minus.net()) / 2.0,
        }
    }

    pub fn games(&self) -> u32 {
        match self {
            Outcome::Duel(wdl) => wdl.games(),
            Outcome::Against { plus, minus } => plus.games() + minus.games(),
        }
    }

    /// The sum of two shares of an iteration's pairs (Slurm's workers).
    pub fn combine(self, other: Outcome) -> Outcome {
        match (self, other) {
            (Outcome::Duel(mut a), Outcome::Duel(b)) => {
                a.add(b);
                Outcome::Duel(a)
            }
            (Outcome::Against { mut plus, mut minus }, Outcome::Against { plus: p, minus: m }) => {
                plus.add(p);
                minus.add(m);
                Outcome::Against { plus, minus }
            }
            (a, _) => a,
        }
    }
}

/// One finished iteration, as journaled.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Iteration {
    pub perturbation: Perturbation,
    pub outcome: Outcome,
    /// Theta after the update.
    pub theta: Vec<f64>,
}

/// What plays an iteration's games: on this machine (`games::Local`), on
/// Slurm (`slurm::Cluster`), or a model (the tests).
pub trait IterationGames {
    /// Plays `pairs` game pairs (pair j on `seeds::derive(game_seed, j)`)
    /// between `p.plus` and `p.minus` (or each against the opponent);
    /// None if stopped before they were all played.
    fn play(&mut self, p: &Perturbation, game_seed: u64, pairs: u32) -> Result<Option<Outcome>>;
}

/// Where a tune ended.
#[derive(Debug, Clone)]
pub struct Tuned {
    /// Every iteration, those of a resumed journal first.
    pub trajectory: Vec<Iteration>,
    /// Iterations taken from the journal (not played now).
    pub resumed: usize,
    /// Whether every iteration was played (not stopped).
    pub complete: bool,
}

impl Tuned {
    /// Theta now: after the last iteration, or the start.
    pub fn theta(&self, config: &TuneConfig) -> Vec<f64> {
        self.trajectory.last().map_or_else(|| config.start(), |it| it.theta.clone())
    }
}

/// Runs the tune: the iterations the journal in `out` (if given) lacks,
/// each played by `games`, journaled, then shown to `on_iteration`.
pub fn run(
    config: &TuneConfig,
    out: Option<&Path>,
    games: &mut dyn IterationGames,
    on_iteration: &mut dyn FnMut(&Iteration),
) -> Result<Tuned> {
    let (mut journal, mut trajectory) = match out {
        Some(folder) => {
            let (journal, done) = journal::Journal::open(folder, &config.header())?;
            (Some(journal), done)
        }
        None => (None, Vec::new()),
    };
    let resumed = trajectory.len();
    let mut theta = trajectory.last().map_or_else(|| config.start(), |it: &Iteration| it.theta.clone());
    for k in (resumed as u32 + 1)..=config.schedule.iterations {
        let p = step::perturb(&config.params, &config.schedule, &theta, config.seed, k);
        let Some(outcome) = games.play(&p, step::game_seed(config.seed, k), config.pairs)? else {
            return Ok(Tuned { trajectory, resumed, complete: false });
        };
        theta = step::update(&config.params, &theta, &p, outcome.result());
        let iteration = Iteration { perturbation: p, outcome, theta: theta.clone() };
        if let Some(journal) = &mut journal {
            journal.append(&iteration)?;
        }
        on_iteration(&iteration);
        trajectory.push(iteration);
    }
    Ok(Tuned { trajectory, resumed, complete: true })
}

/// The values as `--param` flags: `--param NAME=VALUE ...`.
pub fn as_flags(params: &[TunedParam], theta: &[f64]) -> String {
    params
        .iter()
        .zip(theta)
        .map(|(p, &v)| format!("--param {}={}", p.name, p.shown(v)))
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests;
