//! The roster and the groups as staff see them: each group's members,
//! latest submissions and notes (above the tables it reads).

use anyhow::Result;
use rusqlite::params;
use serde::Serialize;

use super::{people::COMPETES, submissions::status, Connection};

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
/// may send a note with every upload ([`note_of`](super::note_of) has a whole one).
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
    /// Whether there is more ([`note_of`](super::note_of) has it).
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
