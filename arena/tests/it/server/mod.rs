//! The submissions server (docs/server.md), tested through its HTTP API on
//! a loopback port, against the real binary. This file holds what the
//! tests share (a server started and killed, students, requests, waits);
//! the tests are in a file per feature.

use std::{
    io::{BufRead, BufReader},
    path::Path,
    process::{Child, Command, Stdio},
    time::{Duration, Instant},
};

use crate::support::{self, arena, stdout};
use serde_json::Value;

mod accounts;
mod analysis;
mod api_errors;
mod attacks;
mod board;
mod check;
mod course;
mod demo_table;
mod deploy;
mod export;
mod fairness;
mod finalize;
mod full_disk;
mod gradescope;
mod gradescope_unsandboxed;
mod grading;
mod groups;
mod league;
mod lists;
mod live;
mod load;
mod notes;
mod operations;
mod pages;
mod person_games;
mod scrimmages;
mod slurm;
mod storage;
mod submit;
mod uploads;
mod walkthrough;

/// The data folders' secret in tests (`ARENA_SERVER_SECRET`).
const TEST_SECRET: &str = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";

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

    /// With the variables `env` in the server's environment only. Its log
    /// goes to the tests' stderr: warnings only (not its work's lines).
    fn start_in(data: &Path, extra: &[&str], env: &[(&str, &str)]) -> Server {
        let quiet = [env, &[("RUST_LOG", "warn")]].concat();
        Server::start_logging(data, extra, &quiet, Stdio::inherit())
    }

    /// With what it logs going to `log`.
    fn start_logging(data: &Path, extra: &[&str], env: &[(&str, &str)], log: Stdio) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_arena"))
            .args(["serve", "--data", data.to_str().unwrap(), "--listen", "127.0.0.1:0"])
            .args(extra)
            // A known secret, the same for every test's data folder: two
            // folders grade alike (a test may give its own).
            .env(arena_server::store::secret::VARIABLE, TEST_SECRET)
            .env_remove("RUST_LOG")
            .envs(env.iter().copied())
            .stdout(Stdio::piped())
            .stderr(log)
            .spawn()
            .expect("arena serve starts");
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap()).read_line(&mut line).unwrap();
        let url = line
            .split_whitespace()
            .find(|w| w.starts_with("http://") || w.starts_with("https://"))
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

/// A person's seat's state at `page`, polled as its page polls: the
/// version read is then said to be drawn (`?seen=`), which the end of a
/// match waits for.
fn seat_state(server: &Server, page: &str) -> (u16, Value) {
    let mut response = agent().get(format!("{}{page}/state", server.url)).call().unwrap();
    let (code, body) = (response.status().as_u16(), response.body_mut().read_to_string().unwrap());
    // A refusal is a line of text.
    let state = serde_json::from_str(&body).unwrap_or(Value::Null);
    if let Some(version) = state["version"].as_u64() {
        let _ = agent().get(format!("{}{page}/state?seen={version}", server.url)).call();
    }
    (code, state)
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
    let (content_type, body) = arena_server::client::multipart(field, "libplayer.so", bytes);
    let mut request =
        agent().post(format!("{}/api/submissions", server.url)).header("Content-Type", content_type);
    if let Some(token) = token {
        request = request.header("Authorization", format!("Bearer {token}"));
    }
    answer(request.send(&body[..]))
}

/// The leaderboard once `ready(board)`, polled for up to 30 s (it is
/// rebuilt in memory a moment after each change).
/// Logs in on the server's `/me` page with `token`, as a student types it
/// (the caller waits for what the page shows then).
fn log_in_on_page(browser: &mut support::devtools::Browser, server: &Server, token: &str) {
    browser.open(&format!("{}/me", server.url));
    browser.eval(&format!(
        "document.getElementById('token').value = '{token}'; document.getElementById('login').requestSubmit(); true"
    ));
}

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
    wait_within(Duration::from_secs(120), server, token, id, done)
}

/// Polls submission `id` until `done(status)`, for up to `limit`.
fn wait_within(
    limit: Duration,
    server: &Server,
    token: &str,
    id: i64,
    done: impl Fn(&Value) -> bool,
) -> Value {
    let started = Instant::now();
    loop {
        let (code, submission) = get(server, &format!("/api/submissions/{id}"), Some(token));
        assert_eq!(code, 200, "{submission}");
        if done(&submission) {
            return submission;
        }
        assert!(started.elapsed() < limit, "still {submission}");
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

/// The test player, slowed to 3 ms a move: a grading run takes a second
/// or so, long enough to be killed in the middle.
const SLOW: [(&str, &str); 2] = [("BAD_PLAYER_MODE", "sleep"), ("BAD_PLAYER_SLEEP_MS", "3")];

/// The page at `url` as headless Chromium leaves it once its scripts ran.
fn dump(browser: &Path, url: &str) -> String {
    let flags = ["--dump-dom".to_string(), "--virtual-time-budget=5000".to_string()];
    let output = support::browser::run_chromium(browser, &flags, url);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    String::from_utf8(output.stdout).unwrap()
}

/// Waits until the staff API's finalize is no longer running (two minutes
/// at most): its state.
fn finalize_state(server: &Server, staff: &str) -> Value {
    let started = Instant::now();
    loop {
        let (_, state) = get(server, "/api/staff/finalize", Some(staff));
        if state["status"] != "running" {
            return state;
        }
        assert!(started.elapsed() < Duration::from_secs(120), "{state}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// The rows of a CSV text, quoted fields unquoted.
fn csv_rows(text: &str) -> Vec<Vec<String>> {
    text.lines().map(arena_core::report::table::csv_line).collect()
}

/// A Python course player that sleeps `seconds` before each move and
/// throw (a student holding the queue), as a .tar.gz of its folder.
fn sleepy_player(seconds: f64) -> Vec<u8> {
    pausing_player(&format!("{seconds}"))
}

/// A Python course player that sleeps as long as the Python expression
/// `seconds` says (it may read `os` and `time`) before each move and
/// throw, as a .tar.gz of its folder.
fn pausing_player(seconds: &str) -> Vec<u8> {
    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().join("sleepy");
    std::fs::create_dir(&folder).unwrap();
    support::write_file(
        &folder,
        "PlayerAI.py",
        &format!(
            "import os, time\nfrom BaseAI import BaseAI\n\n\
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
    arena_server::client::pack(&folder).unwrap()
}
