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
    // Every upload a student starts counts against the hourly limit,
    // accepted or refused (`uploads`); the fair queue needs the order in
    // which gradings started (`grading_turn`).
    "
    CREATE TABLE uploads (
        id INTEGER PRIMARY KEY,
        student INTEGER NOT NULL REFERENCES students(id),
        created TEXT NOT NULL DEFAULT (datetime('now')),
        submission INTEGER REFERENCES submissions(id),
        refused TEXT
    );
    CREATE INDEX uploads_by_student ON uploads(student, created);
    INSERT INTO uploads (student, created, submission) SELECT student, created, id FROM submissions;
    ALTER TABLE submissions ADD COLUMN grading_turn INTEGER;
    UPDATE submissions SET grading_turn = id WHERE status != 'queued';
",
    // A grading run's Slurm jobs (`--executor slurm`), so that a restarted
    // server follows the job under way instead of submitting another, and
    // counts the jobs that ended without finishing the run. `state` is
    // NULL until the server sees the job end.
    "
    CREATE TABLE jobs (
        id INTEGER PRIMARY KEY,
        submission INTEGER NOT NULL REFERENCES submissions(id),
        slurm_id TEXT NOT NULL,
        submitted TEXT NOT NULL DEFAULT (datetime('now')),
        state TEXT,
        exit_code INTEGER,
        ended TEXT
    );
    CREATE INDEX jobs_by_submission ON jobs(submission, id);
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
        let tx = writing(&db)?;
        tx.execute_batch(migration).with_context(|| format!("migration {} of {}", i + 1, path.display()))?;
        tx.pragma_update(None, "user_version", i + 1)?;
        tx.commit()?;
    }
    Ok(db)
}

/// A transaction that will write: it takes the write lock at once (waiting
/// for it up to the busy timeout), where a deferred one that read first
/// would fail when another connection wrote in between.
fn writing(db: &Connection) -> Result<rusqlite::Transaction<'_>> {
    Ok(rusqlite::Transaction::new_unchecked(db, rusqlite::TransactionBehavior::Immediate)?)
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
    /// A newer submission of the same student arrived while it waited: not
    /// graded (the fair queue grades a student's newest only).
    pub const SUPERSEDED: &str = "superseded";
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
    /// The order in which its grading started (1: the first on this
    /// server); None while it waits.
    pub grading_turn: Option<i64>,
}

const SUBMISSION: &str = "SELECT s.id, st.name, s.sha256, s.file_name, s.size, s.status, s.played, s.total,
    s.error, s.grade, s.created, s.finished, s.late, s.player, s.grading_turn FROM submissions s
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
        grading_turn: row.get(14)?,
    })
}

/// An upload under way: it holds one of its student's places in the
/// hourly limit, whatever comes of it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Upload(pub i64);

/// Uploads a student may still start this hour, and when the oldest of
/// those counted was made (SQLite's `datetime`, UTC).
pub fn uploads_left(db: &Connection, student: i64, per_hour: u32) -> Result<(u32, Option<String>)> {
    let (made, oldest): (u32, Option<String>) = db.query_row(
        "SELECT COUNT(*), MIN(created) FROM uploads WHERE student = ?1 AND created > datetime('now', '-1 hour')",
        [student],
        |row| Ok((row.get(0)?, row.get(1)?)),
    )?;
    Ok((per_hour.saturating_sub(made), oldest))
}

/// Takes one of `student`'s `per_hour` places for an upload about to be
/// read, counting and recording it in one transaction (uploads sent at
/// once cannot all pass the count). `Err((made, oldest))` when none is left.
pub fn start_upload(
    db: &Connection,
    student: i64,
    per_hour: u32,
) -> Result<std::result::Result<Upload, (u32, Option<String>)>> {
    let tx = writing(db)?;
    let (left, oldest) = uploads_left(&tx, student, per_hour)?;
    if left == 0 {
        return Ok(Err((per_hour, oldest)));
    }
    tx.execute("INSERT INTO uploads (student) VALUES (?1)", [student])?;
    let upload = Upload(tx.last_insert_rowid());
    tx.commit()?;
    Ok(Ok(upload))
}

/// Records why `upload` was refused (it still counts).
pub fn refuse_upload(db: &Connection, upload: Upload, why: &str) -> Result<()> {
    db.execute("UPDATE uploads SET refused = ?2 WHERE id = ?1", params![upload.0, why])?;
    Ok(())
}

/// Records an accepted upload, queued for grading; its id. `player`: see
/// [`Submission::player`].
pub fn add_submission(
    db: &Connection,
    upload: Upload,
    student: i64,
    (sha256, player): (&str, Option<&str>),
    file_name: &str,
    size: u64,
) -> Result<i64> {
    let tx = writing(db)?;
    tx.execute(
        "INSERT INTO submissions (student, sha256, player, file_name, size, status, late)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6,
                 COALESCE(datetime('now') > (SELECT value FROM settings WHERE key = 'deadline'), 0))",
        params![student, sha256, player, file_name, size as i64, status::QUEUED],
    )?;
    let id = tx.last_insert_rowid();
    tx.execute("UPDATE uploads SET submission = ?2 WHERE id = ?1", params![upload.0, id])?;
    tx.commit()?;
    Ok(id)
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

/// The next submission to grade, fairly across students, none of `busy`
/// (being graded now) nor of their students: one interrupted mid-way first
/// (a crash left it checking or playing); else a waiting
/// submission of the student whose last grading started longest ago (never
/// graded first; ties: who has waited longest), so that one student's many
/// or slow submissions delay another's by one grading at most. With
/// `supersede`, that student's newest waiting submission is taken and their
/// older waiting ones are marked superseded; without, their oldest.
/// Marks the one taken as started (its `grading_turn`).
pub fn next_to_grade(
    db: &Connection,
    supersede: bool,
    busy: &std::collections::HashSet<i64>,
) -> Result<Option<Submission>> {
    let tx = writing(db)?;
    // Being graded now (by another slot): neither interrupted, nor may
    // their students have a second one graded at once.
    let busy_list = busy.iter().map(i64::to_string).collect::<Vec<_>>().join(",");
    let interrupted = tx
        .query_row(
            &format!(
                "{SUBMISSION} WHERE s.status IN (?1, ?2) AND s.id NOT IN ({busy_list}) ORDER BY s.id LIMIT 1"
            ),
            params![status::CHECKING, status::PLAYING],
            submission,
        )
        .optional()?;
    if interrupted.is_some() {
        return Ok(interrupted);
    }
    let student: Option<i64> = tx
        .query_row(
            &format!(
                "SELECT q.student FROM submissions q WHERE q.status = ?1
                   AND q.student NOT IN (SELECT b.student FROM submissions b WHERE b.id IN ({busy_list}))
                 GROUP BY q.student
                 ORDER BY (SELECT MAX(g.grading_turn) FROM submissions g WHERE g.student = q.student) NULLS FIRST,
                          MIN(q.id)
                 LIMIT 1"
            ),
            [status::QUEUED],
            |row| row.get(0),
        )
        .optional()?;
    let Some(student) = student else { return Ok(None) };
    let order = if supersede { "DESC" } else { "ASC" };
    let mut next = tx.query_row(
        &format!("{SUBMISSION} WHERE s.student = ?1 AND s.status = ?2 ORDER BY s.id {order} LIMIT 1"),
        params![student, status::QUEUED],
        submission,
    )?;
    if supersede {
        tx.execute(
            "UPDATE submissions SET status = ?3, finished = datetime('now')
             WHERE student = ?1 AND status = ?2 AND id < ?4",
            params![student, status::QUEUED, status::SUPERSEDED, next.id],
        )?;
    }
    tx.execute(
        "UPDATE submissions SET status = ?2,
                grading_turn = (SELECT COALESCE(MAX(grading_turn), 0) + 1 FROM submissions)
         WHERE id = ?1",
        params![next.id, status::CHECKING],
    )?;
    tx.commit()?;
    next.status = status::CHECKING.to_string();
    Ok(Some(next))
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
