//! The analysis of a grading's lost games (docs/server.md, "Why a game was
//! lost"): after the grade is out, each lost game's turning point is on
//! the replays list (the same line `arena analyse` gives for the stored
//! replay), on the student's page, and its viewer draws the advantage
//! chart; the grade never waits for it, and a server stopped before the
//! analysis ended takes it up when it starts again.

use std::time::{Duration, Instant};

use serde_json::Value;

use super::{add_student, agent, dump, finished, get, submit, wait_for, Server};
use crate::support::{self, arena, library, stderr, stdout};

/// The replays list of submission `id` once its analysis is done (a
/// minute at most).
fn analysed(server: &Server, token: &str, id: i64) -> Value {
    let started = Instant::now();
    loop {
        let (code, listed) = get(server, &format!("/api/submissions/{id}/replays"), Some(token));
        assert_eq!(code, 200, "{listed}");
        if listed["analysis"] == "done" {
            return listed;
        }
        assert!(started.elapsed() < Duration::from_secs(60), "still {listed}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// The viewer at `url` (a replays list's), as its owner `token` gets it.
fn viewer(server: &Server, token: &str, url: &str) -> String {
    let mut answer = agent()
        .get(format!("{}{url}", server.url))
        .header("Authorization", format!("Bearer {token}"))
        .call()
        .unwrap();
    assert_eq!(answer.status().as_u16(), 200);
    answer.body_mut().read_to_string().unwrap()
}

#[test]
fn a_graded_submissions_lost_games_show_their_turning_points_after_the_grade() {
    let data = tempfile::tempdir().unwrap();
    let alice = add_student(data.path(), "alice");
    let server = Server::start(data.path(), &["--round-robin", "off", "--analysis-nodes", "3000"]);
    let (_, accepted) = submit(&server, Some(&alice), "file", &std::fs::read(library("easy")).unwrap());
    let id = accepted["id"].as_i64().unwrap();
    let graded = wait_for(&server, &alice, id, finished);
    assert_eq!(graded["status"], "done", "{graded}");
    let listed = analysed(&server, &alice, id);
    let replays = listed["replays"].as_array().unwrap();
    assert!(!replays.is_empty(), "easy loses to hard: {listed}");
    // Each lost game's turning point is the one `arena analyse` finds in
    // its stored replay, at the same budget.
    let folder = data.path().join(format!("runs/{id}/out/replays"));
    let mut points = 0;
    for replay in replays {
        assert_eq!(replay["analysed"], true, "{replay}");
        let name = replay["name"].as_str().unwrap();
        let file = folder.join(format!("{name}.json"));
        let output = arena(&["analyse", file.to_str().unwrap(), "--json", "--nodes", "3000"], &[]);
        assert!(output.status.success(), "{}", stderr(&output));
        let analysis: Value = serde_json::from_str(stdout(&output).trim()).unwrap();
        match analysis["turning_point"].as_u64() {
            Some(i) => {
                let turn = &analysis["turns"][i as usize];
                let line = format!(
                    "turn {}, {}: win chance {:.2} -> {:.2}",
                    turn["turn"],
                    turn["played"].as_str().unwrap(),
                    turn["before"].as_f64().unwrap(),
                    turn["after"].as_f64().unwrap()
                );
                let shown = replay["turning_point"].as_str().unwrap();
                assert!(shown.starts_with(&line), "{shown} is not {line}...");
                points += 1;
            }
            None => assert!(replay["turning_point"].is_null(), "{replay}"),
        }
        // Its viewer now holds the analysis, and still no seed.
        let page = viewer(&server, &alice, replay["url"].as_str().unwrap());
        assert!(page.contains("\"analysis\":{"), "the viewer has its analysis");
        assert!(page.contains(arena_core::replay::html::HIDDEN_SEED));
    }
    assert!(points > 0, "easy's lost games turn somewhere: {listed}");

    // The student's page names them; the viewer, opened as the page opens
    // it, draws the advantage chart.
    let Some(browser) = support::browser::chromium() else { return };
    let page = dump(&browser, &format!("{}/me#token={alice}", server.url));
    let first = replays.iter().find(|r| r["turning_point"].is_string()).unwrap();
    let shown = first["turning_point"].as_str().unwrap().replace('>', "&gt;");
    assert!(page.contains("class=\"turning-points\""), "{page}");
    assert!(page.contains(&shown), "{shown} not on the page: {page}");
    let mut chrome = support::devtools::Browser::start(&browser);
    super::log_in_on_page(&mut chrome, &server, &alice);
    chrome.wait_for(
        "document.getElementById('who').textContent === 'logged in as alice'",
        Duration::from_secs(30),
    );
    let url = first["url"].as_str().unwrap();
    chrome.open_fetched(
        &format!("fetch('{url}', {{ headers: {{ Authorization: 'Bearer ' + token }} }})"),
        "''",
    );
    chrome.wait_for(
        "location.protocol === 'blob:' && document.getElementById('advantage') !== null \
         && !document.getElementById('advantage').hidden \
         && document.querySelectorAll('#advantage polyline').length === 1 \
         && document.querySelectorAll('#timeline .bar').length > 0",
        Duration::from_secs(30),
    );
}

#[test]
fn the_grade_never_waits_for_the_analysis_and_a_restart_takes_it_up() {
    let data = tempfile::tempdir().unwrap();
    let alice = add_student(data.path(), "alice");
    // A budget no analysis finishes within the test: the grade comes anyway.
    let server = Server::start(data.path(), &["--round-robin", "off", "--analysis-nodes", "1000000000"]);
    let (_, accepted) = submit(&server, Some(&alice), "file", &std::fs::read(library("easy")).unwrap());
    let id = accepted["id"].as_i64().unwrap();
    let graded = wait_for(&server, &alice, id, finished);
    assert_eq!(graded["status"], "done", "{graded}");
    let (code, listed) = get(&server, &format!("/api/submissions/{id}/replays"), Some(&alice));
    assert_eq!(code, 200, "{listed}");
    assert_eq!(listed["analysis"], "pending", "{listed}");
    let replays = listed["replays"].as_array().unwrap();
    assert!(!replays.is_empty() && replays.iter().all(|r| r.get("turning_point").is_none()), "{listed}");
    // Its viewers open as they are, without an analysis yet.
    let page = viewer(&server, &alice, replays[0]["url"].as_str().unwrap());
    assert!(page.contains("<html") && !page.contains("\"analysis\":{"));
    // Stopped before its analysis ended, the server takes it up when it starts again.
    server.kill();
    let server = Server::start(data.path(), &["--round-robin", "off", "--analysis-nodes", "3000"]);
    let listed = analysed(&server, &alice, id);
    let replays = listed["replays"].as_array().unwrap();
    assert!(replays.iter().all(|r| r["analysed"] == true), "{listed}");
    assert!(replays.iter().any(|r| r["turning_point"].is_string()), "{listed}");
}
