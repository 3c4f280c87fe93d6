//! `arena tournament slurm`: a tournament as a Slurm job array, one task
//! per shard, and a merge job that runs after the array (`afterany`) and
//! writes the standings from every shard's journal. Slurm does the
//! scheduling; the arena only writes the scripts, calls `sbatch`, and
//! (`--wait`) watches the merge job with `scontrol`.
//!
//! The scripts name the arena binary and the tournament file by absolute
//! path, and everything goes into the output folder, which every node must
//! see (a shared file system).

use std::{
    path::{Path, PathBuf},
    process::Command,
    time::Duration,
};

use anyhow::{bail, Context, Result};

use super::{config::Tournament, fingerprint, merge, schedule, shard};

/// What the job scripts ask of Slurm.
#[derive(Debug, Clone)]
pub struct SlurmOptions {
    pub shards: usize,
    pub partition: Option<String>,
    /// Slurm's time limit per task (`--time`), as Slurm writes it.
    pub time: Option<String>,
    /// CPUs per task: a shard plays this many games at once.
    pub cpus_per_task: usize,
    /// More `#SBATCH` lines, each one option (`--account=x`, `--mem=4G`).
    pub sbatch_args: Vec<String>,
    /// The arena binary the jobs run (absolute).
    pub arena: PathBuf,
    /// The tournament file (absolute).
    pub file: PathBuf,
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
    pub merge: String,
}

/// How a job ended.
#[derive(Debug, Clone, PartialEq)]
pub struct JobEnd {
    /// Slurm's state: COMPLETED, FAILED, CANCELLED, TIMEOUT, ...
    pub state: String,
    pub exit_code: i32,
}

/// Writes the array script and the merge script into `<output>/slurm/`.
pub fn write_scripts(tournament: &Tournament, options: &SlurmOptions) -> Result<Scripts> {
    let folder = tournament.output.join("slurm");
    std::fs::create_dir_all(&folder).with_context(|| format!("cannot create {}", folder.display()))?;
    let (arena, file) = (quote(&options.arena), quote(&options.file));
    let n = options.shards;
    let name = super::file_safe(&tournament.name);
    let mut common = String::new();
    if let Some(partition) = &options.partition {
        common.push_str(&format!("#SBATCH --partition={partition}\n"));
    }
    if let Some(time) = &options.time {
        common.push_str(&format!("#SBATCH --time={time}\n"));
    }
    for arg in &options.sbatch_args {
        common.push_str(&format!("#SBATCH {arg}\n"));
    }
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
         exec {arena} tournament run {file} --shard \"$SLURM_ARRAY_TASK_ID/{n}\" --concurrency \"${{SLURM_CPUS_PER_TASK:-{cpus}}}\"\n",
        head("the shards"),
        folder.join("shards.sbatch").display(),
        cpus = options.cpus_per_task,
        log = folder.join(format!("shard-%a-of-{n}.log")).display(),
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
pub fn unfinished_shards(tournament: &Tournament, shards: usize) -> Result<Vec<usize>> {
    let schedule = schedule::schedule(tournament);
    let merged = merge::read_all(&tournament.output, &fingerprint(tournament, &schedule), schedule.len())?;
    let units = shard::units(tournament, &schedule);
    let owners = shard::assign(&schedule, &units, shards);
    let mut unfinished: Vec<usize> = units
        .iter()
        .zip(owners)
        .filter(|(unit, _)| (*unit).clone().any(|i| !merged.results.contains_key(&i)))
        .map(|(_, owner)| owner + 1)
        .collect();
    unfinished.sort_unstable();
    unfinished.dedup();
    Ok(unfinished)
}

/// Submits the unfinished shards as an array and the merge job after it.
pub fn submit(scripts: &Scripts, unfinished: &[usize]) -> Result<Submitted> {
    let array = if unfinished.is_empty() {
        None
    } else {
        let list = unfinished.iter().map(usize::to_string).collect::<Vec<_>>().join(",");
        let id = sbatch(&[format!("--array={list}")], &scripts.shards)?;
        Some((id, unfinished.to_vec()))
    };
    let after: Vec<String> = array.iter().map(|(id, _)| format!("--dependency=afterany:{id}")).collect();
    let merge = sbatch(&after, &scripts.merge)?;
    Ok(Submitted { array, merge })
}

/// `sbatch --parsable ARGS SCRIPT`: the job id.
fn sbatch(args: &[String], script: &Path) -> Result<String> {
    let output = Command::new("sbatch").arg("--parsable").args(args).arg(script).output().map_err(|e| {
        if e.kind() == std::io::ErrorKind::NotFound {
            anyhow::anyhow!(
                "sbatch not found: run this on a machine of the Slurm cluster (a login node), \
                 or submit {} there yourself",
                script.display()
            )
        } else {
            anyhow::anyhow!("cannot run sbatch: {e}")
        }
    })?;
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

/// Waits until job `id` has ended (polling `scontrol show job`).
pub fn wait(id: &str, every: Duration) -> Result<JobEnd> {
    loop {
        let output = Command::new("scontrol").args(["show", "job", "-o", id]).output().map_err(|e| {
            anyhow::anyhow!("cannot run scontrol to follow job {id} ({e}): is this a machine of the cluster?")
        })?;
        let text = String::from_utf8_lossy(&output.stdout);
        if !output.status.success() {
            bail!(
                "Slurm no longer knows job {id} ({}): see its log in the output folder's slurm/",
                one_line(&String::from_utf8_lossy(&output.stderr))
            );
        }
        let field = |key: &str| {
            text.split_whitespace().find_map(|w| w.strip_prefix(key)).map(str::to_string).unwrap_or_default()
        };
        let state = field("JobState=");
        if ENDED.contains(&state.as_str()) {
            let code = field("ExitCode=");
            let exit_code = code.split(':').next().and_then(|c| c.parse().ok()).unwrap_or(1);
            let exit_code = if state == "COMPLETED" { exit_code } else { exit_code.max(1) };
            return Ok(JobEnd { state, exit_code });
        }
        std::thread::sleep(every);
    }
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
fn quote(path: &Path) -> String {
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
            partition: Some("short".into()),
            time: Some("2:00:00".into()),
            cpus_per_task: 8,
            sbatch_args: vec!["--account=course".into()],
            arena: "/opt/my arena/arena".into(),
            file: file.clone(),
        };
        let scripts = write_scripts(&tournament, &options).unwrap();
        let shards = std::fs::read_to_string(&scripts.shards).unwrap();
        for line in [
            "#SBATCH --array=1-4\n",
            "#SBATCH --cpus-per-task=8\n",
            "#SBATCH --partition=short\n",
            "#SBATCH --time=2:00:00\n",
            "#SBATCH --account=course\n",
            "--shard \"$SLURM_ARRAY_TASK_ID/4\" --concurrency \"${SLURM_CPUS_PER_TASK:-8}\"",
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
