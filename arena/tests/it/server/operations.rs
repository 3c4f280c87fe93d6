//! Running a course for a term: a lost token reset, a student removed, and
//! the log an operator reads (a line when a grading starts and ends, or
//! fails with its reason; `--log-format json`).

use std::{path::Path, process::Stdio, time::Duration};

use serde_json::Value;

use super::{add_student, finished, get, submit, wait_for, Server};
use crate::support::{self, arena, library, stdout};

/// One value a query of `data`'s database gives.
fn one<T: rusqlite::types::FromSql>(data: &Path, sql: &str) -> T {
    rusqlite::Connection::open(data.join("arena.db")).unwrap().query_row(sql, [], |row| row.get(0)).unwrap()
}

/// `arena serve add-student NAME --staff`: the token.
fn add_staff(data: &Path, name: &str) -> String {
    let out = arena(&["serve", "add-student", name, "--staff", "--data", data.to_str().unwrap()], &[]);
    assert!(out.status.success(), "{}", support::stderr(&out));
    stdout(&out).trim().to_string()
}

/// `reset-token` and `remove-student` on a running server: the old token
/// is refused at once, the new one works; a removed student's token is
/// refused, their group's submission stays, staff see them marked, and
/// `reset-token` lets them back in. Unknown names are one clear line.
#[test]
fn a_reset_or_removed_token_stops_working_at_once_and_nothing_of_the_group_is_lost() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let alice = add_student(&data, "alice");
    let staff = add_staff(&data, "prof");
    let server = Server::start(&data, &[]);
    let (status, _) = get(&server, "/api/submissions", Some(&alice));
    assert_eq!(status, 200);
    let (status, made) = submit(&server, Some(&alice), "file", &std::fs::read(library("easy")).unwrap());
    assert_eq!(status, 201, "{made}");
    let id = made["id"].as_i64().unwrap();

    let serve = |args: &[&str]| arena(&[&["serve"], args, &["--data", data.to_str().unwrap()]].concat(), &[]);
    let reset = serve(&["reset-token", "alice"]);
    assert!(reset.status.success(), "{}", support::stderr(&reset));
    let fresh = stdout(&reset).trim().to_string();
    assert_eq!(fresh.len(), 48, "{fresh}");
    assert_ne!(fresh, alice);
    assert_eq!(get(&server, "/api/submissions", Some(&alice)).0, 401, "the old token is refused at once");
    let (status, list) = get(&server, "/api/submissions", Some(&fresh));
    assert_eq!(status, 200);
    assert!(
        list.to_string().contains(&format!("\"id\":{id}")),
        "the group's submission is still theirs: {list}"
    );

    let removed = serve(&["remove-student", "alice"]);
    assert!(removed.status.success(), "{}", support::stderr(&removed));
    assert!(
        support::stderr(&removed).contains("their token no longer works"),
        "{}",
        support::stderr(&removed)
    );
    assert_eq!(get(&server, "/api/submissions", Some(&fresh)).0, 401, "a removed student's token is refused");
    let again = serve(&["remove-student", "alice"]);
    assert!(again.status.success() && support::stderr(&again).contains("removed already"));
    let (status, roster) = get(&server, "/api/staff/roster", Some(&staff));
    assert_eq!(status, 200);
    let row = roster["students"].as_array().unwrap().iter().find(|s| s["name"] == "alice").unwrap().clone();
    assert!(row["removed"].is_string(), "staff see when: {row}");
    assert_eq!(row["submissions"], 1, "the group's submission stays: {row}");
    assert_eq!(one::<i64>(&data, "SELECT COUNT(*) FROM submissions"), 1);

    let back = serve(&["reset-token", "alice"]);
    assert!(back.status.success(), "{}", support::stderr(&back));
    let back = stdout(&back).trim().to_string();
    assert_eq!(get(&server, "/api/submissions", Some(&back)).0, 200, "reset-token lets them back in");
    let (_, roster) = get(&server, "/api/staff/roster", Some(&staff));
    let row = roster["students"].as_array().unwrap().iter().find(|s| s["name"] == "alice").unwrap().clone();
    assert!(row.get("removed").is_none(), "{row}");

    for command in ["reset-token", "remove-student"] {
        let out = serve(&[command, "nobody"]);
        assert!(!out.status.success());
        let error = support::stderr(&out);
        assert_eq!(error.trim().lines().count(), 1, "{error}");
        assert!(error.contains("no student named 'nobody'") && error.contains("add-student"), "{error}");
    }
}

/// The log's work lines for `submission`, as JSON objects.
fn work_lines(log: &str, id: &str) -> Vec<Value> {
    log.lines()
        .filter_map(|line| serde_json::from_str::<Value>(line).ok())
        .filter(|line| line["target"] == "arena_server::work_log" && line["fields"]["id"] == id)
        .collect()
}

/// With `--log-format json`, a grading is a start line and a done line
/// (with its verdict), or a start line and a failed line (with the first
/// line of its reason), each a JSON object with its fields and a timestamp;
/// the text form says the same in words, by default.
#[test]
fn a_grading_is_logged_when_it_starts_and_when_it_ends_or_fails_with_its_reason() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let alice = add_student(&data, "alice");
    let log_path = dir.path().join("server.log");
    let log = std::fs::File::create(&log_path).unwrap();
    let server = Server::start_logging(
        &data,
        &["--round-robin", "off", "--log-format", "json"],
        &[],
        Stdio::from(log),
    );
    let (_, good) = submit(&server, Some(&alice), "file", &std::fs::read(library("easy")).unwrap());
    let good = good["id"].as_i64().unwrap();
    let graded = wait_for(&server, &alice, good, finished);
    assert_eq!(graded["status"], "done", "{graded}");
    let (_, bad) = submit(&server, Some(&alice), "file", &std::fs::read(library("not-a-player")).unwrap());
    let bad = bad["id"].as_i64().unwrap();
    assert_eq!(wait_for(&server, &alice, bad, finished)["status"], "failed");
    // The last line is written as the result is recorded: wait for it.
    let read = || std::fs::read_to_string(&log_path).unwrap();
    let deadline = std::time::Instant::now() + Duration::from_secs(30);
    while work_lines(&read(), &format!("submission {bad}")).len() < 2 && std::time::Instant::now() < deadline
    {
        std::thread::sleep(Duration::from_millis(100));
    }
    let text = read();
    let lines = work_lines(&text, &format!("submission {good}"));
    let events: Vec<&str> = lines.iter().map(|l| l["fields"]["event"].as_str().unwrap()).collect();
    assert_eq!(events, ["start", "done"], "{text}");
    for line in &lines {
        assert_eq!(line["fields"]["work"], "grading", "{line}");
        assert!(line["timestamp"].is_string(), "{line}");
        assert!(
            line["fields"]["message"].as_str().unwrap().contains("group alice, assignment trap"),
            "{line}"
        );
    }
    let verdict = graded["grade"]["verdict"].as_str().unwrap();
    assert_eq!(lines[1]["fields"]["outcome"], verdict, "{}", lines[1]);
    assert!(lines[1]["fields"]["seconds"].as_f64().unwrap() >= 0.0);
    let lines = work_lines(&text, &format!("submission {bad}"));
    assert_eq!(lines.len(), 2, "{text}");
    assert_eq!(lines[1]["fields"]["event"], "failed");
    assert_eq!(lines[1]["level"], "WARN");
    let reason = lines[1]["fields"]["reason"].as_str().unwrap();
    assert!(reason.starts_with("cannot load player 'libplayer.so'") && !reason.contains('\n'), "{reason}");
    drop(server);

    // Text, the default: the same events in words.
    let data = dir.path().join("text");
    let bob = add_student(&data, "bob");
    let log_path = dir.path().join("text.log");
    let server = Server::start_logging(
        &data,
        &["--round-robin", "off"],
        &[],
        Stdio::from(std::fs::File::create(&log_path).unwrap()),
    );
    let (_, made) = submit(&server, Some(&bob), "file", &std::fs::read(library("easy")).unwrap());
    wait_for(&server, &bob, made["id"].as_i64().unwrap(), finished);
    let deadline = std::time::Instant::now() + Duration::from_secs(30);
    while !std::fs::read_to_string(&log_path).unwrap().contains("done in")
        && std::time::Instant::now() < deadline
    {
        std::thread::sleep(Duration::from_millis(100));
    }
    let text = std::fs::read_to_string(&log_path).unwrap();
    assert!(text.contains("grading submission 1 (group bob, assignment trap): started"), "{text}");
    assert!(text.contains("grading submission 1 (group bob, assignment trap): done in"), "{text}");
}

/// The submissions, their status and grade, of data folder `data`.
fn submissions(data: &Path) -> Vec<(i64, String, Option<String>)> {
    let db = rusqlite::Connection::open(data.join("arena.db")).unwrap();
    let mut query = db.prepare("SELECT id, status, grade FROM submissions ORDER BY id").unwrap();
    query.query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?))).unwrap().map(Result::unwrap).collect()
}

/// The league's games of data folder `data`: (a, b, game) -> result.
fn league_games(data: &Path) -> std::collections::BTreeMap<(i64, i64, i64), String> {
    let db = rusqlite::Connection::open(data.join("arena.db")).unwrap();
    let mut query = db.prepare("SELECT a, b, game, result FROM games").unwrap();
    query
        .query_map([], |r| Ok(((r.get(0)?, r.get(1)?, r.get(2)?), r.get(3)?)))
        .unwrap()
        .map(Result::unwrap)
        .collect()
}

/// A backup taken while a submission is graded and the league plays,
/// restored into a new folder and served: the same students (their tokens
/// work), the same submissions and grades, the league's games as they were
/// with none doubled; the grading under way is taken up and finishes.
/// Restoring over a folder in use, or a file that is no backup, is refused
/// in one line.
#[test]
fn a_backup_taken_while_grading_and_the_league_run_restores_to_a_server_that_goes_on() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let levels = ["easy", "medium", "hard"];
    let tokens: Vec<String> = (0..4).map(|i| add_student(&data, &format!("s{i}"))).collect();
    let server = Server::start(&data, &[]);
    for (token, level) in tokens.iter().zip(levels) {
        let (code, made) = submit(&server, Some(token), "file", &std::fs::read(library(level)).unwrap());
        assert_eq!(code, 201, "{made}");
        wait_for(&server, token, made["id"].as_i64().unwrap(), finished);
    }
    let started = std::time::Instant::now();
    while league_games(&data).len() < 4 && started.elapsed() < Duration::from_secs(60) {
        std::thread::sleep(Duration::from_millis(50));
    }
    // A slow player: being graded while the backup is taken.
    let (code, slow) = submit(&server, Some(&tokens[3]), "file", &super::sleepy_player(0.05));
    assert_eq!(code, 201, "{slow}");
    let slow = slow["id"].as_i64().unwrap();
    let started = std::time::Instant::now();
    while get(&server, &format!("/api/submissions/{slow}"), Some(&tokens[3])).1["status"] != "playing" {
        assert!(started.elapsed() < Duration::from_secs(60), "the slow player never started playing");
        std::thread::sleep(Duration::from_millis(50));
    }
    let file = dir.path().join("course.tar.gz");
    let out =
        arena(&["serve", "backup", "--data", data.to_str().unwrap(), "--to", file.to_str().unwrap()], &[]);
    assert!(out.status.success(), "{}", support::stderr(&out));
    assert!(support::stderr(&out).contains("4 submissions"), "{}", support::stderr(&out));
    let original_games = league_games(&data);
    let original = submissions(&data);
    // Written inside the folder itself, it is refused: it could overwrite
    // the folder's files, and the next backup would hold it.
    let inside = data.join("inside.tar.gz");
    let out =
        arena(&["serve", "backup", "--data", data.to_str().unwrap(), "--to", inside.to_str().unwrap()], &[]);
    let error = support::stderr(&out);
    assert!(!out.status.success() && error.contains("is inside the data folder"), "{error}");
    assert!(!inside.exists());
    drop(server);

    let restored = dir.path().join("restored");
    let out = arena(
        &["serve", "restore", "--from", file.to_str().unwrap(), "--data", restored.to_str().unwrap()],
        &[],
    );
    assert!(out.status.success(), "{}", support::stderr(&out));
    // As backed up: the graded three with their grades, the slow one not done.
    let at_backup = submissions(&restored);
    assert_eq!(at_backup.len(), 4);
    for ((id, status, grade), (id0, status0, grade0)) in at_backup.iter().zip(&original).take(3) {
        assert_eq!((id, status, grade), (id0, status0, grade0));
    }
    assert_ne!(at_backup[3].1, "done", "{at_backup:?}");
    let backed_up_games = league_games(&restored);
    assert!(!backed_up_games.is_empty());
    for (key, result) in &backed_up_games {
        assert_eq!(original_games.get(key), Some(result), "a league game as it was: {key:?}");
    }

    // Served, it goes on: the tokens work, the slow one is graded, the
    // league's games stay as they were and none is played twice.
    let server = Server::start(&restored, &[]);
    let (status, _) = get(&server, "/api/submissions", Some(&tokens[0]));
    assert_eq!(status, 200);
    let done = wait_for(&server, &tokens[3], slow, finished);
    assert_eq!(done["status"], "done", "{done}");
    let after = league_games(&restored);
    for (key, result) in &backed_up_games {
        assert_eq!(after.get(key), Some(result), "{key:?}");
    }
    drop(server);

    // Refused: a folder in use, a file that is no backup.
    let out =
        arena(&["serve", "restore", "--from", file.to_str().unwrap(), "--data", data.to_str().unwrap()], &[]);
    let error = support::stderr(&out);
    assert!(!out.status.success() && error.contains("is not empty: restore into a new folder"), "{error}");
    let junk = support::write_file(dir.path(), "junk.tar.gz", "not a backup");
    let out = arena(
        &[
            "serve",
            "restore",
            "--from",
            junk.to_str().unwrap(),
            "--data",
            dir.path().join("x").to_str().unwrap(),
        ],
        &[],
    );
    let error = support::stderr(&out);
    assert!(!out.status.success() && error.contains("is not a backup"), "{error}");
    assert_eq!(error.trim().lines().count(), 1, "{error}");
    assert!(!dir.path().join("x").exists(), "nothing left of a refused restore");
}

/// A backup damaged (a bit flipped, a stored file changed) is refused by
/// `serve restore` in one line naming what is wrong, leaving no folder; a
/// backup onto the database it backs up is refused and the database kept;
/// a killed backup's copy of the database is removed when the server starts.
#[test]
fn a_damaged_backup_or_one_onto_its_own_folder_is_refused_and_a_killed_ones_copy_goes_at_start() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let token = add_student(&data, "ann");
    let server = Server::start(&data, &[]);
    let (code, made) = submit(&server, Some(&token), "file", &std::fs::read(library("easy")).unwrap());
    assert_eq!(code, 201, "{made}");
    wait_for(&server, &token, made["id"].as_i64().unwrap(), finished);
    drop(server);
    let file = dir.path().join("course.tar.gz");
    let backup = |to: &Path| {
        arena(&["serve", "backup", "--data", data.to_str().unwrap(), "--to", to.to_str().unwrap()], &[])
    };
    let restore = |from: &Path, into: &Path| {
        arena(&["serve", "restore", "--from", from.to_str().unwrap(), "--data", into.to_str().unwrap()], &[])
    };
    assert!(backup(&file).status.success());
    let good = std::fs::read(&file).unwrap();
    // In the gzip trailer: the CRC and the length, which every flip changes
    // (a flip in the deflate stream may land on bits no decoder reads: the
    // store's unit tests flip there, where it changes the stream).
    for at in [good.len() - 7, good.len() - 3] {
        let mut bytes = good.clone();
        bytes[at] ^= 0x10;
        let damaged = dir.path().join("damaged.tar.gz");
        std::fs::write(&damaged, &bytes).unwrap();
        let into = dir.path().join("restored");
        let out = restore(&damaged, &into);
        let error = support::stderr(&out);
        assert!(!out.status.success() && error.contains("nothing was restored"), "{error}");
        assert_eq!(error.trim().lines().count(), 1, "{error}");
        assert!(!into.exists(), "nothing left of a refused restore");
    }
    let out = restore(&file, &dir.path().join("restored"));
    assert!(out.status.success(), "{}", support::stderr(&out));
    assert!(support::stderr(&out).contains("1 submissions"), "{}", support::stderr(&out));

    let out = backup(&data.join("arena.db"));
    let error = support::stderr(&out);
    assert!(!out.status.success() && error.contains("is inside the data folder"), "{error}");
    assert_eq!(error.trim().lines().count(), 1, "{error}");
    assert_eq!(one::<i64>(&data, "SELECT COUNT(*) FROM submissions"), 1, "the database is kept");

    let mut gone = std::process::Command::new("true").spawn().unwrap();
    gone.wait().unwrap();
    let stale = data.join(format!(".arena-backup-{}-0", gone.id()));
    std::fs::create_dir_all(&stale).unwrap();
    std::fs::write(stale.join("arena.db"), "a copy of the secret").unwrap();
    let server = Server::start(&data, &[]);
    assert!(!stale.exists(), "the killed backup's copy is removed at start");
    drop(server);
}
