//! `arena tournament slurm`: writes the job scripts, and with `--submit`
//! submits what is unfinished; with `--wait` follows the merge job. Its
//! job options (`JobArgs`) are `arena serve --executor slurm`'s too.

use std::{path::PathBuf, process::ExitCode, time::Duration};

use anyhow::{bail, Context, Result};
use arena_core::tournament::{config::Tournament, slurm};

/// `arena tournament slurm`'s options.
#[derive(clap::Args)]
pub(crate) struct SlurmArgs {
    /// The tournament file.
    file: PathBuf,
    /// Shards (array tasks).
    #[arg(long)]
    shards: usize,
    #[command(flatten)]
    job: JobArgs,
    /// The arena binary the jobs run (default: this one).
    #[arg(long)]
    arena: Option<PathBuf>,
    /// Submit with sbatch (only the shards with games still missing) and print the job ids.
    #[arg(long)]
    submit: bool,
    /// With --submit: wait for the merge job and exit with its status.
    #[arg(long, requires = "submit")]
    wait: bool,
}

/// What every Slurm job of the arena asks for: `tournament slurm`'s
/// shards and `serve --executor slurm`'s grading runs.
#[derive(clap::Args, Clone)]
pub(crate) struct JobArgs {
    /// The Slurm partition.
    #[arg(long)]
    partition: Option<String>,
    /// Time limit per job (per task of an array), as Slurm writes it
    /// (`12:00:00`, `1-00:00:00`).
    #[arg(long)]
    time: Option<String>,
    /// CPUs per job (per task of an array): it plays this many games at once.
    #[arg(long, default_value_t = 1)]
    cpus_per_task: usize,
    /// More sbatch options for every job, one per use (--sbatch-arg=--account=course).
    #[arg(long = "sbatch-arg", value_name = "ARG", allow_hyphen_values = true)]
    sbatch_args: Vec<String>,
}

impl JobArgs {
    pub(crate) fn options(self) -> Result<slurm::JobOptions> {
        if self.cpus_per_task == 0 {
            bail!("--cpus-per-task 0 runs nothing: use 1 or more");
        }
        Ok(slurm::JobOptions {
            partition: self.partition,
            time: self.time,
            cpus_per_task: self.cpus_per_task,
            sbatch_args: self.sbatch_args,
        })
    }

    /// The first of these options given, if any (for a command that
    /// submits no job without another option).
    pub(crate) fn first_given(&self) -> Option<&'static str> {
        [
            (self.partition.is_some(), "--partition"),
            (self.time.is_some(), "--time"),
            (self.cpus_per_task != 1, "--cpus-per-task"),
            (!self.sbatch_args.is_empty(), "--sbatch-arg"),
        ]
        .into_iter()
        .find_map(|(given, name)| given.then_some(name))
    }
}

pub(crate) fn run(request: SlurmArgs) -> Result<ExitCode> {
    if request.shards == 0 {
        bail!("--shards 0 runs nothing: use 1 or more");
    }
    let job = request.job.options()?;
    let file = std::fs::canonicalize(&request.file)
        .with_context(|| format!("cannot read the tournament file {}", request.file.display()))?;
    let mut tournament = Tournament::load(&file)?;
    // The jobs may start in another folder: every path they see is absolute.
    tournament.output = std::path::absolute(&tournament.output)?;
    let arena = match request.arena {
        Some(path) => std::fs::canonicalize(&path)
            .with_context(|| format!("--arena {}: no such file", path.display()))?,
        None => {
            std::env::current_exe().context("cannot tell where this arena binary is: pass --arena PATH")?
        }
    };
    let unfinished = slurm::unfinished_shards(&tournament, request.shards)?;
    let options =
        slurm::SlurmOptions { shards: request.shards, job, arena, file: file.clone(), pass_env: Vec::new() };
    let scripts = slurm::write_scripts(&tournament, &options)?;
    arena_core::outln!("wrote {} and {}", scripts.shards.display(), scripts.merge.display());
    if !request.submit {
        arena_core::outln!(
            "submit with: arena tournament slurm {} --shards {} --submit (the output folder must be on a file system every node sees)",
            file.display(),
            request.shards
        );
        return Ok(ExitCode::SUCCESS);
    }
    let later_rounds = slurm::later_rounds(&tournament)?;
    let submitted = slurm::submit(&scripts, &unfinished, request.shards, later_rounds)?;
    match &submitted.array {
        Some((id, shards)) => arena_core::outln!(
            "submitted: shards job {id} ({} of {} shards: {}), merge job {} (after the shards)",
            shards.len(),
            request.shards,
            shards.iter().map(usize::to_string).collect::<Vec<_>>().join(","),
            submitted.merge
        ),
        None => arena_core::outln!("every shard is done; submitted: merge job {}", submitted.merge),
    }
    if !submitted.later_rounds.is_empty() {
        arena_core::outln!(
            "the Swiss's later rounds: jobs {} (each round after the one before)",
            submitted.later_rounds.join(", ")
        );
    }
    if !request.wait {
        return Ok(ExitCode::SUCCESS);
    }
    let end = slurm::wait(&submitted.merge, Duration::from_secs(2))?;
    let log = slurm::merge_log(&scripts, &submitted.merge);
    let text = std::fs::read_to_string(&log).unwrap_or_default();
    if end.state == "COMPLETED" && end.exit_code == 0 {
        arena_core::out!("{text}");
        return Ok(ExitCode::SUCCESS);
    }
    eprint!("{text}");
    eprintln!(
        "the merge job {} ended {} (exit code {}); its log: {}",
        submitted.merge,
        end.state,
        end.exit_code,
        log.display()
    );
    Ok(ExitCode::from(u8::try_from(end.exit_code).unwrap_or(1).max(1)))
}
