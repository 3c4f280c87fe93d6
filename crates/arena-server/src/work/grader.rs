//! The grading queue: `--grading-slots` background threads each take the
//! next submission (fairly across groups: `db::next_to_grade`) and grade
//! it as its assignment says (the course's Trap project: 10 games against
//! each of Easy, Medium and Hard; a single-player game: the levels' worlds,
//! duplicate) with the tournament runner's grade format: isolated, sandboxed
//! workers, the runner's limits, and a journal in `DIR/runs/<id>/`, so a
//! submission interrupted by a crash is taken up again where it stopped.
//! The run's tournament file and the check are `grading.rs`'s (which
//! `arena grade` shares); the check runs here, the run's games where the
//! `Executor` says (here, or as a Slurm job).

use std::{
    collections::HashSet,
    path::{Path, PathBuf},
    sync::Mutex,
    time::Duration,
};

use anyhow::{Context, Result};
use rusqlite::Connection;

use crate::{
    course::{Assignment, Course},
    store::db::{self, status, Submission},
    store::files as store,
    store::secret::{Purpose, Secret},
    work::analysis::{self, Analyses},
    work::executor::{Executor, GradingProgress, GradingRun},
    work::full_disk::FullDisk,
    work::grading,
    work::replays::{self, viewer_in, viewers_in},
    work::scrimmage,
    work::waiting,
    work::wake::Wake,
    work::work_log::Work,
};
use arena_core::tournament::{config::Tournament, merge};

/// The folder of grading runs inside the data folder.
pub const RUNS: &str = "runs";

/// How submissions are graded.
#[derive(Clone, Copy, Debug)]
pub struct GraderOptions {
    /// Submissions graded at once (each on its own thread).
    pub slots: usize,
    /// Games of one grading played at once.
    pub concurrency: usize,
    /// A student's newest waiting submission is graded, not their older
    /// ones (`db::next_to_grade`).
    pub supersede: bool,
    /// Current submissions play the round robin when nothing waits.
    pub round_robin: bool,
    /// A scrimmage may take its games' time at this many turns each (at
    /// the assignment's time per turn), then it is cut (`scrimmage.rs`).
    pub scrimmage_turns: u32,
    /// The nice value the games' threads and workers run at
    /// (`threads.rs`): 0, the machine's other work's, by default.
    pub games_nice: i32,
    /// Positions per turn the analysis of a grading's lost games may
    /// search (`analysis.rs`); 0: they are not analysed.
    pub analysis_nodes: u64,
}

impl Default for GraderOptions {
    fn default() -> Self {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        GraderOptions {
            slots: cores,
            concurrency: 1,
            supersede: true,
            round_robin: true,
            scrimmage_turns: scrimmage::TURNS_PER_GAME,
            games_nice: 0,
            analysis_nodes: arena_core::analysis::Budget::default().nodes,
        }
    }
}

/// A grading slot: takes the next submission (none of those `busy`, nor of
/// their students), grades it, records the grade, then hands it to
/// `analyses` (its lost games analysed after, never before, the grade);
/// forever. While the disk
/// is full (`disk`) it takes none, and a grading that finds it full waits
/// for room, never failed for it.
#[allow(clippy::too_many_arguments)]
pub(crate) fn grade_forever(
    dir: &Path,
    db: &Connection,
    course: &Course,
    (wake, changed): (&Wake, &Wake),
    (busy, analyses): (&Mutex<HashSet<i64>>, &Analyses),
    disk: &FullDisk,
    executor: &Executor,
    grading: GraderOptions,
) {
    loop {
        disk.wait_for_room();
        let next = {
            let mut busy = busy.lock().unwrap_or_else(|e| e.into_inner());
            let next = db::next_to_grade(db, grading.supersede, &busy);
            if let Ok(Some(submission)) = &next {
                busy.insert(submission.id);
            }
            next
        };
        match next {
            Ok(Some(submission)) => {
                changed.notify();
                let work = Work::start(
                    "grading",
                    format!("submission {}", submission.id),
                    format!("group {}, assignment {}", submission.group, submission.assignment),
                );
                let assignment = course.pick(Some(&submission.assignment));
                let graded = match &assignment {
                    Ok(assignment) => {
                        grade(dir, db, &submission, assignment, grading.concurrency, executor, changed)
                    }
                    Err(why) => Err(anyhow::anyhow!("{why}: the server runs another course now")),
                };
                let under = assignment.map(Assignment::graded_under).unwrap_or_default();
                let postponed = graded.as_ref().err().and_then(waiting::postponed);
                if let Err(e) = &graded {
                    // Held in memory: the database may not take even the wait.
                    disk.hold(submission.id, e);
                }
                let recorded = match (&graded, postponed) {
                    (Ok(grade), _) => db::finish(db, submission.id, Ok(grade), &under).map(|()| None),
                    // Never failed for the machine's fault, nor the disk's: it waits.
                    (Err(_), Some(postponed)) => {
                        db::postpone(db, submission.id, &postponed.to_string(), postponed.backoff())
                    }
                    (Err(e), None) => {
                        db::finish(db, submission.id, Err(&format!("{e:#}")), &under).map(|()| None)
                    }
                };
                match (&graded, postponed) {
                    (Ok(grade), _) => work.done(grade["verdict"].as_str().unwrap_or("graded")),
                    (Err(_), Some(postponed)) => {
                        work.waits(&postponed.to_string(), recorded.as_ref().ok().copied().flatten())
                    }
                    (Err(e), None) => work.failed(&format!("{e:#}")),
                }
                busy.lock().unwrap_or_else(|e| e.into_inner()).remove(&submission.id);
                changed.notify();
                // Another slot may now take this student's next one.
                wake.notify();
                match recorded {
                    // Taken again once the disk has room (the slot waits for it first).
                    Err(e) if disk.hold(submission.id, &e) => {}
                    Err(e) => {
                        tracing::error!("submission {}: cannot record its grade: {e:#}", submission.id);
                        wake.wait(Duration::from_secs(5));
                    }
                    Ok(_) if graded.is_ok() => analyses.push(submission.id),
                    Ok(_) => {}
                }
            }
            Ok(None) => wake.wait(Duration::from_secs(2)),
            Err(e) if disk.hit(&e) => {}
            Err(e) => {
                tracing::error!("the grading queue cannot be read: {e:#}");
                wake.wait(Duration::from_secs(5));
            }
        }
    }
}

/// Grades `submission`: its grade report as JSON, or why it has none.
fn grade(
    dir: &Path,
    db: &Connection,
    submission: &Submission,
    assignment: &Assignment,
    concurrency: usize,
    executor: &Executor,
    changed: &Wake,
) -> Result<serde_json::Value> {
    db::set_progress(db, submission.id, status::CHECKING, 0, 0)?;
    let player = store::player_entry(dir, &submission.sha256, submission.player.as_deref())?;
    let secret = Secret::of(db)?;
    let seed = secret.seed(Purpose::Grading, &assignment.name);
    let file = grading_file(dir, submission, assignment, &player, concurrency, seed)?;
    let tournament = Tournament::load(&file)?;
    // A run with a journal began after its check passed (and waited, or
    // was interrupted): its check is not played again.
    let begun = merge::journal_files(&tournament.output).is_ok_and(|files| !files.is_empty());
    if !begun {
        grading::check(&player, &submission.file_name, assignment, &tournament)?;
    }
    let mut progress = GradingProgress::new(db, submission.id, changed);
    let run = GradingRun { db, submission: submission.id, file: &file, tournament };
    Ok(serde_json::to_value(executor.grade_run(run, &mut progress)?)?)
}

/// Writes the tournament file that grades `submission` as `assignment`
/// says, its `player` as [`store::player_entry`] names it, `concurrency`
/// games at once (the same games at any; its folder holds the run's
/// journal and reports), on the assignment's grading seed `seed` (the
/// same games for every submission); its path.
pub(crate) fn grading_file(
    dir: &Path,
    submission: &Submission,
    assignment: &Assignment,
    player: &str,
    concurrency: usize,
    seed: u64,
) -> Result<PathBuf> {
    let folder = dir.join(RUNS).join(submission.id.to_string());
    std::fs::create_dir_all(&folder).with_context(|| format!("cannot create {}", folder.display()))?;
    let name = format!("submission {}", submission.id);
    let file = grading::grading_table(&name, assignment, player, concurrency, seed);
    let path = folder.join("grade.toml");
    let text = toml::to_string(&file)?;
    if std::fs::read_to_string(&path).is_ok_and(|before| before != text) {
        // Graded before under other settings (a regrade): that run's
        // journal is not this one's. It is kept aside, not lost.
        let aside = (1..).map(|n| folder.with_extension(format!("before-{n}"))).find(|p| !p.exists());
        let aside = aside.expect("a free name");
        std::fs::rename(&folder, &aside)
            .with_context(|| format!("cannot move {} aside to {}", folder.display(), aside.display()))?;
        std::fs::create_dir_all(&folder).with_context(|| format!("cannot create {}", folder.display()))?;
        tracing::info!(
            "submission {}: its earlier grading run is kept in {}",
            submission.id,
            aside.display()
        );
    }
    std::fs::write(&path, text).with_context(|| format!("cannot write {}", path.display()))?;
    Ok(path)
}

/// The viewers of the games submission `id` lost while graded, by name
/// (`game-03-mine-vs-easy`), in game order.
pub fn lost_games(dir: &Path, id: i64) -> Vec<String> {
    viewers_in(&replay_folder(dir, id))
}

/// The analysis of the games submission `id` lost while graded
/// (`analysis.rs`), once it is done.
pub fn lost_games_analysis(dir: &Path, id: i64) -> Option<analysis::RunAnalysis> {
    analysis::of_run(&dir.join(RUNS).join(id.to_string()))
}

/// The viewer of lost game `name` of submission `id`, if there is one.
pub fn lost_game_viewer(dir: &Path, id: i64, name: &str) -> Option<String> {
    viewer_in(&replay_folder(dir, id), name)
}

fn replay_folder(dir: &Path, id: i64) -> PathBuf {
    replays::folder_of(&dir.join(RUNS).join(id.to_string()))
}
