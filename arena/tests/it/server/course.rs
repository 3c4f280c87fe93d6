//! A course of several assignments on one server: a two-player game and a
//! single-player one, graded each as the course file says, groups of 1, 2
//! and 3, scrimmages, finalize's points, and a kill -9 mid-way through a
//! single-player grading.

use std::{
    collections::BTreeMap,
    path::Path,
    time::{Duration, Instant},
};

use serde_json::{json, Value};

use super::{add_student, agent, answer, finished, get, post_json, wait_for, Server};
use crate::support::{self, arena, library, stdout};

/// Trap graded against Easy and Medium (4 games each), and Wumpus World
/// against the same levels' means on 20 worlds; points by groups defeated
/// and by rank.
const COURSE: &str = r#"
name = "AI course"

[[assignment]]
name = "project"
title = "Trap project"
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
games = 20
score_margin = [0, 50]
[assignment.tournament]
games = 20
[assignment.points]
per_level = [5, 5]
by_rank = [10, 6, 2]
"#;

/// `arena serve add-group` with `members`: each new member's token.
fn add_group(data: &Path, members: &str) -> Vec<String> {
    let out = arena(&["serve", "add-group", "--members", members, "--data", data.to_str().unwrap()], &[]);
    assert!(out.status.success(), "{}", support::stderr(&out));
    stdout(&out).lines().map(|line| line.split_once(',').unwrap().1.to_string()).collect()
}

/// Submits `level`'s library for `assignment` as the member with `token`;
/// the new submission's id.
fn submit_for(server: &Server, token: &str, assignment: &str, level: &str) -> i64 {
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
    accepted["id"].as_i64().unwrap()
}

/// A grading run's mean scores (`DATA/runs/<id>/out/standings.json`) by
/// player id: the submission is 0, the levels follow in order.
fn run_means(data: &Path, id: i64) -> BTreeMap<u64, f64> {
    let path = data.join("runs").join(id.to_string()).join("out").join("standings.json");
    let standings: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    standings["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| (r["id"].as_u64().unwrap(), r["mean_score"].as_f64().unwrap()))
        .collect()
}

#[test]
fn a_course_of_two_assignments_grades_each_as_it_says_with_groups_scrimmages_and_points() {
    let data = tempfile::tempdir().unwrap();
    let dir = data.path().to_str().unwrap();
    let course = support::write_file(data.path(), "course.toml", COURSE);
    let staff = {
        let out = arena(&["serve", "add-student", "boss", "--staff", "--data", dir], &[]);
        stdout(&out).trim().to_string()
    };
    let ann = add_student(data.path(), "ann");
    let pair = add_group(data.path(), "bo,cy");
    let trio = add_group(data.path(), "di,ed,fa");
    let server = Server::start(data.path(), &["--course", course.to_str().unwrap(), "--round-robin", "off"]);

    let (_, listed) = get(&server, "/api/assignments", None);
    let names: Vec<&str> =
        listed["assignments"].as_array().unwrap().iter().map(|a| a["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["project", "cave"], "{listed}");
    assert_eq!(listed["assignments"][1]["single_player"], true, "{listed}");
    assert_eq!(listed["assignments"][1]["score_margin"], json!([0.0, 50.0]), "{listed}");

    // Several assignments: an upload says which.
    let (code, refused) =
        super::submit(&server, Some(&ann), "file", &std::fs::read(library("easy")).unwrap());
    assert_eq!(code, 400, "{refused}");
    assert!(
        refused["error"]
            .as_str()
            .unwrap()
            .starts_with("the course has 2 assignments: name one (project, cave)"),
        "{refused}"
    );

    // Each group hands in both assignments: easy, medium and hard.
    let mut ids = BTreeMap::new();
    for (token, level) in [(&ann, "easy"), (&pair[1], "medium"), (&trio[2], "hard")] {
        for assignment in ["project", "cave"] {
            ids.insert((level, assignment), submit_for(&server, token, assignment, level));
        }
    }
    let mut graded = BTreeMap::new();
    for (&(level, assignment), &id) in &ids {
        let token = match level {
            "easy" => &ann,
            "medium" => &pair[0],
            _ => &trio[0],
        };
        let done = wait_for(&server, token, id, finished);
        assert_eq!(done["status"], "done", "{done}");
        assert_eq!(done["assignment"], assignment, "{done}");
        graded.insert((level, assignment), done);
    }

    // Trap: 4 games against each of the two levels, passed at 2 and 1 wins.
    let hard = &graded[&("hard", "project")]["grade"];
    let levels: Vec<(&str, u64, u64)> = hard["levels"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| (l["level"].as_str().unwrap(), l["games"].as_u64().unwrap(), l["needed"].as_u64().unwrap()))
        .collect();
    assert_eq!(levels, [("easy", 4, 2), ("medium", 4, 1)], "{hard}");
    assert_eq!(graded[&("hard", "project")]["total"], 8);

    // Wumpus World: the submission's mean against each level's mean on the
    // same 20 worlds, passed within the level's margin.
    for level in ["easy", "medium", "hard"] {
        let submission = &graded[&(level, "cave")];
        let means = run_means(data.path(), submission["id"].as_i64().unwrap());
        let grade = &submission["grade"];
        for ((l, margin), id) in grade["levels"].as_array().unwrap().iter().zip([0.0, 50.0]).zip(1..) {
            let (mean, level_mean) = (l["mean"].as_f64().unwrap(), l["level_mean"].as_f64().unwrap());
            assert_eq!(l["games"], 20, "{grade}");
            assert!((level_mean - means[&id]).abs() < 1e-9, "{grade} {means:?}");
            assert!((mean - means[&0]).abs() < 1e-9, "{grade} {means:?}");
            assert_eq!(l["passed"].as_bool().unwrap(), mean >= level_mean - margin, "{grade}");
        }
    }
    // The single-player board ranks the groups by mean score, beside the levels'.
    let board = super::leaderboard_when(&server, |_| true);
    assert_eq!(board["assignment"], "project", "the first by default: {board}");
    let started = Instant::now();
    let cave = loop {
        // Rebuilt a moment after each change.
        let (code, cave) = get(&server, "/api/leaderboard?assignment=cave", None);
        assert_eq!(code, 200, "{cave}");
        if cave["scores"]["rows"].as_array().unwrap().len() == 3 {
            break cave;
        }
        assert!(started.elapsed() < Duration::from_secs(30), "still {cave}");
        std::thread::sleep(Duration::from_millis(20));
    };
    let means: Vec<f64> =
        cave["scores"]["rows"].as_array().unwrap().iter().map(|r| r["mean"].as_f64().unwrap()).collect();
    assert!(means.windows(2).all(|w| w[0] >= w[1]), "ranked by mean: {cave}");
    assert_eq!(cave["scores"]["levels"].as_array().unwrap().len(), 2, "{cave}");
    assert!(cave.get("round_robin").is_none(), "{cave}");
    let (code, _) = get(&server, "/api/leaderboard?assignment=nope", None);
    assert_eq!(code, 404);

    // Members of a group see its submissions; another group's are 404.
    let (_, bo) = get(&server, "/api/submissions", Some(&pair[0]));
    let (_, cy) = get(&server, "/api/submissions", Some(&pair[1]));
    assert_eq!(bo["submissions"], cy["submissions"]);
    assert_eq!(bo["submissions"].as_array().unwrap().len(), 2);
    let theirs = ids[&("hard", "project")];
    let (code, _) = get(&server, &format!("/api/submissions/{theirs}"), Some(&pair[0]));
    assert_eq!(code, 404);

    // A scrimmage: the pair challenges ann's group, both see it.
    let challenge = |token: &str, body: Value| post_json(&server, "/api/scrimmages", token, &body);
    let (code, made) = challenge(&pair[0], json!({ "opponent": "ann", "assignment": "project" }));
    assert_eq!(code, 201, "{made}");
    let scrimmage = made["id"].as_i64().unwrap();
    let (code, own) = challenge(&pair[0], json!({ "opponent": "bo_cy", "assignment": "project" }));
    assert_eq!(code, 400, "{own}");
    let (code, none) = challenge(&pair[0], json!({ "opponent": "zed", "assignment": "project" }));
    assert_eq!(code, 404, "{none}");
    let (code, solo) = challenge(&pair[0], json!({ "opponent": "ann", "assignment": "cave" }));
    assert_eq!(code, 400, "{solo}");
    assert!(solo["error"].as_str().unwrap().contains("single-player"), "{solo}");
    let started = Instant::now();
    let played = loop {
        let (_, mine) = get(&server, "/api/scrimmages", Some(&ann));
        let found = mine["scrimmages"].as_array().unwrap().iter().find(|s| s["id"] == scrimmage).cloned();
        if let Some(s) = found.filter(|s| s["status"] == "done" || s["status"] == "failed") {
            break s;
        }
        assert!(started.elapsed() < Duration::from_secs(120), "still {mine}");
        std::thread::sleep(Duration::from_millis(50));
    };
    assert_eq!(played["status"], "done", "{played}");
    assert_eq!((played["challenger"].as_str(), played["opponent"].as_str()), (Some("bo_cy"), Some("ann")));
    let r = &played["result"];
    assert_eq!(
        r["wins"].as_u64().unwrap() + r["draws"].as_u64().unwrap() + r["losses"].as_u64().unwrap(),
        10
    );
    assert_eq!(
        played["submissions"],
        json!([ids[&("medium", "project")], ids[&("easy", "project")]]),
        "the groups' current submissions"
    );
    let replays = played["replays"].as_array().unwrap();
    assert_eq!(replays.len(), 10, "{played}");
    let url = replays[0]["url"].as_str().unwrap();
    for (token, expected) in [(&ann, 200), (&pair[1], 200), (&trio[0], 404)] {
        let response = agent()
            .get(format!("{}{url}", server.url))
            .header("Authorization", format!("Bearer {token}"))
            .call()
            .unwrap();
        assert_eq!(response.status().as_u16(), expected, "{url}");
    }
    let (_, theirs) = get(&server, "/api/scrimmages", Some(&trio[1]));
    assert_eq!(theirs["scrimmages"], json!([]), "not the trio's");
    // A few an hour, refused ones too: the pair made one and had three
    // refused, so its fifth is refused, whichever member sends it.
    let (code, over) = challenge(&pair[1], json!({ "opponent": "di_ed_fa", "assignment": "project" }));
    assert_eq!(code, 429, "{over}");
    drop(server);

    // Finalize each assignment (the course kept in the data folder).
    for assignment in ["project", "cave"] {
        let out = arena(&["serve", "finalize", "--data", dir, "--assignment", assignment], &[]);
        assert!(out.status.success(), "{}", support::stderr(&out));
    }
    let final_dir = data.path().join("final");
    let rows = super::csv_rows(&std::fs::read_to_string(final_dir.join("project/grades.csv")).unwrap());
    let column = |name: &str| rows[0].iter().position(|c| c == name).unwrap();
    let (group, passed_easy, passed_medium, defeated, points) = (
        column("group"),
        column("easy_wins"),
        column("easy_wins") + 1,
        column("groups_defeated"),
        column("points"),
    );
    assert_eq!(rows.len(), 7, "six students and the header: {rows:?}");
    let standings: Value = serde_json::from_str(
        &std::fs::read_to_string(final_dir.join("project/round-robin/standings.json")).unwrap(),
    )
    .unwrap();
    let mut by_group: BTreeMap<String, (usize, f64)> = BTreeMap::new();
    for row in &rows[1..] {
        let wins = |c: usize, needed: u32| {
            let passed = row[c].parse::<u32>().unwrap() >= needed;
            assert_eq!(row[c - 2], passed.to_string(), "a level's column says it was passed: {row:?}");
            passed
        };
        let level_points = 10.0 * (wins(passed_easy, 2) as u8 + wins(passed_medium, 1) as u8) as f64;
        let beaten: usize = row[defeated].parse().unwrap();
        let got: f64 = row[points].parse().unwrap();
        assert_eq!(got, level_points + 5.0 * beaten as f64, "the policy: {row:?}");
        by_group.insert(row[group].clone(), (beaten, got));
    }
    assert_eq!(by_group.len(), 3, "{by_group:?}");
    assert_eq!(standings["rows"].as_array().unwrap().len(), 3, "{standings}");
    // More groups defeated, more points (the levels passed being equal).
    let (hard_beaten, _) = by_group["di_ed_fa"];
    let (easy_beaten, _) = by_group["ann"];
    assert!(hard_beaten > easy_beaten, "{by_group:?}");

    let gradebook = std::fs::read_to_string(final_dir.join("gradebook.csv")).unwrap();
    let lines: Vec<&str> = gradebook.lines().collect();
    assert_eq!(lines[0], "Student ID,Name,Trap project Points,Wumpus World Points", "{gradebook}");
    assert_eq!(lines[1], "Points Possible,,30,20", "{gradebook}");
    assert_eq!(lines.len(), 8, "{gradebook}");
    let cave = super::csv_rows(&std::fs::read_to_string(final_dir.join("cave/grades.csv")).unwrap());
    let rank = cave[0].iter().position(|c| c == "rank").unwrap();
    let cave_points = cave[0].iter().position(|c| c == "points").unwrap();
    for row in &cave[1..] {
        let by_rank = [10.0, 6.0, 2.0][row[rank].parse::<usize>().unwrap() - 1];
        assert!(row[cave_points].parse::<f64>().unwrap() >= by_rank, "{row:?}");
    }

    // Staff see the groups and the assignment's grades.
    let server = Server::start(data.path(), &["--round-robin", "off"]);
    let (_, groups) = get(&server, "/api/staff/groups", Some(&staff));
    let names: Vec<&str> =
        groups["groups"].as_array().unwrap().iter().map(|g| g["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["ann", "bo_cy", "boss", "di_ed_fa"], "{groups}");
    let response = agent()
        .get(format!("{}/api/staff/grades.csv?assignment=cave", server.url))
        .header("Authorization", format!("Bearer {staff}"))
        .call()
        .unwrap();
    assert_eq!(response.status().as_u16(), 200);
    // Each assignment has its own deadline.
    let deadline = json!({ "deadline": "2031-01-02 03:04" });
    let (code, set) = post_json(&server, "/api/staff/deadline?assignment=cave", &staff, &deadline);
    assert_eq!(code, 200, "{set}");
    let (code, _) = post_json(&server, "/api/staff/deadline?assignment=nope", &staff, &deadline);
    assert_eq!(code, 404);
    let (_, roster) = get(&server, "/api/staff/roster", Some(&staff));
    assert_eq!(roster["deadlines"], json!({ "project": null, "cave": "2031-01-02 03:04:00" }), "{roster}");
    assert_eq!(roster["deadline"], Value::Null, "the first assignment's: {roster}");
    if let Some(browser) = support::browser::chromium() {
        let page = super::dump(&browser, &format!("{}/me#token={}", server.url, pair[1]));
        assert!(
            page.contains("AI course: Trap project (trap; against easy, medium, 4 games each; 5.00 s per turn, on the cpu clock)"),
            "{page}"
        );
        assert!(
            page.contains(
                "Wumpus World (wumpus; against easy, medium, 20 worlds; 5.00 s per turn, on the cpu clock; deadline 2031-01-02 03:04:00 UTC)"
            ),
            "{page}"
        );
        assert!(page.contains("bo_cy"), "{page}");
        assert!(page.contains(r#"<option value="cave">Wumpus World</option>"#), "{page}");
        assert!(page.contains(">bo_cy</td><td>ann</td><td>done</td>"), "the scrimmage: {page}");
        let board = super::dump(&browser, &format!("{}/?assignment=cave", server.url));
        assert!(board.contains(r#"<tr data-score-group="di_ed_fa">"#), "{board}");
        assert!(board.contains("easy (level)"), "{board}");
        // A member challenges another group from the page, and sees it played.
        let mut page = support::devtools::Browser::start(&browser);
        page.open(&format!("{}/me#token={}", server.url, trio[0]));
        page.wait_for(
            "document.getElementById('scrimmage-assignment').options.length === 1",
            Duration::from_secs(30),
        );
        page.wait_for(
            "document.querySelector('#opponent option[value=\"ann\"]') !== null",
            Duration::from_secs(30),
        );
        page.eval("document.getElementById('opponent').value = 'ann'; document.getElementById('challenge').requestSubmit(); true");
        page.wait_for(
            "[...document.querySelectorAll('#scrimmages tr[data-status=\"done\"]')].some(r => r.cells[2].textContent === 'di_ed_fa')",
            Duration::from_secs(120),
        );
        let (_, theirs) = get(&server, "/api/scrimmages", Some(&ann));
        let played = &theirs["scrimmages"][0];
        assert_eq!(
            (played["challenger"].as_str(), played["status"].as_str()),
            (Some("di_ed_fa"), Some("done"))
        );
        let staff_page = super::dump(&browser, &format!("{}/staff#token={staff}", server.url));
        assert!(
            staff_page.contains(r#"<tr data-group="di_ed_fa"><td>di_ed_fa</td><td>di, ed, fa</td>"#),
            "{staff_page}"
        );
        assert!(
            staff_page.contains(r#"<option value="cave">Wumpus World (wumpus)</option>"#),
            "{staff_page}"
        );
    }
}

#[test]
fn a_server_killed_mid_way_through_a_single_player_grading_resumes_playing_no_game_twice() {
    let data = tempfile::tempdir().unwrap();
    let course = support::write_file(
        data.path(),
        "course.toml",
        "[[assignment]]\nname = \"reveal\"\ngame = \"intuitive-ai\"\n[assignment.grading]\nlevels = [\"easy\"]\ngames = 40\n",
    );
    let course = course.to_str().unwrap();
    let alice = add_student(data.path(), "alice");
    let slow = std::fs::read(library("bad-player")).unwrap();
    let server = Server::start_with(data.path(), &["--course", course], &super::SLOW);
    let (code, accepted) = super::submit(&server, Some(&alice), "file", &slow);
    assert_eq!(code, 201, "{accepted}");
    let id = accepted["id"].as_i64().unwrap();
    let playing = wait_for(&server, &alice, id, |s| s["played"].as_i64().unwrap() > 0 || finished(s));
    server.kill();
    assert_eq!(playing["status"], "playing", "killed mid-grading: {playing}");
    let total = playing["total"].as_i64().unwrap();
    assert_eq!(total, 80, "40 worlds, for the submission and for easy");
    assert!(playing["played"].as_i64().unwrap() < total, "{playing}");

    let server = Server::start_with(data.path(), &[], &super::SLOW);
    let graded = wait_for(&server, &alice, id, finished);
    assert_eq!(graded["status"], "done", "{graded}");
    assert_eq!(graded["played"], total);
    let journal = support::journal_games(&data.path().join("runs").join(id.to_string()).join("out"));
    assert_eq!(journal.len(), total as usize, "killed at {playing}");
    let indices: std::collections::BTreeSet<usize> = journal.iter().map(|g| g.index).collect();
    assert_eq!(indices.len(), total as usize, "no game journaled twice");
    let level = &graded["grade"]["levels"][0];
    assert_eq!(level["games"], 40, "{graded}");
    let (mean, theirs) = (level["mean"].as_f64().unwrap(), level["level_mean"].as_f64().unwrap());
    // `arena submit --wait` tells it so.
    let told = arena_server::client::describe(&graded);
    assert!(told.starts_with(&format!("done: easy {mean:.1} vs {theirs:.1} ")), "{told}");
}

#[test]
fn each_two_player_assignment_has_its_own_league() {
    let data = tempfile::tempdir().unwrap();
    let course = support::write_file(
        data.path(),
        "course.toml",
        "[[assignment]]\nname = \"small-trap\"\ngame = \"trap\"\n[assignment.settings]\nboard_size = 5\n\
         [assignment.grading]\nlevels = [\"easy\"]\ngames = 2\n\
         [[assignment]]\nname = \"pawns\"\ngame = \"hexapawn\"\n[assignment.grading]\nlevels = [\"easy\"]\ngames = 2\n",
    );
    let tokens = [add_student(data.path(), "ann"), add_student(data.path(), "bob")];
    let server = Server::start(data.path(), &["--course", course.to_str().unwrap()]);
    for (token, level) in tokens.iter().zip(["easy", "hard"]) {
        for assignment in ["small-trap", "pawns"] {
            let id = submit_for(&server, token, assignment, level);
            let done = wait_for(&server, token, id, finished);
            assert_eq!(done["status"], "done", "{done}");
        }
    }
    // Each league plays its one pairing's 10 games, in its own game.
    for assignment in ["small-trap", "pawns"] {
        let started = Instant::now();
        let board = loop {
            let (_, board) = get(&server, &format!("/api/leaderboard?assignment={assignment}"), None);
            if board["round_robin"]["standings"]["games"] == 10 {
                break board;
            }
            assert!(started.elapsed() < Duration::from_secs(120), "{board}");
            std::thread::sleep(Duration::from_millis(50));
        };
        let rows = board["round_robin"]["standings"]["rows"].as_array().unwrap();
        assert_eq!(rows.len(), 2, "{board}");
        assert!(rows.iter().all(|r| r["games"] == 10), "{board}");
    }
    // The games stored are each assignment's own pairing's.
    let db = rusqlite::Connection::open(data.path().join("arena.db")).unwrap();
    let mut query = db
        .prepare("SELECT s.assignment, g.result FROM games g JOIN submissions s ON s.id = g.a ORDER BY g.a, g.game")
        .unwrap();
    let stored: Vec<(String, Value)> = query
        .query_map([], |r| Ok((r.get(0)?, serde_json::from_str(&r.get::<_, String>(1)?).unwrap())))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    assert_eq!(stored.len(), 20);
    assert_eq!(stored.iter().filter(|(a, _)| a == "pawns").count(), 10);
    // Played on the assignment's 5x5 board: easy against hard lasts about
    // 12-13 turns there, 18-19 on the default 7x7 (`arena play`, 40 games).
    let turns: Vec<u64> =
        stored.iter().filter(|(a, _)| a == "small-trap").map(|(_, r)| r["turns"].as_u64().unwrap()).collect();
    let mean = turns.iter().sum::<u64>() as f64 / turns.len() as f64;
    assert!(mean < 15.5, "{turns:?}");
}
