//! The grading queue: one background thread takes the oldest unfinished
//! submission and grades it in the course format (10 games against each of
//! Easy, Medium and Hard) with the tournament runner: isolated, sandboxed
//! workers, the runner's limits, and a journal in `DIR/runs/<id>/`, so a
//! submission interrupted by a crash is taken up again where it stopped.

use std::{
    path::{Path, PathBuf},
    sync::{atomic::AtomicBool, Arc, Condvar, Mutex},
    time::Duration,
};

use anyhow::{Context, Result};
use rusqlite::Connection;

use super::{
    db::{self, status, Submission},
    league, store,
};
use crate::{
    players::PlayerSpec,
    tournament::{self, config::Tournament, record::GameResult, Observer},
};

/// The seed of every grading run: the same games for every submission.
pub const SEED: u64 = 2021;

/// The folder of grading runs inside the data folder.
pub const RUNS: &str = "runs";

/// Wakes the grader when a submission arrives.
#[derive(Default)]
pub struct Wake {
    pending: Mutex<bool>,
    signal: Condvar,
}

impl Wake {
    pub fn notify(&self) {
        *self.pending.lock().unwrap_or_else(|e| e.into_inner()) = true;
        self.signal.notify_one();
    }

    /// Waits for a notification, or `timeout`.
    fn wait(&self, timeout: Duration) {
        let pending = self.pending.lock().unwrap_or_else(|e| e.into_inner());
        let (mut pending, _) = self
            .signal
            .wait_timeout_while(pending, timeout, |pending| !*pending)
            .unwrap_or_else(|e| e.into_inner());
        *pending = false;
    }
}

/// Starts the grading thread of data folder `dir`.
/// With `round_robin`, it plays the round robin when nothing waits; with
/// `supersede`, a student's newest waiting submission is graded, not their
/// older ones (`db::next_to_grade`).
pub fn spawn(
    dir: PathBuf,
    wake: Arc<Wake>,
    round_robin: bool,
    supersede: bool,
) -> Result<std::thread::JoinHandle<()>> {
    let db = db::open(&dir)?;
    Ok(std::thread::Builder::new().name("grader".into()).spawn(move || loop {
        match db::next_to_grade(&db, supersede) {
            Ok(Some(submission)) => {
                let graded = grade(&dir, &db, &submission);
                let recorded = match &graded {
                    Ok(grade) => db::finish(&db, submission.id, Ok(grade)),
                    Err(e) => db::finish(&db, submission.id, Err(&format!("{e:#}"))),
                };
                if let Err(e) = recorded {
                    tracing::error!("submission {}: cannot record its grade: {e:#}", submission.id);
                    wake.wait(Duration::from_secs(5));
                }
            }
            // Nothing to grade: the round robin goes on, a pairing at a time.
            Ok(None) if !round_robin => wake.wait(Duration::from_secs(2)),
            Ok(None) => match league::play_next(&dir, &db) {
                Ok(true) => {}
                Ok(false) => wake.wait(Duration::from_secs(2)),
                Err(e) => {
                    tracing::error!("the round robin: {e:#}");
                    wake.wait(Duration::from_secs(5));
                }
            },
            Err(e) => {
                tracing::error!("the grading queue cannot be read: {e:#}");
                wake.wait(Duration::from_secs(5));
            }
        }
    })?)
}

/// Grades `submission`: its grade report as JSON, or why it has none.
fn grade(dir: &Path, db: &Connection, submission: &Submission) -> Result<serde_json::Value> {
    db::set_progress(db, submission.id, status::CHECKING, 0, 0)?;
    let player = store::player_entry(dir, &submission.sha256, submission.player.as_deref())?;
    let tournament = Tournament::load(&grading_file(dir, submission, &player)?)?;
    check(submission, &player, &tournament)?;
    let never = AtomicBool::new(false);
    let mut progress = Progress { db, id: submission.id, total: 0, played: 0 };
    let outcome = tournament::run(tournament, &never, &mut progress)?;
    let report =
        outcome.grades.and_then(|g| g.into_iter().next()).context("the grading run gave no grade")?;
    Ok(serde_json::to_value(report)?)
}

/// `arena check`'s logic on the submission, in a worker hosted as the
/// grading run's players are (isolated, sandboxed): loads it and plays a
/// smoke game in each seat against Easy. A player that does not load, or
/// fails its smoke games, gets why, naming its file as uploaded.
fn check(submission: &Submission, player: &str, tournament: &Tournament) -> Result<()> {
    let stored = player.strip_prefix("python:").unwrap_or(player);
    let as_uploaded = |text: String| text.replace(stored, &submission.file_name);
    let spec: PlayerSpec = player.parse().map_err(anyhow::Error::msg)?;
    let report = crate::check::check(&spec, tournament.settings, tournament::hosting(tournament)?)
        .map_err(|e| anyhow::anyhow!(as_uploaded(format!("{e:#}"))))?;
    if !report.passed {
        anyhow::bail!("it failed its smoke games against easy:\n{}", as_uploaded(report.text));
    }
    Ok(())
}

/// Writes the tournament file that grades `submission`, whose `player` is
/// as [`store::player_entry`] names it (its folder holds the run's journal
/// and reports); its path.
pub(super) fn grading_file(dir: &Path, submission: &Submission, player: &str) -> Result<PathBuf> {
    let folder = dir.join(RUNS).join(submission.id.to_string());
    std::fs::create_dir_all(&folder).with_context(|| format!("cannot create {}", folder.display()))?;
    let mut file = toml::Table::new();
    file.insert("name".into(), format!("submission {}", submission.id).into());
    file.insert("format".into(), "grade".into());
    file.insert("seed".into(), (SEED as i64).into());
    file.insert("output".into(), "out".into());
    file.insert("players".into(), toml::Value::Array(vec![player.into()]));
    // The games it lost, as replays with their viewers, for the student.
    let mut replays = toml::Table::new();
    replays.insert("save".into(), "losses".into());
    file.insert("replays".into(), replays.into());
    let path = folder.join("grade.toml");
    std::fs::write(&path, toml::to_string(&file)?)
        .with_context(|| format!("cannot write {}", path.display()))?;
    Ok(path)
}

/// The viewers of the games submission `id` lost while graded, by name
/// (`game-03-mine-vs-easy`), in game order.
pub fn lost_games(dir: &Path, id: i64) -> Vec<String> {
    let folder = replay_folder(dir, id);
    let mut names: Vec<String> = std::fs::read_dir(folder)
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|entry| entry.file_name().to_str()?.strip_suffix(".html").map(str::to_string))
        .collect();
    names.sort();
    names
}

/// The viewer of lost game `name` of submission `id`, if there is one.
pub fn lost_game_viewer(dir: &Path, id: i64, name: &str) -> Option<String> {
    let plain =
        name.chars().all(|c| c.is_ascii_alphanumeric() || "-_.".contains(c)) && !name.starts_with('.');
    if !plain {
        return None;
    }
    std::fs::read_to_string(replay_folder(dir, id).join(format!("{name}.html"))).ok()
}

fn replay_folder(dir: &Path, id: i64) -> PathBuf {
    dir.join(RUNS).join(id.to_string()).join("out").join(crate::tournament::replays::FOLDER)
}

/// Keeps a submission's status and games played current.
struct Progress<'a> {
    db: &'a Connection,
    id: i64,
    total: usize,
    played: usize,
}

impl Observer for Progress<'_> {
    fn start(&mut self, total: usize, done: &[GameResult]) {
        (self.total, self.played) = (total, done.len());
        self.save();
    }

    fn game(&mut self, _: &GameResult, _: &[String]) {
        self.played += 1;
        self.save();
    }
}

impl Progress<'_> {
    fn save(&self) {
        if let Err(e) = db::set_progress(self.db, self.id, status::PLAYING, self.played, self.total) {
            tracing::warn!("submission {}: progress not saved: {e:#}", self.id);
        }
    }
}
