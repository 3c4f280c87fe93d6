//! `finalize`'s round robin (or Swiss) on a Slurm cluster (`--executor
//! slurm`): the tournament `DATA/final/round-robin.toml` played as `arena
//! tournament slurm` plays one (its shards as a job array, a Swiss's an
//! array per round, the merge job after them; scripts and outputs in
//! `DATA/final/round-robin/slurm/`), followed until
//! the journals hold every game, its unfinished shards submitted again.
//! The standings are then made on the server's machine from those journals
//! (executor/mod.rs), as a local round robin's are: the same files.

use std::path::Path;

use anyhow::{Context, Result};

use super::slurm::{SlurmExecutor, RESUBMISSIONS};
use arena_core::tournament::{
    config::Tournament,
    slurm::{self, SlurmOptions},
};

impl SlurmExecutor {
    /// Plays every game the journals of tournament `file` lack as Slurm
    /// jobs, and waits until they hold them all.
    pub(super) fn play_tournament(&self, file: &Path) -> Result<()> {
        let file = std::fs::canonicalize(file)
            .with_context(|| format!("cannot read the tournament file {}", file.display()))?;
        let mut tournament = Tournament::load(&file)?;
        // The jobs may start in another folder: every path they see is absolute.
        tournament.output = std::path::absolute(&tournament.output)?;
        let shards = self.round_robin_shards.unwrap_or(tournament.players.len()).max(1);
        let options = SlurmOptions {
            shards,
            job: self.job.clone(),
            arena: self.arena.clone(),
            file,
            pass_env: self.pass_env.clone(),
        };
        let scripts = slurm::write_scripts(&tournament, &options)?;
        slurm::play_all(&tournament, &scripts, shards, RESUBMISSIONS, self.poll, &mut |jobs| {
            match &jobs.array {
                Some((id, list)) => tracing::info!(
                    "{}: Slurm job {id} plays shard(s) {list:?} of {shards}, merge job {} after it",
                    tournament.name,
                    jobs.merge
                ),
                None => tracing::info!("{}: merge job {}", tournament.name, jobs.merge),
            }
            if !jobs.later_rounds.is_empty() {
                tracing::info!(
                    "{}: the Swiss's later rounds: Slurm jobs {} (each after the one before)",
                    tournament.name,
                    jobs.later_rounds.join(", ")
                );
            }
        })
    }
}
