//! Submissions: uploads counted against the hourly limit, the grading
//! queue (fair by group: `next_to_grade`), progress, grades, notes.

use anyhow::Result;
use rusqlite::{params, OptionalExtension};
use serde::Serialize;

use super::{
    deadline_key,
    people::{group_of, Student, COMPETES},
    writing, Connection,
};

/// Where a submission is on its way to a grade.
pub mod status {
    pub const QUEUED: &str = "queued";
    pub const CHECKING: &str = "checking";
    pub const PLAYING: &str = "playing";
    pub const DONE: &str = "done";
    /// Its grading began and waits to go on (`waiting` says why: the
    /// machine spoiled its games, the disk is full); taken again at its
    /// `retry_at` (none: the disk's, whenever the server takes work
    /// again), never failed for it.
    pub const WAITING: &str = "waiting";
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
    /// Why its grading waits (status `waiting`): "waiting for the machine:
    /// 2 games postponed".
    pub waiting: Option<String>,
    /// When it is taken again, while it waits (SQLite's `datetime`, UTC);
    /// none for a wait that is not timed (the full disk's).
    pub retry_at: Option<String>,
}

const SUBMISSION: &str = "SELECT s.id, st.name, s.sha256, s.file_name, s.size, s.status, s.played, s.total,
    s.error, s.grade, s.created, s.finished, s.late, s.player, s.grading_turn, g.name, s.note,
    COALESCE(s.assignment, ''), s.graded_under, s.waiting, s.retry_at FROM submissions s
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
        waiting: row.get(19)?,
        retry_at: row.get(20)?,
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

/// A page of group `group`'s submissions, newest first.
pub fn submissions_of(db: &Connection, group: i64, page: super::Newest) -> Result<super::Page<Submission>> {
    super::newest_page(db, (SUBMISSION, "s.group_id = ?1", "s.id"), group, page, submission, |s| s.id)
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
    // One whose grading waited (for the machine, for the disk) and whose
    // time has come goes on before new ones: it was taken before them. An
    // untimed wait (the disk's) is due whenever a slot looks.
    let resumed = tx
        .query_row(
            &format!(
                "{SUBMISSION} WHERE s.status = ?1 AND (s.retry_at IS NULL OR s.retry_at <= datetime('now'))
                 AND s.id NOT IN ({busy_list}) ORDER BY s.retry_at, s.id LIMIT 1"
            ),
            params![status::WAITING],
            submission,
        )
        .optional()?;
    if resumed.is_some() {
        return Ok(resumed);
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
        "UPDATE submissions SET status = ?2, played = ?3, total = ?4, waiting = NULL, retry_at = NULL
         WHERE id = ?1",
        params![id, status, played as i64, total as i64],
    )?;
    Ok(())
}

/// Submission `id`'s grading waits `why` (the run is kept: it resumes
/// from its journal): until the backoff `wait(waits)` has passed, `waits`
/// the times it waited so before; or, without `wait`, until the server
/// takes it again (a full disk: the server holds that wait in memory).
/// The wait, if timed.
pub fn postpone(
    db: &Connection,
    id: i64,
    why: &str,
    wait: Option<fn(u32) -> std::time::Duration>,
) -> Result<Option<std::time::Duration>> {
    let tx = writing(db)?;
    let waits: u32 = tx.query_row("SELECT waits FROM submissions WHERE id = ?1", [id], |row| row.get(0))?;
    let wait = wait.map(|wait| wait(waits));
    tx.execute(
        "UPDATE submissions SET status = ?2, waiting = ?3, waits = waits + (?4 IS NOT NULL),
         retry_at = datetime('now', ?4) WHERE id = ?1",
        params![id, status::WAITING, why, wait.map(|wait| format!("+{} seconds", wait.as_secs()))],
    )?;
    tx.commit()?;
    Ok(wait)
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
         finished = datetime('now'), waiting = NULL, retry_at = NULL WHERE id = ?1",
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
    let mut query = db.prepare(&format!("{SUBMISSION} WHERE s.status IN (?1, ?2, ?3, ?4) ORDER BY s.id"))?;
    let rows = query
        .query_map(params![status::QUEUED, status::CHECKING, status::PLAYING, status::WAITING], submission)?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}
