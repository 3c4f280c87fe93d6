//! Staff's demo table (issue 49): a game between any two seats, from the
//! staff page or `POST /api/staff/play`; staff only; two persons' seats
//! each with its own token; a person against a student's submission;
//! bounded as a student's games; in no standings.

use std::time::{Duration, Instant};

use serde_json::json;

use super::{add_student, agent, finished, get, post_json, seat_state, submit, wait_for, Server};
use crate::support::{self, browser::chromium, devtools::Browser, library};

fn add_staff(data: &std::path::Path, name: &str) -> String {
    let out =
        support::arena(&["serve", "add-student", name, "--staff", "--data", data.to_str().unwrap()], &[]);
    assert!(out.status.success(), "{}", support::stderr(&out));
    support::stdout(&out).trim().to_string()
}

/// Resigns at `page`'s seat once it is asked, and waits for the seat to close.
fn resign(server: &Server, page: &str) {
    let started = Instant::now();
    let asked = loop {
        assert!(started.elapsed() < Duration::from_secs(30), "no question at {page}");
        let (code, state) = seat_state(server, page);
        assert_eq!(code, 200, "{state}");
        if !state["question"].is_null() {
            break state["asked"].clone();
        }
        std::thread::sleep(Duration::from_millis(200));
    };
    let resigned = agent()
        .post(format!("{}{page}/answer", server.url))
        .send(json!({ "asked": asked, "line": "resign" }).to_string().as_bytes())
        .unwrap();
    assert_eq!(resigned.status().as_u16(), 204);
    while seat_state(server, page).0 != 403 {
        assert!(started.elapsed() < Duration::from_secs(60), "{page}'s seat not closed");
        std::thread::sleep(Duration::from_millis(200));
    }
}

#[test]
fn staff_open_a_demo_table_between_any_two_seats() {
    let Some(chromium) = chromium() else { return };
    let data = tempfile::tempdir().unwrap();
    let erin = add_student(data.path(), "erin");
    let prof = add_staff(data.path(), "prof");
    let server = Server::start(data.path(), &[]);
    let open = |token: &str, seats: [&str; 2]| {
        post_json(&server, "/api/staff/play", token, &json!({ "seats": seats }))
    };

    // Staff only.
    let (code, _) = super::answer(
        agent()
            .post(format!("{}/api/staff/play", server.url))
            .header("Content-Type", "application/json")
            .send(json!({ "seats": ["person", "easy"] }).to_string().as_bytes()),
    );
    assert_eq!(code, 401);
    assert_eq!(open(&erin, ["person", "easy"]).0, 403);
    // Seats that are no seats, or no person at the table.
    let (code, said) = open(&prof, ["person", "<b>x</b>"]);
    assert_eq!(code, 400, "{said}");
    let (code, said) = open(&prof, ["easy", "medium"]);
    assert_eq!(code, 400, "{said}");
    assert!(said["error"].as_str().unwrap().contains("at least one"), "{said}");
    assert_eq!(open(&prof, ["person", "group:nobody"]).0, 404);
    let (code, said) = open(&prof, ["person", "group:erin"]);
    assert_eq!(code, 409, "nothing graded of erin's yet: {said}");

    // From the staff page: two persons, each seat its own page and token.
    let mut browser = Browser::start(&chromium);
    browser.open(&format!("{}/staff#token={prof}", server.url));
    browser.wait_for("document.querySelectorAll('#demo-seat-2 option').length > 0", Duration::from_secs(30));
    let seats = browser.eval("[...document.querySelectorAll('#demo-seat-1 option')].map(o => o.value)");
    assert_eq!(seats, json!(["person", "easy", "medium", "hard"]), "no group has a submission yet");
    browser.eval(
        "document.getElementById('demo-seat-1').value = 'person';
         document.getElementById('demo-seat-2').value = 'person';
         document.querySelector('#demo button').click()",
    );
    browser.wait_for("document.querySelectorAll('#demo-pages a').length === 2", Duration::from_secs(30));
    let pages =
        browser.eval("[...document.querySelectorAll('#demo-pages a')].map(a => a.getAttribute('href'))");
    let pages: Vec<String> =
        pages.as_array().unwrap().iter().map(|p| p.as_str().unwrap().to_string()).collect();
    assert_ne!(pages[0], pages[1]);
    for page in &pages {
        assert_eq!(seat_state(&server, page).0, 200, "{page}");
    }
    // One table at a time, as a student's game: refused in one line.
    browser.eval("document.querySelector('#demo button').click()");
    browser.wait_for("document.getElementById('demo-pages').className === 'error'", Duration::from_secs(30));
    let line = browser.eval("document.getElementById('demo-pages').textContent");
    assert!(line.as_str().unwrap().contains("playing a game already"), "{line}");
    // Seat 1 resigns: the game ends, both seats close.
    resign(&server, &pages[0]);
    assert_eq!(seat_state(&server, &pages[1]).0, 403);

    // A person against a student's submission, once graded.
    let (_, accepted) = submit(&server, Some(&erin), "file", &std::fs::read(library("easy")).unwrap());
    wait_for(&server, &erin, accepted["id"].as_i64().unwrap(), finished);
    let (code, opened) = open(&prof, ["group:erin", "person"]);
    assert_eq!(code, 201, "{opened}");
    assert!(opened["pages"][0].is_null(), "{opened}");
    let page = opened["pages"][1].as_str().unwrap().to_string();
    resign(&server, &page);
    // In no standings: no scrimmage, erin's submissions as they were.
    let (_, scrimmages) = get(&server, "/api/staff/scrimmages", Some(&prof));
    assert_eq!(scrimmages["scrimmages"], json!([]), "{scrimmages}");
    let (_, mine) = get(&server, "/api/submissions", Some(&erin));
    assert_eq!(mine["submissions"].as_array().unwrap().len(), 1, "{mine}");
}
