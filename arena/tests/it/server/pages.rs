//! The pages in a real browser (the leaderboard, a student's grades and upload) and the leaderboard's ETag.

use std::time::{Duration, Instant};

use super::{add_student, agent, dump, finished, get, submit, wait_for, Server};
use crate::support::{self, library};

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
