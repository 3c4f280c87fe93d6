//! `arena tune --slurm --workers N`: each iteration's game pairs spread
//! over a Slurm job array of N tasks. The tune itself runs where it was
//! started (a login node) and keeps the journal; for iteration k it writes
//! what to play into `<out>/slurm/iteration-k.json`, submits the array
//! (`sbatch --array=1-N`, the iteration in `ARENA_TUNE_ITERATION`), and
//! each task runs the same `arena tune` command with `--slurm-task`: it
//! plays its share of the pairs (contiguous, by pair index: the games this
//! machine would play, on the same seeds) and writes its outcome into
//! `<out>/slurm/iteration-k/task-i.json`. Once every task's file is
//! there, the outcomes are summed and the iteration goes on as on this
//! machine: the same seed and settings give the same trajectory.
//!
//! A task that ended without its file (cancelled, timed out, its node
//! lost) is submitted again, alone, up to twice; then the tune stops with
//! the task's log, its journal keeping every finished iteration.
//!
//! The output folder must be on a file system every node sees; the jobs
//! run in the folder the tune was started in (`--chdir`), so relative
//! paths name the same files.

use std::{
    ops::Range,
    path::{Path, PathBuf},
    process::Command,
    time::{Duration, Instant},
};

use anyhow::{bail, Context, Result};
use serde::{Deserialize, Serialize};

use super::{IterationGames, Outcome, Perturbation};
use crate::tournament::slurm::{last_line, quote, sbatch, JobOptions};

/// The variable the array's tasks find their iteration in.
pub const ITERATION_VAR: &str = "ARENA_TUNE_ITERATION";

/// The pairs of task `task` (counted from 1) of `workers`: contiguous
/// shares, the first ones a pair larger when they do not divide evenly.
pub fn share(pairs: u32, workers: u32, task: u32) -> Range<u32> {
    let (base, extra) = (pairs / workers, pairs % workers);
    let i = task - 1;
    let start = i * base + i.min(extra);
    start..start + base + u32::from(i < extra)
}

/// What a task plays its share with: (iteration, game seed, pairs) ->
/// the outcome, or None if stopped.
pub type PlayShare<'a> = dyn FnMut(&Perturbation, u64, Range<u32>) -> Result<Option<Outcome>> + 'a;
/// Told each submission: (iteration, job id, tasks).
pub type Submitted<'a> = Box<dyn FnMut(u32, &str, &[u32]) + 'a>;
/// Told each task's outcome as it arrives: (iteration, outcome).
pub type Arrived<'a> = Box<dyn FnMut(u32, &Outcome) + 'a>;

/// What the tasks of iteration k play.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Assignment {
    pub perturbation: Perturbation,
    pub game_seed: u64,
    pub pairs: u32,
    pub workers: u32,
}

/// The files of a tune on Slurm, under `<out>/slurm/`.
#[derive(Debug, Clone)]
pub struct Files {
    pub folder: PathBuf,
}

impl Files {
    pub fn new(out: &Path) -> Files {
        Files { folder: out.join("slurm") }
    }

    pub fn script(&self) -> PathBuf {
        self.folder.join("tune.sbatch")
    }

    pub fn assignment(&self, k: u32) -> PathBuf {
        self.folder.join(format!("iteration-{k}.json"))
    }

    pub fn outcome(&self, k: u32, task: u32) -> PathBuf {
        self.folder.join(format!("iteration-{k}")).join(format!("task-{task}.json"))
    }

    pub fn log(&self, task: u32) -> PathBuf {
        self.folder.join(format!("task-{task}.log"))
    }
}

/// Writes the array's script: each task runs `arena` with `args` (the
/// tune's own command line) and `--slurm-task K:I`, in folder `chdir`.
pub fn write_script(
    files: &Files,
    job: &JobOptions,
    arena: &Path,
    args: &[String],
    chdir: &Path,
) -> Result<()> {
    std::fs::create_dir_all(&files.folder)
        .with_context(|| format!("cannot create {}", files.folder.display()))?;
    let args: Vec<String> = args
        .iter()
        .map(|a| shlex::try_quote(a).map_or_else(|_| format!("'{a}'"), |q| q.into_owned()))
        .collect();
    let text = format!(
        "#!/bin/sh\n# Written by `arena tune --slurm`: one iteration's game pairs, a share per task.\n\
         # The output folder must be on a file system every node sees.\n\
         #SBATCH --job-name=arena-tune\n\
         #SBATCH --cpus-per-task={cpus}\n\
         #SBATCH --output=\"{log}\"\n\
         #SBATCH --open-mode=append\n\
         #SBATCH --chdir={chdir}\n\
         {common}\
         exec {arena} tune {args} --concurrency \"${{SLURM_CPUS_PER_TASK:-{cpus}}}\" --slurm-task \"${ITERATION_VAR}:$SLURM_ARRAY_TASK_ID\"\n",
        cpus = job.cpus_per_task,
        log = files.folder.join("task-%a.log").display(),
        chdir = quote(chdir),
        common = job.directives(),
        arena = quote(arena),
        args = args.join(" "),
    );
    let path = files.script();
    std::fs::write(&path, text).with_context(|| format!("cannot write {}", path.display()))
}

/// A task's `--slurm-task K:I`: the iteration and the task.
pub fn parse_task(text: &str) -> Result<(u32, u32), String> {
    let parsed = text.split_once(':').and_then(|(k, i)| Some((k.parse().ok()?, i.parse().ok()?)));
    match parsed {
        Some((k, i)) if k > 0 && i > 0 => Ok((k, i)),
        _ => Err(format!("--slurm-task '{text}': ITERATION:TASK, both from 1 (set by the job script)")),
    }
}

/// A task's work: reads iteration `k`'s assignment, plays task `task`'s
/// share with `play` (pairs -> outcome; None: stopped), and writes its
/// outcome (atomically: a file that is there is whole).
pub fn run_task(files: &Files, k: u32, task: u32, play: &mut PlayShare) -> Result<()> {
    let path = files.assignment(k);
    let text = std::fs::read_to_string(&path).with_context(|| format!("cannot read {}", path.display()))?;
    let assignment: Assignment =
        serde_json::from_str(&text).with_context(|| format!("{} is damaged", path.display()))?;
    if task > assignment.workers {
        bail!("task {task} of an iteration of {} tasks: nothing to play", assignment.workers);
    }
    let pairs = share(assignment.pairs, assignment.workers, task);
    let Some(outcome) = play(&assignment.perturbation, assignment.game_seed, pairs)? else {
        bail!("stopped before its games were played (cancelled?): the tune submits it again");
    };
    let target = files.outcome(k, task);
    let folder = target.parent().expect("a folder");
    std::fs::create_dir_all(folder).with_context(|| format!("cannot create {}", folder.display()))?;
    let partial = target.with_extension("json.partial");
    let written = std::fs::File::create(&partial).and_then(|mut file| {
        use std::io::Write;
        file.write_all(serde_json::to_string(&outcome)?.as_bytes())?;
        file.sync_all()
    });
    written
        .and_then(|()| std::fs::rename(&partial, &target))
        .with_context(|| format!("cannot write {}", target.display()))
}

/// The iterations played on the cluster.
pub struct Cluster<'a> {
    pub files: Files,
    pub workers: u32,
    /// How often the outcome files are looked for.
    pub every: Duration,
    pub submitted: Submitted<'a>,
    /// The progress line's.
    pub arrived: Arrived<'a>,
    pub stop: &'a std::sync::atomic::AtomicBool,
}

/// Submissions of one iteration's array at most: the first and two more.
const SUBMISSIONS: usize = 3;

impl IterationGames for Cluster<'_> {
    fn play(&mut self, p: &Perturbation, game_seed: u64, pairs: u32) -> Result<Option<Outcome>> {
        let workers = self.workers.clamp(1, pairs.max(1));
        let assignment = Assignment { perturbation: p.clone(), game_seed, pairs, workers };
        let path = self.files.assignment(p.k);
        std::fs::write(&path, serde_json::to_string(&assignment)?)
            .with_context(|| format!("cannot write {}", path.display()))?;
        // A resumed tune finds the outcomes of the tasks that finished.
        let mut outcomes: Vec<Option<Outcome>> = (1..=workers).map(|t| self.read(p.k, t)).collect();
        for outcome in outcomes.iter().flatten() {
            (self.arrived)(p.k, outcome);
        }
        let mut submissions = 0;
        let mut last_job = String::new();
        while outcomes.iter().any(Option::is_none) {
            let missing: Vec<u32> = (1..=workers).filter(|t| outcomes[*t as usize - 1].is_none()).collect();
            if submissions == SUBMISSIONS {
                let log = self.files.log(missing[0]);
                let ends = last_line(&log).map_or(String::new(), |line| format!(", which ends: {line}"));
                bail!(
                    "iteration {} on Slurm: task(s) {} ended {SUBMISSIONS} times without their games (last job {last_job}); \
                     the log of task {}: {}{ends}",
                    p.k,
                    list(&missing),
                    missing[0],
                    log.display()
                );
            }
            let args =
                [format!("--array={}", list(&missing)), format!("--export=ALL,{ITERATION_VAR}={}", p.k)];
            last_job = sbatch(&args, &self.files.script())?;
            (self.submitted)(p.k, &last_job, &missing);
            submissions += 1;
            let mut checked = Instant::now();
            loop {
                for t in 1..=workers {
                    let slot = &mut outcomes[t as usize - 1];
                    if slot.is_none() {
                        if let Some(outcome) = self.read(p.k, t) {
                            (self.arrived)(p.k, &outcome);
                            *slot = Some(outcome);
                        }
                    }
                }
                if outcomes.iter().all(Option::is_some) {
                    break;
                }
                if self.stop.load(std::sync::atomic::Ordering::SeqCst) {
                    let _ = Command::new("scancel").arg(&last_job).status();
                    return Ok(None);
                }
                if checked.elapsed() > Duration::from_secs(2) {
                    checked = Instant::now();
                    if !job_listed(&last_job)? {
                        // Its tasks are over: one more look for files they wrote last.
                        for t in 1..=workers {
                            if outcomes[t as usize - 1].is_none() {
                                outcomes[t as usize - 1] = self.read(p.k, t);
                            }
                        }
                        break;
                    }
                }
                std::thread::sleep(self.every);
            }
        }
        let mut total = outcomes.into_iter().flatten();
        let first = total.next().expect("at least one task");
        Ok(Some(total.fold(first, Outcome::combine)))
    }
}

impl Cluster<'_> {
    fn read(&self, k: u32, task: u32) -> Option<Outcome> {
        let text = std::fs::read_to_string(self.files.outcome(k, task)).ok()?;
        serde_json::from_str(&text).ok()
    }
}

/// Whether Slurm still lists job `id` (any of its tasks waiting or running).
fn job_listed(id: &str) -> Result<bool> {
    let output = Command::new("squeue")
        .args(["-h", "-j", id, "-o", "%T"])
        .output()
        .context("cannot run squeue: run the tune on a machine of the Slurm cluster")?;
    if !output.status.success() {
        // "Invalid job id": Slurm has forgotten it, so it is over.
        return Ok(false);
    }
    Ok(!String::from_utf8_lossy(&output.stdout).trim().is_empty())
}

fn list(tasks: &[u32]) -> String {
    tasks.iter().map(u32::to_string).collect::<Vec<_>>().join(",")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shares_cover_every_pair_once_in_order() {
        for (pairs, workers) in [(8, 4), (10, 4), (3, 3), (7, 1), (5, 2)] {
            let shares: Vec<Range<u32>> = (1..=workers).map(|t| share(pairs, workers, t)).collect();
            assert_eq!(shares[0].start, 0);
            assert_eq!(shares.last().unwrap().end, pairs);
            for w in shares.windows(2) {
                assert_eq!(w[0].end, w[1].start);
                assert!(w[0].len() >= w[1].len() && w[0].len() - w[1].len() <= 1);
            }
        }
        assert_eq!(share(10, 4, 1), 0..3);
        assert_eq!(share(10, 4, 4), 8..10);
    }

    #[test]
    fn a_task_is_iteration_and_index() {
        assert_eq!(parse_task("12:3"), Ok((12, 3)));
        assert!(parse_task("12").unwrap_err().contains("ITERATION:TASK"));
        assert!(parse_task("0:1").is_err());
    }

    #[test]
    fn the_script_runs_this_tune_with_the_task_of_the_array() {
        let dir = tempfile::tempdir().unwrap();
        let files = Files::new(dir.path());
        let job =
            JobOptions { partition: Some("short".into()), time: None, cpus_per_task: 2, sbatch_args: vec![] };
        let args = vec!["hard".to_string(), "--param".into(), "w, float, 1, 0, 2, 0.1, 0.01".into()];
        write_script(&files, &job, Path::new("/opt/arena"), &args, Path::new("/home/me")).unwrap();
        let text = std::fs::read_to_string(files.script()).unwrap();
        for line in [
            "#SBATCH --cpus-per-task=2\n",
            "#SBATCH --partition=short\n",
            "#SBATCH --chdir=/home/me\n",
            "exec /opt/arena tune hard --param 'w, float, 1, 0, 2, 0.1, 0.01' --concurrency \"${SLURM_CPUS_PER_TASK:-2}\" --slurm-task \"$ARENA_TUNE_ITERATION:$SLURM_ARRAY_TASK_ID\"\n",
        ] {
            assert!(text.contains(line), "{line:?} in:\n{text}");
        }
    }

    #[test]
    fn a_task_plays_its_share_and_leaves_its_outcome_whole() {
        let dir = tempfile::tempdir().unwrap();
        let files = Files::new(dir.path());
        std::fs::create_dir_all(&files.folder).unwrap();
        let perturbation = Perturbation {
            k: 2,
            flips: vec![1],
            plus: vec![1.5],
            minus: vec![0.5],
            c: vec![0.5],
            r: vec![0.1],
        };
        let assignment = Assignment { perturbation, game_seed: 77, pairs: 10, workers: 4 };
        std::fs::write(files.assignment(2), serde_json::to_string(&assignment).unwrap()).unwrap();
        let mut seen = None;
        run_task(&files, 2, 3, &mut |p, seed, pairs| {
            seen = Some((p.plus.clone(), seed, pairs.clone()));
            Ok(Some(Outcome::Duel(crate::strength::tune::Wdl {
                wins: pairs.len() as u32,
                draws: 0,
                losses: 0,
            })))
        })
        .unwrap();
        assert_eq!(seen, Some((vec![1.5], 77, 6..8)));
        let text = std::fs::read_to_string(files.outcome(2, 3)).unwrap();
        let outcome: Outcome = serde_json::from_str(&text).unwrap();
        assert_eq!(outcome.result(), 2.0);
        let error = run_task(&files, 2, 4, &mut |_, _, _| Ok(None)).unwrap_err().to_string();
        assert!(error.contains("stopped before its games were played"), "{error}");
        assert!(!files.outcome(2, 4).exists());
    }
}
