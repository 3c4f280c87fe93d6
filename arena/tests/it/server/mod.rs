//! The submissions server (docs/server.md), tested through its HTTP API on
//! a loopback port, against the real binary: tokens, uploads, grading in
//! the course format, the leaderboard, bad input, and a kill -9 mid-grading.

use std::{
    io::{BufRead, BufReader},
    path::Path,
    process::{Child, Command, Stdio},
    time::{Duration, Instant},
};

use crate::support::{self, arena, library, stdout};
use arena::server::secret::{Purpose, Secret};
use serde_json::Value;

mod accounts;
mod attacks;
mod course;
mod fairness;
mod groups;
mod scrimmages;

/// The data folders' secret in tests (`ARENA_SERVER_SECRET`).
const TEST_SECRET: &str = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";
mod storage;

/// [`TEST_SECRET`] as the server reads it: a test can compute the seeds
/// the server plays on (as no player can).
fn test_secret() -> Secret {
    let bytes: Vec<u8> =
        (0..32).map(|i| u8::from_str_radix(&TEST_SECRET[2 * i..2 * i + 2], 16).unwrap()).collect();
    Secret::from_bytes(bytes.try_into().unwrap())
}

/// A running `arena serve`, killed when dropped.
struct Server {
    child: Child,
    url: String,
}

impl Server {
    fn start(data: &Path, extra: &[&str]) -> Server {
        Server::start_with(data, extra, &[])
    }

    /// `env` is for the players: the server passes each variable to its workers.
    /// With the variables `env`, passed on to the players (`--pass-env`).
    fn start_with(data: &Path, extra: &[&str], env: &[(&str, &str)]) -> Server {
        let passed: Vec<&str> = env.iter().flat_map(|(name, _)| ["--pass-env", *name]).collect();
        Server::start_in(data, &[extra, &passed].concat(), env)
    }

    /// With the variables `env` in the server's environment only.
    fn start_in(data: &Path, extra: &[&str], env: &[(&str, &str)]) -> Server {
        Server::start_logging(data, extra, env, Stdio::inherit())
    }

    /// With what it logs going to `log`.
    fn start_logging(data: &Path, extra: &[&str], env: &[(&str, &str)], log: Stdio) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_arena"))
            .args(["serve", "--data", data.to_str().unwrap(), "--listen", "127.0.0.1:0"])
            .args(extra)
            // A known secret, the same for every test's data folder: two
            // folders grade alike (a test may give its own).
            .env(arena::server::secret::VARIABLE, TEST_SECRET)
            .envs(env.iter().copied())
            .env_remove("RUST_LOG")
            .stdout(Stdio::piped())
            .stderr(log)
            .spawn()
            .expect("arena serve starts");
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap()).read_line(&mut line).unwrap();
        let url = line
            .split_whitespace()
            .find(|w| w.starts_with("http://"))
            .unwrap_or_else(|| panic!("no address in {line:?}"))
            .to_string();
        Server { child, url }
    }

    /// kill -9: nothing is flushed or finished.
    fn kill(mut self) {
        self.child.kill().unwrap();
        self.child.wait().unwrap();
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn add_student(data: &Path, name: &str) -> String {
    let out = arena(&["serve", "add-student", name, "--data", data.to_str().unwrap()], &[]);
    assert!(out.status.success(), "{}", support::stderr(&out));
    let token = stdout(&out).trim().to_string();
    assert_eq!(token.len(), 48, "{token}");
    token
}

/// `arena serve add-student --roster` of a roster `text`: its `name,token` lines.
fn add_roster(data: &Path, text: &str) -> Vec<(String, String)> {
    let roster = support::write_file(data, "roster.csv", text);
    let out = arena(
        &["serve", "add-student", "--roster", roster.to_str().unwrap(), "--data", data.to_str().unwrap()],
        &[],
    );
    assert!(out.status.success(), "{}", support::stderr(&out));
    stdout(&out)
        .lines()
        .map(|line| {
            let (name, token) = line.split_once(',').unwrap();
            (name.to_string(), token.to_string())
        })
        .collect()
}

/// An agent that gives up after two minutes: a server that stops
/// answering fails its test instead of hanging it.
fn agent() -> ureq::Agent {
    ureq::Agent::config_builder()
        .http_status_as_error(false)
        .timeout_global(Some(Duration::from_secs(120)))
        .build()
        .into()
}

/// The status and JSON body of a response.
fn answer(response: Result<ureq::http::Response<ureq::Body>, ureq::Error>) -> (u16, Value) {
    let mut response = response.expect("the server answers");
    let status = response.status().as_u16();
    let text = response.body_mut().read_to_string().unwrap();
    (status, serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}: {text}")))
}

/// POSTs `body` as JSON to `path` with `token`.
fn post_json(server: &Server, path: &str, token: &str, body: &Value) -> (u16, Value) {
    answer(
        agent()
            .post(format!("{}{path}", server.url))
            .header("Content-Type", "application/json")
            .header("Authorization", format!("Bearer {token}"))
            .send(body.to_string().as_bytes()),
    )
}

fn get(server: &Server, path: &str, token: Option<&str>) -> (u16, Value) {
    let mut request = agent().get(format!("{}{path}", server.url));
    if let Some(token) = token {
        request = request.header("Authorization", format!("Bearer {token}"));
    }
    answer(request.call())
}

/// `POST /api/submissions` with `bytes` as the multipart field `field`.
fn submit(server: &Server, token: Option<&str>, field: &str, bytes: &[u8]) -> (u16, Value) {
    let (content_type, body) = arena::client::multipart(field, "libplayer.so", bytes);
    let mut request =
        agent().post(format!("{}/api/submissions", server.url)).header("Content-Type", content_type);
    if let Some(token) = token {
        request = request.header("Authorization", format!("Bearer {token}"));
    }
    answer(request.send(&body[..]))
}

/// The leaderboard once `ready(board)`, polled for up to 30 s (it is
/// rebuilt in memory a moment after each change).
fn leaderboard_when(server: &Server, ready: impl Fn(&Value) -> bool) -> Value {
    let started = Instant::now();
    loop {
        let (code, board) = get(server, "/api/leaderboard", None);
        assert_eq!(code, 200, "{board}");
        if ready(&board) {
            return board;
        }
        assert!(started.elapsed() < Duration::from_secs(30), "still {board}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Polls submission `id` until `done(status)`, for up to two minutes.
fn wait_for(server: &Server, token: &str, id: i64, done: impl Fn(&Value) -> bool) -> Value {
    let started = Instant::now();
    loop {
        let (code, submission) = get(server, &format!("/api/submissions/{id}"), Some(token));
        assert_eq!(code, 200, "{submission}");
        if done(&submission) {
            return submission;
        }
        assert!(started.elapsed() < Duration::from_secs(120), "still {submission}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn finished(submission: &Value) -> bool {
    ["done", "failed"].contains(&submission["status"].as_str().unwrap())
}

/// What a grade says, without the games' details: per level (name, games,
/// wins, draws, losses, passed), and passed overall.
fn grade_summary(grade: &Value) -> Value {
    let levels: Vec<Value> = grade["levels"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| serde_json::json!([l["level"], l["games"], l["wins"], l["draws"], l["losses"], l["passed"]]))
        .collect();
    serde_json::json!({ "levels": levels, "passed_all": grade["passed_all"] })
}

#[test]
fn a_library_is_graded_in_the_course_format_and_shows_on_the_leaderboard() {
    let data = tempfile::tempdir().unwrap();
    let alice = add_student(data.path(), "alice");
    let bob = add_student(data.path(), "bob");
    // A known secret, so that the test can compute the grading seed.
    let secret = "5e".repeat(32);
    let server = Server::start_in(data.path(), &[], &[("ARENA_SERVER_SECRET", &secret)]);

    let easy = std::fs::read(library("easy")).unwrap();
    let (code, accepted) = submit(&server, Some(&alice), "file", &easy);
    assert_eq!(code, 201, "{accepted}");
    let id = accepted["id"].as_i64().unwrap();
    assert_eq!(accepted["status"], "queued");

    // Only its owner sees it.
    assert_eq!(get(&server, &format!("/api/submissions/{id}"), Some(&bob)).0, 404);
    assert_eq!(get(&server, &format!("/api/submissions/{id}"), None).0, 401);

    let graded = wait_for(&server, &alice, id, finished);
    assert_eq!(graded["status"], "done", "{graded}");
    assert_eq!((graded["played"].as_i64(), graded["total"].as_i64()), (Some(30), Some(30)));
    let grade = &graded["grade"];
    let levels = grade["levels"].as_array().unwrap();
    let names: Vec<&str> = levels.iter().map(|l| l["level"].as_str().unwrap()).collect();
    assert_eq!(names, ["easy", "medium", "hard"]);
    for (level, needed) in levels.iter().zip([6, 4, 2]) {
        let count = |key: &str| level[key].as_u64().unwrap();
        assert_eq!(count("wins") + count("draws") + count("losses"), 10, "{level}");
        assert_eq!(count("needed"), needed);
        assert_eq!(level["passed"].as_bool(), Some(count("wins") >= needed));
    }

    // The games it lost, each with its viewer, for its owner only.
    let (code, listed) = get(&server, &format!("/api/submissions/{id}/replays"), Some(&alice));
    assert_eq!(code, 200, "{listed}");
    let replays = listed["replays"].as_array().unwrap();
    let losses: u64 = levels.iter().map(|l| l["losses"].as_u64().unwrap()).sum();
    assert_eq!(replays.len() as u64, losses, "{listed}");
    let url = replays[0]["url"].as_str().unwrap();
    let mut viewer = agent()
        .get(format!("{}{url}", server.url))
        .header("Authorization", format!("Bearer {alice}"))
        .call()
        .unwrap();
    assert_eq!(viewer.status().as_u16(), 200);
    let page = viewer.body_mut().read_to_string().unwrap();
    assert!(page.contains("<html"), "an HTML viewer");
    // Every submission is graded on the same seeds, derived from the data
    // folder's secret: neither the viewer nor the grade gives one away.
    let (_, course) = get(&server, "/api/assignments", None);
    let assignment = course["assignments"][0]["name"].as_str().unwrap();
    let seed = Secret::from_bytes([0x5e; 32]).seed(Purpose::Grading, assignment);
    let run = std::fs::read_to_string(data.path().join(format!("runs/{id}/grade.toml"))).unwrap();
    assert!(run.contains(&format!("seed = {seed}\n")), "{run}");
    assert!(page.contains(arena::replay::html::HIDDEN_SEED));
    assert!(!page.contains(&seed.to_string()), "the viewer holds no seed");
    for level in levels {
        for lost in level["lost"].as_array().into_iter().flatten() {
            assert!(lost.get("seed").is_none(), "{lost}");
        }
    }
    assert_eq!(get(&server, url, Some(&bob)).0, 404);
    assert_eq!(get(&server, &format!("/api/submissions/{id}/replays"), Some(&bob)).0, 404);
    assert_eq!(
        get(&server, &format!("/api/submissions/{id}/replays/..%2F..%2Farena.db"), Some(&alice)).0,
        404
    );

    // The same grade as the course's grading tournament on the same seed.
    let toml = format!(
        "format = \"grade\"\nseed = {seed}\noutput = \"out\"\nplayers = [{:?}]\n",
        library("easy").to_str().unwrap()
    );
    let local = tempfile::tempdir().unwrap();
    let file = support::write_file(local.path(), "grade.toml", &toml);
    let run = arena(&["tournament", "run", file.to_str().unwrap()], &[]);
    assert!(run.status.success(), "{}", support::stderr(&run));
    let table = std::fs::read_to_string(local.path().join("out/grades.md")).unwrap();
    let row = table.lines().last().unwrap();
    let local_wins: Vec<&str> =
        row.split('|').skip(2).take(3).map(|cell| cell.split_whitespace().next().unwrap()).collect();
    let server_wins: Vec<String> = levels.iter().map(|l| format!("{}/10", l["wins"])).collect();
    assert_eq!(local_wins, server_wins, "{row}");

    // A library that is no player is refused with the loader's reason.
    let (code, accepted) =
        submit(&server, Some(&bob), "file", &std::fs::read(library("not-a-player")).unwrap());
    assert_eq!(code, 201, "{accepted}");
    let bobs = accepted["id"].as_i64().unwrap();
    let failed = wait_for(&server, &bob, bobs, finished);
    assert_eq!(failed["status"], "failed", "{failed}");
    let error = failed["error"].as_str().unwrap();
    assert!(error.starts_with("cannot load player 'libplayer.so'"), "named as uploaded: {error}");
    assert!(error.contains("add `player_api::export_player!` to it"), "{error}");
    assert!(failed["grade"].is_null());
    // So is one built against another player-api.
    let (_, accepted) =
        submit(&server, Some(&bob), "file", &std::fs::read(library("incompatible-player")).unwrap());
    let failed = wait_for(&server, &bob, accepted["id"].as_i64().unwrap(), finished);
    assert_eq!(failed["status"], "failed", "{failed}");
    assert!(
        failed["error"].as_str().unwrap().contains("rebuild the player against this arena's player-api"),
        "{failed}"
    );

    // The leaderboard is rebuilt in memory a moment after a change.
    let board = leaderboard_when(&server, |board| !board["groups"].as_array().unwrap().is_empty());
    let students = board["groups"].as_array().unwrap();
    assert_eq!(students.len(), 1, "only graded submissions count: {board}");
    assert_eq!(students[0]["group"], "alice", "a student of their own is a group of one");
    assert_eq!(students[0]["submission"], id);
    assert_eq!(grade_summary(&students[0]["grade"]), grade_summary(grade));
}

#[test]
fn bad_requests_get_one_clear_error_and_store_nothing() {
    let data = tempfile::tempdir().unwrap();
    let alice = add_student(data.path(), "alice");
    let server = Server::start(data.path(), &["--max-upload", "100K"]);

    let (code, body) = submit(&server, None, "file", b"x");
    assert_eq!(code, 401, "{body}");
    assert!(body["error"].as_str().unwrap().contains("Authorization: Bearer"), "{body}");
    assert_eq!(submit(&server, Some("0123456789abcdef"), "file", b"x").0, 401);

    let (code, body) = submit(&server, Some(&alice), "file", b"def get_move(self): pass\n");
    assert_eq!(code, 400, "{body}");
    assert!(body["error"].as_str().unwrap().contains("not a player library"), "{body}");

    let (code, body) =
        submit(&server, Some(&alice), "upload", &std::fs::read(library("easy")).unwrap()[..50_000]);
    assert_eq!(code, 400, "{body}");
    assert!(body["error"].as_str().unwrap().contains("multipart field `file`"), "{body}");

    // Over the limit (small enough for the socket's buffers: a client that
    // sends megabytes sees the connection closed once the limit is passed).
    let (code, body) =
        submit(&server, Some(&alice), "file", &std::fs::read(library("easy")).unwrap()[..150_000]);
    assert_eq!(code, 413, "{body}");
    assert!(body["error"].as_str().unwrap().contains("larger than this server accepts"), "{body}");

    assert_eq!(get(&server, "/api/submissions/1", Some(&alice)).0, 404);
    let stored = data.path().join("files");
    assert!(!stored.exists() || std::fs::read_dir(&stored).unwrap().count() == 0, "nothing stored");

    // A course file or a game, not both.
    let dir = data.path().to_str().unwrap();
    let out = arena(&["serve", "--game", "wumpus", "--course", "course.toml", "--data", dir], &[]);
    assert!(!out.status.success());
    let error = support::stderr(&out);
    assert!(
        error.starts_with("error: the argument '--game <GAME>' cannot be used with '--course <FILE>'"),
        "{error}"
    );
    // A course file that is not there is one line naming it.
    let out = arena(&["serve", "--course", "missing.toml", "--data", dir], &[]);
    assert_eq!(support::stderr(&out).trim().lines().count(), 1, "{}", support::stderr(&out));
    assert!(
        support::stderr(&out).contains("cannot read the course file missing.toml"),
        "{}",
        support::stderr(&out)
    );

    // A second student of the same name is refused in one line.
    let out = arena(&["serve", "add-student", "alice", "--data", data.path().to_str().unwrap()], &[]);
    assert!(!out.status.success());
    assert_eq!(
        support::stderr(&out).trim(),
        "error: there is already a student named 'alice': pick another name"
    );
}

/// The test player, slowed to 3 ms a move: a grading run takes a second
/// or so, long enough to be killed in the middle.
const SLOW: [(&str, &str); 2] = [("BAD_PLAYER_MODE", "sleep"), ("BAD_PLAYER_SLEEP_MS", "3")];

#[test]
fn a_server_killed_mid_grading_resumes_and_grades_the_same() {
    let data = tempfile::tempdir().unwrap();
    let alice = add_student(data.path(), "alice");
    let slow = std::fs::read(library("bad-player")).unwrap();
    let server = Server::start_with(data.path(), &[], &SLOW);
    let (code, accepted) = submit(&server, Some(&alice), "file", &slow);
    assert_eq!(code, 201, "{accepted}");
    let id = accepted["id"].as_i64().unwrap();
    let playing = wait_for(&server, &alice, id, |s| s["played"].as_i64().unwrap() > 0 || finished(s));
    server.kill();
    assert_eq!(playing["status"], "playing", "killed mid-grading: {playing}");
    assert!(playing["played"].as_i64().unwrap() < 30, "{playing}");

    let server = Server::start_with(data.path(), &[], &SLOW);
    let graded = wait_for(&server, &alice, id, finished);
    assert_eq!(graded["status"], "done", "{graded}");
    assert_eq!(graded["played"], 30);
    // Every game journaled once: the interrupted run was resumed, not doubled.
    let journal = support::journal_games(&data.path().join("runs").join(id.to_string()).join("out"));
    assert_eq!(journal.len(), 30, "killed at {playing}");
    let indices: std::collections::BTreeSet<usize> = journal.iter().map(|g| g.index).collect();
    assert_eq!(indices.len(), 30);

    // The same grade as an uninterrupted run of the same file.
    let other = tempfile::tempdir().unwrap();
    let token = add_student(other.path(), "alice");
    let fresh = Server::start_with(other.path(), &[], &SLOW);
    let (_, accepted) = submit(&fresh, Some(&token), "file", &slow);
    let again = wait_for(&fresh, &token, accepted["id"].as_i64().unwrap(), finished);
    assert_eq!(grade_summary(&again["grade"]), grade_summary(&graded["grade"]));
}

#[test]
fn a_student_over_the_hourly_limit_gets_429_and_arena_submit_follows_a_grading() {
    let data = tempfile::tempdir().unwrap();
    let alice = add_student(data.path(), "alice");
    let server = Server::start(data.path(), &["--per-hour", "2"]);
    let easy = library("easy");

    // `arena submit --wait`: accepted, followed, graded.
    let out = arena(
        &["submit", easy.to_str().unwrap(), "--server", &server.url, "--wait"],
        &[("ARENA_TOKEN", alice.as_str())],
    );
    assert!(out.status.success(), "{}", support::stderr(&out));
    let text = stdout(&out);
    assert!(text.starts_with("submission 1: queued\n"), "{text}");
    let last = text.lines().last().unwrap();
    assert!(last.starts_with("submission 1: done: easy "), "{text}");
    assert!(last.contains("medium") && last.contains("hard") && last.contains("/10"), "{last}");

    assert_eq!(submit(&server, Some(&alice), "file", &std::fs::read(&easy).unwrap()).0, 201);
    let (code, body) = submit(&server, Some(&alice), "file", &std::fs::read(&easy).unwrap());
    assert_eq!(code, 429, "{body}");
    assert!(body["error"].as_str().unwrap().starts_with("2 uploads in the last hour"), "{body}");

    // The command line says why, in one line, without sending the file.
    let out = arena(&["submit", easy.to_str().unwrap(), "--server", &server.url, "--token", &alice], &[]);
    assert!(!out.status.success());
    let error = support::stderr(&out);
    assert!(error.starts_with("error: no upload left this hour (2 an hour"), "{error}");
    assert_eq!(error.trim().lines().count(), 1, "{error}");
    let out = arena(&["submit", easy.to_str().unwrap(), "--server", &server.url, "--token", "nope"], &[]);
    assert!(
        support::stderr(&out).contains("(401 Unauthorized): a valid token is needed"),
        "{}",
        support::stderr(&out)
    );
}

/// The page at `url` as headless Chromium leaves it once its scripts ran.
fn dump(browser: &Path, url: &str) -> String {
    let flags = ["--dump-dom".to_string(), "--virtual-time-budget=5000".to_string()];
    let output = support::browser::run_chromium(browser, &flags, url);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    String::from_utf8(output.stdout).unwrap()
}

#[test]
fn the_pages_show_the_leaderboard_and_a_students_grades_in_a_real_browser() {
    let Some(browser) = support::browser::chromium() else { return };
    let data = tempfile::tempdir().unwrap();
    let alice = add_student(data.path(), "alice");
    let server = Server::start(data.path(), &[]);
    let (_, accepted) = submit(&server, Some(&alice), "file", &std::fs::read(library("easy")).unwrap());
    let graded = wait_for(&server, &alice, accepted["id"].as_i64().unwrap(), finished);
    let wins: Vec<String> =
        graded["grade"]["levels"].as_array().unwrap().iter().map(|l| format!("{}/10", l["wins"])).collect();
    let dump = |path: &str| dump(&browser, &format!("{}{path}", server.url));

    // The leaderboard: alice's row, her wins against each level.
    let page = dump("/");
    let row =
        page.split("<tr data-group=\"alice\">").nth(1).unwrap_or_else(|| panic!("no row for alice: {page}"));
    let row = row.split("</tr>").next().unwrap();
    for cell in &wins {
        assert!(row.contains(&format!(">{cell}</td>")), "{cell} not in {row}");
    }
    assert!(page.contains("No grading running."), "{page}");
    assert!(
        page.contains("<tr data-rr-student=\"alice\"><td>1</td><td>alice</td>"),
        "the round robin table: {page}"
    );

    // The student's page, logged in by the link staff hand out.
    let page = dump(&format!("/me#token={alice}"));
    assert!(page.contains("logged in as alice"), "{page}");
    let row =
        page.split("<tr data-status=\"done\">").nth(1).unwrap_or_else(|| panic!("no graded row: {page}"));
    assert!(row.contains("libplayer.so"), "{row}");
    assert!(row.contains(&format!("easy {}", wins[0])), "{row}");
    let lost = row.matches("data-replay=").count() as u64;
    let losses: u64 =
        graded["grade"]["levels"].as_array().unwrap().iter().map(|l| l["losses"].as_u64().unwrap()).sum();
    assert_eq!(lost, losses, "a replay button per lost game: {row}");
}

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
        "student,group,submission,sha256,easy,medium,hard,passed,verdict,rank,groups_defeated,points,time_per_turn,clock"
    );
    assert_eq!(rows.len(), 3, "{csv}");
    // The course's own policy: 30, 30 and 25 points for the levels passed,
    // 15 for defeating every other group.
    let points = |row: &[String], per_level: [f64; 3], per_group: f64| {
        let levels: f64 = (0..3)
            .filter(|&i| {
                let (wins, needed) = (row[4 + i].parse::<u32>().unwrap(), [6, 4, 2][i]);
                wins >= needed
            })
            .map(|i| per_level[i])
            .sum();
        levels + per_group * row[10].parse::<f64>().unwrap()
    };
    for (row, graded) in rows[1..].iter().zip([&alices, &bobs]) {
        assert_eq!(row[0], graded["student"].as_str().unwrap());
        assert_eq!(row[1], row[0], "a student alone is a group of one");
        assert_eq!(row[2], graded["id"].to_string());
        let wins: Vec<String> =
            graded["grade"]["levels"].as_array().unwrap().iter().map(|l| l["wins"].to_string()).collect();
        assert_eq!(row[4..7], wins[..], "the final grading agrees with the submission's: {row:?}");
        assert_eq!(row[11].parse::<f64>().unwrap(), points(row, [30.0, 30.0, 25.0], 15.0), "{row:?}");
    }
    // bob's Hard defeats alice's Easy: rank 1, one group defeated.
    assert_eq!((rows[2][9].as_str(), rows[2][10].as_str()), ("1", "1"), "{csv}");
    assert_eq!((rows[1][9].as_str(), rows[1][10].as_str()), ("2", "0"), "{csv}");
    let gradebook = std::fs::read_to_string(data.path().join("final/gradebook.csv")).unwrap();
    assert_eq!(
        gradebook,
        format!("Student ID,Name,Trap Points\nalice,alice,{}\nbob,bob,{}\n", rows[1][11], rows[2][11])
    );
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
        let files = arena::tournament::merge::journal_files(&folder.join("round-robin")).unwrap();
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
        assert_eq!(row[11].parse::<f64>().unwrap(), points(row, [1.0, 2.0, 3.0], 10.0), "{row:?}");
    }
    let tournament = |row: &[String]| row[11].parse::<f64>().unwrap() - points(row, [1.0, 2.0, 3.0], 0.0);
    assert_eq!((tournament(&rows[2]), tournament(&rows[1])), (10.0, 0.0), "{rows:?}");
    let gradebook = std::fs::read_to_string(data.path().join("final/gradebook.csv")).unwrap();
    assert!(gradebook.starts_with("Student ID,Name,Project Points\n"), "{gradebook}");
    let out = arena(
        &["serve", "finalize", "--data", data_arg, "--course", course.to_str().unwrap(), "--assignment", "x"],
        &[],
    );
    assert_eq!(
        support::stderr(&out).trim(),
        "error: --assignment x: the course has no assignment 'x' (it has trap)"
    );
}

/// The rows of a CSV text, quoted fields unquoted.
fn csv_rows(text: &str) -> Vec<Vec<String>> {
    text.lines()
        .map(|line| {
            let (mut fields, mut field, mut quoted) = (Vec::new(), String::new(), false);
            let mut chars = line.chars().peekable();
            while let Some(c) = chars.next() {
                match (c, quoted) {
                    ('"', true) if chars.peek() == Some(&'"') => {
                        field.push('"');
                        chars.next();
                    }
                    ('"', _) => quoted = !quoted,
                    (',', false) => fields.push(std::mem::take(&mut field)),
                    (c, _) => field.push(c),
                }
            }
            fields.push(field);
            fields
        })
        .collect()
}

#[test]
fn the_load_benchmark_grades_every_submission_and_reports_latencies() {
    let library = library("easy");
    let args = [
        "measure",
        "server",
        "--library",
        library.to_str().unwrap(),
        "--students",
        "6",
        "--league-games",
        "300",
        "--submissions",
        "4",
        "--pages",
        "3",
        "--seconds",
        "3",
    ];
    let out = arena(&args, &[]);
    assert!(out.status.success(), "{}", support::stderr(&out));
    let report = stdout(&out);
    assert!(
        report.starts_with(
            "submissions server on loopback: 6 students (300 league games stored), 3 open pages"
        ),
        "{report}"
    );
    assert!(report.contains("4 students submit libeasy.so"), "{report}");
    for line in [
        "  uploads accepted:       p50 ",
        "  GET /api/leaderboard:   p50 ",
        "  GET / (the page):       p50 ",
        "  GET /api/submissions/N: p50 ",
    ] {
        assert!(report.contains(line), "{line:?} in {report}");
    }
    assert!(report.contains("  graded 4 submissions (120 games) in "), "{report}");
}

#[test]
fn a_python_player_folder_is_packed_graded_and_bad_archives_are_refused() {
    let data = tempfile::tempdir().unwrap();
    let alice = add_student(data.path(), "alice");
    let server = Server::start(data.path(), &[]);

    // A course player's folder, packed by `arena submit` and graded.
    let folder = support::workspace_root().join("players/python/examples/course/greedy_player");
    let out = arena(
        &["submit", folder.to_str().unwrap(), "--server", &server.url, "--token", &alice, "--wait"],
        &[],
    );
    assert!(out.status.success(), "{}\n{}", stdout(&out), support::stderr(&out));
    let last = stdout(&out).lines().last().unwrap().to_string();
    assert!(last.starts_with("submission 1: done: easy "), "{last}");
    let (_, graded) = get(&server, "/api/submissions/1", Some(&alice));
    assert_eq!(graded["file_name"], "greedy_player.tar.gz");
    assert_eq!(graded["player"], "greedy_player");

    // Archives that would write outside their folder, or hold no player,
    // are refused at once, and nothing is stored for them.
    let mut traversal = Vec::new();
    {
        let mut zip = zip::ZipWriter::new(std::io::Cursor::new(&mut traversal));
        zip.start_file("../../PlayerAI.py", zip::write::SimpleFileOptions::default()).unwrap();
        std::io::Write::write_all(&mut zip, b"class PlayerAI: pass\n").unwrap();
        zip.finish().unwrap();
    }
    let (code, body) = submit(&server, Some(&alice), "file", &traversal);
    assert_eq!(code, 400, "{body}");
    assert!(body["error"].as_str().unwrap().contains("outside its folder"), "{body}");
    let empty = arena::client::pack(&support::workspace_root().join("docs/rules")).unwrap();
    let (code, body) = submit(&server, Some(&alice), "file", &empty);
    assert_eq!(code, 400, "{body}");
    assert!(body["error"].as_str().unwrap().contains("no Python player"), "{body}");
    let players: Vec<_> = std::fs::read_dir(data.path().join("players")).unwrap().flatten().collect();
    assert_eq!(players.len(), 1, "only the graded player is unpacked: {players:?}");
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
    let started_at = Instant::now();
    let done = loop {
        let (_, state) = get(&server, "/api/staff/finalize", Some(&prof));
        if state["status"] != "running" {
            break state;
        }
        assert!(started_at.elapsed() < Duration::from_secs(120), "{state}");
        std::thread::sleep(Duration::from_millis(50));
    };
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
fn a_student_logs_in_uploads_through_the_page_and_sees_the_grade_and_the_leaderboard() {
    let Some(chromium) = support::browser::chromium() else { return };
    let data = tempfile::tempdir().unwrap();
    let alice = add_student(data.path(), "alice");
    let server = Server::start(data.path(), &[]);
    let mut browser = support::devtools::Browser::start(&chromium);

    browser.open(&format!("{}/me", server.url));
    browser.eval(&format!(
        "document.getElementById('token').value = '{alice}'; document.getElementById('login').requestSubmit(); true"
    ));
    browser.wait_for(
        "document.getElementById('who').textContent === 'logged in as alice'",
        Duration::from_secs(30),
    );

    browser.choose_file("#file", &library("easy"));
    browser.eval("document.getElementById('upload').requestSubmit(); true");
    browser.wait_for(
        "document.getElementById('sent').textContent === 'submission 1 queued'",
        Duration::from_secs(60),
    );
    browser.wait_for("document.querySelector('tr[data-status=\"done\"]') !== null", Duration::from_secs(120));
    let shown = browser.eval("document.querySelector('tr[data-status=\"done\"]').innerText");
    let (_, graded) = get(&server, "/api/submissions/1", Some(&alice));
    assert_eq!(graded["file_name"], "libeasy.so", "uploaded by the page: {graded}");
    let easy = &graded["grade"]["levels"][0];
    assert!(shown.as_str().unwrap().contains(&format!("easy {}/10", easy["wins"])), "{shown}");

    // A lost game's viewer, opened as the page opens it (a blob of the
    // fetched page, under the student page's Content-Security-Policy),
    // draws its board: its inline code is allowed by hash.
    let (_, listed) = get(&server, "/api/submissions/1/replays", Some(&alice));
    let url = listed["replays"][0]["url"].as_str().expect("easy loses a game to hard").to_string();
    browser.eval(&format!(
        "(async () => {{ const r = await fetch('{url}', {{ headers: {{ Authorization: 'Bearer ' + token }} }}); \
         location.href = URL.createObjectURL(new Blob([await r.text()], {{ type: 'text/html' }})); return true; }})()"
    ));
    browser.wait_for(
        "location.protocol === 'blob:' && document.querySelectorAll('#board *').length > 0 \
         && document.getElementById('turn-counter').textContent !== ''",
        Duration::from_secs(30),
    );

    browser.open(&format!("{}/", server.url));
    browser.wait_for("document.querySelector('tr[data-group=\"alice\"]') !== null", Duration::from_secs(30));
    let row = browser.eval("document.querySelector('tr[data-group=\"alice\"]').innerText");
    assert!(row.as_str().unwrap().contains(&format!("{}/10", easy["wins"])), "{row}");
}

// ---------------------------------------------------------------------
// What a student can do to the server (docs/security.md, "The server").

/// A Python course player (a .tar.gz of its folder) whose every move
/// raises an exception carrying the player's whole environment and HTML.
fn environment_thief() -> Vec<u8> {
    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().join("thief");
    std::fs::create_dir(&folder).unwrap();
    support::write_file(
        &folder,
        "PlayerAI.py",
        "import os\nfrom BaseAI import BaseAI\n\n\
         class PlayerAI(BaseAI):\n\
         \x20   def setPlayerNum(self, num):\n\
         \x20       self.num = num\n\
         \x20   def getMove(self, grid):\n\
         \x20       raise RuntimeError('<img src=x onerror=alert(1)>' + repr(dict(os.environ)))\n\
         \x20   def getTrap(self, grid):\n\
         \x20       raise RuntimeError(repr(dict(os.environ)))\n",
    );
    arena::client::pack(&folder).unwrap()
}

/// The peak resident memory of process `pid` (VmHWM), in bytes.
fn peak_memory(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    let kib: u64 = status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap();
    kib << 10
}

#[test]
fn the_servers_environment_never_reaches_a_student_and_player_text_stays_private() {
    const SECRET: &str = "s3cret-value-of-the-server-7c1e";
    let data = tempfile::tempdir().unwrap();
    let mallory = add_student(data.path(), "mallory");
    let server =
        Server::start_in(data.path(), &[], &[("ARENA_TEST_SECRET", SECRET), ("ARENA_TOKEN", SECRET)]);

    let (code, accepted) = submit(&server, Some(&mallory), "file", &environment_thief());
    assert_eq!(code, 201, "{accepted}");
    let failed = wait_for(&server, &mallory, 1, finished);
    assert_eq!(failed["status"], "failed", "{failed}");
    let error = failed["error"].as_str().unwrap();
    // Its owner sees its words (it is their own player), cut to a bound,
    // and nothing of the server's environment is in them.
    assert!(error.contains("RuntimeError"), "{error}");
    assert!(!error.contains(SECRET), "the server's environment reached the player: {error}");
    assert!(error.chars().count() <= arena::server::views::OWNER_TEXT + 40, "{}", error.len());

    // A graded submission whose lost games carry a player's words (as a
    // grade stores them): the public sees none of them, its owner does.
    let easy = std::fs::read(library("easy")).unwrap();
    let (code, _) = submit(&server, Some(&mallory), "file", &easy);
    assert_eq!(code, 201);
    let graded = wait_for(&server, &mallory, 2, finished);
    assert_eq!(graded["status"], "done", "{graded}");
    let words = format!("crashed: RuntimeError: <script>alert('{SECRET}')</script>");
    server.kill();
    {
        let db = rusqlite::Connection::open(data.path().join("arena.db")).unwrap();
        let mut grade = graded["grade"].clone();
        let level = &mut grade["levels"][2];
        level["lost"] = serde_json::json!([{ "index": 29, "seed": 1, "seat": 2, "reason": words }]);
        db.execute("UPDATE submissions SET grade = ?1 WHERE id = 2", [grade.to_string()]).unwrap();
    }
    // The leaderboard is built from the database as the server starts.
    let server = Server::start_in(data.path(), &["--round-robin", "off"], &[]);
    let (code, board) = get(&server, "/api/leaderboard", None);
    assert_eq!(code, 200);
    let public = board.to_string();
    assert!(
        !public.contains(SECRET) && !public.contains("RuntimeError") && !public.contains("<script"),
        "{public}"
    );
    assert_eq!(board["groups"][0]["grade"]["levels"][2]["level"], "hard", "{board}");
    assert!(board["groups"][0]["grade"]["levels"][2]["wins"].is_number(), "{board}");
    let (_, own) = get(&server, "/api/submissions/2", Some(&mallory));
    assert_eq!(own["grade"]["levels"][2]["lost"][0]["reason"], words.as_str());
}

#[test]
fn a_tar_with_a_gigabyte_long_name_is_refused_in_little_memory_and_counts_against_the_limit() {
    use std::io::Write;
    let data = tempfile::tempdir().unwrap();
    let alice = add_student(data.path(), "alice");
    let server = Server::start(data.path(), &["--per-hour", "2"]);

    // A GNU long-name entry of 1 GiB (zeros after a name): about 1 MiB gzipped.
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    let mut header = tar::Header::new_gnu();
    header.as_gnu_mut().unwrap().name[..13].copy_from_slice(b"././@LongLink");
    header.set_entry_type(tar::EntryType::GNULongName);
    header.set_size(1 << 30);
    header.set_mode(0o644);
    header.set_cksum();
    gz.write_all(header.as_bytes()).unwrap();
    let zeros = vec![0u8; 1 << 20];
    for _ in 0..1024 {
        gz.write_all(&zeros).unwrap();
    }
    let bomb = gz.finish().unwrap();
    assert!(bomb.len() < 8 << 20, "{}", bomb.len());

    let (code, body) = submit(&server, Some(&alice), "file", &bomb);
    assert_eq!(code, 400, "{body}");
    assert!(body["error"].as_str().unwrap().contains("over 4 KiB"), "{body}");
    let peak = peak_memory(server.child.id());
    assert!(peak < 256 << 20, "the server's peak memory: {} MiB", peak >> 20);

    // Refused uploads count: one more is allowed, then 429.
    assert_eq!(submit(&server, Some(&alice), "file", b"not a library at all, nor an archive").0, 400);
    let (code, body) = submit(&server, Some(&alice), "file", &bomb);
    assert_eq!(code, 429, "{body}");
    let (_, mine) = get(&server, "/api/submissions", Some(&alice));
    assert_eq!(mine["uploads"]["left"], 0, "{mine}");
}

#[test]
fn uploads_sent_at_once_cannot_pass_the_hourly_limit_together() {
    let data = tempfile::tempdir().unwrap();
    let alice = add_student(data.path(), "alice");
    let server = Server::start(data.path(), &["--per-hour", "3", "--round-robin", "off"]);
    let easy = std::fs::read(library("easy")).unwrap();
    let codes: Vec<u16> = std::thread::scope(|scope| {
        let sent: Vec<_> =
            (0..8).map(|_| scope.spawn(|| submit(&server, Some(&alice), "file", &easy).0)).collect();
        sent.into_iter().map(|s| s.join().unwrap()).collect()
    });
    assert_eq!(codes.iter().filter(|&&c| c == 201).count(), 3, "{codes:?}");
    assert_eq!(codes.iter().filter(|&&c| c == 429).count(), 5, "{codes:?}");
}

/// Whether the server closed `stream` (a read gives end of file or an error
/// within `within`).
fn closed_by_server(stream: &mut std::net::TcpStream, within: Duration) -> bool {
    use std::io::Read;
    stream.set_read_timeout(Some(within)).unwrap();
    let mut buf = [0u8; 1024];
    loop {
        match stream.read(&mut buf) {
            Ok(0) => return true,
            Ok(_) => continue,
            Err(e)
                if e.kind() == std::io::ErrorKind::WouldBlock || e.kind() == std::io::ErrorKind::TimedOut =>
            {
                return false
            }
            Err(_) => return true,
        }
    }
}

#[test]
fn slow_and_idle_connections_are_closed_and_cannot_exhaust_the_servers_descriptors() {
    use std::{io::Write, net::TcpStream, os::unix::process::CommandExt};
    let data = tempfile::tempdir().unwrap();
    let alice = add_student(data.path(), "alice");
    // 256 descriptors, as in the attack.
    let mut command = Command::new(env!("CARGO_BIN_EXE_arena"));
    command
        .args(["serve", "--data", data.path().to_str().unwrap(), "--listen", "127.0.0.1:0"])
        .args(["--header-timeout", "1s", "--body-timeout", "2s", "--round-robin", "off"])
        .stdout(Stdio::piped());
    // SAFETY: setrlimit only, between fork and exec.
    unsafe {
        command.pre_exec(|| {
            let limit = libc::rlimit { rlim_cur: 256, rlim_max: 256 };
            if libc::setrlimit(libc::RLIMIT_NOFILE, &limit) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
    let mut child = command.spawn().unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap()).read_line(&mut line).unwrap();
    let url = line.split_whitespace().find(|w| w.starts_with("http://")).unwrap().to_string();
    let server = Server { child, url };
    let address = server.url.trim_start_matches("http://").to_string();

    // Headers never finished, and connections that send nothing.
    let mut slow: Vec<TcpStream> = (0..20)
        .map(|_| {
            let mut s = TcpStream::connect(&address).unwrap();
            s.write_all(b"GET / HTTP/1.1\r\nHost: x\r\n").unwrap();
            s
        })
        .collect();
    let mut idle: Vec<TcpStream> = (0..300).map(|_| TcpStream::connect(&address).unwrap()).collect();
    // The server is still reachable (within a few header timeouts).
    let started = Instant::now();
    let (code, _) = get(&server, "/api/submissions", Some(&alice));
    assert_eq!(code, 200);
    assert!(started.elapsed() < Duration::from_secs(15), "{:?}", started.elapsed());
    for stream in slow.iter_mut().chain(idle.iter_mut().take(20)) {
        assert!(closed_by_server(stream, Duration::from_secs(10)), "a connection left open");
    }

    // A body never finished: 408 once the body timeout is over.
    let mut upload = TcpStream::connect(&address).unwrap();
    write!(
        upload,
        "POST /api/submissions HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {alice}\r\n\
         Content-Type: multipart/form-data; boundary=b\r\nContent-Length: 100000\r\n\r\n--b\r\n"
    )
    .unwrap();
    let mut answer = String::new();
    upload.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    let _ = std::io::Read::read_to_string(&mut upload, &mut answer);
    assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
}

#[test]
fn a_request_without_a_valid_token_is_refused_before_its_body_is_read() {
    use std::{
        io::{Read, Write},
        net::TcpStream,
    };
    let data = tempfile::tempdir().unwrap();
    let server = Server::start(data.path(), &[]);
    let address = server.url.trim_start_matches("http://").to_string();
    let before = peak_memory(server.child.id());
    // Three 60 MiB uploads announced; a little of each sent.
    let mut streams: Vec<TcpStream> = (0..3)
        .map(|_| {
            let mut s = TcpStream::connect(&address).unwrap();
            write!(
                s,
                "POST /api/submissions HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer nope\r\n\
                 Content-Type: multipart/form-data; boundary=b\r\nContent-Length: {}\r\n\r\n",
                60 << 20
            )
            .unwrap();
            s.write_all(&[b'x'; 4096]).unwrap();
            s
        })
        .collect();
    for stream in &mut streams {
        stream.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
        let mut answer = vec![0u8; 4096];
        let n = stream.read(&mut answer).unwrap();
        let answer = String::from_utf8_lossy(&answer[..n]);
        assert!(answer.starts_with("HTTP/1.1 401"), "{answer}");
        assert!(answer.to_ascii_lowercase().contains("connection: close"), "{answer}");
        assert!(closed_by_server(stream, Duration::from_secs(5)));
    }
    let grew = peak_memory(server.child.id()).saturating_sub(before);
    assert!(grew < 32 << 20, "the server grew by {} MiB", grew >> 20);
}

#[test]
fn every_answer_carries_the_security_headers() {
    let data = tempfile::tempdir().unwrap();
    let alice = add_student(data.path(), "alice");
    let server = Server::start(data.path(), &[]);
    let headers = |path: &str, token: Option<&str>| {
        let mut request = agent().get(format!("{}{path}", server.url));
        if let Some(token) = token {
            request = request.header("Authorization", format!("Bearer {token}"));
        }
        let response = request.call().unwrap();
        let get = |name: &str| {
            response.headers().get(name).map(|v| v.to_str().unwrap().to_string()).unwrap_or_default()
        };
        (get("content-security-policy"), get("x-content-type-options"), get("cache-control"))
    };
    for page in ["/", "/me", "/staff"] {
        let (policy, sniff, _) = headers(page, None);
        assert!(policy.contains("script-src 'self' 'sha256-"), "{page}: {policy}");
        assert!(!policy.contains("script-src 'self' 'unsafe-inline'"), "{page}: {policy}");
        assert!(policy.contains("frame-ancestors 'none'"), "{page}: {policy}");
        assert_eq!(sniff, "nosniff");
    }
    let (policy, sniff, cache) = headers("/api/submissions", Some(&alice));
    assert_eq!(policy, "default-src 'none'; frame-ancestors 'none'");
    assert_eq!((sniff.as_str(), cache.as_str()), ("nosniff", "no-store"));
    let (_, _, cache) = headers("/api/leaderboard", None);
    assert_eq!(cache, "no-cache");
    // The pages hold no inline script: each script is the server's own file.
    let (_, page) = {
        let mut response = agent().get(format!("{}/me", server.url)).call().unwrap();
        (response.status(), response.body_mut().read_to_string().unwrap())
    };
    assert!(!page.contains("<script>"), "{page}");
}

/// Grading starts, in order, of the submissions in `ids` (their
/// `grading_turn`), None for one never graded.
fn turns(server: &Server, token: &str, ids: &[i64]) -> Vec<Option<i64>> {
    ids.iter()
        .map(|id| get(server, &format!("/api/submissions/{id}"), Some(token)).1["grading_turn"].as_i64())
        .collect()
}

/// A Python course player that sleeps `seconds` before each move and
/// throw (a student holding the queue), as a .tar.gz of its folder.
fn sleepy_player(seconds: f64) -> Vec<u8> {
    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().join("sleepy");
    std::fs::create_dir(&folder).unwrap();
    support::write_file(
        &folder,
        "PlayerAI.py",
        &format!(
            "import time\nfrom BaseAI import BaseAI\n\n\
             class PlayerAI(BaseAI):\n\
             \x20   def setPlayerNum(self, num):\n\
             \x20       self.num = num\n\
             \x20   def getMove(self, grid):\n\
             \x20       time.sleep({seconds})\n\
             \x20       return grid.get_neighbors(grid.find(self.num), only_available=True)[0]\n\
             \x20   def getTrap(self, grid):\n\
             \x20       time.sleep({seconds})\n\
             \x20       return grid.get_neighbors(grid.find(3 - self.num), only_available=True)[0]\n"
        ),
    );
    arena::client::pack(&folder).unwrap()
}

#[test]
fn the_queue_takes_students_in_turn_and_a_newer_submission_supersedes_a_waiting_one() {
    for supersede in ["on", "off"] {
        let data = tempfile::tempdir().unwrap();
        let alice = add_student(data.path(), "alice");
        let bob = add_student(data.path(), "bob");
        let server = Server::start(data.path(), &["--round-robin", "off", "--supersede", supersede]);
        let easy = std::fs::read(library("easy")).unwrap();
        // Alice's first holds the queue for a few seconds.
        assert_eq!(submit(&server, Some(&alice), "file", &sleepy_player(0.01)).0, 201);
        wait_for(&server, &alice, 1, |s| s["status"] != "queued");
        // While alice's first is graded: two more of hers, then bob's.
        for token in [&alice, &alice, &bob] {
            assert_eq!(submit(&server, Some(token), "file", &easy).0, 201);
        }
        wait_for(&server, &bob, 4, finished);
        wait_for(&server, &alice, 3, finished);
        let alices = turns(&server, &alice, &[1, 2, 3]);
        let bobs = turns(&server, &bob, &[4]);
        // Bob waited for the one grading under way, no more.
        assert_eq!(bobs, vec![Some(2)], "{supersede}: alice {alices:?}");
        if supersede == "on" {
            assert_eq!(alices, vec![Some(1), None, Some(3)]);
            assert_eq!(get(&server, "/api/submissions/2", Some(&alice)).1["status"], "superseded");
        } else {
            wait_for(&server, &alice, 2, finished);
            assert_eq!(alices[0], Some(1));
            assert_eq!(turns(&server, &alice, &[2, 3]), vec![Some(3), Some(4)]);
        }
    }
}

#[test]
fn the_leaderboard_is_tagged_and_a_page_that_has_it_gets_304() {
    let data = tempfile::tempdir().unwrap();
    let alice = add_student(data.path(), "alice");
    let server = Server::start(data.path(), &["--round-robin", "off"]);
    let fetch = |path: &str, tag: Option<&str>| {
        let mut request = agent().get(format!("{}{path}", server.url));
        if let Some(tag) = tag {
            request = request.header("If-None-Match", tag);
        }
        let mut response = request.call().unwrap();
        let etag = response.headers().get("etag").map(|v| v.to_str().unwrap().to_string());
        (response.status().as_u16(), etag, response.body_mut().read_to_string().unwrap())
    };
    let (code, tag, body) = fetch("/api/leaderboard", None);
    assert_eq!(code, 200, "{body}");
    let tag = tag.expect("an ETag");
    let (code, again, body) = fetch("/api/leaderboard", Some(&tag));
    assert_eq!((code, again.as_deref(), body.as_str()), (304, Some(tag.as_str()), ""));
    // A graded submission changes it: the old tag gets the new board.
    let (code, _) = submit(&server, Some(&alice), "file", &std::fs::read(library("easy")).unwrap());
    assert_eq!(code, 201);
    wait_for(&server, &alice, 1, finished);
    let started = Instant::now();
    let mut tag = tag;
    loop {
        let (code, new_tag, body) = fetch("/api/leaderboard", Some(&tag));
        if code == 200 {
            let new_tag = new_tag.unwrap();
            assert_ne!(new_tag, tag, "a new board under a new tag");
            tag = new_tag;
            if body.contains("\"group\":\"alice\"") {
                break;
            }
        }
        assert!(started.elapsed() < Duration::from_secs(10), "the leaderboard did not show the grade");
        std::thread::sleep(Duration::from_millis(50));
    }
    let (code, tag, _) = fetch("/api/leaderboard/crosstable", None);
    assert_eq!(code, 200);
    assert_eq!(fetch("/api/leaderboard/crosstable", tag.as_deref()).0, 304);
}

// Grading on a Slurm cluster (`--executor slurm`, docs/server.md): on the
// one-node cluster `.ci/slurm-up` starts; without one these tests say so
// and pass, unless ARENA_REQUIRE_SLURM=1 (CI).

/// Grades each of `libraries` (one student each) on a server started with
/// `extra` and `env`: each student's grade summary, in order, and the
/// server's data folder.
fn grade_class(libraries: &[&str], extra: &[&str], env: &[(&str, &str)]) -> (Vec<Value>, tempfile::TempDir) {
    let data = tempfile::tempdir().unwrap();
    let tokens: Vec<String> =
        (0..libraries.len()).map(|i| add_student(data.path(), &format!("student{i}"))).collect();
    let server = Server::start_with(data.path(), extra, env);
    let ids: Vec<i64> = libraries
        .iter()
        .zip(&tokens)
        .map(|(name, token)| {
            let (code, accepted) =
                submit(&server, Some(token), "file", &std::fs::read(library(name)).unwrap());
            assert_eq!(code, 201, "{accepted}");
            accepted["id"].as_i64().unwrap()
        })
        .collect();
    let grades = ids
        .iter()
        .zip(&tokens)
        .map(|(&id, token)| {
            let graded = wait_for(&server, token, id, finished);
            assert_eq!(graded["status"], "done", "{graded}");
            assert_eq!((graded["played"].as_i64(), graded["total"].as_i64()), (Some(30), Some(30)));
            grade_summary(&graded["grade"])
        })
        .collect();
    (grades, data)
}

/// The Slurm jobs of submission `id` in data folder `data`, oldest first.
fn slurm_jobs(data: &Path, id: i64) -> Vec<arena::server::db::Job> {
    arena::server::db::jobs_of(&arena::server::db::open(data).unwrap(), id).unwrap()
}

#[test]
fn a_class_graded_through_slurm_gets_the_grades_of_local_grading() {
    if !support::slurm_cluster() {
        return;
    }
    let class = ["easy", "medium", "hard"];
    let slurm = ["--round-robin", "off", "--executor", "slurm", "--grading-slots", "3"];
    let (on_slurm, data) = grade_class(&class, &slurm, &[]);
    let (local, _) = grade_class(&class, &["--round-robin", "off"], &[]);
    assert_eq!(on_slurm, local);
    for id in 1..=3 {
        let jobs = slurm_jobs(data.path(), id);
        assert_eq!(jobs.len(), 1, "one job each: {jobs:?}");
        assert_eq!(jobs[0].end, Some(("COMPLETED".to_string(), Some(0))), "{jobs:?}");
        let script =
            std::fs::read_to_string(data.path().join(format!("runs/{id}/slurm/grade.sbatch"))).unwrap();
        assert!(
            script.contains(&format!(
                "exec {} tournament run {}",
                env!("CARGO_BIN_EXE_arena"),
                data.path().canonicalize().unwrap().join(format!("runs/{id}/grade.toml")).display()
            )),
            "{script}"
        );
    }
}

#[test]
fn a_grading_job_outlives_a_server_restart_and_once_cancelled_is_resubmitted_playing_no_game_twice() {
    if !support::slurm_cluster() {
        return;
    }
    // 40 ms a move: the run lasts several seconds.
    let slow = [("BAD_PLAYER_MODE", "sleep"), ("BAD_PLAYER_SLEEP_MS", "40")];
    let options = ["--round-robin", "off", "--executor", "slurm"];
    let data = tempfile::tempdir().unwrap();
    let alice = add_student(data.path(), "alice");
    let server = Server::start_with(data.path(), &options, &slow);
    let player = std::fs::read(library("bad-player")).unwrap();
    let (code, accepted) = submit(&server, Some(&alice), "file", &player);
    assert_eq!(code, 201, "{accepted}");
    let id = accepted["id"].as_i64().unwrap();
    let out = data.path().join(format!("runs/{id}/out"));
    let journaled = || {
        std::fs::read_to_string(out.join("journal.jsonl")).map_or(0, |t| t.lines().count().saturating_sub(1))
    };
    let started = Instant::now();
    while journaled() == 0 {
        assert!(
            started.elapsed() < Duration::from_secs(120),
            "no game played: {:?}",
            slurm_jobs(data.path(), id)
        );
        std::thread::sleep(Duration::from_millis(20));
    }

    // The server dies; its job plays on, and the restarted server follows
    // it instead of submitting another.
    server.kill();
    let jobs = slurm_jobs(data.path(), id);
    assert!(jobs.len() == 1 && jobs[0].end.is_none(), "{jobs:?}");
    let server = Server::start_with(data.path(), &options, &slow);
    wait_for(&server, &alice, id, |s| s["status"] == "playing" || finished(s));
    // Then that job is cancelled mid-run.
    let before = journaled();
    assert!(before < 30, "the run ended before it could be cancelled: make the player slower");
    let status = Command::new("scancel").arg(&jobs[0].slurm_id).status().unwrap();
    assert!(status.success());

    let graded = wait_for(&server, &alice, id, finished);
    assert_eq!(graded["status"], "done", "{graded}");
    let after = slurm_jobs(data.path(), id);
    assert_eq!(after.len(), 2, "the cancelled job, then one more: {after:?}");
    assert_eq!(after[0].slurm_id, jobs[0].slurm_id, "{after:?}");
    assert_eq!(after[0].end.as_ref().map(|e| e.0.as_str()), Some("CANCELLED"), "{after:?}");
    assert_eq!(after[1].end, Some(("COMPLETED".to_string(), Some(0))), "{after:?}");
    // The second job resumed from the journal: every game once.
    let journal = support::journal_games(&out);
    assert_eq!(journal.iter().map(|g| g.index).collect::<Vec<_>>(), (0..30).collect::<Vec<_>>());
    // Its players got what the server's own would (--pass-env).
    let script = std::fs::read_to_string(data.path().join(format!("runs/{id}/slurm/grade.sbatch"))).unwrap();
    assert!(script.contains("--pass-env BAD_PLAYER_MODE --pass-env BAD_PLAYER_SLEEP_MS\n"), "{script}");
    let log = data.path().join(format!("runs/{id}/slurm/job-{}.log", after[1].slurm_id));
    let resumed = std::fs::read_to_string(log).unwrap();
    assert!(resumed.contains("resuming: "), "cancelled with {before} games played: {resumed}");

    let (local, _) = grade_class(&["bad-player"], &["--round-robin", "off"], &slow);
    assert_eq!(vec![grade_summary(&graded["grade"])], local);
}

#[test]
fn a_grading_job_that_keeps_failing_is_resubmitted_three_times_then_the_submission_fails_saying_why() {
    if !support::slurm_cluster() {
        return;
    }
    // Slurm cannot open this output file: every job fails at once.
    let options =
        ["--round-robin", "off", "--executor", "slurm", "--sbatch-arg=--output=/nonexistent/job.log"];
    let data = tempfile::tempdir().unwrap();
    let alice = add_student(data.path(), "alice");
    let server = Server::start(data.path(), &options);
    let (_, accepted) = submit(&server, Some(&alice), "file", &std::fs::read(library("easy")).unwrap());
    let failed = wait_for(&server, &alice, accepted["id"].as_i64().unwrap(), finished);
    assert_eq!(failed["status"], "failed", "{failed}");
    let jobs = slurm_jobs(data.path(), 1);
    assert_eq!(jobs.len(), 4, "the first job and three more: {jobs:?}");
    assert!(jobs.iter().all(|j| j.end.as_ref().is_some_and(|e| e.0 == "FAILED")), "{jobs:?}");
    let last = &jobs[3].slurm_id;
    let output = data.path().canonicalize().unwrap().join(format!("runs/1/slurm/job-{last}.log"));
    assert_eq!(
        failed["error"].as_str().unwrap(),
        format!(
            "the Slurm jobs of its grading run ended 4 times without finishing it (0 of 30 games played): \
             the last, job {last}, ended FAILED (exit code 1); its output: {}",
            output.display()
        )
    );
}

#[test]
fn a_server_that_cannot_submit_grading_jobs_says_why_before_it_starts() {
    let data = tempfile::tempdir().unwrap();
    let empty = data.path().join("empty-path");
    std::fs::create_dir_all(&empty).unwrap();
    let serve = |extra: &[&str], env: &[(&str, &str)]| {
        let mut args = vec!["serve", "--data", data.path().to_str().unwrap(), "--listen", "127.0.0.1:0"];
        args.extend_from_slice(extra);
        let output = arena(&args, env);
        assert_eq!(output.status.code(), Some(2), "{}", stdout(&output));
        let err = support::stderr(&output);
        assert_eq!(err.lines().count(), 1, "{err}");
        err
    };
    let err = serve(&["--executor", "slurm"], &[("PATH", empty.to_str().unwrap())]);
    assert!(
        err.contains("sbatch not found: run this on a machine of the Slurm cluster (a login node), or grade on this machine: --executor local"),
        "{err}"
    );
    let err = serve(&["--time", "1:00:00"], &[]);
    assert!(err.contains("--time is for grading jobs on a Slurm cluster: add --executor slurm"), "{err}");
    if support::slurm_cluster() {
        let err = serve(&["--executor", "slurm", "--partition", "no-such-partition"], &[]);
        assert!(err.contains("sbatch would refuse these jobs (--partition=no-such-partition)"), "{err}");
    }
}

#[test]
fn finalize_through_slurm_writes_local_finalizes_grades_and_games_and_says_why_when_its_jobs_keep_failing() {
    if !support::slurm_cluster() {
        return;
    }
    let (_, data) = grade_class(&["easy", "medium", "hard"], &["--round-robin", "off"], &[]);
    let data_arg = data.path().to_str().unwrap();
    let finalize = |extra: &[&str]| arena(&[&["serve", "finalize", "--data", data_arg], extra].concat(), &[]);
    let out = finalize(&[]);
    assert!(out.status.success(), "{}", support::stderr(&out));
    // The default course's one assignment.
    let (on_slurm, local) = (data.path().join("final/trap"), data.path().join("final-trap-local"));
    std::fs::rename(&on_slurm, &local).unwrap();

    // Slurm cannot open this output file: every job fails at once; the
    // unfinished shards are submitted 3 more times, then finalize says why.
    let out =
        finalize(&["--executor", "slurm", "--shards", "2", "--sbatch-arg=--output=/nonexistent/job.log"]);
    assert!(!out.status.success());
    let err = support::stderr(&out);
    assert_eq!(err.lines().count(), 1, "{err}");
    let shard_log = on_slurm.canonicalize().unwrap().join("round-robin/slurm/shard-1-of-2.log");
    assert!(
        err.contains("the Slurm jobs of final round robin ended 4 times without finishing it (0 of 30 games played; shard(s) 1,2 of 2 unfinished)")
            && err.ends_with(&format!("; the output of shard 1: {}\n", shard_log.display())),
        "{err}"
    );
    assert!(!on_slurm.join("grades.csv").exists());

    // Run again: the shards and the merge job play the round robin; the
    // same grades, the same games, the same standings as local finalize.
    let out = finalize(&["--executor", "slurm", "--shards", "2"]);
    assert!(out.status.success(), "{}", support::stderr(&out));
    let read = |dir: &Path, name: &str| std::fs::read_to_string(dir.join(name)).unwrap();
    assert_eq!(read(&on_slurm, "grades.csv"), read(&local, "grades.csv"));
    let games = |dir: &Path| support::all_journal_games(&dir.join("round-robin"));
    assert_eq!(games(&on_slurm).len(), 30);
    assert_eq!(games(&on_slurm), games(&local));
    let standings = |dir: &Path| support::csv_without_times(&read(dir, "round-robin/standings.csv"));
    assert_eq!(standings(&on_slurm), standings(&local));
    // Every game was played by a shard's job, none here.
    for path in arena::tournament::merge::journal_files(&on_slurm.join("round-robin")).unwrap() {
        let name = path.file_name().unwrap().to_str().unwrap().to_string();
        let (_, played, _) = arena::tournament::journal::read(&path).unwrap();
        assert!(name.starts_with("journal.shard-") || played.is_empty(), "{name}: {} games", played.len());
    }
    let merge_log = std::fs::read_dir(on_slurm.join("round-robin/slurm"))
        .unwrap()
        .filter_map(|e| e.unwrap().file_name().into_string().ok())
        .filter(|name| name.starts_with("merge-") && name.ends_with(".log"))
        .count();
    assert_eq!(merge_log, 1, "the merge job ran once (the failed ones wrote no output)");

    // And again: the journals hold every game; no job is submitted.
    let record = || read(&on_slurm, "round-robin/slurm/merge-job");
    let before = record();
    let out = finalize(&["--executor", "slurm", "--shards", "2"]);
    assert!(out.status.success(), "{}", support::stderr(&out));
    assert_eq!(record(), before);
    assert_eq!(read(&on_slurm, "grades.csv"), read(&local, "grades.csv"));
}

/// The league's games stored in data folder `data`: (a, b, game) and the
/// result without its times, in that order.
fn league_games(data: &Path) -> Vec<((i64, i64, i64), Value)> {
    let db = rusqlite::Connection::open(data.join("arena.db")).unwrap();
    let mut query = db.prepare("SELECT a, b, game, result FROM games ORDER BY a, b, game").unwrap();
    query
        .query_map([], |r| Ok(((r.get(0)?, r.get(1)?, r.get(2)?), r.get::<_, String>(3)?)))
        .unwrap()
        .map(|row| {
            let (key, text) = row.unwrap();
            let result: arena::tournament::record::GameResult = serde_json::from_str(&text).unwrap();
            (key, serde_json::to_value(result.without_times()).unwrap())
        })
        .collect()
}

/// Runs the league of data folder `data` on a server started with `extra`
/// until its `games` games are stored; they, as [`league_games`] gives them.
fn play_league(data: &Path, extra: &[&str], games: usize) -> Vec<((i64, i64, i64), Value)> {
    let server = Server::start(data, extra);
    let started = Instant::now();
    loop {
        let (_, board) = get(&server, "/api/leaderboard", None);
        if board["round_robin"]["standings"]["games"] == games {
            break;
        }
        assert!(started.elapsed() < Duration::from_secs(300), "{board}");
        std::thread::sleep(Duration::from_millis(100));
    }
    drop(server);
    league_games(data)
}

#[test]
fn the_league_through_slurm_plays_each_pairings_10_games_once_with_local_plays_results_across_a_restart() {
    if !support::slurm_cluster() {
        return;
    }
    let (_, data) = grade_class(&["easy", "medium", "hard"], &["--round-robin", "off"], &[]);
    let slurm = ["--executor", "slurm", "--grading-slots", "3"];
    // The server dies as soon as its first batch job is submitted; the
    // restarted one follows that job (and stores its games) instead of
    // choosing those pairings again.
    let server = Server::start(data.path(), &slurm);
    let first_job = data.path().join("league/batch-1/jobs");
    let started = Instant::now();
    while std::fs::read_to_string(&first_job).map_or(true, |jobs| jobs.is_empty()) {
        assert!(started.elapsed() < Duration::from_secs(120), "no league batch submitted");
        std::thread::sleep(Duration::from_millis(20));
    }
    server.kill();
    let on_slurm = play_league(data.path(), &slurm, 30);
    // Every pairing's 10 games, once each, in order.
    let keys: Vec<(i64, i64, i64)> = on_slurm.iter().map(|(key, _)| *key).collect();
    let expected: Vec<(i64, i64, i64)> =
        [(1, 2), (1, 3), (2, 3)].iter().flat_map(|&(a, b)| (0..10).map(move |g| (a, b, g))).collect();
    assert_eq!(keys, expected);
    // Played by batch jobs: each batch's games in its file, each batch done.
    let batches: Vec<std::path::PathBuf> =
        std::fs::read_dir(data.path().join("league")).unwrap().map(|e| e.unwrap().path()).collect();
    assert!(batches.len() >= 5, "3 pairings at a time, 2 games each: {batches:?}");
    let mut journaled = 0;
    for batch in &batches {
        let over = std::fs::read_to_string(batch.join("over")).unwrap_or_default();
        assert_eq!(over, "\"done\"", "{} is not done", batch.display());
        let jobs = std::fs::read_to_string(batch.join("jobs")).unwrap();
        assert_eq!(jobs.lines().count(), 1, "one job each: {jobs}");
        journaled += std::fs::read_to_string(batch.join("games.jsonl")).unwrap().lines().count();
    }
    assert_eq!(journaled, 30, "no game played twice");

    // The same games played here: the same results.
    let db = rusqlite::Connection::open(data.path().join("arena.db")).unwrap();
    db.execute("DELETE FROM games", []).unwrap();
    drop(db);
    let local = play_league(data.path(), &["--grading-slots", "3"], 30);
    assert_eq!(on_slurm, local);
}

#[test]
fn the_league_is_matchmade_stored_as_played_and_survives_a_kill_without_playing_a_game_twice() {
    let data = tempfile::tempdir().unwrap();
    let levels = ["easy", "medium", "hard", "easy"];
    let tokens: Vec<String> = (0..levels.len()).map(|i| add_student(data.path(), &format!("s{i}"))).collect();
    let server = Server::start(data.path(), &["--round-robin", "off"]);
    for (token, level) in tokens.iter().zip(levels) {
        let (code, accepted) = submit(&server, Some(token), "file", &std::fs::read(library(level)).unwrap());
        assert_eq!(code, 201);
        wait_for(&server, token, accepted["id"].as_i64().unwrap(), finished);
    }
    server.kill();
    // The league starts, is killed mid-way (twice), and goes on.
    let games = || -> Vec<(i64, i64, i64)> {
        let db = rusqlite::Connection::open(data.path().join("arena.db")).unwrap();
        let mut query = db.prepare("SELECT a, b, game FROM games ORDER BY a, b, game").unwrap();
        query.query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?))).unwrap().map(Result::unwrap).collect()
    };
    for _ in 0..2 {
        let server = Server::start(data.path(), &[]);
        let started = Instant::now();
        while games().len() < 6 && started.elapsed() < Duration::from_secs(60) {
            std::thread::sleep(Duration::from_millis(20));
        }
        server.kill();
    }
    // A pairing cut in the middle of its seat-swapped pair of games (as a
    // kill between the two leaves it) completes it.
    // The kills may have left one already; if not, one is made.
    {
        assert!(!games().is_empty(), "the league played nothing before the kills");
        let db = rusqlite::Connection::open(data.path().join("arena.db")).unwrap();
        let odd: i64 = db
            .query_row(
                "SELECT COUNT(*) FROM (SELECT 1 FROM games GROUP BY a, b HAVING COUNT(*) % 2 = 1)",
                [],
                |row| row.get(0),
            )
            .unwrap();
        if odd == 0 {
            let cut = db
                .execute(
                    "DELETE FROM games WHERE rowid = (SELECT MAX(rowid) FROM games WHERE (a, b) IN
                       (SELECT a, b FROM games GROUP BY a, b LIMIT 1))",
                    [],
                )
                .unwrap();
            assert_eq!(cut, 1, "{:?}", games());
        }
    }
    let server = Server::start(data.path(), &[]);
    let started = Instant::now();
    let board = loop {
        let (_, board) = get(&server, "/api/leaderboard", None);
        if board["round_robin"]["standings"]["games"] == 60 {
            break board;
        }
        assert!(started.elapsed() < Duration::from_secs(120), "{board}");
        std::thread::sleep(Duration::from_millis(50));
    };
    // Every pairing played its 10 games once each, in order: none lost to
    // the kills, none played twice.
    let stored = games();
    assert_eq!(stored.len(), 60);
    let mut pairings: std::collections::BTreeMap<(i64, i64), Vec<i64>> = Default::default();
    for (a, b, game) in stored {
        pairings.entry((a, b)).or_default().push(game);
    }
    assert_eq!(pairings.len(), 6);
    for (pairing, indices) in &pairings {
        assert_eq!(indices, &(0..10).collect::<Vec<i64>>(), "{pairing:?}");
    }
    // The standings count them all; the strongest level ranks above the weakest.
    let rows = board["round_robin"]["standings"]["rows"].as_array().unwrap().clone();
    assert!(rows.iter().all(|r| r["games"] == 30), "{rows:?}");
    let rank = |name: &str| rows.iter().find(|r| r["name"] == name).unwrap()["rank"].as_u64().unwrap();
    assert!(rank("s2") < rank("s0"), "hard above easy: {rows:?}");
    let (_, cross) = get(&server, "/api/leaderboard/crosstable", None);
    assert_eq!(cross["crosstable"].as_array().unwrap().len(), 12, "{cross}");
}
