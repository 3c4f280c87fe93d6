//! The Slurm jobs of grading runs.

use anyhow::Result;
use rusqlite::params;

use super::Connection;

/// A Slurm job of a grading run.
#[derive(Debug, Clone, PartialEq)]
pub struct Job {
    pub id: i64,
    /// Slurm's job id.
    pub slurm_id: String,
    /// How it ended, once the server saw it end: Slurm's state (`GONE`:
    /// Slurm no longer knew it) and exit code.
    pub end: Option<(String, Option<i32>)>,
}

/// Records Slurm job `slurm_id`, just submitted for `submission`'s grading run.
pub fn add_job(db: &Connection, submission: i64, slurm_id: &str) -> Result<Job> {
    db.execute("INSERT INTO jobs (submission, slurm_id) VALUES (?1, ?2)", params![submission, slurm_id])?;
    Ok(Job { id: db.last_insert_rowid(), slurm_id: slurm_id.to_string(), end: None })
}

/// Records how `job` ended.
pub fn end_job(db: &Connection, job: i64, state: &str, exit_code: Option<i32>) -> Result<()> {
    db.execute(
        "UPDATE jobs SET state = ?2, exit_code = ?3, ended = datetime('now') WHERE id = ?1",
        params![job, state, exit_code],
    )?;
    Ok(())
}

/// The Slurm jobs of `submission`'s grading run, oldest first.
pub fn jobs_of(db: &Connection, submission: i64) -> Result<Vec<Job>> {
    let mut query =
        db.prepare("SELECT id, slurm_id, state, exit_code FROM jobs WHERE submission = ?1 ORDER BY id")?;
    let rows = query.query_map([submission], |row| {
        let state: Option<String> = row.get(2)?;
        let exit_code: Option<i32> = row.get(3)?;
        Ok(Job { id: row.get(0)?, slurm_id: row.get(1)?, end: state.map(|s| (s, exit_code)) })
    })?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}
