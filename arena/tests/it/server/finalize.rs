//! The end of term: a roster, a deadline and finalize's results, from the command line and staff's page.

use std::time::{Duration, Instant};

use super::{
    add_roster, add_student, agent, answer, csv_rows, dump, finished, get, submit, wait_for, Server,
};
use crate::support::{self, arena, library, stdout};

#[test]
fn a_roster_a_deadline_and_finalize_give_the_class_results() {
    let data = tempfile::tempdir().unwrap();
    let tokens = add_roster(data.path(), "alice,alice@example.org\n\"bob\",x\n\n");
    let names: Vec<&str> = tokens.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names, ["alice", "bob"]);
    let (alice, bob) = (&tokens[0].1, &tokens[1].1);

    let server = Server::start(data.path(), &[]);
    let send = |token: &str, name: &str| {
        let (code, accepted) = submit(&server, Some(token), "file", &std::fs::read(library(name)).unwrap());
        assert_eq!(code, 201, "{accepted}");
        wait_for(&server, token, accepted["id"].as_i64().unwrap(), finished)
    };
    let alices = send(alice, "easy");
    let bobs = send(bob, "hard");

    // A deadline in the past: alice's next submission is graded, but late.
    let data_arg = data.path().to_str().unwrap();
    let out = arena(&["serve", "deadline", "2000-01-01 00:00", "--data", data_arg], &[]);
    assert_eq!(
        stdout(&out).trim(),
        "trap: deadline 2000-01-01 00:00:00 UTC: later submissions are graded but do not count"
    );
    let out = arena(&["serve", "deadline", "next tuesday", "--data", data_arg], &[]);
    assert!(support::stderr(&out).contains("is not a date and time"), "{}", support::stderr(&out));
    let late = send(alice, "hard");
    assert_eq!((late["status"].as_str(), late["late"].as_bool()), (Some("done"), Some(true)), "{late}");
    // The league of the two current submissions (the late one does not
    // count): their pairing's 10 games, stored as played, in the
    // leaderboard's standings (rebuilt in memory a moment after a change).
    let started = Instant::now();
    let standings = loop {
        let (_, board) = get(&server, "/api/leaderboard", None);
        let counted: Vec<i64> =
            board["groups"].as_array().unwrap().iter().map(|s| s["submission"].as_i64().unwrap()).collect();
        let rr = board["round_robin"].clone();
        if rr["standings"]["games"] == 10 {
            assert_eq!(counted, [alices["id"].as_i64().unwrap(), bobs["id"].as_i64().unwrap()], "{board}");
            assert_eq!(rr["games_to_play"], 10, "{rr}");
            break rr["standings"].clone();
        }
        assert!(started.elapsed() < Duration::from_secs(120), "{rr}");
        std::thread::sleep(Duration::from_millis(50));
    };
    let rows = standings["rows"].as_array().unwrap();
    let mut names: Vec<&str> = rows.iter().map(|r| r["name"].as_str().unwrap()).collect();
    names.sort();
    assert_eq!(names, ["alice", "bob"]);
    for row in rows {
        assert_eq!(row["games"], 10, "{row}");
        let count = |key: &str| row[key].as_u64().unwrap();
        assert_eq!(count("wins") + count("draws") + count("losses"), 10);
    }
    assert_eq!(rows[0]["wins"], rows[1]["losses"]);
    // The page's crosstable shows alice's games against bob.
    if let Some(browser) = support::browser::chromium() {
        let (_, standings) = get(&server, "/api/leaderboard/crosstable", None);
        let id = |name: &str| {
            standings["rows"].as_array().unwrap().iter().find(|r| r["name"] == name).unwrap()["id"].clone()
        };
        let versus = standings["crosstable"]
            .as_array()
            .unwrap()
            .iter()
            .find(|v| v["player"] == id("alice") && v["opponent"] == id("bob"))
            .unwrap();
        let cell = format!("<td>{}-{}-{}</td>", versus["wins"], versus["draws"], versus["losses"]);
        let page = dump(&browser, &format!("{}/", server.url));
        let row = page.split("<tr data-cross-student=\"alice\">").nth(1).unwrap_or_else(|| panic!("{page}"));
        assert!(row.split("</tr>").next().unwrap().contains(&cell), "{cell} in {row}");
    }

    let out = arena(&["serve", "finalize", "--data", data_arg, "--games-per-pairing", "10"], &[]);
    assert!(out.status.success(), "{}", support::stderr(&out));
    assert!(
        stdout(&out)
            .starts_with("final results of 2 group(s), 2 student(s) (deadline 2000-01-01 00:00:00 UTC)"),
        "{}",
        stdout(&out)
    );
    let csv = std::fs::read_to_string(data.path().join("final/trap/grades.csv")).unwrap();
    let rows = csv_rows(&csv);
    assert_eq!(
        rows[0].join(","),
        "student,group,submission,sha256,easy,medium,hard,easy_wins,medium_wins,hard_wins,passed,verdict,rank,groups_defeated,points,time_per_turn,clock"
    );
    assert_eq!(rows.len(), 3, "{csv}");
    // The course's own policy: 30, 30 and 25 points for the levels passed,
    // 15 for defeating every other group. A level's column says whether it
    // was passed: its wins (the columns after) reach the course's marks.
    let points = |row: &[String], per_level: [f64; 3], per_group: f64| {
        let levels: f64 = (0..3)
            .filter(|&i| {
                let (wins, needed) = (row[7 + i].parse::<u32>().unwrap(), [6, 4, 2][i]);
                assert_eq!(row[4 + i], (wins >= needed).to_string(), "{row:?}");
                wins >= needed
            })
            .map(|i| per_level[i])
            .sum();
        levels + per_group * row[13].parse::<f64>().unwrap()
    };
    for (row, graded) in rows[1..].iter().zip([&alices, &bobs]) {
        assert_eq!(row[0], graded["student"].as_str().unwrap());
        assert_eq!(row[1], row[0], "a student alone is a group of one");
        assert_eq!(row[2], graded["id"].to_string());
        let wins: Vec<String> =
            graded["grade"]["levels"].as_array().unwrap().iter().map(|l| l["wins"].to_string()).collect();
        assert_eq!(row[7..10], wins[..], "the final grading agrees with the submission's: {row:?}");
        assert_eq!(row[14].parse::<f64>().unwrap(), points(row, [30.0, 30.0, 25.0], 15.0), "{row:?}");
    }
    // bob's Hard defeats alice's Easy: rank 1, one group defeated.
    assert_eq!((rows[2][12].as_str(), rows[2][13].as_str()), ("1", "1"), "{csv}");
    assert_eq!((rows[1][12].as_str(), rows[1][13].as_str()), ("2", "0"), "{csv}");
    // The gradebook: the most the policy gives (100: every level, every
    // group defeated), no full names on this roster.
    let gradebook = std::fs::read_to_string(data.path().join("final/gradebook.csv")).unwrap();
    assert_eq!(
        gradebook,
        format!(
            "Student ID,Name,Trap Points\nPoints Possible,,100\nalice,,{}\nbob,,{}\n",
            rows[1][14], rows[2][14]
        )
    );
    // The class tournament's standings name the groups, and head the
    // games' points as such (not the course's points).
    let standings = std::fs::read_to_string(data.path().join("final/trap/round-robin/standings.md")).unwrap();
    assert!(standings.contains("| Game pts |") && !standings.contains("| Points |"), "{standings}");
    for group in ["alice", "bob"] {
        assert!(standings.contains(&format!("| {group} ")), "{group} in {standings}");
    }
    let standings =
        std::fs::read_to_string(data.path().join("final/trap/round-robin/standings.csv")).unwrap();
    assert_eq!(standings.lines().count(), 3, "two students ranked: {standings}");
    // Run again: everything comes from the journals.
    let again = arena(&["serve", "finalize", "--data", data_arg, "--games-per-pairing", "10"], &[]);
    assert!(again.status.success());
    assert_eq!(std::fs::read_to_string(data.path().join("final/trap/grades.csv")).unwrap(), csv);
    // As a server before assignments left them (in `final/` itself), the
    // results become the one assignment's, and its round robin resumes
    // from its journal: no game played again.
    let (folder, top) = (data.path().join("final/trap"), data.path().join("final"));
    // The journals as written, times and all: a game played again differs.
    let journal = || -> Vec<String> {
        let files = arena_core::tournament::merge::journal_files(&folder.join("round-robin")).unwrap();
        files.iter().map(|f| std::fs::read_to_string(f).unwrap()).collect()
    };
    let games = journal();
    for name in ["round-robin.toml", "round-robin", "grades.csv"] {
        std::fs::rename(folder.join(name), top.join(name)).unwrap();
    }
    std::fs::remove_dir_all(&folder).unwrap();
    let again = arena(&["serve", "finalize", "--data", data_arg, "--games-per-pairing", "10"], &[]);
    assert!(again.status.success(), "{}", support::stderr(&again));
    assert!(!games.is_empty());
    assert_eq!(journal(), games, "the same games, none played again");
    assert!(!top.join("round-robin").exists());
    assert_eq!(std::fs::read_to_string(folder.join("grades.csv")).unwrap(), csv);
    // A class tournament's file from before its players were named by
    // group is the same tournament: resumed (no game played again, no
    // fresh folder), its file rewritten with the names.
    let file = folder.join("round-robin.toml");
    let mut table: toml::Table = std::fs::read_to_string(&file).unwrap().parse().unwrap();
    let named = table["players"].clone();
    let unnamed: Vec<toml::Value> = named.as_array().unwrap().iter().map(|p| p["player"].clone()).collect();
    assert_eq!(named.as_array().unwrap()[0]["name"].as_str(), Some("alice"), "{named}");
    table.insert("players".into(), unnamed.into());
    std::fs::write(&file, toml::to_string(&table).unwrap()).unwrap();
    let again = arena(&["serve", "finalize", "--data", data_arg, "--games-per-pairing", "10"], &[]);
    assert!(again.status.success(), "{}", support::stderr(&again));
    assert!(!folder.join("round-robin-2").exists(), "{}", support::stderr(&again));
    assert_eq!(journal(), games, "the same games, none played again");
    let table: toml::Table = std::fs::read_to_string(&file).unwrap().parse().unwrap();
    assert_eq!(table["players"], named);

    // Another policy from a course file: the same games, other points; the
    // group that defeated more gets more.
    let course = support::write_file(
        data.path(),
        "course.toml",
        "[[assignment]]\nname = \"trap\"\ntitle = \"Project\"\ngame = \"trap\"\n\
         [assignment.tournament]\ngames = 10\n[assignment.points]\nper_level = [1, 2, 3]\nper_group_defeated = 10\n",
    );
    let out = arena(&["serve", "finalize", "--data", data_arg, "--course", course.to_str().unwrap()], &[]);
    assert!(out.status.success(), "{}", support::stderr(&out));
    let rows = csv_rows(&std::fs::read_to_string(data.path().join("final/trap/grades.csv")).unwrap());
    for row in &rows[1..] {
        assert_eq!(row[14].parse::<f64>().unwrap(), points(row, [1.0, 2.0, 3.0], 10.0), "{row:?}");
    }
    let tournament = |row: &[String]| row[14].parse::<f64>().unwrap() - points(row, [1.0, 2.0, 3.0], 0.0);
    assert_eq!((tournament(&rows[2]), tournament(&rows[1])), (10.0, 0.0), "{rows:?}");
    let gradebook = std::fs::read_to_string(data.path().join("final/gradebook.csv")).unwrap();
    assert!(gradebook.starts_with("Student ID,Name,Project Points\nPoints Possible,,16\n"), "{gradebook}");
    let out = arena(
        &["serve", "finalize", "--data", data_arg, "--course", course.to_str().unwrap(), "--assignment", "x"],
        &[],
    );
    assert_eq!(
        support::stderr(&out).trim(),
        "error: --assignment x: the course has no assignment 'x' (it has trap)"
    );
}

#[test]
fn staff_see_the_roster_set_the_deadline_and_finalize_from_the_api_and_page() {
    let data = tempfile::tempdir().unwrap();
    let alice = add_student(data.path(), "alice");
    let out =
        arena(&["serve", "add-student", "prof", "--staff", "--data", data.path().to_str().unwrap()], &[]);
    let prof = stdout(&out).trim().to_string();
    let server = Server::start(data.path(), &[]);
    let (_, accepted) = submit(&server, Some(&alice), "file", &std::fs::read(library("easy")).unwrap());
    let graded = wait_for(&server, &alice, accepted["id"].as_i64().unwrap(), finished);

    assert_eq!(get(&server, "/api/staff/roster", Some(&alice)).0, 403);
    assert_eq!(get(&server, "/api/staff/roster", None).0, 401);
    let (code, roster) = get(&server, "/api/staff/roster", Some(&prof));
    assert_eq!(code, 200, "{roster}");
    let students = roster["students"].as_array().unwrap();
    assert_eq!(students.len(), 2);
    assert_eq!((students[0]["name"].as_str(), students[0]["graded"].as_bool()), (Some("alice"), Some(true)));
    assert_eq!((students[1]["name"].as_str(), students[1]["staff"].as_bool()), (Some("prof"), Some(true)));
    assert_eq!(get(&server, "/api/staff/queue", Some(&prof)).1["submissions"], serde_json::json!([]));

    let post = |path: &str, body: &str| {
        answer(
            agent()
                .post(format!("{}{path}", server.url))
                .header("Authorization", format!("Bearer {prof}"))
                .header("Content-Type", "application/json")
                .send(body),
        )
    };
    let (code, refused) = post("/api/staff/deadline", r#"{"deadline": "soon"}"#);
    assert_eq!(code, 400, "{refused}");
    let (code, set) = post("/api/staff/deadline", r#"{"deadline": "2100-01-01 00:00"}"#);
    assert_eq!((code, set["deadline"].as_str()), (200, Some("2100-01-01 00:00:00")), "{set}");

    assert_eq!(get(&server, "/api/staff/grades.csv", Some(&prof)).0, 404);
    let (code, started) = post("/api/staff/finalize", "");
    assert_eq!(code, 202, "{started}");
    let done = super::finalize_state(&server, &prof);
    assert_eq!((done["status"].as_str(), done["students"].as_u64()), (Some("done"), Some(1)), "{done}");
    let mut csv = agent()
        .get(format!("{}/api/staff/grades.csv", server.url))
        .header("Authorization", format!("Bearer {prof}"))
        .call()
        .unwrap();
    assert_eq!(csv.status().as_u16(), 200);
    let csv = csv.body_mut().read_to_string().unwrap();
    let wins: Vec<String> =
        graded["grade"]["levels"].as_array().unwrap().iter().map(|l| l["wins"].to_string()).collect();
    let row = csv.lines().nth(1).unwrap();
    assert!(row.starts_with(&format!("alice,alice,{},", graded["id"])), "{csv}");
    assert!(row.contains(&format!(",{},", wins.join(","))), "{row}");

    if let Some(browser) = support::browser::chromium() {
        let page = dump(&browser, &format!("{}/staff#token={prof}", server.url));
        assert!(page.contains("<tr data-name=\"alice\"><td>alice</td><td>alice</td><td>1</td>"), "{page}");
        assert!(page.contains("2100-01-01 00:00:00 UTC"), "{page}");
        assert!(page.contains("done: 1 student(s)"), "{page}");
    }
}

#[test]
fn a_course_may_ask_for_a_swiss_and_its_groups_defeated_are_those_ranked_below() {
    let data = tempfile::tempdir().unwrap();
    let tokens = add_roster(data.path(), "ann,a\nben,b\ncat,c\n");
    let server = Server::start(data.path(), &[]);
    for ((_, token), level) in tokens.iter().zip(["easy", "medium", "hard"]) {
        let (code, accepted) = submit(&server, Some(token), "file", &std::fs::read(library(level)).unwrap());
        assert_eq!(code, 201, "{accepted}");
        wait_for(&server, token, accepted["id"].as_i64().unwrap(), finished);
    }
    let data_arg = data.path().to_str().unwrap();
    let course = |tournament: &str| {
        support::write_file(
            data.path(),
            "course.toml",
            &format!(
                "[[assignment]]\nname = \"trap\"\ngame = \"trap\"\n[assignment.tournament]\n{tournament}\
                 [assignment.points]\nper_level = [0, 0, 0]\nshare = 10\n"
            ),
        )
    };
    // Rounds past the groups less one are cut to them (3 groups: 2 rounds).
    let file = course("format = \"swiss\"\nrounds = 5\ngames = 2\n");
    let out = arena(&["serve", "finalize", "--data", data_arg, "--course", file.to_str().unwrap()], &[]);
    assert!(out.status.success(), "{}", support::stderr(&out));
    let folder = data.path().join("final/trap");
    let table: toml::Table = std::fs::read_to_string(folder.join("swiss.toml")).unwrap().parse().unwrap();
    assert_eq!((table["format"].as_str(), table["rounds"].as_integer()), (Some("swiss"), Some(2)));
    assert!(!folder.join("round-robin").exists(), "its own folder");
    let standings: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(folder.join("swiss/standings.json")).unwrap()).unwrap();
    assert_eq!(standings["swiss"], serde_json::json!({"played": 2, "rounds": 2}));
    let rank_of = |group: &str| {
        standings["rows"].as_array().unwrap().iter().find(|r| r["name"] == group).unwrap()["rank"]
            .as_u64()
            .unwrap()
    };
    let rows = csv_rows(&std::fs::read_to_string(folder.join("grades.csv")).unwrap());
    assert_eq!(rows.len(), 4);
    for row in &rows[1..] {
        let rank = rank_of(&row[1]);
        assert_eq!(row[12], rank.to_string(), "{row:?}");
        // Defeated: the groups ranked below; the share: of the 2 others.
        assert_eq!(row[13], (3 - rank).to_string(), "{row:?}");
        assert_eq!(row[14].parse::<f64>().unwrap(), 10.0 * (3 - rank) as f64 / 2.0, "{row:?}");
    }
    // Run again: resumed from its journals, the same results.
    let csv = std::fs::read_to_string(folder.join("grades.csv")).unwrap();
    let again = arena(&["serve", "finalize", "--data", data_arg, "--course", file.to_str().unwrap()], &[]);
    assert!(again.status.success(), "{}", support::stderr(&again));
    assert_eq!(std::fs::read_to_string(folder.join("grades.csv")).unwrap(), csv);
    // A Swiss's rounds are for two-player games, and only a Swiss has them.
    let bad = course("rounds = 3\n");
    let out = arena(&["serve", "finalize", "--data", data_arg, "--course", bad.to_str().unwrap()], &[]);
    let err = support::stderr(&out);
    assert!(err.contains("tournament.rounds: only a Swiss has rounds"), "{err}");
}
