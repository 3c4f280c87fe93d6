//! What the data folder holds, by group: the bytes each group's uploads,
//! grading runs, scrimmages and database rows take (staff see them, on
//! `GET /api/staff/groups`), and `arena serve prune`, which removes old
//! grading runs' replays.
//!
//! Measuring walks the folders, so it is not done per request: the staff
//! page asks every 2 s, and gets the last measure, taken again in the
//! background once it is older than [`MEASURED_EVERY`].

use std::{
    collections::HashMap,
    path::{Path, PathBuf},
    sync::{
        atomic::{AtomicBool, Ordering},
        Arc, Mutex,
    },
    time::{Duration, Instant},
};

use anyhow::{Context, Result};
use rusqlite::{params, Connection};
use serde::Serialize;

use crate::{
    store::db::{self, status},
    store::files as store,
    work::grader::RUNS,
    work::replays,
    work::scrimmage,
};

/// How old a measure may be before a request starts the next.
pub const MEASURED_EVERY: Duration = Duration::from_secs(30);

/// The bytes of one group's things in the data folder.
#[derive(Serialize, Debug, Clone, Default, PartialEq, Eq)]
pub struct GroupBytes {
    /// Its uploads, as stored (a file once per content, a Python archive
    /// with its unpacked folder).
    pub uploads: u64,
    /// Its submissions' grading runs: journals, reports, replays (and
    /// earlier runs kept aside by a regrade).
    pub runs: u64,
    /// The scrimmages it played, either side (each counts for both groups).
    pub scrimmages: u64,
    /// What the database keeps of its submissions and scrimmages: grades,
    /// errors, notes.
    pub database: u64,
    pub total: u64,
}

/// A measure of every group, by name.
#[derive(Serialize, Debug, Clone)]
pub struct Measured {
    pub groups: HashMap<String, GroupBytes>,
    /// When it was taken (UTC, as the database tells time).
    pub at: String,
    /// How long it took, milliseconds.
    pub took_ms: u64,
}

/// Measures the groups of data folder `dir` (its database `db`).
pub fn measure(dir: &Path, db: &Connection) -> Result<Measured> {
    let started = Instant::now();
    let names: HashMap<i64, String> = {
        let mut query = db.prepare("SELECT id, name FROM groups")?;
        let rows = query.query_map([], |row| Ok((row.get(0)?, row.get(1)?)))?;
        rows.collect::<rusqlite::Result<_>>()?
    };
    let mut groups: HashMap<i64, GroupBytes> = HashMap::new();
    let runs = folders_by_id(&dir.join(RUNS));
    let uploads = uploads_by_hash(dir);
    let mut unpacked: HashMap<String, u64> = HashMap::new();
    let mut counted: std::collections::HashSet<(i64, String)> = Default::default();
    let mut query = db.prepare(
        "SELECT id, group_id, sha256, player IS NOT NULL,
                COALESCE(LENGTH(CAST(grade AS BLOB)), 0) + COALESCE(LENGTH(CAST(error AS BLOB)), 0)
                + COALESCE(LENGTH(CAST(note AS BLOB)), 0) + COALESCE(LENGTH(CAST(graded_under AS BLOB)), 0)
         FROM submissions WHERE group_id IS NOT NULL",
    )?;
    let rows = query.query_map([], |row| {
        Ok((row.get::<_, i64>(0)?, row.get::<_, i64>(1)?, row.get::<_, String>(2)?, row.get(3)?, row.get(4)?))
    })?;
    for row in rows {
        let (id, group, sha256, python, in_db): (i64, i64, String, bool, i64) = row?;
        let bytes = groups.entry(group).or_default();
        bytes.database += in_db as u64;
        bytes.runs += runs.get(&id).copied().unwrap_or(0);
        // The same file uploaded again takes no more room.
        if counted.insert((group, sha256.clone())) {
            bytes.uploads += uploads.get(&sha256).copied().unwrap_or(0);
            if python {
                let folder = dir.join(store::PLAYERS).join(&sha256);
                bytes.uploads += *unpacked.entry(sha256).or_insert_with(|| tree_bytes(&folder));
            }
        }
    }
    let scrimmages = folders_by_id(&dir.join(scrimmage::FOLDER));
    let mut query = db.prepare(
        "SELECT id, challenger, opponent,
                COALESCE(LENGTH(CAST(result AS BLOB)), 0) + COALESCE(LENGTH(CAST(error AS BLOB)), 0)
         FROM scrimmages",
    )?;
    let rows = query.query_map([], |row| Ok((row.get(0)?, row.get(1)?, row.get(2)?, row.get(3)?)))?;
    for row in rows {
        let (id, challenger, opponent, in_db): (i64, i64, i64, i64) = row?;
        for group in [challenger, opponent] {
            let bytes = groups.entry(group).or_default();
            bytes.scrimmages += scrimmages.get(&id).copied().unwrap_or(0);
            bytes.database += in_db as u64;
        }
    }
    let groups = groups
        .into_iter()
        .filter_map(|(id, mut bytes)| {
            bytes.total = bytes.uploads + bytes.runs + bytes.scrimmages + bytes.database;
            Some((names.get(&id)?.clone(), bytes))
        })
        .collect();
    let at = db.query_row("SELECT datetime('now')", [], |row| row.get(0))?;
    Ok(Measured { groups, at, took_ms: started.elapsed().as_millis() as u64 })
}

/// The bytes under each numbered folder of `parent` (`runs/12`, and a
/// regrade's `runs/12.before-1` with it), by number.
fn folders_by_id(parent: &Path) -> HashMap<i64, u64> {
    let mut sizes = HashMap::new();
    for entry in std::fs::read_dir(parent).into_iter().flatten().flatten() {
        let name = entry.file_name();
        let name = name.to_string_lossy();
        let number = name.split('.').next().and_then(|n| n.parse::<i64>().ok());
        if let Some(id) = number {
            *sizes.entry(id).or_insert(0) += tree_bytes(&entry.path());
        }
    }
    sizes
}

/// The stored uploads' sizes by hash (`files/<sha256>.<kind>`).
fn uploads_by_hash(dir: &Path) -> HashMap<String, u64> {
    let mut sizes = HashMap::new();
    for entry in std::fs::read_dir(dir.join(store::FOLDER)).into_iter().flatten().flatten() {
        let name = entry.file_name();
        let Some((hash, _)) = name.to_str().and_then(|n| n.split_once('.')) else { continue };
        if let Ok(meta) = entry.metadata() {
            *sizes.entry(hash.to_string()).or_insert(0) += meta.len();
        }
    }
    sizes
}

/// The bytes of the files under `path` (itself if a file); links are not
/// followed.
pub fn tree_bytes(path: &Path) -> u64 {
    let Ok(meta) = std::fs::symlink_metadata(path) else { return 0 };
    if !meta.is_dir() {
        return meta.len();
    }
    let entries = std::fs::read_dir(path).into_iter().flatten().flatten();
    entries.map(|entry| tree_bytes(&entry.path())).sum()
}

/// The last measure, kept for the staff page's requests.
#[derive(Default)]
pub struct Totals {
    latest: Mutex<Option<(Instant, Arc<Measured>)>>,
    measuring: AtomicBool,
}

impl Totals {
    /// The last measure of data folder `dir`, if one was taken; one older
    /// than [`MEASURED_EVERY`] (or none yet) is taken again in the
    /// background, so a request never waits for the folders to be walked.
    pub fn latest(self: &Arc<Self>, dir: &Path) -> Option<Arc<Measured>> {
        let latest = self.latest.lock().unwrap_or_else(|e| e.into_inner()).clone();
        let stale = latest.as_ref().is_none_or(|(at, _)| at.elapsed() >= MEASURED_EVERY);
        if stale && !self.measuring.swap(true, Ordering::SeqCst) {
            let (totals, dir) = (self.clone(), dir.to_path_buf());
            let started = std::thread::Builder::new().name("storage".into()).spawn(move || {
                match db::open(&dir).and_then(|db| measure(&dir, &db)) {
                    Ok(measured) => {
                        tracing::debug!("measured the data folder in {} ms", measured.took_ms);
                        *totals.latest.lock().unwrap_or_else(|e| e.into_inner()) =
                            Some((Instant::now(), Arc::new(measured)));
                    }
                    Err(e) => tracing::warn!("the data folder's storage could not be measured: {e:#}"),
                }
                totals.measuring.store(false, Ordering::SeqCst);
            });
            if let Err(e) = started {
                tracing::warn!("cannot start measuring the data folder: {e}");
                self.measuring.store(false, Ordering::SeqCst);
            }
        }
        latest.map(|(_, measured)| measured)
    }
}

/// What `arena serve prune` removes.
#[derive(Debug, Clone, Copy)]
pub struct Prune {
    /// Each group's newest graded submissions of an assignment whose runs
    /// are kept (the current one always is).
    pub keep: usize,
    /// Only runs of submissions finished at least this many days ago.
    pub older_than_days: Option<f64>,
    /// Say what would go, remove nothing.
    pub dry_run: bool,
}

/// A grading run's replays that were (or would be) removed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pruned {
    pub submission: i64,
    pub group: String,
    /// The run's replays folder.
    pub folder: PathBuf,
    pub files: usize,
    pub bytes: u64,
}

/// Removes (with `dry_run`, only finds) the replays and viewers of old
/// grading runs in data folder `dir`: those of every finished submission
/// but each group's `keep` newest graded ones of an assignment and the one
/// `finalize` takes (its newest graded before the deadline). Grades stay
/// in the database. A submission still queued, checked or played (a
/// running server writes its run) is never touched.
pub fn prune(dir: &Path, db: &Connection, options: Prune) -> Result<Vec<Pruned>> {
    let keep = options.keep.max(1) as i64;
    let older = options.older_than_days.map_or(String::new(), |days| {
        format!("AND s.finished <= datetime('now', '-{} seconds')", (days * 86_400.0).round() as i64)
    });
    // Ranked among the group's graded submissions of the assignment, newest first.
    let mut query = db.prepare(&format!(
        "SELECT s.id, g.name FROM submissions s JOIN groups g ON g.id = s.group_id
         WHERE s.status IN (?1, ?2, ?3) {older}
           AND s.id NOT IN (SELECT id FROM (
                 SELECT id, ROW_NUMBER() OVER (PARTITION BY group_id, assignment ORDER BY id DESC) AS newest
                 FROM submissions WHERE status = ?1) WHERE newest <= ?4)
           AND s.id NOT IN (SELECT MAX(id) FROM submissions
                            WHERE status = ?1 AND NOT late GROUP BY group_id, assignment)
         ORDER BY s.id"
    ))?;
    let rows = query.query_map(params![status::DONE, status::FAILED, status::SUPERSEDED, keep], |row| {
        Ok((row.get::<_, i64>(0)?, row.get::<_, String>(1)?))
    })?;
    let candidates = rows.collect::<rusqlite::Result<Vec<(i64, String)>>>()?;
    let mut pruned = Vec::new();
    for (id, group) in candidates {
        for run in runs_of(dir, id) {
            let folder = replays::folder_of(&run);
            let files: Vec<PathBuf> = std::fs::read_dir(&folder)
                .into_iter()
                .flatten()
                .flatten()
                .map(|entry| entry.path())
                .collect();
            if files.is_empty() {
                continue;
            }
            let bytes = files.iter().map(|f| tree_bytes(f)).sum();
            if !options.dry_run {
                // Asked again just before: a regrade may have put it back in the queue.
                if !finished(db, id)? {
                    break;
                }
                std::fs::remove_dir_all(&folder)
                    .with_context(|| format!("cannot remove {}", folder.display()))?;
            }
            pruned.push(Pruned { submission: id, group: group.clone(), folder, files: files.len(), bytes });
        }
    }
    Ok(pruned)
}

/// Submission `id`'s grading runs: its folder, and earlier runs a regrade
/// kept aside (`runs/<id>.before-N`).
fn runs_of(dir: &Path, id: i64) -> Vec<PathBuf> {
    let runs = dir.join(RUNS);
    let aside = format!("{id}.before-");
    let mut found: Vec<PathBuf> = std::fs::read_dir(&runs)
        .into_iter()
        .flatten()
        .flatten()
        .filter(|entry| entry.file_name().to_str().is_some_and(|n| n.starts_with(&aside)))
        .map(|entry| entry.path())
        .collect();
    found.sort();
    found.push(runs.join(id.to_string()));
    found
}

/// Whether submission `id` is finished (graded, failed or superseded).
fn finished(db: &Connection, id: i64) -> Result<bool> {
    let now: String = db.query_row("SELECT status FROM submissions WHERE id = ?1", [id], |row| row.get(0))?;
    Ok([status::DONE, status::FAILED, status::SUPERSEDED].contains(&now.as_str()))
}
