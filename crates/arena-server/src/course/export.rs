//! `arena serve export`: the points `finalize` gave, in the layout a
//! course-management system imports (docs/server.md, "Grades into the
//! gradebook"): Canvas's gradebook CSV, Moodle's CSV grade import, or the
//! arena's own `gradebook.csv` (which `finalize` writes with it).
//!
//! Every number comes from the points files `finalize` wrote (the course
//! file's points policy, `course::Points::of`): nothing is computed again.
//! A student whose group had no submission that counts has an empty cell,
//! not 0: an import leaves it ungraded instead of recording a zero. Every
//! cell goes through the one CSV writer, `csv_field`.

use std::{collections::BTreeMap, path::Path};

use anyhow::{bail, Context, Result};

use crate::{
    course::Course,
    store::db,
    store::finals::{self, points_text},
};
use arena_core::report::table::csv_field;

/// The layouts `serve export` writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// Canvas's gradebook import: `Student`, `ID`, `SIS User ID`, `SIS
    /// Login ID`, `Section`, a column per assignment titled `Title (name)`,
    /// and a `Points Possible` row under the header.
    Canvas,
    /// Moodle's CSV grade import: the username, then a column per grade item.
    Moodle,
    /// The arena's `gradebook.csv`: `Student ID`, `Name`, a `Title Points`
    /// column per assignment, and a `Points Possible` row.
    Csv,
}

impl Format {
    pub const NAMES: &'static str = "canvas, moodle or csv";

    /// The format named `name`; an error names the choices.
    pub fn parse(name: &str) -> Result<Format> {
        Ok(match name {
            "canvas" => Format::Canvas,
            "moodle" => Format::Moodle,
            "csv" => Format::Csv,
            other => bail!("--format {other}: no such format; use {}", Format::NAMES),
        })
    }
}

/// One finalized assignment's column.
pub struct Column {
    /// Its name in the course file (its id).
    pub name: String,
    pub title: String,
    /// The most its points policy gives this class (None: finalized by an
    /// arena that did not keep it; finalize it again).
    pub possible: Option<f64>,
    /// Each student's points (a student whose group had no submission
    /// that counts is not there).
    pub points: BTreeMap<String, f64>,
}

/// The columns of `course`'s assignments that were finalized in data
/// folder `dir`, in the course's order.
pub fn columns(dir: &Path, course: &Course) -> Result<Vec<Column>> {
    let mut columns = Vec::new();
    for assignment in &course.assignments {
        let Some(file) = finals::read_points(dir, &assignment.name)? else { continue };
        columns.push(Column {
            name: assignment.name.clone(),
            title: assignment.title.clone(),
            possible: file.possible,
            points: file.students,
        });
    }
    Ok(columns)
}

/// The export of data folder `dir` (whose database is `db`) for `course`
/// in `format`: a row per student (staff left out), by name. An error if
/// no assignment was finalized yet.
pub fn export(dir: &Path, db: &rusqlite::Connection, course: &Course, format: Format) -> Result<String> {
    let columns = columns(dir, course)?;
    if columns.is_empty() {
        bail!(
            "no assignment of {} is finalized yet: run `arena serve finalize --data {}` (with --assignment NAME for each) first",
            dir.display(),
            dir.display()
        );
    }
    table(db, &columns, format)
}

/// `columns` as `format` lays them out, a row per student of `db`'s roster.
pub fn table(db: &rusqlite::Connection, columns: &[Column], format: Format) -> Result<String> {
    let students: Vec<db::RosterEntry> = db::roster(db)?.into_iter().filter(|e| !e.staff).collect();
    let mut out = String::new();
    let mut line = |cells: Vec<String>| {
        out.push_str(&cells.join(","));
        out.push('\n');
    };
    let possible = |c: &Column| c.possible.map(points_text).unwrap_or_default();
    let points =
        |c: &Column, student: &str| c.points.get(student).copied().map(points_text).unwrap_or_default();
    match format {
        Format::Canvas => {
            let mut header: Vec<String> =
                ["Student", "ID", "SIS User ID", "SIS Login ID", "Section"].map(String::from).to_vec();
            header.extend(columns.iter().map(|c| csv_field(&format!("{} ({})", c.title, c.name))));
            line(header);
            let mut row = vec![
                "Points Possible".to_string(),
                String::new(),
                String::new(),
                String::new(),
                String::new(),
            ];
            row.extend(columns.iter().map(possible));
            line(row);
            for student in &students {
                let mut row = vec![
                    csv_field(student.full_name.as_deref().unwrap_or(&student.name)),
                    String::new(),
                    String::new(),
                    csv_field(&student.name),
                    String::new(),
                ];
                row.extend(columns.iter().map(|c| points(c, &student.name)));
                line(row);
            }
        }
        Format::Moodle => {
            let mut header = vec!["Username".to_string()];
            header.extend(columns.iter().map(|c| csv_field(&c.title)));
            line(header);
            for student in &students {
                let mut row = vec![csv_field(&student.name)];
                row.extend(columns.iter().map(|c| points(c, &student.name)));
                line(row);
            }
        }
        Format::Csv => {
            let mut header = vec!["Student ID".to_string(), "Name".to_string()];
            header.extend(columns.iter().map(|c| csv_field(&format!("{} Points", c.title))));
            line(header);
            let mut row = vec!["Points Possible".to_string(), String::new()];
            row.extend(columns.iter().map(possible));
            line(row);
            for student in &students {
                let mut row = vec![
                    csv_field(&student.name),
                    csv_field(student.full_name.as_deref().unwrap_or_default()),
                ];
                row.extend(columns.iter().map(|c| points(c, &student.name)));
                line(row);
            }
        }
    }
    Ok(out)
}

/// Writes `DATA/final/gradebook.csv` (the `csv` layout, every assignment of
/// `course` finalized); its path.
pub fn write_gradebook(dir: &Path, db: &rusqlite::Connection, course: &Course) -> Result<std::path::PathBuf> {
    let text = table(db, &columns(dir, course)?, Format::Csv)?;
    let path = dir.join(finals::FOLDER).join("gradebook.csv");
    std::fs::write(&path, text).with_context(|| format!("cannot write {}", path.display()))?;
    Ok(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_format_is_named_or_refused_with_the_choices() {
        assert_eq!(Format::parse("canvas").unwrap(), Format::Canvas);
        let error = Format::parse("excel").unwrap_err().to_string();
        assert_eq!(error, "--format excel: no such format; use canvas, moodle or csv");
    }
}
