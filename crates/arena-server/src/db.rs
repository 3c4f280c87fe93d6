//! The server's state in one SQLite file (`DIR/arena.db`, WAL): groups,
//! students (tokens stored hashed) and submissions (each a group's:
//! status, progress, grade); uploads and challenges (counted against the
//! hourly limits), league games, scrimmages, Slurm jobs, and settings (the
//! secret among them). The grading queue is fair by group
//! (`next_to_grade`). Migrations are numbered by `PRAGMA user_version`.

use std::{path::Path, time::Duration};

use anyhow::{Context, Result};
use rusqlite::{params, OptionalExtension};

/// A connection to the database, as `open` gives it (the CLI holds one
/// without naming SQLite's crate).
pub use rusqlite::Connection;
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
    // Groups (the course's projects are by groups of 2 or 3): a submission
    // is its group's, seen by every member; the hourly limit and the fair
    // queue count per group. Every student of an older server becomes a
    // group of one, named as they are; `note`: a group's contribution note.
    "
    CREATE TABLE groups (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL UNIQUE,
        created TEXT NOT NULL DEFAULT (datetime('now'))
    );
    INSERT INTO groups (id, name) SELECT id, name FROM students;
    ALTER TABLE students ADD COLUMN group_id INTEGER REFERENCES groups(id);
    UPDATE students SET group_id = id;
    ALTER TABLE submissions ADD COLUMN group_id INTEGER REFERENCES groups(id);
    UPDATE submissions SET group_id = (SELECT group_id FROM students WHERE students.id = submissions.student);
    ALTER TABLE submissions ADD COLUMN note TEXT;
    ALTER TABLE uploads ADD COLUMN group_id INTEGER REFERENCES groups(id);
    UPDATE uploads SET group_id = (SELECT group_id FROM students WHERE students.id = uploads.student);
    CREATE INDEX submissions_by_group ON submissions(group_id, id);
    CREATE INDEX uploads_by_group ON uploads(group_id, created);
",
    // Assignments (a course sets several games): a submission is for one.
    // A server before them hosted one assignment: its submissions (NULL
    // here) are the course's first assignment's, set when a server starts
    // (`adopt_unassigned`), as is its deadline. Scrimmages: a group's
    // challenge to another group's current submission of the same
    // assignment, unranked; `result`: the games' W/D/L as JSON.
    "
    ALTER TABLE submissions ADD COLUMN assignment TEXT;
    CREATE INDEX submissions_by_assignment ON submissions(assignment, group_id, id);
    CREATE TABLE scrimmages (
        id INTEGER PRIMARY KEY,
        assignment TEXT NOT NULL,
        challenger INTEGER NOT NULL REFERENCES groups(id),
        opponent INTEGER NOT NULL REFERENCES groups(id),
        by_student INTEGER NOT NULL REFERENCES students(id),
        a INTEGER NOT NULL REFERENCES submissions(id),
        b INTEGER NOT NULL REFERENCES submissions(id),
        status TEXT NOT NULL,
        played INTEGER NOT NULL DEFAULT 0,
        total INTEGER NOT NULL DEFAULT 0,
        result TEXT,
        error TEXT,
        created TEXT NOT NULL DEFAULT (datetime('now')),
        finished TEXT
    );
    CREATE INDEX scrimmages_by_challenger ON scrimmages(challenger, created);
    CREATE INDEX scrimmages_by_opponent ON scrimmages(opponent, id);
    CREATE INDEX scrimmages_by_status ON scrimmages(status, id);
",
    // What a grade was made under (`Assignment::graded_under`: the budget,
    // the clock, the settings), as JSON; NULL for grades from before.
    "ALTER TABLE submissions ADD COLUMN graded_under TEXT;",
    // A group of staff only tests the server: it competes (the
    // leaderboard, the league, scrimmages, `finalize`) only if marked so
    // (`--compete`). A group with a student always competes: [`COMPETES`].
    "ALTER TABLE groups ADD COLUMN compete INTEGER NOT NULL DEFAULT 0;",
    // Every challenge a group starts counts against its hourly scrimmages,
    // refused or not (as `uploads` does for uploads), so that naming groups
    // at random to learn which exist costs what a scrimmage does;
    // `scrimmage`: the one it made. The scrimmages made before are counted.
    "
    CREATE TABLE challenges (
        id INTEGER PRIMARY KEY,
        group_id INTEGER NOT NULL REFERENCES groups(id),
        student INTEGER NOT NULL REFERENCES students(id),
        created TEXT NOT NULL DEFAULT (datetime('now')),
        scrimmage INTEGER REFERENCES scrimmages(id),
        refused TEXT
    );
    CREATE INDEX challenges_by_group ON challenges(group_id, created);
    INSERT INTO challenges (group_id, student, created, scrimmage)
        SELECT challenger, by_student, created, id FROM scrimmages;
",
    // A student removed from the course (`arena serve remove-student`):
    // when; their token was replaced by one no token hashes to. Their
    // group's submissions and grades stay.
    "ALTER TABLE students ADD COLUMN removed TEXT;",
    // A student's full name as the course's roster gives it (`add-student
    // --roster` with a `full name` column), for the gradebook exports; NULL
    // when none was given (`name` is their login).
    "ALTER TABLE students ADD COLUMN full_name TEXT;",
    // A league game's winner apart from its record (0 the older submission,
    // 1 the newer, -1 a draw), so that the league's start counts each
    // pairing's W/D/L in the database (`GROUP BY`) instead of reading a
    // million records; the league's ratings as last fitted, so that it
    // starts from them; and the members of a group found without reading
    // every student (whether it competes: a class of 10,000 read 10,000
    // students for each of 10,000 submissions). Issue 37.
    "
    ALTER TABLE games ADD COLUMN winner INTEGER;
    UPDATE games SET winner = COALESCE(json_extract(result, '$.winner'), -1);
    CREATE INDEX students_by_group ON students(group_id);
    CREATE TABLE league_ratings (
        assignment TEXT NOT NULL,
        submission INTEGER NOT NULL,
        elo REAL NOT NULL,
        error REAL,
        PRIMARY KEY (assignment, submission)
    );
",
    // A submission's stored games, on either side (`a IN (..) OR b IN
    // (..)`, when it enters the league): without an index on `b`, a scan
    // of every game, a tenth of a second or more at a million, for each
    // graded submission.
    "
    CREATE INDEX games_by_b ON games(b);
",
];

/// Whether group `g` competes: it has a student, or its staff marked it
/// (`--compete`). A group of staff only is for testing: its members see
/// their grading, no one else does.
const COMPETES: &str =
    "(g.compete OR EXISTS (SELECT 1 FROM students m WHERE m.group_id = g.id AND NOT m.staff))";

/// Whether group `group` competes ([`COMPETES`]).
pub fn competes(db: &Connection, group: i64) -> Result<bool> {
    Ok(db.query_row(&format!("SELECT {COMPETES} FROM groups g WHERE g.id = ?1"), [group], |row| row.get(0))?)
}

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
pub(crate) fn writing(db: &Connection) -> Result<rusqlite::Transaction<'_>> {
    Ok(rusqlite::Transaction::new_unchecked(db, rusqlite::TransactionBehavior::Immediate)?)
}

/// A student (or a staff member) as the server knows them.
#[derive(Debug, Clone, PartialEq)]
pub struct Student {
    pub id: i64,
    pub name: String,
    pub staff: bool,
    /// Their group's id: its submissions are theirs.
    pub group: i64,
}

const STUDENT: &str = "SELECT id, name, staff, group_id FROM students";

fn student(row: &rusqlite::Row<'_>) -> rusqlite::Result<Student> {
    Ok(Student { id: row.get(0)?, name: row.get(1)?, staff: row.get(2)?, group: row.get(3)? })
}

/// A unique name already taken: says whose, and what to do.
fn taken<'a>(what: &'static str, name: &'a str) -> impl FnOnce(rusqlite::Error) -> anyhow::Error + 'a {
    move |e| match e {
        rusqlite::Error::SqliteFailure(f, _) if f.code == rusqlite::ErrorCode::ConstraintViolation => {
            anyhow::anyhow!("there is already a {what} named '{name}': pick another name")
        }
        e => e.into(),
    }
}

/// Where a new student goes: into a group of their own, named as they are
/// (`compete`: it competes even if they are staff), or into group `In`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Joining {
    Alone { compete: bool },
    In(i64),
}

/// Adds a student whose token hashes to `token_hash`, into a group as `joining` says.
pub fn add_student(
    db: &Connection,
    name: &str,
    token_hash: &str,
    staff: bool,
    joining: Joining,
) -> Result<Student> {
    let tx = writing(db)?;
    let student = add_student_in(&tx, name, token_hash, staff, joining)?;
    tx.commit()?;
    Ok(student)
}

fn add_student_in(
    db: &Connection,
    name: &str,
    token_hash: &str,
    staff: bool,
    joining: Joining,
) -> Result<Student> {
    if student_by_name(db, name)?.is_some() {
        anyhow::bail!("there is already a student named '{name}': pick another name");
    }
    let group = match joining {
        Joining::In(group) => group,
        Joining::Alone { compete } => add_group_in(db, name, compete)?,
    };
    db.execute(
        "INSERT INTO students (name, token_hash, staff, group_id) VALUES (?1, ?2, ?3, ?4)",
        params![name, token_hash, staff, group],
    )
    .map_err(taken("student", name))?;
    Ok(Student { id: db.last_insert_rowid(), name: name.to_string(), staff, group })
}

/// Adds group `name` of `members`, all or none: a member with a token
/// hash is a new student; one without is a student already, moved into it
/// (`move_student`'s rule). `compete`: it competes even if its members
/// are all staff ([`COMPETES`]).
pub fn add_group(
    db: &Connection,
    name: &str,
    members: &[(&str, Option<&str>)],
    compete: bool,
) -> Result<i64> {
    let tx = writing(db)?;
    let group = add_group_in(&tx, name, compete)?;
    for (member, token_hash) in members {
        match token_hash {
            Some(hash) => drop(add_student_in(&tx, member, hash, false, Joining::In(group))?),
            None => move_student(&tx, member, group)?,
        }
    }
    tx.commit()?;
    Ok(group)
}

fn add_group_in(db: &Connection, name: &str, compete: bool) -> Result<i64> {
    db.execute("INSERT INTO groups (name, compete) VALUES (?1, ?2)", params![name, compete])
        .map_err(taken("group", name))?;
    Ok(db.last_insert_rowid())
}

/// The student named `name`.
pub fn student_by_name(db: &Connection, name: &str) -> Result<Option<Student>> {
    Ok(db.query_row(&format!("{STUDENT} WHERE name = ?1"), [name], student).optional()?)
}

/// Moves student `name` into group `group`. Only before either group has
/// a submission: after it, a group's history is its members' (staff see
/// who uploaded what), and moving them would rewrite it. A group of one
/// left empty by the move goes. Their uploads go with them, one in flight
/// too: `add_submission` puts it in the group they are in when it commits.
fn move_student(tx: &Connection, name: &str, group: i64) -> Result<()> {
    let Some(student) = student_by_name(tx, name)? else {
        anyhow::bail!("no student named '{name}': add them with `arena serve add-student` or `add-group`");
    };
    if student.group == group {
        return Ok(());
    }
    let submitted = |group: i64| -> Result<Option<String>> {
        Ok(tx
            .query_row(
                "SELECT g.name FROM groups g WHERE g.id = ?1 AND EXISTS (SELECT 1 FROM submissions s WHERE s.group_id = g.id)",
                [group],
                |row| row.get(0),
            )
            .optional()?)
    };
    for group in [student.group, group] {
        if let Some(name) = submitted(group)? {
            anyhow::bail!(
                "group '{name}' has submitted already: its members stay (its history is theirs); \
                 add a new student instead"
            );
        }
    }
    tx.execute("UPDATE students SET group_id = ?2 WHERE id = ?1", params![student.id, group])?;
    // Their refused uploads (no submission) go with them: the hourly limit
    // counts them in the new group.
    tx.execute("UPDATE uploads SET group_id = ?2 WHERE student = ?1", params![student.id, group])?;
    tx.execute(
        "DELETE FROM groups WHERE id = ?1 AND NOT EXISTS (SELECT 1 FROM students WHERE group_id = ?1)",
        [student.group],
    )?;
    Ok(())
}

/// The group student `id` is in now (they may have moved since their
/// request was authorised).
pub fn group_of(db: &Connection, id: i64) -> Result<i64> {
    Ok(db.query_row("SELECT group_id FROM students WHERE id = ?1", [id], |row| row.get(0))?)
}

/// The student whose token hashes to `token_hash`.
/// No student named `name`: what to do.
fn no_student(name: &str) -> anyhow::Error {
    anyhow::anyhow!("no student named '{name}': add them with `arena serve add-student` or `add-group`")
}

/// Gives student `name` the token hashed `token_hash` in place of theirs
/// (theirs stops working at once: every request looks its token up), and
/// lets a removed student back in.
pub fn set_token(db: &Connection, name: &str, token_hash: &str) -> Result<Student> {
    let changed = db.execute(
        "UPDATE students SET token_hash = ?2, removed = NULL WHERE name = ?1",
        params![name, token_hash],
    )?;
    if changed == 0 {
        return Err(no_student(name));
    }
    student_by_name(db, name)?.ok_or_else(|| no_student(name))
}

/// Removes student `name` from the course: their token stops working at
/// once (replaced by a value no token hashes to: a hash is hex), and they
/// are marked removed. Their group keeps its submissions and grades.
/// Whether they were active (false: removed already).
pub fn remove_student(db: &Connection, name: &str) -> Result<bool> {
    let Some(student) = student_by_name(db, name)? else {
        return Err(no_student(name));
    };
    let changed = db.execute(
        "UPDATE students SET token_hash = 'removed:' || id || ':' || hex(randomblob(16)),
                removed = datetime('now')
         WHERE id = ?1 AND removed IS NULL",
        [student.id],
    )?;
    Ok(changed == 1)
}

pub fn student_by_token(db: &Connection, token_hash: &str) -> Result<Option<Student>> {
    Ok(db.query_row(&format!("{STUDENT} WHERE token_hash = ?1"), [token_hash], student).optional()?)
}

/// A group as its members see it: its name and its members, by name.
#[derive(Serialize, Debug, Clone, PartialEq)]
pub struct Group {
    pub name: String,
    pub members: Vec<String>,
}

/// Group `id`.
pub fn group(db: &Connection, id: i64) -> Result<Group> {
    let name = db.query_row("SELECT name FROM groups WHERE id = ?1", [id], |row| row.get(0))?;
    let mut query = db.prepare("SELECT name FROM students WHERE group_id = ?1 ORDER BY name")?;
    let members = query.query_map([id], |row| row.get(0))?.collect::<rusqlite::Result<_>>()?;
    Ok(Group { name, members })
}

/// Where a submission is on its way to a grade.
pub mod status {
    pub const QUEUED: &str = "queued";
    pub const CHECKING: &str = "checking";
    pub const PLAYING: &str = "playing";
    pub const DONE: &str = "done";
    /// It could not be graded (not a player, a wrong player-api version, ...).
    pub const FAILED: &str = "failed";
    /// A newer submission of the same group arrived while it waited: not
    /// graded (the fair queue grades a group's newest only).
    pub const SUPERSEDED: &str = "superseded";
}

/// A submission as the API shows it.
#[derive(Serialize, Debug, Clone, PartialEq)]
pub struct Submission {
    pub id: i64,
    /// The member who uploaded it.
    pub student: String,
    /// The group it is of.
    pub group: String,
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
    /// The group's note on each member's contribution, if it sent one
    /// (shown to staff only).
    pub note: Option<String>,
    /// What it was graded under (`Assignment::graded_under`: the budget,
    /// the clock, the settings); None before it is, or for a grade made
    /// before grades kept it.
    pub graded_under: Option<serde_json::Value>,
    /// The assignment it is for (the course file's name of it).
    pub assignment: String,
}

const SUBMISSION: &str = "SELECT s.id, st.name, s.sha256, s.file_name, s.size, s.status, s.played, s.total,
    s.error, s.grade, s.created, s.finished, s.late, s.player, s.grading_turn, g.name, s.note,
    COALESCE(s.assignment, ''), s.graded_under FROM submissions s
    JOIN students st ON st.id = s.student JOIN groups g ON g.id = s.group_id";

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
        group: row.get(15)?,
        note: row.get(16)?,
        assignment: row.get(17)?,
        graded_under: row.get::<_, Option<String>>(18)?.and_then(|g| serde_json::from_str(&g).ok()),
    })
}

/// An upload under way: it holds one of its student's places in the
/// hourly limit, whatever comes of it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Upload(pub i64);

/// Uploads a group may still start this hour, and when the oldest of
/// those counted was made (SQLite's `datetime`, UTC).
pub fn uploads_left(db: &Connection, group: i64, per_hour: u32) -> Result<(u32, Option<String>)> {
    let (made, oldest): (u32, Option<String>) = db.query_row(
        "SELECT COUNT(*), MIN(created) FROM uploads WHERE group_id = ?1 AND created > datetime('now', '-1 hour')",
        [group],
        |row| Ok((row.get(0)?, row.get(1)?)),
    )?;
    Ok((per_hour.saturating_sub(made), oldest))
}

/// Takes one of `student`'s group's `per_hour` places for an upload about
/// to be read, counting and recording it in one transaction (uploads sent
/// at once, by one member or several, cannot all pass the count).
/// `Err((made, oldest))` when none is left.
pub fn start_upload(
    db: &Connection,
    student: &Student,
    per_hour: u32,
) -> Result<std::result::Result<Upload, (u32, Option<String>)>> {
    let tx = writing(db)?;
    let (left, oldest) = uploads_left(&tx, student.group, per_hour)?;
    if left == 0 {
        return Ok(Err((per_hour, oldest)));
    }
    tx.execute("INSERT INTO uploads (student, group_id) VALUES (?1, ?2)", [student.id, student.group])?;
    let upload = Upload(tx.last_insert_rowid());
    tx.commit()?;
    Ok(Ok(upload))
}

/// Records why `upload` was refused (it still counts).
pub fn refuse_upload(db: &Connection, upload: Upload, why: &str) -> Result<()> {
    db.execute("UPDATE uploads SET refused = ?2 WHERE id = ?1", params![upload.0, why])?;
    Ok(())
}

/// What an accepted upload is: the assignment it is for, the stored file
/// (its hash, and for a Python player where the player is in its folder),
/// its name, size and the group's contribution note.
pub struct Uploaded<'a> {
    pub assignment: &'a str,
    pub sha256: &'a str,
    pub player: Option<&'a str>,
    pub file_name: &'a str,
    pub size: u64,
    pub note: Option<&'a str>,
}

/// An upload whose uploader was moved into group `group` while it was
/// sent, when that group has no upload left this hour (`made` in it, the
/// oldest of them at `oldest`).
#[derive(Debug, Clone, PartialEq)]
pub struct MovedOverLimit {
    pub group: String,
    pub made: u32,
    pub oldest: Option<String>,
}

/// Records an accepted upload by `student`, queued for grading; its id.
/// It is the group's the student is in as it commits: one transaction
/// reads it and inserts the submission, so a move (`move_student`, which
/// takes the same write lock) comes wholly before or after. Moved while it
/// was sent, it is charged to the new group, which must have a place left
/// of its `per_hour` (else `MovedOverLimit`). The group's notes are kept
/// to [`NOTES_KEPT`] bytes.
pub fn add_submission(
    db: &Connection,
    upload: Upload,
    student: &Student,
    per_hour: u32,
    file: &Uploaded,
) -> Result<std::result::Result<i64, MovedOverLimit>> {
    let tx = writing(db)?;
    let group = group_of(&tx, student.id)?;
    if group != student.group {
        // The places the new group used, this upload left out.
        let (made, oldest): (u32, Option<String>) = tx.query_row(
            "SELECT COUNT(*), MIN(created) FROM uploads
             WHERE group_id = ?1 AND id != ?2 AND created > datetime('now', '-1 hour')",
            params![group, upload.0],
            |row| Ok((row.get(0)?, row.get(1)?)),
        )?;
        tx.execute("UPDATE uploads SET group_id = ?2 WHERE id = ?1", params![upload.0, group])?;
        if made >= per_hour {
            let name = tx.query_row("SELECT name FROM groups WHERE id = ?1", [group], |row| row.get(0))?;
            tx.commit()?;
            return Ok(Err(MovedOverLimit { group: name, made, oldest }));
        }
    }
    tx.execute(
        "INSERT INTO submissions (student, group_id, sha256, player, file_name, size, note, status, assignment, late)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9,
                 COALESCE(datetime('now') > (SELECT value FROM settings WHERE key = ?10), 0))",
        params![
            student.id,
            group,
            file.sha256,
            file.player,
            file.file_name,
            file.size as i64,
            file.note,
            status::QUEUED,
            file.assignment,
            deadline_key(file.assignment)
        ],
    )?;
    let id = tx.last_insert_rowid();
    tx.execute("UPDATE uploads SET submission = ?2 WHERE id = ?1", params![upload.0, id])?;
    if file.note.is_some() {
        trim_notes(&tx, group)?;
    }
    tx.commit()?;
    Ok(Ok(id))
}

/// The most of a group's contribution notes kept, in bytes: its latest
/// ones. A group may send a note with every upload; older ones beyond
/// this are replaced by [`NOTE_DROPPED`].
pub const NOTES_KEPT: i64 = 64 * 1024;

/// What is left of a note dropped to keep its group's to [`NOTES_KEPT`].
pub const NOTE_DROPPED: &str = "[note dropped: a group's latest notes are kept, 64 KiB in all]";

/// Drops group `group`'s oldest notes beyond [`NOTES_KEPT`] bytes.
fn trim_notes(tx: &Connection, group: i64) -> Result<()> {
    let mut query = tx.prepare(
        "SELECT id, length(CAST(note AS BLOB)) FROM submissions
         WHERE group_id = ?1 AND note IS NOT NULL AND note != ?2 ORDER BY id DESC",
    )?;
    let notes = query
        .query_map(params![group, NOTE_DROPPED], |row| Ok((row.get::<_, i64>(0)?, row.get::<_, i64>(1)?)))?
        .collect::<rusqlite::Result<Vec<_>>>()?;
    let mut kept = 0;
    for (i, (id, bytes)) in notes.into_iter().enumerate() {
        kept += bytes;
        // The newest is always kept (a note is far under the bound).
        if kept > NOTES_KEPT && i > 0 {
            tx.execute("UPDATE submissions SET note = ?2 WHERE id = ?1", params![id, NOTE_DROPPED])?;
        }
    }
    Ok(())
}

/// Submission `id` if it is group `group`'s.
pub fn submission_of(db: &Connection, id: i64, group: i64) -> Result<Option<Submission>> {
    Ok(db
        .query_row(
            &format!("{SUBMISSION} WHERE s.id = ?1 AND s.group_id = ?2"),
            params![id, group],
            submission,
        )
        .optional()?)
}

/// Group `group`'s submissions, newest first.
pub fn submissions_of(db: &Connection, group: i64) -> Result<Vec<Submission>> {
    let mut query = db.prepare(&format!("{SUBMISSION} WHERE s.group_id = ?1 ORDER BY s.id DESC"))?;
    let rows = query.query_map([group], submission)?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// The grading queue, as anyone may see it: submissions waiting, and the
/// one being graded (games played of total), without whose they are; of
/// `assignment` only if given (each assignment's board shows its own).
pub fn queue(db: &Connection, assignment: Option<&str>) -> Result<(u32, Option<(i64, i64)>)> {
    let waiting = db.query_row(
        "SELECT COUNT(*) FROM submissions WHERE status = ?1 AND (?2 IS NULL OR assignment = ?2)",
        params![status::QUEUED, assignment],
        |row| row.get(0),
    )?;
    let grading = db
        .query_row(
            "SELECT played, total FROM submissions WHERE status IN (?1, ?2) AND (?3 IS NULL OR assignment = ?3)
             ORDER BY id LIMIT 1",
            params![status::CHECKING, status::PLAYING, assignment],
            |row| Ok((row.get(0)?, row.get(1)?)),
        )
        .optional()?;
    Ok((waiting, grading))
}

/// The next submission to grade, fairly across groups, none of `busy`
/// (being graded now) nor of their groups: one interrupted mid-way first
/// (a crash left it checking or playing); else a waiting
/// submission of the group whose last grading started longest ago (never
/// graded first; ties: who has waited longest), so that one group's many
/// or slow submissions delay another's by one grading at most. With
/// `supersede`, that group's newest waiting submission is taken and its
/// older waiting ones are marked superseded; without, its oldest.
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
    let group: Option<i64> = tx
        .query_row(
            &format!(
                "SELECT q.group_id FROM submissions q WHERE q.status = ?1
                   AND q.group_id NOT IN (SELECT b.group_id FROM submissions b WHERE b.id IN ({busy_list}))
                 GROUP BY q.group_id
                 ORDER BY (SELECT MAX(g.grading_turn) FROM submissions g WHERE g.group_id = q.group_id) NULLS FIRST,
                          MIN(q.id)
                 LIMIT 1"
            ),
            [status::QUEUED],
            |row| row.get(0),
        )
        .optional()?;
    let Some(group) = group else { return Ok(None) };
    let order = if supersede { "DESC" } else { "ASC" };
    let mut next = tx.query_row(
        &format!("{SUBMISSION} WHERE s.group_id = ?1 AND s.status = ?2 ORDER BY s.id {order} LIMIT 1"),
        params![group, status::QUEUED],
        submission,
    )?;
    if supersede {
        // Only by a newer one for the same assignment.
        tx.execute(
            "UPDATE submissions SET status = ?3, finished = datetime('now')
             WHERE group_id = ?1 AND status = ?2 AND id < ?4 AND COALESCE(assignment, '') = ?5",
            params![group, status::QUEUED, status::SUPERSEDED, next.id, next.assignment],
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
pub fn finish(
    db: &Connection,
    id: i64,
    grade: Result<&serde_json::Value, &str>,
    under: &serde_json::Value,
) -> Result<()> {
    let (status, grade, error) = match grade {
        Ok(grade) => (status::DONE, Some(grade.to_string()), None),
        Err(error) => (status::FAILED, None, Some(error)),
    };
    db.execute(
        "UPDATE submissions SET status = ?2, grade = ?3, error = ?4, graded_under = ?5,
         finished = datetime('now') WHERE id = ?1",
        params![id, status, grade, error, under.to_string()],
    )?;
    Ok(())
}

/// Each group's latest finished submission (graded or failed) of
/// `assignment`, for a regrade: (id, group, what it was graded under).
pub fn latest_finished(
    db: &Connection,
    assignment: &str,
) -> Result<Vec<(i64, String, Option<serde_json::Value>)>> {
    let mut query = db.prepare(
        "SELECT s.id, g.name, s.graded_under FROM submissions s JOIN groups g ON g.id = s.group_id
         WHERE s.id IN (SELECT MAX(id) FROM submissions
                        WHERE status IN (?1, ?2) AND assignment = ?3 GROUP BY group_id)
         ORDER BY s.id",
    )?;
    let rows = query.query_map(params![status::DONE, status::FAILED, assignment], |row| {
        let under: Option<String> = row.get(2)?;
        Ok((row.get(0)?, row.get(1)?, under.and_then(|u| serde_json::from_str(&u).ok())))
    })?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// Puts finished submissions `ids` back in the grading queue (the fair
/// queue takes them as it takes new ones); how many it put back.
pub fn requeue(db: &Connection, ids: &[i64]) -> Result<usize> {
    let tx = writing(db)?;
    let mut requeued = 0;
    for id in ids {
        requeued += tx.execute(
            "UPDATE submissions SET status = ?2, grade = NULL, error = NULL, graded_under = NULL,
             played = 0, total = 0, grading_turn = NULL, finished = NULL
             WHERE id = ?1 AND status IN (?3, ?4)",
            params![id, status::QUEUED, status::DONE, status::FAILED],
        )?;
    }
    tx.commit()?;
    Ok(requeued)
}

/// Each competing group's latest graded submission for `assignment` that
/// counts (made before its deadline, if there is one), by the group's
/// name: the leaderboard's, the league's and `finalize`'s ([`COMPETES`]).
pub fn latest_graded(db: &Connection, assignment: &str) -> Result<Vec<Submission>> {
    let mut query = db.prepare(&format!(
        "{SUBMISSION} WHERE s.id IN (SELECT MAX(id) FROM submissions
                                     WHERE status = ?1 AND NOT late AND assignment = ?2 GROUP BY group_id)
           AND {COMPETES}
         ORDER BY g.name"
    ))?;
    let rows = query.query_map(params![status::DONE, assignment], submission)?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// What [`latest_graded`]'s answer depends on, as one text: the same text,
/// the same answer (a board of 10,000 groups reads them again only when
/// a submission, a student or a group changed, not at each league game).
pub fn latest_graded_fingerprint(db: &Connection, assignment: &str) -> Result<String> {
    Ok(db.query_row(
        "SELECT (SELECT COUNT(*) || ',' || COALESCE(MAX(id), 0) || ',' || COALESCE(MAX(finished), '') || ','
                        || COALESCE(SUM(status = ?1), 0) || ',' || COALESCE(SUM(late), 0)
                 FROM submissions WHERE assignment = ?2)
             || '/' || (SELECT COUNT(*) || ',' || COALESCE(SUM(staff), 0) || ',' || COALESCE(SUM(group_id), 0)
                        || ',' || COUNT(removed) FROM students)
             || '/' || (SELECT COUNT(*) || ',' || COALESCE(SUM(compete), 0) FROM groups)",
        params![status::DONE, assignment],
        |row| row.get(0),
    )?)
}

/// Gives the submissions and the deadline of a server from before
/// assignments (it hosted one) to the course's first assignment, `first`.
/// Nothing to do on a newer server.
pub fn adopt_unassigned(db: &Connection, first: &str) -> Result<()> {
    let tx = writing(db)?;
    tx.execute("UPDATE submissions SET assignment = ?1 WHERE assignment IS NULL", [first])?;
    tx.execute(
        "INSERT OR IGNORE INTO settings (key, value) SELECT ?1, value FROM settings WHERE key = 'deadline'",
        [deadline_key(first)],
    )?;
    tx.execute("DELETE FROM settings WHERE key = 'deadline'", [])?;
    tx.commit()?;
    Ok(())
}

/// Sets `assignment`'s deadline (`YYYY-MM-DD HH:MM[:SS]`, UTC): submissions
/// made after it are graded but do not count. Its normalised form.
pub fn set_deadline(db: &Connection, assignment: &str, when: &str) -> Result<String> {
    let normalised: Option<String> = db.query_row("SELECT datetime(?1)", [when], |row| row.get(0))?;
    let Some(normalised) = normalised else {
        anyhow::bail!("'{when}' is not a date and time: write it like 2026-12-01 23:59 (UTC)");
    };
    set_setting(db, &deadline_key(assignment), &normalised)?;
    Ok(normalised)
}

/// `assignment`'s deadline, if one is set.
pub fn deadline(db: &Connection, assignment: &str) -> Result<Option<String>> {
    setting(db, &deadline_key(assignment))
}

/// The setting of `assignment`'s deadline.
fn deadline_key(assignment: &str) -> String {
    format!("deadline:{assignment}")
}

/// A setting the server keeps (`course`: the course file it last ran with).
pub fn setting(db: &Connection, key: &str) -> Result<Option<String>> {
    Ok(db.query_row("SELECT value FROM settings WHERE key = ?1", [key], |row| row.get(0)).optional()?)
}

/// Keeps setting `key`.
pub fn set_setting(db: &Connection, key: &str, value: &str) -> Result<()> {
    db.execute(
        "INSERT INTO settings (key, value) VALUES (?1, ?2) ON CONFLICT(key) DO UPDATE SET value = ?2",
        [key, value],
    )?;
    Ok(())
}

/// A student as the staff's roster shows them.
#[derive(Serialize, Debug, Clone, PartialEq)]
pub struct RosterEntry {
    pub name: String,
    /// Their full name, when the roster gave one.
    pub full_name: Option<String>,
    pub staff: bool,
    /// Their group's name.
    pub group: String,
    /// Their group's submissions.
    pub submissions: u32,
    /// The group's latest submission's id, status and assignment, if any.
    pub latest: Option<(i64, String, String)>,
    /// Whether a graded submission of the group counts (made before any deadline).
    pub graded: bool,
    /// The assignments in which one does, by name (the staff page shows
    /// the selected assignment's).
    pub graded_in: Vec<String>,
    /// When they were removed from the course (`remove-student`), if they were.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub removed: Option<String>,
}

/// Sets student `name`'s full name (None: forgets it).
pub fn set_full_name(db: &Connection, name: &str, full_name: Option<&str>) -> Result<()> {
    let changed =
        db.execute("UPDATE students SET full_name = ?2 WHERE name = ?1", params![name, full_name])?;
    if changed == 0 {
        anyhow::bail!("no student '{name}'");
    }
    Ok(())
}

/// Everyone, by name.
pub fn roster(db: &Connection) -> Result<Vec<RosterEntry>> {
    let mut query = db.prepare(
        "SELECT st.name, st.staff, g.name, st.full_name,
                (SELECT COUNT(*) FROM submissions s WHERE s.group_id = g.id),
                (SELECT s.id FROM submissions s WHERE s.group_id = g.id ORDER BY s.id DESC LIMIT 1),
                (SELECT s.status || char(10) || COALESCE(s.assignment, '') FROM submissions s
                 WHERE s.group_id = g.id ORDER BY s.id DESC LIMIT 1),
                EXISTS (SELECT 1 FROM submissions s WHERE s.group_id = g.id AND s.status = ?1 AND NOT s.late),
                st.removed,
                (SELECT group_concat(a, char(10)) FROM (SELECT DISTINCT s.assignment AS a FROM submissions s
                 WHERE s.group_id = g.id AND s.status = ?1 AND NOT s.late AND s.assignment IS NOT NULL ORDER BY a))
         FROM students st JOIN groups g ON g.id = st.group_id ORDER BY st.name",
    )?;
    let rows = query.query_map([status::DONE], |row| {
        let id: Option<i64> = row.get(5)?;
        // Its status and assignment, one line each.
        let status = row.get::<_, Option<String>>(6)?.map(|both| {
            let (status, assignment) = both.split_once('\n').unwrap_or((&both, ""));
            (status.to_string(), assignment.to_string())
        });
        Ok(RosterEntry {
            name: row.get(0)?,
            full_name: row.get(3)?,
            staff: row.get(1)?,
            group: row.get(2)?,
            submissions: row.get(4)?,
            latest: id.zip(status).map(|(id, (status, assignment))| (id, status, assignment)),
            graded: row.get(7)?,
            removed: row.get(8)?,
            graded_in: row
                .get::<_, Option<String>>(9)?
                .map(|names| names.lines().map(str::to_string).collect())
                .unwrap_or_default(),
        })
    })?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// A group as staff see it: its members, its latest submissions (who
/// uploaded each) and its latest contribution notes, each cut to a
/// preview: the staff page fetches every group's every 2 s, and a group
/// may send a note with every upload ([`note_of`] has a whole one).
#[derive(Serialize, Debug, Clone, PartialEq)]
pub struct GroupEntry {
    pub name: String,
    pub members: Vec<String>,
    /// Whether it competes ([`COMPETES`]); a group of staff only that does
    /// not is for testing.
    pub competes: bool,
    /// Its submissions, all of them.
    pub submission_count: u32,
    /// (submission id, uploaded by, status, assignment), newest first, the
    /// latest [`SUBMISSIONS_LISTED`].
    pub submissions: Vec<(i64, String, String, String)>,
    /// The latest [`NOTES_LISTED`] notes, newest first.
    pub notes: Vec<NotePreview>,
}

/// The submissions [`groups`] lists of each group.
pub const SUBMISSIONS_LISTED: u32 = 20;

/// The notes [`groups`] lists of each group.
pub const NOTES_LISTED: u32 = 3;

/// The characters of a note [`groups`] shows.
pub const NOTE_PREVIEW: u32 = 500;

/// The start of a contribution note.
#[derive(Serialize, Debug, Clone, PartialEq)]
pub struct NotePreview {
    /// The submission it came with.
    pub submission: i64,
    /// Its first [`NOTE_PREVIEW`] characters.
    pub text: String,
    /// Whether there is more ([`note_of`] has it).
    pub cut: bool,
}

/// Every group, by name.
pub fn groups(db: &Connection) -> Result<Vec<GroupEntry>> {
    let mut entries: Vec<GroupEntry> = Vec::new();
    let mut ids = Vec::new();
    let mut query = db.prepare(&format!(
        "SELECT g.id, g.name, {COMPETES}, (SELECT COUNT(*) FROM submissions s WHERE s.group_id = g.id)
         FROM groups g ORDER BY g.name"
    ))?;
    let rows = query.query_map([], |row| {
        Ok((row.get::<_, i64>(0)?, row.get::<_, String>(1)?, row.get(2)?, row.get(3)?))
    })?;
    for row in rows {
        let (id, name, competes, submission_count) = row?;
        ids.push(id);
        entries.push(GroupEntry {
            name,
            members: Vec::new(),
            competes,
            submission_count,
            submissions: Vec::new(),
            notes: Vec::new(),
        });
    }
    let mut members = db.prepare("SELECT name FROM students WHERE group_id = ?1 ORDER BY name")?;
    let mut submissions = db.prepare(
        "SELECT s.id, st.name, s.status, COALESCE(s.assignment, '') FROM submissions s
         JOIN students st ON st.id = s.student
         WHERE s.group_id = ?1 ORDER BY s.id DESC LIMIT ?2",
    )?;
    let mut notes = db.prepare(
        "SELECT id, substr(note, 1, ?2), length(note) > ?2 FROM submissions
         WHERE group_id = ?1 AND note IS NOT NULL ORDER BY id DESC LIMIT ?3",
    )?;
    for (entry, id) in entries.iter_mut().zip(ids) {
        entry.members = members.query_map([id], |row| row.get(0))?.collect::<rusqlite::Result<_>>()?;
        entry.submissions = submissions
            .query_map(params![id, SUBMISSIONS_LISTED], |row| {
                Ok((row.get(0)?, row.get(1)?, row.get(2)?, row.get(3)?))
            })?
            .collect::<rusqlite::Result<_>>()?;
        entry.notes = notes
            .query_map(params![id, NOTE_PREVIEW, NOTES_LISTED], |row| {
                Ok(NotePreview { submission: row.get(0)?, text: row.get(1)?, cut: row.get(2)? })
            })?
            .collect::<rusqlite::Result<_>>()?;
    }
    Ok(entries)
}

/// Submission `id`'s group and whole contribution note (None: it sent
/// none); None if there is no such submission.
pub fn note_of(db: &Connection, id: i64) -> Result<Option<(String, Option<String>)>> {
    Ok(db
        .query_row(
            "SELECT g.name, s.note FROM submissions s JOIN groups g ON g.id = s.group_id WHERE s.id = ?1",
            [id],
            |row| Ok((row.get(0)?, row.get(1)?)),
        )
        .optional()?)
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

#[cfg(test)]
mod tests {
    use super::*;

    const ALONE: Joining = Joining::Alone { compete: false };

    /// A data folder as the server before groups wrote it (schema 6): two
    /// students and a staff member, their submissions and uploads.
    fn before_groups(dir: &Path) {
        let db = Connection::open(dir.join(FILE)).unwrap();
        for migration in &MIGRATIONS[..6] {
            db.execute_batch(migration).unwrap();
        }
        db.pragma_update(None, "user_version", 6).unwrap();
        db.execute_batch(
            "INSERT INTO students (name, token_hash, staff) VALUES ('bob', 'hb', 0), ('alice', 'ha', 0), ('boss', 'hs', 1);
             INSERT INTO submissions (student, sha256, file_name, size, status, grade, grading_turn)
                 VALUES (2, 'a1', 'lib.so', 10, 'done', '{\"passed_all\":true}', 1),
                        (1, 'b1', 'lib.so', 11, 'failed', NULL, 2),
                        (2, 'a2', 'lib.so', 12, 'queued', NULL, NULL);
             INSERT INTO uploads (student, submission) VALUES (2, 1), (1, 2), (2, 3);
             INSERT INTO uploads (student, refused) VALUES (1, 'too large');
             INSERT INTO settings (key, value) VALUES ('deadline', '2020-01-01 00:00:00');",
        )
        .unwrap();
    }

    #[test]
    fn a_submissions_games_are_found_by_index_on_either_side() {
        // What the league asks when a submission enters (league::Live's
        // load_games): a scan of a million games without the index on `b`.
        let dir = tempfile::tempdir().unwrap();
        let db = open(dir.path()).unwrap();
        let plan: Vec<String> = db
            .prepare("EXPLAIN QUERY PLAN SELECT a, b, winner, COUNT(*) FROM games WHERE a IN (5, 7) OR b IN (5, 7) GROUP BY a, b, winner")
            .unwrap()
            .query_map([], |row| row.get(3))
            .unwrap()
            .collect::<rusqlite::Result<_>>()
            .unwrap();
        assert!(plan.iter().any(|step| step.contains("games_by_b")), "{plan:?}");
        assert!(!plan.iter().any(|step| step.starts_with("SCAN games")), "{plan:?}");
    }

    #[test]
    fn league_games_stored_before_their_winner_had_a_column_get_it() {
        // A server before issue 37 kept a game's winner inside its record
        // only; the migration copies it out (0, 1, or -1 for a draw), which
        // the league's start counts by.
        let dir = tempfile::tempdir().unwrap();
        let db = Connection::open(dir.path().join(FILE)).unwrap();
        let before = MIGRATIONS.iter().position(|m| m.contains("ADD COLUMN winner")).unwrap();
        for migration in &MIGRATIONS[..before] {
            db.execute_batch(migration).unwrap();
        }
        db.pragma_update(None, "user_version", before as i64).unwrap();
        db.execute_batch(
            "INSERT INTO students (name, token_hash, staff) VALUES ('bob', 'hb', 0), ('alice', 'ha', 0);
             INSERT INTO submissions (student, sha256, file_name, size, status) VALUES (1, 'a', 'l.so', 1, 'done'), (2, 'b', 'l.so', 1, 'done');
             INSERT INTO games (a, b, game, result) VALUES (1, 2, 0, '{\"winner\":0}'), (1, 2, 1, '{\"winner\":1}'), (1, 2, 2, '{\"winner\":null}');",
        )
        .unwrap();
        drop(db);
        let db = open(dir.path()).unwrap();
        let winners: Vec<i64> = db
            .prepare("SELECT winner FROM games ORDER BY game")
            .unwrap()
            .query_map([], |row| row.get(0))
            .unwrap()
            .collect::<rusqlite::Result<_>>()
            .unwrap();
        assert_eq!(winners, [0, 1, -1]);
    }

    #[test]
    fn students_of_a_server_before_groups_become_groups_of_one_with_nothing_lost() {
        let dir = tempfile::tempdir().unwrap();
        before_groups(dir.path());
        let db = open(dir.path()).unwrap();
        adopt_unassigned(&db, "project").unwrap();
        adopt_unassigned(&db, "project").unwrap();
        assert_eq!(
            deadline(&db, "project").unwrap().as_deref(),
            Some("2020-01-01 00:00:00"),
            "the one deadline"
        );
        let alice = student_by_token(&db, "ha").unwrap().unwrap();
        assert_eq!(
            group(&db, alice.group).unwrap(),
            Group { name: "alice".into(), members: vec!["alice".into()] }
        );
        let mine = submissions_of(&db, alice.group).unwrap();
        assert_eq!(
            mine.iter().map(|s| (s.id, s.sha256.as_str())).collect::<Vec<_>>(),
            [(3, "a2"), (1, "a1")]
        );
        assert!(mine.iter().all(|s| s.group == "alice" && s.student == "alice"));
        assert_eq!(mine[1].grade, Some(serde_json::json!({ "passed_all": true })));
        let bob = student_by_token(&db, "hb").unwrap().unwrap();
        assert_eq!(submission_of(&db, 1, bob.group).unwrap(), None, "alice's is not bob's");
        assert_eq!(uploads_left(&db, bob.group, 5).unwrap().0, 3, "bob's two uploads, the refused one too");
        assert_eq!(uploads_left(&db, alice.group, 5).unwrap().0, 3);
        assert!(mine.iter().all(|s| s.assignment == "project"), "the one assignment's");
        let latest = latest_graded(&db, "project").unwrap();
        assert_eq!(latest.iter().map(|s| (s.id, s.group.as_str())).collect::<Vec<_>>(), [(1, "alice")]);
        let roster = roster(&db).unwrap();
        assert_eq!(
            roster.iter().map(|r| (r.name.as_str(), r.group.as_str(), r.submissions)).collect::<Vec<_>>(),
            [("alice", "alice", 2), ("bob", "bob", 1), ("boss", "boss", 0)]
        );
        // The fair queue goes on by group.
        let next = next_to_grade(&db, true, &Default::default()).unwrap().unwrap();
        assert_eq!((next.id, next.group.as_str()), (3, "alice"));
        // A new submission for the assignment is late by its deadline;
        // another assignment's is not.
        for (assignment, late) in [("project", true), ("other", false)] {
            let upload = start_upload(&db, &alice, 10).unwrap().unwrap();
            let file =
                Uploaded { assignment, sha256: "a3", player: None, file_name: "lib.so", size: 1, note: None };
            let id = add_submission(&db, upload, &alice, 10, &file).unwrap().unwrap();
            let made = submission_of(&db, id, alice.group).unwrap().unwrap();
            assert_eq!((made.assignment.as_str(), made.late), (assignment, late));
        }
    }

    #[test]
    fn a_newer_submission_supersedes_a_waiting_one_of_its_assignment_only() {
        let dir = tempfile::tempdir().unwrap();
        let db = open(dir.path()).unwrap();
        let ann = add_student(&db, "ann", "h1", false, ALONE).unwrap();
        let mut ids = Vec::new();
        for assignment in ["one", "two", "one"] {
            let upload = start_upload(&db, &ann, 10).unwrap().unwrap();
            let file =
                Uploaded { assignment, sha256: "s", player: None, file_name: "lib.so", size: 1, note: None };
            ids.push(add_submission(&db, upload, &ann, 10, &file).unwrap().unwrap());
        }
        let busy = std::collections::HashSet::new();
        let first = next_to_grade(&db, true, &busy).unwrap().unwrap();
        assert_eq!(first.id, ids[2], "the group's newest");
        finish(&db, first.id, Ok(&serde_json::json!({})), &serde_json::json!({})).unwrap();
        let second = next_to_grade(&db, true, &busy).unwrap().unwrap();
        assert_eq!(
            (second.id, second.assignment.as_str()),
            (ids[1], "two"),
            "not superseded by another assignment's"
        );
        let statuses: Vec<String> =
            submissions_of(&db, ann.group).unwrap().into_iter().map(|s| s.status).collect();
        assert_eq!(statuses, [status::DONE, status::CHECKING, status::SUPERSEDED]);
    }

    fn group_by_name(db: &Connection, name: &str) -> Option<i64> {
        db.query_row("SELECT id FROM groups WHERE name = ?1", [name], |row| row.get(0)).optional().unwrap()
    }

    #[test]
    fn a_group_is_made_whole_or_not_at_all() {
        let dir = tempfile::tempdir().unwrap();
        let db = open(dir.path()).unwrap();
        let ann = add_student(&db, "ann", "h1", false, ALONE).unwrap();
        let upload = start_upload(&db, &ann, 5).unwrap().unwrap();
        let file = Uploaded {
            assignment: "project",
            sha256: "s",
            player: None,
            file_name: "lib.so",
            size: 1,
            note: Some("all mine"),
        };
        add_submission(&db, upload, &ann, 10, &file).unwrap().unwrap();
        let e = add_group(&db, "ann_ben", &[("ben", Some("h2")), ("ann", None)], false).unwrap_err();
        assert!(e.to_string().starts_with("group 'ann' has submitted already"), "{e}");
        assert_eq!(group_by_name(&db, "ann_ben"), None);
        assert_eq!(student_by_name(&db, "ben").unwrap(), None);
        add_student(&db, "cy", "h3", false, ALONE).unwrap();
        let group = add_group(&db, "cy_dee", &[("cy", None), ("dee", Some("h4"))], false).unwrap();
        assert_eq!(student_by_token(&db, "h3").unwrap().unwrap().group, group);
        assert_eq!(group_by_name(&db, "cy"), None, "the emptied group of one goes");
        assert_eq!(
            groups(&db).unwrap()[0].notes,
            [NotePreview { submission: 1, text: "all mine".into(), cut: false }]
        );
        // A refused upload is no submission: its student still moves.
        let gus = add_student(&db, "gus", "h5", false, ALONE).unwrap();
        let upload = start_upload(&db, &gus, 5).unwrap().unwrap();
        refuse_upload(&db, upload, "not a player library").unwrap();
        let group = add_group(&db, "gus_hal", &[("gus", None), ("hal", Some("h6"))], false).unwrap();
        assert_eq!(student_by_token(&db, "h5").unwrap().unwrap().group, group);
    }
}
