//! Where a grading run's games are played: here (`Local`: the tournament
//! runner in this process, as `arena tournament run` would) or as a batch
//! job on a Slurm cluster (`Slurm`: slurm.rs). Either way the run is the
//! tournament file `DATA/runs/<id>/grade.toml`, the journal in its folder
//! keeps every game played (a resumed run plays none twice), and the grade
//! is the tournament runner's report on that journal: the same grade
//! wherever the games were played. `finalize`'s round robin goes the same
//! way (round_robin.rs): its games here, or sharded as Slurm jobs; and so
//! do the live league's games (the league's own batch.rs: a batch job per
//! round, on the `SlurmExecutor` it is given).

mod round_robin;
mod slurm;

use std::{
    path::{Path, PathBuf},
    sync::atomic::AtomicBool,
};

use anyhow::Result;
use rusqlite::Connection;

pub use slurm::SlurmExecutor;
pub(crate) use slurm::RESUBMISSIONS;

use crate::{
    store::db::{self, status},
    work::wake::Wake,
};
use arena_core::tournament::{
    self, config::Tournament, grade::GradeReport, record::GameResult, Observer, Quiet,
};

/// How grading runs are played.
#[derive(Debug, Default)]
pub enum Executor {
    /// Here, in this process's tournament runner (sandboxed workers).
    #[default]
    Local,
    /// Each run as a batch job on a Slurm cluster.
    Slurm(SlurmExecutor),
}

/// One submission's grading run, checked and ready to play.
pub(crate) struct GradingRun<'a> {
    /// The server's database (the Slurm executor records its jobs there).
    pub db: &'a Connection,
    pub submission: i64,
    /// Its tournament file (absolute): `DATA/runs/<id>/grade.toml`.
    pub file: &'a Path,
    /// That file, loaded.
    pub tournament: Tournament,
}

impl Executor {
    /// Whether grading runs can be played this way, told before the server
    /// takes any submission (Slurm: sbatch is here and would take the jobs).
    pub fn ready(&self) -> Result<()> {
        match self {
            Executor::Local => Ok(()),
            Executor::Slurm(slurm) => slurm.ready(),
        }
    }

    /// Plays `run` to its end (resuming it from its journal), keeping
    /// `progress` current; its grade.
    pub(crate) fn grade_run(
        &self,
        run: GradingRun<'_>,
        progress: &mut GradingProgress<'_>,
    ) -> Result<GradeReport> {
        match self {
            Executor::Local => {
                let never = AtomicBool::new(false);
                crate::work::grading::student_grade(&tournament::run(run.tournament, &never, progress)?)
            }
            Executor::Slurm(slurm) => slurm.grade_run(run, progress),
        }
    }

    /// Plays (or resumes) the tournament `file` (finalize's round robin)
    /// and writes its standings; the files written. With Slurm its games
    /// are played as jobs first; either way the standings are then made
    /// here, from the journals, by the tournament runner (playing only
    /// what they lack: nothing, after the jobs).
    pub(crate) fn play_tournament(&self, file: &Path) -> Result<Vec<PathBuf>> {
        if let Executor::Slurm(slurm) = self {
            slurm.play_tournament(file)?;
        }
        let never = AtomicBool::new(false);
        let tournament = Tournament::load(file)?;
        // Finalize is waited for: the games the machine spoiled wait for it.
        let outcome =
            tournament::run_until_played(tournament, &never, &mut Quiet, &tournament::POSTPONED_WAITS)?;
        if outcome.postponed > 0 {
            anyhow::bail!(
                "{} game(s) postponed: the machine stayed overloaded (not the players' fault, not counted); \
                 the journal keeps the {} games played: finalize again when the machine is less busy",
                outcome.postponed,
                outcome.part_done
            );
        }
        Ok(outcome.written)
    }
}

/// Keeps a submission's status and games played current: told by the
/// tournament runner (an `Observer`), or by an executor following a run
/// played elsewhere (`update`).
pub(crate) struct GradingProgress<'a> {
    db: &'a Connection,
    id: i64,
    total: usize,
    played: usize,
    changed: &'a Wake,
}

impl Observer for GradingProgress<'_> {
    fn start(&mut self, total: usize, done: &[GameResult]) {
        (self.total, self.played) = (total, done.len());
        self.save();
    }

    fn game(&mut self, _: &GameResult, _: &[String]) {
        self.played += 1;
        self.save();
    }

    /// Its games fed live, for its group (and staff) to watch.
    fn live(&self) -> Option<arena_core::replay::live::Live> {
        Some(crate::http::live::feeds().scoped(&crate::http::live::Scope::Grading(self.id).mark()))
    }
}

impl<'a> GradingProgress<'a> {
    /// The progress of submission `id`'s grading run, kept in `db`;
    /// `changed` is told of each step.
    pub(crate) fn new(db: &'a Connection, id: i64, changed: &'a Wake) -> GradingProgress<'a> {
        GradingProgress { db, id, total: 0, played: 0, changed }
    }

    /// `played` of `total` games are in the run's journal.
    pub(crate) fn update(&mut self, played: usize, total: usize) {
        (self.played, self.total) = (played, total);
        self.save();
    }

    fn save(&self) {
        if let Err(e) = db::set_progress(self.db, self.id, status::PLAYING, self.played, self.total) {
            tracing::warn!("submission {}: progress not saved: {e:#}", self.id);
        }
        self.changed.notify();
    }
}
