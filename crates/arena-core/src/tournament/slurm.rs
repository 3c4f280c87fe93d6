//! `arena tournament slurm`: a tournament as a Slurm job array, one task
//! per shard, and a merge job that runs after the array (`afterany`) and
//! writes the standings from every shard's journal. Slurm does the
//! scheduling; the arena only writes the scripts, calls `sbatch`, and
//! (`--wait`) watches the merge job with `scontrol`.
//!
//! A Swiss is played round by round: its current round's unfinished
//! shards as an array, then an array of every shard per later round, each
//! after the one before (`afterok`: a round is paired from the journals of
//! the rounds before it; a failed task cancels the later rounds, and the
//! merge job, which runs after the last round's array, finds the games
//! missing), then the merge job.
//!
//! The scripts name the arena binary and the tournament file by absolute
//! path, and everything goes into the output folder, which every node must
//! see (a shared file system).
//!
//! What any job of the arena needs (its options, sbatch, following a job
//! with `scontrol`) is here too, for `arena serve --executor slurm`
//! (crates/arena-server/src/work/executor/slurm.rs).

use std::{
    path::{Path, PathBuf},
    process::Command,
    time::Duration,
};

use anyhow::{bail, Context, Result};

use super::{config::Tournament, fingerprint, merge, rounds, schedule, shard, total_games};

/// What a job asks of Slurm, whatever it runs: `tournament slurm`'s
/// shards and `arena serve`'s grading runs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JobOptions {
    pub partition: Option<String>,
    /// Slurm's time limit per job or task (`--time`), as Slurm writes it.
    pub time: Option<String>,
    /// CPUs per job or task: it plays this many games at once.
    pub cpus_per_task: usize,
    /// More sbatch options, each one option (`--account=x`, `--mem=4G`).
    pub sbatch_args: Vec<String>,
}

impl JobOptions {
    /// The options every job of these takes, as sbatch's arguments (the
    /// CPUs apart: a merge job needs one).
    fn common_args(&self) -> Vec<String> {
        let partition = self.partition.iter().map(|p| format!("--partition={p}"));
        let time = self.time.iter().map(|t| format!("--time={t}"));
        partition.chain(time).chain(self.sbatch_args.iter().cloned()).collect()
    }

    /// The `#SBATCH` lines of [`Self::common_args`].
    pub fn directives(&self) -> String {
        self.common_args().iter().map(|arg| format!("#SBATCH {arg}\n")).collect()
    }

    /// Asks sbatch whether it would take a job with these options (`sbatch
    /// --test-only`: nothing is submitted), so that a wrong partition or
    /// account is told once, before any job; `otherwise` is what to do
    /// instead on a machine without sbatch.
    pub fn test(&self, otherwise: &str) -> Result<()> {
        let output = Command::new("sbatch")
            .arg("--test-only")
            .arg(format!("--cpus-per-task={}", self.cpus_per_task))
            .args(self.common_args())
            .args(["--wrap", "true"])
            .output()
            .map_err(|e| not_runnable("sbatch", otherwise, e))?;
        if !output.status.success() {
            bail!(
                "sbatch would refuse these jobs ({}): {}",
                self.common_args().join(" "),
                one_line(&String::from_utf8_lossy(&output.stderr))
            );
        }
        Ok(())
    }
}

/// What the job scripts ask of Slurm.
#[derive(Debug, Clone)]
pub struct SlurmOptions {
    pub shards: usize,
    /// Each task's: a shard plays `cpus_per_task` games at once.
    pub job: JobOptions,
    /// The arena binary the jobs run (absolute).
    pub arena: PathBuf,
    /// The tournament file (absolute).
    pub file: PathBuf,
    /// Variables of the jobs' environment passed on to the players
    /// (`tournament run --pass-env`; checked names: nothing to quote).
    pub pass_env: Vec<String>,
}

/// The scripts written into `<output>/slurm/`.
#[derive(Debug, Clone)]
pub struct Scripts {
    pub folder: PathBuf,
    /// The job array: one task per shard.
    pub shards: PathBuf,
    /// The merge job: `arena tournament report`.
    pub merge: PathBuf,
}

/// Job ids of a submission.
#[derive(Debug, Clone, PartialEq)]
pub struct Submitted {
    /// The array job and the shards it runs (none if every shard was done).
    pub array: Option<(String, Vec<usize>)>,
    /// A Swiss's later rounds: an array job each, every shard, in order.
    pub later_rounds: Vec<String>,
    pub merge: String,
}

/// How a job ended.
#[derive(Debug, Clone, PartialEq)]
pub struct JobEnd {
    /// Slurm's state: COMPLETED, FAILED, CANCELLED, TIMEOUT, ...
    pub state: String,
    pub exit_code: i32,
}

/// Where a job is, as `scontrol show job` tells.
#[derive(Debug, Clone, PartialEq)]
pub enum JobStatus {
    /// Waiting or running (PENDING, RUNNING, COMPLETING, ...).
    Live(String),
    Ended(JobEnd),
    /// Slurm no longer knows it: it ended longer ago than Slurm keeps
    /// ended jobs (`MinJobAge`), or the cluster lost it.
    Gone,
}

/// Writes the array script and the merge script into `<output>/slurm/`.
pub fn write_scripts(tournament: &Tournament, options: &SlurmOptions) -> Result<Scripts> {
    let folder = tournament.output.join("slurm");
    std::fs::create_dir_all(&folder).with_context(|| format!("cannot create {}", folder.display()))?;
    let (arena, file) = (quote(&options.arena), quote(&options.file));
    let n = options.shards;
    let name = super::file_safe(&tournament.name);
    let common = options.job.directives();
    let head = |what: &str| {
        format!(
            "#!/bin/sh\n# Written by `arena tournament slurm`: {what} of {} ({n} shards).\n\
             # The output folder must be on a file system every node sees.\n",
            options.file.display()
        )
    };
    let shards = format!(
        "{}# Submit: sbatch --array=1-{n} {} (or: arena tournament slurm FILE --shards {n} --submit)\n\
         #SBATCH --job-name=arena-{name}-shards\n\
         #SBATCH --array=1-{n}\n\
         #SBATCH --cpus-per-task={cpus}\n\
         #SBATCH --output=\"{log}\"\n\
         #SBATCH --open-mode=append\n\
         {common}\
         exec {arena} tournament run {file} --shard \"$SLURM_ARRAY_TASK_ID/{n}\" --concurrency \"${{SLURM_CPUS_PER_TASK:-{cpus}}}\"{pass_env}\n",
        head("the shards"),
        folder.join("shards.sbatch").display(),
        cpus = options.job.cpus_per_task,
        log = folder.join(format!("shard-%a-of-{n}.log")).display(),
        pass_env = options.pass_env.iter().map(|name| format!(" --pass-env {name}")).collect::<String>(),
    );
    let merge = format!(
        "{}# Submit after the array: sbatch --dependency=afterany:ARRAY_JOB_ID {}\n\
         #SBATCH --job-name=arena-{name}-merge\n\
         #SBATCH --cpus-per-task=1\n\
         #SBATCH --output=\"{log}\"\n\
         {common}\
         exec {arena} tournament report {file}\n",
        head("the merge (standings from every shard's journal)"),
        folder.join("merge.sbatch").display(),
        log = folder.join("merge-%j.log").display(),
    );
    let scripts =
        Scripts { shards: folder.join("shards.sbatch"), merge: folder.join("merge.sbatch"), folder };
    for (path, text) in [(&scripts.shards, shards), (&scripts.merge, merge)] {
        std::fs::write(path, text).with_context(|| format!("cannot write {}", path.display()))?;
    }
    Ok(scripts)
}

/// The shards (counted from 1) with games no journal holds yet. Refuses a
/// journal of another schedule, before anything is submitted.
///
/// A Swiss's are its current round's (its later rounds are not paired
/// yet: [`later_rounds`]).
pub fn unfinished_shards(tournament: &Tournament, shards: usize) -> Result<Vec<usize>> {
    let first = schedule::schedule(tournament);
    let total = total_games(tournament, &first);
    let merged = merge::read_all(&tournament.output, &fingerprint(tournament, &first), total)?;
    let known = rounds::known(tournament, &merged.results)?;
    let schedule = &known.games[known.current];
    let units = shard::units(tournament, schedule);
    let owners = shard::assign(schedule, &units, shards);
    let mut unfinished: Vec<usize> = units
        .iter()
        .zip(owners)
        .filter(|(unit, _)| (*unit).clone().any(|i| !merged.results.contains_key(&schedule[i].index)))
        .map(|(_, owner)| owner + 1)
        .collect();
    unfinished.sort_unstable();
    unfinished.dedup();
    Ok(unfinished)
}

/// The rounds a Swiss has still to pair after its current one (0 in the
/// other formats, and in a Swiss whose rounds are all played).
pub fn later_rounds(tournament: &Tournament) -> Result<usize> {
    let first = schedule::schedule(tournament);
    let total = total_games(tournament, &first);
    let merged = merge::read_all(&tournament.output, &fingerprint(tournament, &first), total)?;
    Ok(rounds::known(tournament, &merged.results)?.later_rounds)
}

/// Submits the unfinished shards as an array, then (a Swiss) an array of
/// every one of the `shards` for each of its `later_rounds`, each after
/// the one before, and the merge job after the last.
pub fn submit(
    scripts: &Scripts,
    unfinished: &[usize],
    shards: usize,
    later_rounds: usize,
) -> Result<Submitted> {
    let array = if unfinished.is_empty() {
        None
    } else {
        let list = unfinished.iter().map(usize::to_string).collect::<Vec<_>>().join(",");
        let id = sbatch(&[format!("--array={list}")], &scripts.shards)?;
        Some((id, unfinished.to_vec()))
    };
    let mut later = Vec::new();
    let mut last = array.as_ref().map(|(id, _)| id.clone());
    for _ in 0..later_rounds {
        let Some(before) = &last else { break };
        let args = [
            format!("--array=1-{shards}"),
            format!("--dependency=afterok:{before}"),
            "--kill-on-invalid-dep=yes".to_string(),
        ];
        let id = sbatch(&args, &scripts.shards)?;
        later.push(id.clone());
        last = Some(id);
    }
    let after: Vec<String> = last.iter().map(|id| format!("--dependency=afterany:{id}")).collect();
    let merge = sbatch(&after, &scripts.merge)?;
    Ok(Submitted { array, later_rounds: later, merge })
}

/// `sbatch --parsable ARGS SCRIPT`: the job id.
pub fn sbatch(args: &[String], script: &Path) -> Result<String> {
    let otherwise = format!("or submit {} there yourself", script.display());
    let output = Command::new("sbatch")
        .arg("--parsable")
        .args(args)
        .arg(script)
        .output()
        .map_err(|e| not_runnable("sbatch", &otherwise, e))?;
    let stdout = String::from_utf8_lossy(&output.stdout);
    if !output.status.success() {
        let message = String::from_utf8_lossy(&output.stderr);
        bail!("sbatch refused {}: {}", script.display(), one_line(&message));
    }
    // `--parsable` prints `id` or `id;cluster`.
    match stdout
        .trim()
        .split(';')
        .next()
        .filter(|id| !id.is_empty() && id.bytes().all(|b| b.is_ascii_digit()))
    {
        Some(id) => Ok(id.to_string()),
        None => bail!("sbatch accepted {} but printed no job id: {}", script.display(), one_line(&stdout)),
    }
}

/// Why Slurm's `program` could not be run: not installed here is one line
/// saying where to run instead, or `otherwise`.
fn not_runnable(program: &str, otherwise: &str, e: std::io::Error) -> anyhow::Error {
    if e.kind() == std::io::ErrorKind::NotFound {
        anyhow::anyhow!(
            "{program} not found: run this on a machine of the Slurm cluster (a login node), {otherwise}"
        )
    } else {
        anyhow::anyhow!("cannot run {program}: {e}")
    }
}

/// Where job `id` is now (`scontrol show job`).
pub fn job_status(id: &str) -> Result<JobStatus> {
    let output = Command::new("scontrol")
        .args(["show", "job", "-o", id])
        .output()
        .map_err(|e| not_runnable("scontrol", &format!("then follow job {id} there"), e))?;
    if !output.status.success() {
        let message = String::from_utf8_lossy(&output.stderr);
        if message.contains("Invalid job id") {
            return Ok(JobStatus::Gone);
        }
        bail!("scontrol cannot tell where job {id} is: {}", one_line(&message));
    }
    Ok(parse_job(&String::from_utf8_lossy(&output.stdout)))
}

/// A job's status from its `scontrol show job -o` line.
fn parse_job(text: &str) -> JobStatus {
    let field = |key: &str| {
        text.split_whitespace().find_map(|w| w.strip_prefix(key)).map(str::to_string).unwrap_or_default()
    };
    let state = field("JobState=");
    if !ENDED.contains(&state.as_str()) {
        return JobStatus::Live(state);
    }
    let code = field("ExitCode=");
    let exit_code = code.split(':').next().and_then(|c| c.parse().ok()).unwrap_or(1);
    let exit_code = if state == "COMPLETED" { exit_code } else { exit_code.max(1) };
    JobStatus::Ended(JobEnd { state, exit_code })
}

/// Waits until job `id` has ended (polling `scontrol show job`).
pub fn wait(id: &str, every: Duration) -> Result<JobEnd> {
    match wait_until_over(id, every)? {
        Some(end) => Ok(end),
        None => bail!("Slurm no longer knows job {id}: see its log in the output folder's slurm/"),
    }
}

/// Waits until job `id` is over: how it ended, or `None` if Slurm no
/// longer knows it.
fn wait_until_over(id: &str, every: Duration) -> Result<Option<JobEnd>> {
    loop {
        match job_status(id)? {
            JobStatus::Live(_) => std::thread::sleep(every),
            JobStatus::Ended(end) => return Ok(Some(end)),
            JobStatus::Gone => return Ok(None),
        }
    }
}

/// The file in `<output>/slurm/` naming the last merge job [`play_all`]
/// submitted: a process restarted while it waited follows that job
/// instead of submitting the shards a second time (two tasks appending to
/// one shard's journal).
const LAST_MERGE: &str = "merge-job";

/// Plays every game of `tournament` on the cluster, as `tournament slurm
/// --submit` does (the unfinished shards as an array, the merge job after
/// them), and waits for the merge; while shards still miss games (a task
/// failed, was cancelled, ran out of time or lost its node) submits them
/// again, each playing only what the journals lack, at most
/// `resubmissions` times. A merge job an earlier call submitted that is
/// still under way is waited for first. `submitted` is told of each
/// submission. Returns once the journals hold every game (at once, with
/// no job, if they already do).
pub fn play_all(
    tournament: &Tournament,
    scripts: &Scripts,
    shards: usize,
    resubmissions: usize,
    every: Duration,
    submitted: &mut dyn FnMut(&Submitted),
) -> Result<()> {
    let record = scripts.folder.join(LAST_MERGE);
    if let Ok(id) = std::fs::read_to_string(&record) {
        wait_until_over(id.trim(), every)?;
    }
    let mut last: Option<Submitted> = None;
    let mut submissions = 0;
    loop {
        let unfinished = unfinished_shards(tournament, shards)?;
        if unfinished.is_empty() {
            return Ok(());
        }
        if let Some(last) = last.as_ref().filter(|_| submissions > resubmissions) {
            let (played, total) = super::journaled(tournament)?;
            let first = unfinished[0];
            let log = scripts.folder.join(format!("shard-{first}-of-{shards}.log"));
            let ends = last_line(&log).map_or(String::new(), |line| format!(", which ends: {line}"));
            bail!(
                "the Slurm jobs of {} ended {submissions} times without finishing it ({played} of {total} \
                 games played; shard(s) {} of {shards} unfinished): the last shards job was {}; the \
                 output of shard {first}: {}{ends}",
                tournament.name,
                unfinished.iter().map(usize::to_string).collect::<Vec<_>>().join(","),
                last.array.as_ref().map_or("none", |(id, _)| id.as_str()),
                log.display()
            );
        }
        let jobs = submit(scripts, &unfinished, shards, later_rounds(tournament)?)?;
        std::fs::write(&record, &jobs.merge).with_context(|| format!("cannot write {}", record.display()))?;
        submitted(&jobs);
        wait_until_over(&jobs.merge, every)?;
        last = Some(jobs);
        submissions += 1;
    }
}

/// The last line of a job's output file, cut to a length an error message
/// can carry (the arena's error, if it stopped on one).
pub fn last_line(log: &Path) -> Option<String> {
    const MAX: usize = 300;
    let text = std::fs::read_to_string(log).ok()?;
    let line = text.lines().rev().find(|l| !l.trim().is_empty())?;
    Some(match line.char_indices().nth(MAX) {
        Some((at, _)) => format!("{}...", &line[..at]),
        None => line.to_string(),
    })
}

/// Slurm's job states after which a job will not run again.
const ENDED: &[&str] = &[
    "COMPLETED",
    "FAILED",
    "CANCELLED",
    "TIMEOUT",
    "NODE_FAIL",
    "OUT_OF_MEMORY",
    "PREEMPTED",
    "BOOT_FAIL",
    "DEADLINE",
];

/// The merge job's log.
pub fn merge_log(scripts: &Scripts, id: &str) -> PathBuf {
    scripts.folder.join(format!("merge-{id}.log"))
}

/// A path quoted for sh.
pub fn quote(path: &Path) -> String {
    let text = path.to_string_lossy();
    shlex::try_quote(&text).map_or_else(|_| format!("'{text}'"), |q| q.into_owned())
}

fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scripts_run_this_arena_on_each_shard_and_merge_after() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("class.toml");
        std::fs::write(&file, "format = \"round-robin\"\nseed = 1\nplayers = [\"easy\", \"hard\"]\n")
            .unwrap();
        let tournament = Tournament::load(&file).unwrap();
        let options = SlurmOptions {
            shards: 4,
            job: JobOptions {
                partition: Some("short".into()),
                time: Some("2:00:00".into()),
                cpus_per_task: 8,
                sbatch_args: vec!["--account=course".into()],
            },
            arena: "/opt/my arena/arena".into(),
            file: file.clone(),
            pass_env: vec!["COURSE_KEY".into()],
        };
        let scripts = write_scripts(&tournament, &options).unwrap();
        let shards = std::fs::read_to_string(&scripts.shards).unwrap();
        for line in [
            "#SBATCH --array=1-4\n",
            "#SBATCH --cpus-per-task=8\n",
            "#SBATCH --partition=short\n",
            "#SBATCH --time=2:00:00\n",
            "#SBATCH --account=course\n",
            "--shard \"$SLURM_ARRAY_TASK_ID/4\" --concurrency \"${SLURM_CPUS_PER_TASK:-8}\" --pass-env COURSE_KEY\n",
            "exec '/opt/my arena/arena' tournament run ",
            // Quoted: a folder may have spaces in its name.
            &format!("#SBATCH --output=\"{}/shard-%a-of-4.log\"\n", scripts.folder.display()),
        ] {
            assert!(shards.contains(line), "{line:?} in:\n{shards}");
        }
        let merge = std::fs::read_to_string(&scripts.merge).unwrap();
        assert!(merge.contains(&format!("tournament report {}", file.display())), "{merge}");
        assert!(scripts.folder.starts_with(&tournament.output));
    }

    #[test]
    fn a_job_is_live_until_slurm_says_it_ended() {
        let line = |state: &str, code: &str| {
            format!("JobId=7 JobName=x JobState={state} Reason=None ExitCode={code} RunTime=00:00:03")
        };
        assert_eq!(parse_job(&line("PENDING", "0:0")), JobStatus::Live("PENDING".into()));
        // Cancelled: still COMPLETING while its processes are killed.
        assert_eq!(parse_job(&line("COMPLETING", "0:15")), JobStatus::Live("COMPLETING".into()));
        let ended = |state: &str, exit_code| JobStatus::Ended(JobEnd { state: state.into(), exit_code });
        assert_eq!(parse_job(&line("COMPLETED", "0:0")), ended("COMPLETED", 0));
        // Killed by a signal: a failure, whatever the exit code says.
        assert_eq!(parse_job(&line("CANCELLED", "0:15")), ended("CANCELLED", 1));
        assert_eq!(parse_job(&line("FAILED", "2:0")), ended("FAILED", 2));
    }

    #[test]
    fn unfinished_shards_are_those_missing_games() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("t.toml");
        std::fs::write(&file, "format = \"round-robin\"\ngames_per_pairing = 4\nseed = 1\nplayers = [\"easy\", \"medium\", \"hard\"]\n").unwrap();
        let tournament = Tournament::load(&file).unwrap();
        assert_eq!(unfinished_shards(&tournament, 3).unwrap(), vec![1, 2, 3]);
        let schedule = schedule::schedule(&tournament);
        let mine = shard::games_of(&tournament, &schedule, shard::Shard { index: 2, count: 3 });
        let games: Vec<_> = schedule
            .iter()
            .filter(|g| mine[g.index])
            .map(|g| crate::tournament::record::GameResult {
                index: g.index,
                seed: g.seed,
                seats: g.seats,
                winner: None,
                turns: 1,
                reason: "draw".into(),
                fault: None,
                clock: Default::default(),
                solo: None,
                replayed: 0,
                replay_left_out: false,
            })
            .collect();
        let (mut journal, _) = crate::tournament::journal::Journal::open(
            &tournament.output,
            "journal.shard-2-of-3.jsonl",
            &tournament.name,
            &fingerprint(&tournament, &schedule),
            schedule.len(),
        )
        .unwrap();
        journal.append(&games).unwrap();
        assert_eq!(unfinished_shards(&tournament, 3).unwrap(), vec![1, 3]);
    }
}
