//! `arena serve finalize`: an assignment's final results from the frozen
//! submissions (each group's latest graded one for it made before its
//! deadline), with the tournament runner: each group's grade as its
//! grading run made it (stored with the settings it was made under), the
//! class tournament among the
//! groups (`DATA/final/<assignment>/round-robin/`, or `swiss/` when the
//! course file asks for Swiss rounds, or for a single-player
//! game `scores/`: every group on the same worlds; resumed if run again),
//! and the points of the course's policy (`course::Points`: each level
//! passed, the groups a group defeats or its rank, a cap), written for the
//! course's records: the assignment's `grades.csv` (a row per student)
//! and `DATA/final/gradebook.csv` (the layout course-management systems
//! import: a column per assignment finalized).

use std::{
    collections::BTreeMap,
    fmt::Write as _,
    path::{Path, PathBuf},
};

use anyhow::{bail, Context, Result};

use crate::{
    course::{Assignment, Course, Results},
    store::db,
    store::files as store,
    store::finals::{points_text, PointsFile, FOLDER, POINTS},
    store::secret::{Purpose, Secret},
    work::executor::Executor,
};
use arena_core::report::table::csv_field;

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
    /// Said when the class tournament was begun under other settings and
    /// is played afresh in a folder of its own.
    pub fresh: Option<String>,
}

/// A group's place in the round robin.
#[derive(Clone, Copy, Default)]
struct Placing {
    /// As the course ranks groups: by groups defeated (equal counts share).
    rank: Option<usize>,
    defeated: usize,
}

/// Runs (or resumes) the final grading and class tournament of data
/// folder `dir` for `course`'s assignment `assignment` (its tournament's
/// games per pairing, or worlds, unless `games_per_pairing` says
/// otherwise, and its points policy), the tournament's games played
/// through `executor` (here, or as Slurm jobs).
pub fn finalize(
    dir: &Path,
    course: &Course,
    assignment: &Assignment,
    games_per_pairing: Option<u32>,
    executor: &Executor,
) -> Result<Finalized> {
    let db = db::open(dir)?;
    crate::adopt(dir, &db, course)?;
    let frozen = db::latest_graded(&db, &assignment.name)?;
    if frozen.is_empty() {
        bail!(
            "no graded submission for {} counts yet (none made before its deadline): nothing to finalize",
            assignment.name
        );
    }
    let seed = Secret::of(&db)?.seed(Purpose::Final, &assignment.name);
    let folder = dir.join(FOLDER).join(&assignment.name);
    std::fs::create_dir_all(&folder).with_context(|| format!("cannot create {}", folder.display()))?;
    let players = frozen
        .iter()
        .map(|s| store::player_entry(dir, &s.sha256, s.player.as_deref()))
        .collect::<Result<Vec<String>>>()?;
    // Each group's grade as it was made (its grading run's, stored with
    // the settings it was made under): the course's games do not depend on
    // who else is in the class, and a grade made under other settings is
    // shown as such (`serve regrade` grades it again).
    let reports = frozen
        .iter()
        .map(|s| {
            let grade = s.grade.clone().context("a graded submission without its grade")?;
            serde_json::from_value::<StoredGrade>(grade)
                .with_context(|| format!("submission {}: its grade is not one the grader wrote", s.id))
        })
        .collect::<Result<Vec<StoredGrade>>>()?;
    let mut written = Vec::new();
    let mut fresh = None;
    let mut placings = vec![Placing::default(); frozen.len()];
    if frozen.len() >= 2 {
        let games = games_per_pairing.unwrap_or(assignment.tournament.games);
        let single = assignment.game.is_single_player();
        // A two-player game's round robin; a single-player game's groups
        // all on the same worlds (duplicate), ranked by mean score.
        let swiss = assignment.tournament.swiss.filter(|_| !single);
        let (name, format, games_key, first_output) = match (single, swiss) {
            (false, None) => ("final round robin", "round-robin", "games_per_pairing", "round-robin"),
            (false, Some(_)) => ("final Swiss", "swiss", "games_per_pairing", "swiss"),
            (true, _) => ("final scores", "duplicate", "games_per_player", "scores"),
        };
        // A Swiss of the rounds asked, at most the groups less one.
        let rounds = swiss.map(|rounds| {
            let most = frozen.len() as u32 - 1;
            rounds.unwrap_or_else(|| arena_core::tournament::pairing::default_rounds(frozen.len())).min(most)
        });
        // Each player named by its group, so the standings show groups
        // (`named`: a file from before names were given is the same
        // tournament: the names are not in its journals' fingerprint).
        let table = |output: &str, named: bool| -> Result<String> {
            let mut table = toml::Table::new();
            table.insert("name".into(), name.into());
            table.insert("game".into(), assignment.game.name().into());
            table.insert("format".into(), format.into());
            table.insert("seed".into(), (seed as i64).into());
            table.insert("output".into(), output.into());
            table.insert(games_key.into(), i64::from(games).into());
            if let Some(rounds) = rounds {
                table.insert("rounds".into(), i64::from(rounds).into());
            }
            let entry = |(player, submission): (&String, &db::Submission)| -> toml::Value {
                match named {
                    true => store::named_entry(player, &submission.group),
                    false => player.as_str().into(),
                }
            };
            table.insert(
                "players".into(),
                toml::Value::Array(players.iter().zip(&frozen).map(entry).collect()),
            );
            if !assignment.settings.is_empty() {
                table.insert("settings".into(), assignment.settings.clone().into());
            }
            Ok(toml::to_string(&table)?)
        };
        // Resumed where the same tournament was begun; a tournament of other
        // settings (or games, or groups) is played afresh in a folder of its
        // own, and the earlier one kept.
        let mut output = first_output.to_string();
        for n in 2.. {
            let file = folder.join(format!("{output}.toml"));
            match std::fs::read_to_string(&file) {
                Ok(before) if before != table(&output, true)? && before != table(&output, false)? => {
                    output = format!("{first_output}-{n}")
                }
                _ => break,
            }
        }
        if output != first_output && !folder.join(format!("{output}.toml")).exists() {
            let said = format!(
                "the class tournament in {} was played under other settings (or games, or groups): a fresh one is played in {}",
                folder.join(first_output).display(),
                folder.join(&output).display()
            );
            tracing::warn!("{said}");
            fresh = Some(said);
        }
        let file = folder.join(format!("{output}.toml"));
        std::fs::write(&file, table(&output, true)?)
            .with_context(|| format!("cannot write {}", file.display()))?;
        written.extend(executor.play_tournament(&file)?);
        let standings = folder.join(&output).join("standings.json");
        placings = if single {
            score_placings(&standings, frozen.len())?
        } else if swiss.is_some() {
            swiss_placings(&standings, frozen.len())?
        } else {
            round_robin_placings(&standings, frozen.len())?
        };
    }
    // Each group's members, students only, by name.
    let mut members: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for entry in db::roster(&db)?.into_iter().filter(|e| !e.staff) {
        members.entry(entry.group).or_default().push(entry.name);
    }
    let level_names: Vec<&str> = assignment.grading.levels.iter().map(|l| l.name()).collect();
    // A level's column says whether it was passed (what its points go
    // by); then what it was passed on: wins against it (two-player
    // games), or the mean score over the worlds both played (single-player
    // games, where a level is passed on the mean, not on worlds won).
    let single = assignment.game.is_single_player();
    let detail = if single { "mean" } else { "wins" };
    let details: Vec<String> = level_names.iter().map(|n| format!("{n}_{detail}")).collect();
    let mut csv = format!(
        "student,group,submission,sha256,{},{},passed,verdict,rank,groups_defeated,points,time_per_turn,clock\n",
        level_names.join(","),
        details.join(",")
    );
    let mut students = 0;
    let mut points_of: BTreeMap<String, f64> = BTreeMap::new();
    for ((submission, report), placing) in frozen.iter().zip(&reports).zip(&placings) {
        let level = |name: &str| report.levels.iter().find(|l| l.level == name);
        let passed: Vec<bool> = level_names.iter().map(|n| level(n).is_some_and(|l| l.passed)).collect();
        let results =
            Results { passed, rank: placing.rank, defeated: placing.defeated, groups: frozen.len() };
        let passed: Vec<String> = results.passed.iter().map(bool::to_string).collect();
        let points = assignment.points.of(&results);
        let detail = |l: &StoredLevel| match (single, l.mean) {
            (true, Some(mean)) => format!("{mean:.1}"),
            (true, None) => String::new(),
            (false, _) => l.wins.to_string(),
        };
        let details: Vec<String> =
            level_names.iter().map(|n| level(n).map(detail).unwrap_or_default()).collect();
        // What the grade was made under ("" for a grade from before grades kept it).
        let under = |key: &str| {
            submission.graded_under.as_ref().and_then(|u| u[key].as_str()).unwrap_or_default().to_string()
        };
        for student in members.get(&submission.group).into_iter().flatten() {
            students += 1;
            let _ = writeln!(
                csv,
                "{},{},{},{},{},{},{},{},{},{},{},{},{}",
                csv_field(student),
                csv_field(&submission.group),
                submission.id,
                submission.sha256,
                passed.join(","),
                details.join(","),
                report.passed_all,
                csv_field(&report.verdict),
                placing.rank.map(|r| r.to_string()).unwrap_or_default(),
                placing.defeated,
                points_text(points),
                csv_field(&under("time_per_turn")),
                csv_field(&under("clock"))
            );
            points_of.insert(student.clone(), points);
        }
    }
    let grades_csv = folder.join("grades.csv");
    std::fs::write(&grades_csv, csv).with_context(|| format!("cannot write {}", grades_csv.display()))?;
    // The most the policy gives this class: every level passed, first in
    // the class tournament (when it is played), every other group defeated.
    let best = Results {
        passed: vec![true; level_names.len()],
        rank: (frozen.len() >= 2).then_some(1),
        defeated: frozen.len().saturating_sub(1),
        groups: frozen.len(),
    };
    let file = PointsFile { possible: Some(assignment.points.of(&best)), students: points_of };
    let points_json = folder.join(POINTS);
    std::fs::write(&points_json, serde_json::to_string_pretty(&file)?)
        .with_context(|| format!("cannot write {}", points_json.display()))?;
    let gradebook_csv = crate::course::export::write_gradebook(dir, &db, course)?;
    Ok(Finalized {
        groups: frozen.len(),
        students,
        deadline: db::deadline(&db, &assignment.name)?,
        grades_csv,
        gradebook_csv,
        written,
        fresh,
    })
}

/// A grade as the grader stored it (`GradeReport`'s JSON), what finalize reads of it.
#[derive(serde::Deserialize)]
struct StoredGrade {
    levels: Vec<StoredLevel>,
    passed_all: bool,
    verdict: String,
}

#[derive(serde::Deserialize)]
struct StoredLevel {
    level: String,
    wins: u32,
    passed: bool,
    /// Single-player games: the mean score over the worlds compared.
    #[serde(default)]
    mean: Option<f64>,
}

/// Moves the final results of a server from before assignments
/// (`DATA/final/round-robin.toml`, `round-robin/`, `grades.csv`) into the
/// folder of the course's first assignment, `first`, the one it hosted:
/// finalizing it again resumes that round robin instead of playing it
/// anew. Nothing to do when there are none, or the folder exists.
pub(crate) fn adopt_unassigned(dir: &Path, first: &str) -> Result<()> {
    let old = dir.join(FOLDER);
    let new = old.join(first);
    if !old.join("round-robin.toml").is_file() || new.exists() {
        return Ok(());
    }
    std::fs::create_dir_all(&new).with_context(|| format!("cannot create {}", new.display()))?;
    for name in ["round-robin.toml", "round-robin", "grades.csv"] {
        if old.join(name).exists() {
            std::fs::rename(old.join(name), new.join(name)).with_context(|| {
                format!("cannot move {} into {}", old.join(name).display(), new.display())
            })?;
        }
    }
    Ok(())
}

/// The rows of the class tournament's standings (`what` they are, for errors).
fn standings_rows(standings: &Path, what: &str) -> Result<Vec<serde_json::Value>> {
    let text = std::fs::read_to_string(standings)
        .with_context(|| format!("cannot read the {what} {}", standings.display()))?;
    let mut json: serde_json::Value = serde_json::from_str(&text)
        .with_context(|| format!("the {what} {} are not JSON", standings.display()))?;
    Ok(match json["rows"].take() {
        serde_json::Value::Array(rows) => rows,
        _ => Vec::new(),
    })
}

/// Each player's placing in a single-player game's final scores (every
/// group on the same worlds): the groups with a lower mean score are those
/// it defeats, and its rank is one more than those with a higher one
/// (equal means share a rank).
fn score_placings(standings: &Path, players: usize) -> Result<Vec<Placing>> {
    let mut means = Vec::new();
    for row in &standings_rows(standings, "final scores")? {
        let (Some(id), Some(mean)) = (row["id"].as_u64(), row["mean_score"].as_f64()) else {
            bail!("the final scores {} lack a row's id or mean score", standings.display());
        };
        means.push((id as usize, mean));
    }
    let mut placings = vec![Placing::default(); players];
    for &(id, mean) in &means {
        if let Some(placing) = placings.get_mut(id) {
            let above = means.iter().filter(|(_, m)| *m > mean).count();
            let below = means.iter().filter(|(_, m)| *m < mean).count();
            *placing = Placing { rank: Some(above + 1), defeated: below };
        }
    }
    Ok(placings)
}

/// Each player's (by its index in the round robin's list) rank by groups
/// defeated and groups defeated, from the round robin's standings.
fn round_robin_placings(standings: &Path, players: usize) -> Result<Vec<Placing>> {
    let mut placings = vec![Placing::default(); players];
    for row in &standings_rows(standings, "round robin's standings")? {
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

/// Each player's placing in a Swiss, from its standings: its rank, and
/// as the groups it defeats, the groups ranked below it (a Swiss meets
/// only a few groups: its ranking is what it measures).
fn swiss_placings(standings: &Path, players: usize) -> Result<Vec<Placing>> {
    let mut placings = vec![Placing::default(); players];
    let rows = standings_rows(standings, "Swiss's standings")?;
    for row in &rows {
        let (Some(id), Some(rank)) = (row["id"].as_u64(), row["rank"].as_u64()) else {
            bail!("the Swiss's standings {} lack a row's id or rank", standings.display());
        };
        if let Some(placing) = placings.get_mut(id as usize) {
            let rank = rank as usize;
            *placing = Placing { rank: Some(rank), defeated: rows.len().saturating_sub(rank) };
        }
    }
    Ok(placings)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::finals::{group_result, GroupResult};

    #[test]
    fn a_groups_final_line_is_read_from_grades_csv_and_no_other_groups() {
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(group_result(dir.path(), "project", "ann").unwrap(), None, "not finalized");
        let folder = dir.path().join(FOLDER).join("project");
        std::fs::create_dir_all(&folder).unwrap();
        std::fs::write(
            folder.join("grades.csv"),
            "student,group,submission,sha256,easy,easy_wins,passed,verdict,rank,groups_defeated,points,time_per_turn,clock\n\
             ann,ann,1,aa,true,2,true,PASS,1,1,15,1.00 s,cpu\n\
             bo,\"bo,cy\",2,bb,true,1,false,\"FAIL: needs 2, \"\"has\"\" 1\",2,0,10,1.00 s,cpu\n\
             cy,\"bo,cy\",2,bb,true,1,false,\"FAIL: needs 2, \"\"has\"\" 1\",2,0,10,1.00 s,cpu\n",
        )
        .unwrap();
        let line = |group: &str| group_result(dir.path(), "project", group).unwrap();
        assert_eq!(
            line("bo,cy"),
            Some(GroupResult { points: Some(10.0), rank: Some(2), defeated: Some(0), groups: 2 })
        );
        assert_eq!(line("ann").unwrap().points, Some(15.0));
        assert_eq!(line("dee"), None, "a group without a counted submission");
    }
}
