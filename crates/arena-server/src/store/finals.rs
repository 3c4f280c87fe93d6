//! What finalize leaves in the data folder (`DATA/final/`), as the rest of
//! the server reads it: each finalized assignment's points (`points.json`)
//! and its groups' lines of `grades.csv`; and how points are written there.
//! Below finalize, which writes them, and the exports and pages that read
//! them.

use std::{collections::BTreeMap, path::Path};

use anyhow::{bail, Context, Result};

use arena_core::report::table::csv_line;

/// The folder of the final results inside the data folder.
pub const FOLDER: &str = "final";

/// Each student's points in a finalized assignment, in its folder
/// ([`PointsFile`]).
pub(crate) const POINTS: &str = "points.json";

/// A finalized assignment's points, as `points.json` keeps them.
#[derive(serde::Serialize, serde::Deserialize)]
pub struct PointsFile {
    /// The most its points policy gives this class (None in a file from
    /// before it was kept: finalize again).
    pub possible: Option<f64>,
    /// Each student's points (staff left out; a student whose group had no
    /// submission that counts is not there).
    pub students: BTreeMap<String, f64>,
}

/// The points of assignment `assignment` of data folder `dir`, if it was
/// finalized (a file from before `possible` was kept reads without it).
pub fn read_points(dir: &Path, assignment: &str) -> Result<Option<PointsFile>> {
    let file = dir.join(FOLDER).join(assignment).join(POINTS);
    let text = match std::fs::read_to_string(&file) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(e).with_context(|| format!("cannot read {}", file.display())),
    };
    let not_ours = || format!("{} is not the points finalize wrote", file.display());
    Ok(Some(match serde_json::from_str::<PointsFile>(&text) {
        Ok(points) => points,
        Err(_) => {
            PointsFile { possible: None, students: serde_json::from_str(&text).with_context(not_ours)? }
        }
    }))
}

/// A group's line in a finalized assignment's grades.csv.
#[derive(Debug, PartialEq)]
pub struct GroupResult {
    pub points: Option<f64>,
    /// None: no class tournament was played (a group alone).
    pub rank: Option<u64>,
    pub defeated: Option<u64>,
    /// The groups finalized.
    pub groups: usize,
}

/// Group `group`'s final results in assignment `assignment` of data
/// folder `dir`, from the grades.csv `finalize` wrote (None: not
/// finalized, or the group had no submission that counted).
pub fn group_result(dir: &Path, assignment: &str, group: &str) -> Result<Option<GroupResult>> {
    let file = dir.join(FOLDER).join(assignment).join("grades.csv");
    let text = match std::fs::read_to_string(&file) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(e).with_context(|| format!("cannot read {}", file.display())),
    };
    let mut lines = text.lines().map(csv_line);
    let head = lines.next().unwrap_or_default();
    let column = |name: &str| head.iter().position(|h| h == name);
    let (Some(group_at), Some(submission_at)) = (column("group"), column("submission")) else {
        bail!("{} is not the grades finalize wrote", file.display());
    };
    let rows: Vec<Vec<String>> = lines.collect();
    let mut groups: Vec<&str> =
        rows.iter().filter_map(|r| r.get(submission_at).map(String::as_str)).collect();
    groups.sort();
    groups.dedup();
    let Some(row) = rows.iter().find(|r| r.get(group_at).map(String::as_str) == Some(group)) else {
        return Ok(None);
    };
    let field = |name: &str| column(name).and_then(|i| row.get(i)).filter(|v| !v.is_empty());
    Ok(Some(GroupResult {
        points: field("points").and_then(|v| v.parse().ok()),
        rank: field("rank").and_then(|v| v.parse().ok()),
        defeated: field("groups_defeated").and_then(|v| v.parse().ok()),
        groups: groups.len(),
    }))
}

/// Points as the records keep them: at most two decimals, no trailing zeros.
pub fn points_text(points: f64) -> String {
    let text = format!("{points:.2}");
    text.trim_end_matches('0').trim_end_matches('.').to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn points_are_written_with_at_most_two_decimals() {
        assert_eq!(points_text(85.0), "85");
        assert_eq!(points_text(7.5), "7.5");
        assert_eq!(points_text(2.0 / 3.0), "0.67");
    }
}
