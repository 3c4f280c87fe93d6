//! The server's state in one SQLite file (`DIR/arena.db`, WAL): groups,
//! students (tokens stored hashed) and submissions (each a group's:
//! status, progress, grade); uploads and challenges (counted against the
//! hourly limits), league games, scrimmages, Slurm jobs, and settings (the
//! secret among them). The grading queue is fair by group
//! (`next_to_grade`). Migrations are numbered by `PRAGMA user_version`.
//!
//! By table: `people.rs` (students, groups), `submissions.rs`, `jobs.rs`,
//! and `roster.rs` (what staff see of them);
//! the schema is `schema.rs`; settings and deadlines are here.

use std::{path::Path, time::Duration};

use anyhow::{Context, Result};
use rusqlite::OptionalExtension;

/// A connection to the database, as `open` gives it (the CLI holds one
/// without naming SQLite's crate).
pub use rusqlite::Connection;

/// The database file inside the data folder.
pub const FILE: &str = "arena.db";

mod jobs;
mod people;
mod roster;
mod schema;
mod submissions;

pub use jobs::*;
pub use people::*;
pub use roster::*;
use schema::MIGRATIONS;
pub use submissions::*;

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

/// A page of one of a group's lists, newest first: the rows older than
/// `before` (an id; none: from the newest), at most `limit`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Newest {
    pub before: Option<i64>,
    pub limit: usize,
}

/// A page of a list and where it stands in it.
#[derive(Debug)]
pub struct Page<T> {
    pub rows: Vec<T>,
    /// The rows of the whole list, on every page.
    pub total: u64,
    /// The `before` of the next page (its last row's id), when older rows
    /// follow.
    pub next_before: Option<i64>,
}

/// Page `page` of the list `select` (a `SELECT ... FROM ...` whose rows
/// `row` reads) `WHERE filter` (of one parameter, `?1`: `group`), by the
/// ids of column `id` (`id_of` a row's), newest first: one query for every
/// list a group has, so that each is paged alike.
pub(crate) fn newest_page<T>(
    db: &Connection,
    (select, filter, id): (&str, &str, &str),
    group: i64,
    page: Newest,
    row: impl FnMut(&rusqlite::Row<'_>) -> rusqlite::Result<T>,
    id_of: impl Fn(&T) -> i64,
) -> Result<Page<T>> {
    let total: u64 =
        db.query_row(&format!("SELECT COUNT(*) FROM ({select} WHERE {filter})"), [group], |r| r.get(0))?;
    // One row more than asked: whether an older page follows.
    let asked = i64::try_from(page.limit.saturating_add(1)).unwrap_or(i64::MAX);
    let mut query = db.prepare(&format!(
        "{select} WHERE ({filter}) AND (?2 IS NULL OR {id} < ?2) ORDER BY {id} DESC LIMIT ?3"
    ))?;
    let mut rows: Vec<T> = query
        .query_map(rusqlite::params![group, page.before, asked], row)?
        .collect::<rusqlite::Result<_>>()?;
    let more = rows.len() > page.limit;
    rows.truncate(page.limit);
    let next_before = rows.last().filter(|_| more).map(id_of);
    Ok(Page { rows, total, next_before })
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

#[cfg(test)]
#[cfg(test)]
mod tests {
    use super::*;

    /// A page that holds any of these tests' lists whole.
    const ALL: Newest = Newest { before: None, limit: 1000 };

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
        let mine = submissions_of(&db, alice.group, ALL).unwrap().rows;
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
            submissions_of(&db, ann.group, ALL).unwrap().rows.into_iter().map(|s| s.status).collect();
        assert_eq!(statuses, [status::DONE, status::CHECKING, status::SUPERSEDED]);
    }

    fn group_by_name(db: &Connection, name: &str) -> Option<i64> {
        group_named(db, name).unwrap()
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
