//! Students, groups and staff: adding and moving them, their tokens (stored
//! hashed).

use anyhow::Result;
use rusqlite::{params, OptionalExtension};
use serde::Serialize;

use super::{writing, Connection};

/// Whether group `g` competes: it has a student, or its staff marked it
/// (`--compete`). A group of staff only is for testing: its members see
/// their grading, no one else does.
pub(super) const COMPETES: &str =
    "(g.compete OR EXISTS (SELECT 1 FROM students m WHERE m.group_id = g.id AND NOT m.staff))";

/// Whether group `group` competes ([`COMPETES`]).
pub fn competes(db: &Connection, group: i64) -> Result<bool> {
    Ok(db.query_row(&format!("SELECT {COMPETES} FROM groups g WHERE g.id = ?1"), [group], |row| row.get(0))?)
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

/// The id of the group named `name`, if there is one.
pub fn group_named(db: &Connection, name: &str) -> Result<Option<i64>> {
    Ok(db.query_row("SELECT id FROM groups WHERE name = ?1", [name], |row| row.get(0)).optional()?)
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
