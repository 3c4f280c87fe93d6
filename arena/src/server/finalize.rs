//! `arena serve finalize`: the class's final results from the frozen
//! submissions (each student's latest graded one made before the
//! deadline), with the tournament runner: each student's grade from their
//! submission's own grading run (resumed from its journal: the very games
//! it was graded on, none played again), a round robin among the students
//! (`DATA/final/round-robin/`, resumed if run again), and the grades as CSV
//! for the course's records.

use std::{
    fmt::Write as _,
    path::{Path, PathBuf},
    sync::atomic::AtomicBool,
};

use anyhow::{bail, Context, Result};

use super::{db, executor::Executor, grader, store};
use crate::tournament::{self, config::Tournament, Quiet};

/// The folder of the final results inside the data folder.
pub const FOLDER: &str = "final";

/// What finalizing wrote.
pub struct Finalized {
    pub students: usize,
    pub deadline: Option<String>,
    pub grades_csv: PathBuf,
    pub written: Vec<PathBuf>,
}

/// Runs (or resumes) the final grading and round robin of data folder
/// `dir`, the round robin's games played through `executor` (here, or as
/// Slurm jobs).
pub fn finalize(dir: &Path, games_per_pairing: u32, executor: &Executor) -> Result<Finalized> {
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
    // Each student's grade is their submission's own grading run, taken up
    // again from its journal (nothing is played again): the course's 30
    // games do not depend on who else is in the class.
    let mut written = Vec::new();
    let mut csv = String::from("student,submission,sha256,easy,medium,hard,passed,verdict\n");
    for (submission, player) in frozen.iter().zip(&players) {
        let file = grader::grading_file(dir, submission, player, grader::Grading::default().concurrency)?;
        let outcome = tournament::run(Tournament::load(&file)?, &never, &mut Quiet)?;
        written.extend(outcome.written);
        let report =
            outcome.grades.and_then(|g| g.into_iter().next()).context("a grading run gave no grade")?;
        let wins = |level: &str| {
            report.levels.iter().find(|l| l.level == level).map(|l| l.wins.to_string()).unwrap_or_default()
        };
        let _ = writeln!(
            csv,
            "{},{},{},{},{},{},{},{}",
            csv_field(&submission.group),
            submission.id,
            submission.sha256,
            wins("easy"),
            wins("medium"),
            wins("hard"),
            report.passed_all,
            csv_field(&report.verdict)
        );
    }
    if frozen.len() >= 2 {
        let mut table = toml::Table::new();
        table.insert("name".into(), "final round robin".into());
        table.insert("format".into(), "round-robin".into());
        table.insert("seed".into(), (grader::SEED as i64).into());
        table.insert("output".into(), "round-robin".into());
        table.insert("games_per_pairing".into(), i64::from(games_per_pairing).into());
        table.insert("players".into(), toml::Value::Array(players.into_iter().map(Into::into).collect()));
        let file = folder.join("round-robin.toml");
        std::fs::write(&file, toml::to_string(&table)?)
            .with_context(|| format!("cannot write {}", file.display()))?;
        written.extend(executor.play_tournament(&file)?);
    }
    let grades_csv = folder.join("grades.csv");
    std::fs::write(&grades_csv, csv).with_context(|| format!("cannot write {}", grades_csv.display()))?;
    Ok(Finalized { students: frozen.len(), deadline: db::deadline(&db)?, grades_csv, written })
}

/// A CSV field, quoted when it must be.
fn csv_field(text: &str) -> String {
    if text.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text.to_string()
    }
}
