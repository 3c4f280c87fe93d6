//! Grading runs as Slurm batch jobs (`arena serve --executor slurm`): a
//! run's job is `arena tournament run DATA/runs/<id>/grade.toml` on a node,
//! submitted with sbatch from the server's machine, recorded in the
//! database (`jobs`) and followed: the games played from the run's journal,
//! the job's state from `scontrol show job`. A job that ends without every
//! game in the journal (failed, cancelled, out of time, its node lost, or
//! gone from Slurm) is submitted again, and the journal makes the new job
//! play only the games still missing; after `RESUBMISSIONS` such
//! resubmissions the submission fails, naming the last job's state and its
//! output file. A job that ends with games the machine spoiled
//! (`POSTPONED_EXIT`) fails nothing: the grading waits (`waiting.rs`). Once the journal holds every game, the grade is the
//! tournament runner's report on it, made here (playing nothing).
//!
//! The data folder must be on a file system every node sees: the job reads
//! the tournament file and the player there and writes the journal, the
//! reports and the replays there.

use std::{
    path::{Path, PathBuf},
    sync::atomic::AtomicBool,
    time::{Duration, Instant},
};

use anyhow::{bail, Context, Result};

use super::{GradingProgress, GradingRun};
use crate::store::db;
use crate::work::{grading::student_grade, waiting::Postponed};
use arena_core::tournament::{
    self,
    grade::GradeReport,
    slurm::{self, JobOptions, JobStatus},
    Part,
};

/// Jobs submitted again for a run after its first ended unfinished (and
/// for finalize's round robin, times its unfinished shards are).
pub(crate) const RESUBMISSIONS: usize = 3;

/// The state recorded for a job Slurm no longer knows (not one of Slurm's).
const GONE: &str = "GONE";

/// How long `scontrol` may fail in a row (the controller restarting)
/// before the grading gives up following its job.
const PATIENCE: Duration = Duration::from_secs(600);

/// Grading runs as Slurm jobs.
#[derive(Debug, Clone)]
pub struct SlurmExecutor {
    /// What each job asks for; it plays `cpus_per_task` games at once.
    pub job: JobOptions,
    /// The arena binary the jobs run (absolute).
    pub arena: PathBuf,
    /// The variables of the job's environment (the server's: sbatch's
    /// default) passed on to the players, as the server passes them to its
    /// own workers (`--pass-env`).
    pub pass_env: Vec<String>,
    /// How often a job and its journal are looked at.
    pub poll: Duration,
    /// The shards (array tasks) of `finalize`'s round robin; `None`: one
    /// per student.
    pub round_robin_shards: Option<usize>,
}

impl SlurmExecutor {
    /// Jobs asking for `job` that run this arena binary (`$ARENA_BIN`, else
    /// this program: the one that runs the workers) and pass `pass_env` on
    /// to the players, looked at every 2 s.
    pub fn new(job: JobOptions, pass_env: Vec<String>) -> Result<SlurmExecutor> {
        let program = arena_core::players::isolation::worker_program().map_err(anyhow::Error::msg)?;
        let arena = std::fs::canonicalize(&program)
            .with_context(|| format!("cannot find the arena binary the jobs run ({})", program.display()))?;
        Ok(SlurmExecutor { job, arena, pass_env, poll: Duration::from_secs(2), round_robin_shards: None })
    }

    /// sbatch is here and would take the jobs (a wrong partition or account
    /// is told now, not once per submission).
    pub(super) fn ready(&self) -> Result<()> {
        self.job.test("or grade on this machine: --executor local")
    }

    /// Plays `run` as Slurm jobs, following the one a restarted server
    /// finds under way, until its journal holds every game; its grade.
    pub(super) fn grade_run(
        &self,
        run: GradingRun<'_>,
        progress: &mut GradingProgress<'_>,
    ) -> Result<GradeReport> {
        let script = self.write_script(&run)?;
        loop {
            let jobs = db::jobs_of(run.db, run.submission)?;
            let job = match jobs.last() {
                // Submitted before a restart of the server: follow it.
                Some(job) if job.end.is_none() => job.clone(),
                last => {
                    let (played, total) = tournament::journaled(&run.tournament)?;
                    if played == total {
                        return report(run, progress);
                    }
                    if let Some(last) = last {
                        let unfinished = jobs.iter().filter(|job| !postponed(job)).count();
                        if unfinished > RESUBMISSIONS {
                            bail!(
                                "the Slurm jobs of its grading run ended {} times without finishing it \
                                 ({played} of {total} games played): the last, job {}, {}",
                                jobs.len(),
                                last.slurm_id,
                                how_it_ended(last, &script)
                            );
                        }
                        tracing::warn!(
                            "submission {}: Slurm job {} {}; submitting it again ({played} of {total} games played)",
                            run.submission,
                            last.slurm_id,
                            how_it_ended(last, &script)
                        );
                    }
                    let slurm_id = slurm::sbatch(&[], &script)?;
                    db::add_job(run.db, run.submission, &slurm_id)?
                }
            };
            let (state, exit_code) = self.follow(&job.slurm_id, &run, progress)?;
            db::end_job(run.db, job.id, &state, exit_code)?;
            if exit_code == Some(i32::from(tournament::POSTPONED_EXIT)) {
                let (played, total) = tournament::journaled(&run.tournament)?;
                return Err(Postponed::Machine { games: total - played, check: false }.into());
            }
        }
    }

    /// Writes `DATA/runs/<id>/slurm/grade.sbatch`: the job that plays the
    /// run (what its journal lacks); its path.
    fn write_script(&self, run: &GradingRun<'_>) -> Result<PathBuf> {
        let file = std::path::absolute(run.file)?;
        let folder = job_folder(&file);
        std::fs::create_dir_all(&folder).with_context(|| format!("cannot create {}", folder.display()))?;
        let cpus = self.job.cpus_per_task;
        let text = format!(
            "#!/bin/sh\n\
             # Written by `arena serve --executor slurm`: the grading run of submission {id}.\n\
             # The data folder must be on a file system every node sees.\n\
             #SBATCH --job-name=arena-grade-{id}\n\
             #SBATCH --cpus-per-task={cpus}\n\
             #SBATCH --output=\"{log}\"\n\
             {directives}\
             exec {arena} tournament run {file} --concurrency \"${{SLURM_CPUS_PER_TASK:-{cpus}}}\"{pass_env}\n",
            id = run.submission,
            log = folder.join("job-%j.log").display(),
            directives = self.job.directives(),
            arena = slurm::quote(&self.arena),
            file = slurm::quote(&file),
            // Checked names (letters, digits, `_`): nothing to quote.
            pass_env = self.pass_env.iter().map(|name| format!(" --pass-env {name}")).collect::<String>(),
        );
        let script = folder.join("grade.sbatch");
        std::fs::write(&script, text).with_context(|| format!("cannot write {}", script.display()))?;
        Ok(script)
    }

    /// Follows job `slurm_id` until it ends, keeping `progress` at the
    /// games in the run's journal; Slurm's state then and the exit code.
    fn follow(
        &self,
        slurm_id: &str,
        run: &GradingRun<'_>,
        progress: &mut GradingProgress<'_>,
    ) -> Result<(String, Option<i32>)> {
        let mut shown = None;
        let mut failing_since: Option<Instant> = None;
        loop {
            // Progress only: a journal read while the job creates it may
            // fail; the run's end decides.
            match tournament::journaled(&run.tournament) {
                Ok(now) if shown != Some(now) => {
                    progress.update(now.0, now.1);
                    shown = Some(now);
                }
                Ok(_) => {}
                Err(e) => tracing::debug!("submission {}: journal not read: {e:#}", run.submission),
            }
            match slurm::job_status(slurm_id) {
                Ok(JobStatus::Live(_)) => failing_since = None,
                Ok(JobStatus::Ended(end)) => return Ok((end.state, Some(end.exit_code))),
                Ok(JobStatus::Gone) => return Ok((GONE.to_string(), None)),
                Err(e) => {
                    let since = *failing_since.get_or_insert_with(Instant::now);
                    if since.elapsed() > PATIENCE {
                        return Err(e.context(format!(
                            "Slurm job {slurm_id} could not be followed for {} minutes",
                            PATIENCE.as_secs() / 60
                        )));
                    }
                    tracing::warn!("submission {}: {e:#}; trying again", run.submission);
                }
            }
            std::thread::sleep(self.poll);
        }
    }
}

/// The grade from the run's journal, now that it holds every game: the
/// tournament runner's report, playing nothing.
fn report(run: GradingRun<'_>, progress: &mut GradingProgress<'_>) -> Result<GradeReport> {
    let never = AtomicBool::new(false);
    student_grade(&tournament::run_part(run.tournament, Part::Report, &never, progress)?)
}

/// Whether `job` ended with games the machine spoiled, postponed.
fn postponed(job: &db::Job) -> bool {
    matches!(&job.end, Some((_, Some(code))) if *code == i32::from(tournament::POSTPONED_EXIT))
}

/// The folder of a run's job script and job outputs.
fn job_folder(file: &Path) -> PathBuf {
    file.parent().unwrap_or(Path::new(".")).join("slurm")
}

/// How `job` (of the run whose script is `script`) ended, for people: its
/// state and exit code, its output file and that file's last line (the
/// arena's error, if it stopped on one).
fn how_it_ended(job: &db::Job, script: &Path) -> String {
    let log = script.with_file_name(format!("job-{}.log", job.slurm_id));
    let last_line = slurm::last_line(&log).map_or(String::new(), |line| format!(", which ends: {line}"));
    let end = match &job.end {
        Some((state, _)) if state == GONE => "is no longer known to Slurm".to_string(),
        Some((state, Some(code))) => format!("ended {state} (exit code {code})"),
        Some((state, None)) => format!("ended {state}"),
        None => "is still running".to_string(),
    };
    format!("{end}; its output: {}{last_line}", log.display())
}
