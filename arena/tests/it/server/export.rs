//! Grades out: a real course (a two-player and a single-player
//! assignment, groups of one and two, a group that never submits, a
//! hostile name) graded, finalized, and exported for Canvas, Moodle and
//! as the arena's gradebook.csv, each cell checked against the course
//! file's points.

use std::{collections::BTreeMap, path::Path};

use serde_json::Value;

use super::{add_roster, add_student, agent, answer, csv_rows, finished, wait_for, Server};
use crate::support::{self, arena, library, stdout};

/// Trap graded against Easy and Medium (4 games each), and Wumpus World
/// against the same levels' means on 10 worlds; points by groups defeated
/// and by rank.
const COURSE: &str = r#"
name = "AI course"

[[assignment]]
name = "project"
title = "Trap, project"
game = "trap"
[assignment.grading]
levels = ["easy", "medium"]
games = 4
wins_to_pass = [2, 1]
[assignment.tournament]
games = 2
[assignment.points]
per_level = [10, 10]
per_group_defeated = 5

[[assignment]]
name = "cave"
title = "Wumpus World"
game = "wumpus"
[assignment.grading]
levels = ["easy", "medium"]
games = 10
score_margin = [0, 50]
[assignment.tournament]
games = 10
[assignment.points]
per_level = [5, 5]
by_rank = [10, 6, 2]
"#;

/// A name a spreadsheet would run as a formula, with a comma and quotes.
const HOSTILE: &str = "=SUM(1),\"q\"";

/// Submits `level`'s library for `assignment` as the member with `token`;
/// the submission once graded.
fn graded(server: &Server, token: &str, assignment: &str, level: &str) -> Value {
    let bytes = std::fs::read(library(level)).unwrap();
    let (content_type, body) =
        arena_server::client::multipart_with(&[("assignment", assignment)], "file", "libplayer.so", &bytes);
    let (code, accepted) = answer(
        agent()
            .post(format!("{}/api/submissions", server.url))
            .header("Content-Type", content_type)
            .header("Authorization", format!("Bearer {token}"))
            .send(&body[..]),
    );
    assert_eq!(code, 201, "{accepted}");
    let done = wait_for(server, token, accepted["id"].as_i64().unwrap(), finished);
    assert_eq!(done["status"], "done", "{done}");
    done
}

/// The class tournament's standings rows of `assignment` by name.
fn standings(data: &Path, assignment: &str, folder: &str) -> BTreeMap<String, Value> {
    let path = data.join("final").join(assignment).join(folder).join("standings.json");
    let json: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    json["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| (r["name"].as_str().unwrap().to_string(), r.clone()))
        .collect()
}

fn export(dir: &str, format: &str) -> std::process::Output {
    arena(&["serve", "export", "--data", dir, "--format", format], &[])
}

#[test]
fn the_points_finalize_gives_are_exported_for_canvas_moodle_and_the_gradebook() {
    let data = tempfile::tempdir().unwrap();
    let dir = data.path().to_str().unwrap();
    let course = support::write_file(data.path(), "course.toml", COURSE);
    // A roster with full names (one hostile), and a student without.
    let roster = add_roster(data.path(), "login,Full Name\nann,=Ann \"A\" Lee\ndan,\n");
    let ann = &roster[0].1;
    let hostile = add_student(data.path(), HOSTILE);
    let pair = {
        let out = arena(&["serve", "add-group", "--members", "bo,cy", "--data", dir], &[]);
        assert!(out.status.success(), "{}", support::stderr(&out));
        stdout(&out).lines().map(|l| l.split_once(',').unwrap().1.to_string()).collect::<Vec<_>>()
    };
    let out = arena(&["serve", "add-student", "boss", "--staff", "--data", dir], &[]);
    assert!(out.status.success());
    // A name cannot hold a line break (nor any control character).
    let out = arena(&["serve", "add-student", "eve\nx", "--data", dir], &[]);
    assert!(!out.status.success() && support::stderr(&out).contains("control"), "{}", support::stderr(&out));

    // Nothing finalized yet: said, with the fix.
    let out = export(dir, "canvas");
    assert_eq!(
        support::stderr(&out).trim(),
        format!(
            "error: no assignment of {dir} is finalized yet: run `arena serve finalize --data {dir}` (with --assignment NAME for each) first"
        )
    );

    let server = Server::start(data.path(), &["--course", course.to_str().unwrap(), "--round-robin", "off"]);
    // Trap: ann Easy, the hostile group Hard, bo_cy Medium; Wumpus World:
    // ann Easy, the hostile group Medium, bo_cy nothing; dan's group nothing.
    let mut grades: BTreeMap<(&str, &str), Value> = BTreeMap::new();
    for (group, token, project, cave) in [
        ("ann", ann, "easy", Some("easy")),
        (HOSTILE, &hostile, "hard", Some("medium")),
        ("bo_cy", &pair[0], "medium", None),
    ] {
        grades.insert((group, "project"), graded(&server, token, "project", project));
        if let Some(level) = cave {
            grades.insert((group, "cave"), graded(&server, token, "cave", level));
        }
    }
    drop(server);
    for assignment in ["project", "cave"] {
        let out = arena(&["serve", "finalize", "--data", dir, "--assignment", assignment], &[]);
        assert!(out.status.success(), "{}", support::stderr(&out));
    }

    // Each group's points by the course file's policy, from its grade's
    // levels passed and its place in the class tournament (whose
    // standings name the groups).
    let passed = |grade: &Value| -> Vec<bool> {
        grade["grade"]["levels"].as_array().unwrap().iter().map(|l| l["passed"].as_bool().unwrap()).collect()
    };
    let level_points = |grade: &Value, per_level: [f64; 2]| -> f64 {
        passed(grade).iter().zip(per_level).filter(|(p, _)| **p).map(|(_, v)| v).sum()
    };
    let round_robin = standings(data.path(), "project", "round-robin");
    let scores = standings(data.path(), "cave", "scores");
    let mut names: Vec<&String> = round_robin.keys().collect();
    names.sort();
    assert_eq!(names, [HOSTILE, "ann", "bo_cy"], "the groups by name: {round_robin:?}");
    assert_eq!(scores.keys().collect::<Vec<_>>(), [HOSTILE, "ann"]);
    let mut expected: BTreeMap<(&str, &str), f64> = BTreeMap::new();
    for group in [HOSTILE, "ann", "bo_cy"] {
        let grade = &grades[&(group, "project")];
        let defeated = round_robin[group]["opponents_defeated"].as_u64().unwrap() as f64;
        expected.insert((group, "project"), level_points(grade, [10.0, 10.0]) + 5.0 * defeated);
    }
    for group in [HOSTILE, "ann"] {
        let grade = &grades[&(group, "cave")];
        let mean = scores[group]["mean_score"].as_f64().unwrap();
        let rank = 1 + scores.values().filter(|r| r["mean_score"].as_f64().unwrap() > mean).count();
        expected.insert((group, "cave"), level_points(grade, [5.0, 5.0]) + [10.0, 6.0, 2.0][rank - 1]);
    }
    // The Hard player defeats both others: 20 points for levels, 10 for the tournament.
    assert_eq!(expected[&(HOSTILE, "project")], 30.0, "{expected:?}");

    // grades.csv: a level's column says whether it was passed, as the
    // points do; then its wins (two-player) or its mean (single-player).
    let read = |name: &str| std::fs::read_to_string(data.path().join("final").join(name)).unwrap();
    for (assignment, detail) in [("project", "wins"), ("cave", "mean")] {
        let rows = csv_rows(&read(&format!("{assignment}/grades.csv")));
        let column = |name: &str| rows[0].iter().position(|c| c == name).unwrap_or_else(|| panic!("{name}"));
        for row in &rows[1..] {
            let group = row[column("group")].trim_start_matches('\'').to_string();
            let grade = &grades[&(group.as_str(), assignment)];
            for (i, level) in ["easy", "medium"].iter().enumerate() {
                let stored = &grade["grade"]["levels"][i];
                assert_eq!(row[column(level)], passed(grade)[i].to_string(), "{row:?}");
                let shown = match detail {
                    "wins" => stored["wins"].to_string(),
                    _ => format!("{:.1}", stored["mean"].as_f64().unwrap()),
                };
                assert_eq!(row[column(&format!("{level}_{detail}"))], shown, "{row:?}");
            }
            let points: f64 = row[column("points")].parse().unwrap();
            assert_eq!(points, expected[&(group.as_str(), assignment)], "{row:?}");
        }
    }
    let standings_md = read("project/round-robin/standings.md");
    assert!(standings_md.contains("| bo_cy ") && standings_md.contains("| Game pts |"), "{standings_md}");

    // The students, by name (the roster's order), their full names and groups.
    let students: [(&str, &str, &str); 5] = [
        (HOSTILE, "", HOSTILE),
        ("ann", "=Ann \"A\" Lee", "ann"),
        ("bo", "", "bo_cy"),
        ("cy", "", "bo_cy"),
        ("dan", "", "dan"),
    ];
    // A group with no submission that counts: an empty cell, not 0.
    let cell = |group: &str, assignment: &str| {
        expected.get(&(group, assignment)).map(|p| p.to_string()).unwrap_or_default()
    };
    let possible = ["30", "20"]; // 10 + 10 + 5 × 2 groups defeated; 5 + 5 + 10 for the first rank

    let canvas = export(dir, "canvas");
    assert!(canvas.status.success(), "{}", support::stderr(&canvas));
    let canvas = stdout(&canvas);
    let rows = csv_rows(&canvas);
    assert_eq!(
        rows[0],
        [
            "Student",
            "ID",
            "SIS User ID",
            "SIS Login ID",
            "Section",
            "Trap, project (project)",
            "Wumpus World (cave)"
        ]
    );
    assert_eq!(rows[1], ["Points Possible", "", "", "", "", possible[0], possible[1]]);
    assert_eq!(rows.len(), 2 + students.len(), "staff left out: {canvas}");
    for (row, (name, full, group)) in rows[2..].iter().zip(students) {
        let shown = if full.is_empty() { name } else { full };
        // Every cell through the CSV writer: a formula prefix is made text.
        let shown = if shown.starts_with('=') { format!("'{shown}") } else { shown.to_string() };
        let login = if name.starts_with('=') { format!("'{name}") } else { name.to_string() };
        assert_eq!(
            row[..],
            [
                shown,
                String::new(),
                String::new(),
                login,
                String::new(),
                cell(group, "project"),
                cell(group, "cave")
            ],
            "{canvas}"
        );
    }
    assert!(canvas.contains("\"'=SUM(1),\"\"q\"\"\""), "quoted as RFC 4180 asks: {canvas}");

    let moodle = export(dir, "moodle");
    assert!(moodle.status.success(), "{}", support::stderr(&moodle));
    let moodle = stdout(&moodle);
    let rows = csv_rows(&moodle);
    assert_eq!(rows[0], ["Username", "Trap, project", "Wumpus World"]);
    assert_eq!(rows.len(), 1 + students.len(), "{moodle}");
    for (row, (name, _, group)) in rows[1..].iter().zip(students) {
        let login = if name.starts_with('=') { format!("'{name}") } else { name.to_string() };
        assert_eq!(row[..], [login, cell(group, "project"), cell(group, "cave")], "{moodle}");
    }

    // csv, to a file: the gradebook.csv finalize wrote.
    let file = data.path().join("out.csv");
    let out =
        arena(&["serve", "export", "--data", dir, "--format", "csv", "-o", file.to_str().unwrap()], &[]);
    assert!(out.status.success(), "{}", support::stderr(&out));
    let csv = std::fs::read_to_string(&file).unwrap();
    assert_eq!(csv, read("gradebook.csv"));
    let rows = csv_rows(&csv);
    assert_eq!(rows[0], ["Student ID", "Name", "Trap, project Points", "Wumpus World Points"]);
    assert_eq!(rows[1], ["Points Possible", "", possible[0], possible[1]]);
    for (row, (name, full, group)) in rows[2..].iter().zip(students) {
        let login = if name.starts_with('=') { format!("'{name}") } else { name.to_string() };
        let full = if full.starts_with('=') { format!("'{full}") } else { full.to_string() };
        assert_eq!(row[..], [login, full, cell(group, "project"), cell(group, "cave")], "{csv}");
    }

    // Bad input: one line naming the thing and the fix.
    let out = export(dir, "excel");
    assert_eq!(
        support::stderr(&out).trim(),
        "error: --format excel: no such format; use canvas, moodle or csv"
    );
    let missing = data.path().join("nowhere");
    let out = export(missing.to_str().unwrap(), "canvas");
    assert_eq!(
        support::stderr(&out).trim(),
        format!("error: {} holds no server's data (no arena.db): check --data", missing.display())
    );
    let help = stdout(&arena(&["serve", "export", "--help"], &[]));
    for said in ["Points Possible", "canvas", "moodle", "SIS Login ID", "empty cell"] {
        assert!(help.contains(said), "{said} in {help}");
    }
}
