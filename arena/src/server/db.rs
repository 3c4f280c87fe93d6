//! The server's state in one SQLite file (`DIR/arena.db`, WAL): students
//! (tokens stored hashed) and submissions (status, progress, grade).
//! Migrations are numbered by `PRAGMA user_version`.

use std::{path::Path, time::Duration};

use anyhow::{Context, Result};
use rusqlite::{params, Connection, OptionalExtension};
use serde::Serialize;

/// The database file inside the data folder.
pub const FILE: &str = "arena.db";

/// Schema changes, in order; `user_version` counts those applied.
const MIGRATIONS: &[&str] = &[
    "
    CREATE TABLE students (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL UNIQUE,
        token_hash TEXT NOT NULL UNIQUE,
        staff INTEGER NOT NULL DEFAULT 0,
        created TEXT NOT NULL DEFAULT (datetime('now'))
    );
    CREATE TABLE submissions (
        id INTEGER PRIMARY KEY,
        student INTEGER NOT NULL REFERENCES students(id),
        sha256 TEXT NOT NULL,
        file_name TEXT NOT NULL,
        size INTEGER NOT NULL,
        status TEXT NOT NULL,
        played INTEGER NOT NULL DEFAULT 0,
        total INTEGER NOT NULL DEFAULT 0,
        error TEXT,
        grade TEXT,
        created TEXT NOT NULL DEFAULT (datetime('now')),
        finished TEXT
    );
    CREATE INDEX submissions_by_status ON submissions(status, id);
    CREATE INDEX submissions_by_student ON submissions(student, id);
",
    "
    CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);
    ALTER TABLE submissions ADD COLUMN late INTEGER NOT NULL DEFAULT 0;
",
    "
    CREATE TABLE games (
        a INTEGER NOT NULL REFERENCES submissions(id),
        b INTEGER NOT NULL REFERENCES submissions(id),
        game INTEGER NOT NULL,
        result TEXT NOT NULL,
        PRIMARY KEY (a, b, game)
    );
",
    "
    ALTER TABLE submissions ADD COLUMN player TEXT;
",
];

/// Opens (creating if needed) the database of data folder `dir`, migrated.
pub fn open(dir: &Path) -> Result<Connection> {
    let path = dir.join(FILE);
    let db =
        Connection::open(&path).with_context(|| format!("cannot open the database {}", path.display()))?;
    db.busy_timeout(Duration::from_secs(10))?;
    db.pragma_update(None, "journal_mode", "WAL")?;
    db.pragma_update(None, "foreign_keys", "ON")?;
    // WAL with synchronous=FULL: a commit is on disk when it returns, so a
    // kill -9 loses no accepted submission.
    db.pragma_update(None, "synchronous", "FULL")?;
    let applied: usize = db.pragma_query_value(None, "user_version", |row| row.get(0))?;
    if applied > MIGRATIONS.len() {
        anyhow::bail!(
            "the database {} is from a newer arena (schema {applied}, this one knows {}): use that arena",
            path.display(),
            MIGRATIONS.len()
        );
    }
    for (i, migration) in MIGRATIONS.iter().enumerate().skip(applied) {
        let tx = db.unchecked_transaction()?;
        tx.execute_batch(migration).with_context(|| format!("migration {} of {}", i + 1, path.display()))?;
        tx.pragma_update(None, "user_version", i + 1)?;
        tx.commit()?;
    }
    Ok(db)
}

/// A student (or a staff member) as the server knows them.
#[derive(Debug, Clone, PartialEq)]
pub struct Student {
    pub id: i64,
    pub name: String,
    pub staff: bool,
}

/// Adds a student whose token hashes to `token_hash`.
pub fn add_student(db: &Connection, name: &str, token_hash: &str, staff: bool) -> Result<Student> {
    db.execute(
        "INSERT INTO students (name, token_hash, staff) VALUES (?1, ?2, ?3)",
        params![name, token_hash, staff],
    )
    .map_err(|e| match e {
        rusqlite::Error::SqliteFailure(f, _) if f.code == rusqlite::ErrorCode::ConstraintViolation => {
            anyhow::anyhow!("there is already a student named '{name}': pick another name")
        }
        e => e.into(),
    })?;
    Ok(Student { id: db.last_insert_rowid(), name: name.to_string(), staff })
}

/// The student whose token hashes to `token_hash`.
pub fn student_by_token(db: &Connection, token_hash: &str) -> Result<Option<Student>> {
    Ok(db
        .query_row("SELECT id, name, staff FROM students WHERE token_hash = ?1", [token_hash], |row| {
            Ok(Student { id: row.get(0)?, name: row.get(1)?, staff: row.get(2)? })
        })
        .optional()?)
}

/// Where a submission is on its way to a grade.
pub mod status {
    pub const QUEUED: &str = "queued";
    pub const CHECKING: &str = "checking";
    pub const PLAYING: &str = "playing";
    pub const DONE: &str = "done";
    /// It could not be graded (not a player, a wrong player-api version, ...).
    pub const FAILED: &str = "failed";
}

/// A submission as the API shows it.
#[derive(Serialize, Debug, Clone, PartialEq)]
pub struct Submission {
    pub id: i64,
    pub student: String,
    pub sha256: String,
    pub file_name: String,
    pub size: i64,
    pub status: String,
    /// Games played and to play while it is graded.
    pub played: i64,
    pub total: i64,
    /// Why it could not be graded.
    pub error: Option<String>,
    /// The grade: wins against each level, passed or not (`GradeReport`).
    pub grade: Option<serde_json::Value>,
    pub created: String,
    pub finished: Option<String>,
    /// Made after the deadline: graded, but it does not count.
    pub late: bool,
    /// A Python player (an uploaded archive): where the player is in its
    /// unpacked folder. None for a library.
    pub player: Option<String>,
}

const SUBMISSION: &str = "SELECT s.id, st.name, s.sha256, s.file_name, s.size, s.status, s.played, s.total,
    s.error, s.grade, s.created, s.finished, s.late, s.player FROM submissions s
    JOIN students st ON st.id = s.student";

fn submission(row: &rusqlite::Row<'_>) -> rusqlite::Result<Submission> {
    let grade: Option<String> = row.get(9)?;
    Ok(Submission {
        id: row.get(0)?,
        student: row.get(1)?,
        sha256: row.get(2)?,
        file_name: row.get(3)?,
        size: row.get(4)?,
        status: row.get(5)?,
        played: row.get(6)?,
        total: row.get(7)?,
        error: row.get(8)?,
        grade: grade.and_then(|g| serde_json::from_str(&g).ok()),
        created: row.get(10)?,
        finished: row.get(11)?,
        late: row.get(12)?,
        player: row.get(13)?,
    })
}

/// Records an accepted upload, queued for grading; its id. `player`: see
/// [`Submission::player`].
pub fn add_submission(
    db: &Connection,
    student: i64,
    (sha256, player): (&str, Option<&str>),
    file_name: &str,
    size: u64,
) -> Result<i64> {
    db.execute(
        "INSERT INTO submissions (student, sha256, player, file_name, size, status, late)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6,
                 COALESCE(datetime('now') > (SELECT value FROM settings WHERE key = 'deadline'), 0))",
        params![student, sha256, player, file_name, size as i64, status::QUEUED],
    )?;
    Ok(db.last_insert_rowid())
}

/// How many submissions `student` made in the last hour, and when the
/// oldest of them was made (SQLite's `datetime`, UTC).
pub fn submissions_last_hour(db: &Connection, student: i64) -> Result<(u32, Option<String>)> {
    Ok(db.query_row(
        "SELECT COUNT(*), MIN(created) FROM submissions WHERE student = ?1 AND created > datetime('now', '-1 hour')",
        [student],
        |row| Ok((row.get(0)?, row.get(1)?)),
    )?)
}

/// Submission `id` if it is `student`'s.
pub fn submission_of(db: &Connection, id: i64, student: i64) -> Result<Option<Submission>> {
    Ok(db
        .query_row(
            &format!("{SUBMISSION} WHERE s.id = ?1 AND s.student = ?2"),
            params![id, student],
            submission,
        )
        .optional()?)
}

/// `student`'s submissions, newest first.
pub fn submissions_of(db: &Connection, student: i64) -> Result<Vec<Submission>> {
    let mut query = db.prepare(&format!("{SUBMISSION} WHERE s.student = ?1 ORDER BY s.id DESC"))?;
    let rows = query.query_map([student], submission)?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// The grading queue, as anyone may see it: submissions waiting, and the
/// one being graded (games played of total), without whose they are.
pub fn queue(db: &Connection) -> Result<(u32, Option<(i64, i64)>)> {
    let waiting =
        db.query_row("SELECT COUNT(*) FROM submissions WHERE status = ?1", [status::QUEUED], |row| {
            row.get(0)
        })?;
    let grading = db
        .query_row(
            "SELECT played, total FROM submissions WHERE status IN (?1, ?2) ORDER BY id LIMIT 1",
            params![status::CHECKING, status::PLAYING],
            |row| Ok((row.get(0)?, row.get(1)?)),
        )
        .optional()?;
    Ok((waiting, grading))
}

/// The next submission to grade: the oldest not finished (one interrupted
/// mid-way is taken up again first: it is older).
pub fn next_to_grade(db: &Connection) -> Result<Option<Submission>> {
    Ok(db
        .query_row(
            &format!("{SUBMISSION} WHERE s.status IN (?1, ?2, ?3) ORDER BY s.id LIMIT 1"),
            params![status::QUEUED, status::CHECKING, status::PLAYING],
            submission,
        )
        .optional()?)
}

/// Moves submission `id` on: its status and games played of `total`.
pub fn set_progress(db: &Connection, id: i64, status: &str, played: usize, total: usize) -> Result<()> {
    db.execute(
        "UPDATE submissions SET status = ?2, played = ?3, total = ?4 WHERE id = ?1",
        params![id, status, played as i64, total as i64],
    )?;
    Ok(())
}

/// Ends submission `id`: graded (`grade`), or failed (`error`).
pub fn finish(db: &Connection, id: i64, grade: Result<&serde_json::Value, &str>) -> Result<()> {
    let (status, grade, error) = match grade {
        Ok(grade) => (status::DONE, Some(grade.to_string()), None),
        Err(error) => (status::FAILED, None, Some(error)),
    };
    db.execute(
        "UPDATE submissions SET status = ?2, grade = ?3, error = ?4, finished = datetime('now') WHERE id = ?1",
        params![id, status, grade, error],
    )?;
    Ok(())
}

/// Each student's latest graded submission that counts (made before the
/// deadline, if there is one), by name.
pub fn latest_graded(db: &Connection) -> Result<Vec<Submission>> {
    let mut query = db.prepare(&format!(
        "{SUBMISSION} WHERE s.id IN (SELECT MAX(id) FROM submissions WHERE status = ?1 AND NOT late GROUP BY student)
         ORDER BY st.name"
    ))?;
    let rows = query.query_map([status::DONE], submission)?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// Sets the deadline (`YYYY-MM-DD HH:MM[:SS]`, UTC): submissions made after
/// it are graded but do not count. Its normalised form.
pub fn set_deadline(db: &Connection, when: &str) -> Result<String> {
    let normalised: Option<String> = db.query_row("SELECT datetime(?1)", [when], |row| row.get(0))?;
    let Some(normalised) = normalised else {
        anyhow::bail!("'{when}' is not a date and time: write it like 2026-12-01 23:59 (UTC)");
    };
    db.execute(
        "INSERT INTO settings (key, value) VALUES ('deadline', ?1) ON CONFLICT(key) DO UPDATE SET value = ?1",
        [&normalised],
    )?;
    Ok(normalised)
}

/// The deadline, if one is set.
pub fn deadline(db: &Connection) -> Result<Option<String>> {
    Ok(db.query_row("SELECT value FROM settings WHERE key = 'deadline'", [], |row| row.get(0)).optional()?)
}

/// A student as the staff's roster shows them.
#[derive(Serialize, Debug, Clone, PartialEq)]
pub struct RosterEntry {
    pub name: String,
    pub staff: bool,
    pub submissions: u32,
    /// The latest submission's id and status, if any.
    pub latest: Option<(i64, String)>,
    /// Whether a graded submission of theirs counts (made before any deadline).
    pub graded: bool,
}

/// Everyone, by name.
pub fn roster(db: &Connection) -> Result<Vec<RosterEntry>> {
    let mut query = db.prepare(
        "SELECT st.name, st.staff,
                (SELECT COUNT(*) FROM submissions s WHERE s.student = st.id),
                (SELECT s.id FROM submissions s WHERE s.student = st.id ORDER BY s.id DESC LIMIT 1),
                (SELECT s.status FROM submissions s WHERE s.student = st.id ORDER BY s.id DESC LIMIT 1),
                EXISTS (SELECT 1 FROM submissions s WHERE s.student = st.id AND s.status = ?1 AND NOT s.late)
         FROM students st ORDER BY st.name",
    )?;
    let rows = query.query_map([status::DONE], |row| {
        let id: Option<i64> = row.get(3)?;
        let status: Option<String> = row.get(4)?;
        Ok(RosterEntry {
            name: row.get(0)?,
            staff: row.get(1)?,
            submissions: row.get(2)?,
            latest: id.zip(status),
            graded: row.get(5)?,
        })
    })?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// The submissions not finished, oldest first.
pub fn unfinished(db: &Connection) -> Result<Vec<Submission>> {
    let mut query = db.prepare(&format!("{SUBMISSION} WHERE s.status IN (?1, ?2, ?3) ORDER BY s.id"))?;
    let rows = query.query_map(params![status::QUEUED, status::CHECKING, status::PLAYING], submission)?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}
