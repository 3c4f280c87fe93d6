//! `arena serve finalize`: the class's final results from the frozen
//! submissions (each group's latest graded one made before the deadline),
//! with the tournament runner: each group's grade from its submission's
//! own grading run (resumed from its journal: the very games it was graded
//! on, none played again), a round robin among the groups
//! (`DATA/final/round-robin/`, resumed if run again), and the points of
//! the course's policy (`course::Points`: each level passed, the groups a
//! group defeats or its rank, a cap), written for the course's records:
//! `grades.csv` (a row per student) and `gradebook.csv` (the layout
//! course-management systems import).

use std::{
    collections::BTreeMap,
    fmt::Write as _,
    path::{Path, PathBuf},
    sync::atomic::AtomicBool,
};

use anyhow::{bail, Context, Result};

use super::{
    course::{Assignment, Results},
    db,
    executor::Executor,
    grader, store,
};
use crate::tournament::{self, config::Tournament, Quiet};

/// The folder of the final results inside the data folder.
pub const FOLDER: &str = "final";

/// What finalizing wrote.
pub struct Finalized {
    /// Groups with a submission that counts.
    pub groups: usize,
    /// Their students (staff left out).
    pub students: usize,
    pub deadline: Option<String>,
    pub grades_csv: PathBuf,
    pub gradebook_csv: PathBuf,
    pub written: Vec<PathBuf>,
}

/// A group's place in the round robin.
#[derive(Clone, Copy, Default)]
struct Placing {
    /// As the course ranks groups: by groups defeated (equal counts share).
    rank: Option<usize>,
    defeated: usize,
}

/// Runs (or resumes) the final grading and round robin of data folder
/// `dir` for `assignment` (its round robin's games per pairing, unless
/// `games_per_pairing` says otherwise, and its points policy), the round
/// robin's games played through `executor` (here, or as Slurm jobs).
pub fn finalize(
    dir: &Path,
    assignment: &Assignment,
    games_per_pairing: Option<u32>,
    executor: &Executor,
) -> Result<Finalized> {
    let db = db::open(dir)?;
    let frozen = db::latest_graded(&db)?;
    if frozen.is_empty() {
        bail!("no graded submission counts yet (none made before the deadline): nothing to finalize");
    }
    let folder = dir.join(FOLDER);
    std::fs::create_dir_all(&folder).with_context(|| format!("cannot create {}", folder.display()))?;
    let players = frozen
        .iter()
        .map(|s| store::player_entry(dir, &s.sha256, s.player.as_deref()))
        .collect::<Result<Vec<String>>>()?;
    let never = AtomicBool::new(false);
    // Each group's grade is its submission's own grading run, taken up
    // again from its journal (nothing is played again): the course's 30
    // games do not depend on who else is in the class.
    let mut written = Vec::new();
    let mut reports = Vec::new();
    for (submission, player) in frozen.iter().zip(&players) {
        let file = grader::grading_file(dir, submission, player, grader::Grading::default().concurrency)?;
        let outcome = tournament::run(Tournament::load(&file)?, &never, &mut Quiet)?;
        written.extend(outcome.written);
        reports
            .push(outcome.grades.and_then(|g| g.into_iter().next()).context("a grading run gave no grade")?);
    }
    let mut placings = vec![Placing::default(); frozen.len()];
    if frozen.len() >= 2 {
        let games = games_per_pairing.unwrap_or(assignment.tournament.games);
        let mut table = toml::Table::new();
        table.insert("name".into(), "final round robin".into());
        table.insert("format".into(), "round-robin".into());
        table.insert("seed".into(), (grader::SEED as i64).into());
        table.insert("output".into(), "round-robin".into());
        table.insert("games_per_pairing".into(), i64::from(games).into());
        table.insert("players".into(), toml::Value::Array(players.into_iter().map(Into::into).collect()));
        let file = folder.join("round-robin.toml");
        std::fs::write(&file, toml::to_string(&table)?)
            .with_context(|| format!("cannot write {}", file.display()))?;
        written.extend(executor.play_tournament(&file)?);
        placings = round_robin_placings(&folder.join("round-robin").join("standings.json"), frozen.len())?;
    }
    // Each group's members, students only, by name.
    let mut members: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for entry in db::roster(&db)?.into_iter().filter(|e| !e.staff) {
        members.entry(entry.group).or_default().push(entry.name);
    }
    let level_names: Vec<&str> = assignment.grading.levels.iter().map(|l| l.name()).collect();
    let mut csv = format!(
        "student,group,submission,sha256,{},passed,verdict,rank,groups_defeated,points\n",
        level_names.join(",")
    );
    let mut gradebook = format!("Student ID,Name,{}\n", csv_field(&format!("{} Points", assignment.title)));
    let mut students = 0;
    for ((submission, report), placing) in frozen.iter().zip(&reports).zip(&placings) {
        let level = |name: &str| report.levels.iter().find(|l| l.level == name);
        let passed: Vec<bool> = level_names.iter().map(|n| level(n).is_some_and(|l| l.passed)).collect();
        let results =
            Results { passed, rank: placing.rank, defeated: placing.defeated, groups: frozen.len() };
        let points = assignment.points.of(&results);
        let wins: Vec<String> =
            level_names.iter().map(|n| level(n).map(|l| l.wins.to_string()).unwrap_or_default()).collect();
        for student in members.get(&submission.group).into_iter().flatten() {
            students += 1;
            let _ = writeln!(
                csv,
                "{},{},{},{},{},{},{},{},{},{}",
                csv_field(student),
                csv_field(&submission.group),
                submission.id,
                submission.sha256,
                wins.join(","),
                report.passed_all,
                csv_field(&report.verdict),
                placing.rank.map(|r| r.to_string()).unwrap_or_default(),
                placing.defeated,
                points_text(points)
            );
            let _ =
                writeln!(gradebook, "{},{},{}", csv_field(student), csv_field(student), points_text(points));
        }
    }
    let grades_csv = folder.join("grades.csv");
    std::fs::write(&grades_csv, csv).with_context(|| format!("cannot write {}", grades_csv.display()))?;
    let gradebook_csv = folder.join("gradebook.csv");
    std::fs::write(&gradebook_csv, gradebook)
        .with_context(|| format!("cannot write {}", gradebook_csv.display()))?;
    Ok(Finalized {
        groups: frozen.len(),
        students,
        deadline: db::deadline(&db)?,
        grades_csv,
        gradebook_csv,
        written,
    })
}

/// Each player's (by its index in the round robin's list) rank by groups
/// defeated and groups defeated, from the round robin's standings.
fn round_robin_placings(standings: &Path, players: usize) -> Result<Vec<Placing>> {
    let text = std::fs::read_to_string(standings)
        .with_context(|| format!("cannot read the round robin's standings {}", standings.display()))?;
    let json: serde_json::Value = serde_json::from_str(&text)
        .with_context(|| format!("the round robin's standings {} are not JSON", standings.display()))?;
    let mut placings = vec![Placing::default(); players];
    for row in json["rows"].as_array().into_iter().flatten() {
        let (Some(id), Some(rank), Some(defeated)) =
            (row["id"].as_u64(), row["rank_by_defeated"].as_u64(), row["opponents_defeated"].as_u64())
        else {
            bail!("the round robin's standings {} lack a row's id or rank", standings.display());
        };
        if let Some(placing) = placings.get_mut(id as usize) {
            *placing = Placing { rank: Some(rank as usize), defeated: defeated as usize };
        }
    }
    Ok(placings)
}

/// Points as the records keep them: at most two decimals, no trailing zeros.
fn points_text(points: f64) -> String {
    let text = format!("{points:.2}");
    text.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// A CSV field, quoted when it must be.
fn csv_field(text: &str) -> String {
    if text.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text.to_string()
    }
}
