//! Settings changed after grading: which groups' grades were made under
//! other settings than their assignment's now (said at start), and
//! `arena serve regrade`, which puts them back in the grading queue.
//!
//! Each grade keeps what it was made under (`Assignment::graded_under`:
//! the budget, the clock, a grace other than the default, the whole
//! `[settings]`); a grade from before
//! grades kept it counts as made under other settings. Only each group's
//! latest finished submission of an assignment is looked at: the one that
//! counts; older ones keep their grades.

use anyhow::Result;
use rusqlite::Connection;

use crate::{course::Assignment, store::db};

/// A group's latest submission of an assignment, with what it was graded under.
#[derive(Debug, Clone, PartialEq)]
pub struct Graded {
    pub id: i64,
    pub group: String,
    pub under: Option<serde_json::Value>,
}

/// Each group's latest finished submission of `assignment` graded under
/// other settings than its own now.
pub fn changed(db: &Connection, assignment: &Assignment) -> Result<Vec<Graded>> {
    let now = assignment.graded_under();
    Ok(latest(db, assignment)?.into_iter().filter(|g| g.under.as_ref() != Some(&now)).collect())
}

fn latest(db: &Connection, assignment: &Assignment) -> Result<Vec<Graded>> {
    let rows = db::latest_finished(db, &assignment.name)?;
    Ok(rows.into_iter().map(|(id, group, under)| Graded { id, group, under }).collect())
}

/// One line on `changed`, or None when every grade is current.
pub fn warning(assignment: &Assignment, changed: &[Graded]) -> Option<String> {
    if changed.is_empty() {
        return None;
    }
    let listed: Vec<String> = changed.iter().take(10).map(|g| format!("{} ({})", g.id, g.group)).collect();
    let more = if changed.len() > 10 { format!(" and {} more", changed.len() - 10) } else { String::new() };
    let now = assignment.graded_under();
    let grace = now["grace"].as_str().map(|g| format!("{g} grace, ")).unwrap_or_default();
    Some(format!(
        "assignment {}: {} group(s) were graded under other settings than its own now ({} a turn, {grace}{} clock): submission(s) {}{more}; `arena serve regrade --assignment {} --changed` grades them again",
        assignment.name,
        changed.len(),
        now["time_per_turn"].as_str().unwrap_or("?"),
        now["clock"].as_str().unwrap_or("?"),
        listed.join(", "),
        assignment.name,
    ))
}

/// Puts back in the grading queue each group's latest finished submission
/// of `assignment`: all of them, or only those graded under other settings
/// (`all` false). The ones put back.
pub fn regrade(db: &Connection, assignment: &Assignment, all: bool) -> Result<Vec<Graded>> {
    let chosen = if all { latest(db, assignment)? } else { changed(db, assignment)? };
    let ids: Vec<i64> = chosen.iter().map(|g| g.id).collect();
    db::requeue(db, &ids)?;
    Ok(chosen)
}
