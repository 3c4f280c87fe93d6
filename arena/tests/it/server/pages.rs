//! The pages in a real browser (the leaderboard, a student's grades and upload) and the leaderboard's ETag.

use std::time::{Duration, Instant};

use super::{add_student, agent, dump, finished, get, log_in_on_page, post_json, submit, wait_for, Server};
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

    log_in_on_page(&mut browser, &server, &alice);
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
    browser.open_fetched(
        &format!("fetch('{url}', {{ headers: {{ Authorization: 'Bearer ' + token }} }})"),
        "''",
    );
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

/// The staff token of a new staff member `name` (a testing group of their own).
fn add_staff(data: &std::path::Path, name: &str) -> String {
    let out =
        support::arena(&["serve", "add-student", name, "--staff", "--data", data.to_str().unwrap()], &[]);
    assert!(out.status.success(), "{}", support::stderr(&out));
    support::stdout(&out).trim().to_string()
}

/// Whether the page in `browser` is no wider than its window.
fn fits(browser: &mut support::devtools::Browser) -> (bool, serde_json::Value) {
    let widths = browser.eval("[document.documentElement.scrollWidth, window.innerWidth]");
    let fits = widths[0].as_u64().unwrap() <= widths[1].as_u64().unwrap();
    (fits, widths)
}

/// A window `width` px wide (and 900 px high).
fn window_width(browser: &mut support::devtools::Browser, width: u32) {
    browser.call(
        "Emulation.setDeviceMetricsOverride",
        serde_json::json!({ "width": width, "height": 900, "deviceScaleFactor": 1, "mobile": false }),
    );
}

#[test]
fn the_boards_head_their_rows_group_and_no_page_runs_off_at_1280_or_390_px() {
    let Some(chromium) = support::browser::chromium() else { return };
    let data = tempfile::tempdir().unwrap();
    // Nine groups with long names: a crosstable of nine wide columns.
    let names: Vec<String> = (1..=9).map(|i| format!("group_with_a_long_name_{i}")).collect();
    let tokens: Vec<String> = names.iter().map(|n| add_student(data.path(), n)).collect();
    let prof = add_staff(data.path(), "prof");
    let server = Server::start(data.path(), &[]);
    for (i, token) in tokens.iter().enumerate() {
        let level = ["easy", "medium", "hard"][i % 3];
        let (code, made) = submit(&server, Some(token), "file", &std::fs::read(library(level)).unwrap());
        assert_eq!(code, 201, "{made}");
    }
    for token in &tokens {
        wait_for(
            &server,
            token,
            get(&server, "/api/submissions", Some(token)).1["submissions"][0]["id"].as_i64().unwrap(),
            finished,
        );
    }

    // The league's table and the leaderboard head their rows "Group";
    // no board says "Student".
    let page = dump(&chromium, &format!("{}/", server.url));
    assert!(page.contains("<th>#</th><th>Group</th><th>Won</th>"), "{page}");
    assert!(!page.contains("<th>Student</th>"), "{page}");

    let mut browser = support::devtools::Browser::start(&chromium);
    let pages = [
        ("/".to_string(), "document.querySelectorAll('#crosstable tr').length === 10"),
        // An easy player's page: its lost games' replay buttons.
        (format!("/me#token={}", tokens[0]), "document.querySelectorAll('[data-replay]').length > 0"),
        (format!("/staff#token={prof}"), "document.querySelectorAll('#groups tr').length === 9"),
    ];
    let mut wide = Vec::new();
    for width in [1280, 390] {
        window_width(&mut browser, width);
        for (path, ready) in &pages {
            browser.open(&format!("{}{path}", server.url));
            browser.wait_for(ready, Duration::from_secs(60));
            let (fits, widths) = fits(&mut browser);
            if !fits {
                wide.push(format!("{path} at {width} px: [scrollWidth, innerWidth] = {widths}"));
            }
        }
    }
    assert!(wide.is_empty(), "pages wider than the window: {wide:#?}");
}

/// A Python Trap player whose every move raises an error carrying markup.
fn markup_player() -> Vec<u8> {
    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().join("markup");
    std::fs::create_dir(&folder).unwrap();
    support::write_file(
        &folder,
        "PlayerAI.py",
        "from BaseAI import BaseAI\n\n\
         class PlayerAI(BaseAI):\n\
         \x20   def setPlayerNum(self, num):\n\
         \x20       self.num = num\n\
         \x20   def getMove(self, grid):\n\
         \x20       raise RuntimeError('<img src=x onerror=window.pwned=1>')\n\
         \x20   def getTrap(self, grid):\n\
         \x20       raise RuntimeError('<img src=x onerror=window.pwned=1>')\n",
    );
    arena_server::client::pack(&folder).unwrap()
}

/// A course whose one assignment plays Trap at 2 s a turn.
const TWO_SECONDS: &str =
    "name = \"AI course\"\n[[assignment]]\nname = \"project\"\ntitle = \"Trap project\"\n\
    game = \"trap\"\n[assignment.settings]\ntime_per_turn = \"2s\"\n";

#[test]
fn a_failed_submission_shows_its_cause_first_and_every_page_the_time_per_turn_and_clock() {
    let Some(chromium) = support::browser::chromium() else { return };
    let data = tempfile::tempdir().unwrap();
    let course = support::write_file(data.path(), "course.toml", TWO_SECONDS);
    let alice = add_student(data.path(), "alice");
    let bob = add_student(data.path(), "bob");
    let prof = add_staff(data.path(), "prof");
    // A player that never answers: it times out in its smoke games.
    let server = Server::start_with(
        data.path(),
        &["--course", course.to_str().unwrap(), "--round-robin", "off"],
        &[("BAD_PLAYER_MODE", "loop")],
    );
    let (code, made) = submit(&server, Some(&alice), "file", &std::fs::read(library("bad-player")).unwrap());
    assert_eq!(code, 201, "{made}");
    let failed = wait_for(&server, &alice, made["id"].as_i64().unwrap(), finished);
    assert_eq!(failed["status"], "failed", "{failed}");
    let error = failed["error"].as_str().unwrap();
    assert!(error.contains("sandbox") && error.contains("timeout"), "{error}");

    let budget = "2.00 s per turn, on the cpu clock";
    let mut browser = support::devtools::Browser::start(&chromium);
    browser.open(&format!("{}/me#token={alice}", server.url));
    browser
        .wait_for("document.querySelector('tr[data-status=\"failed\"]') !== null", Duration::from_secs(30));
    // The grade cell: the cause on one line, first; the report folded.
    let shown = browser.eval(
        "(() => { const cell = document.querySelector('tr[data-status=\"failed\"]').cells[4]; \
         const box = cell.firstElementChild.children; \
         return [box[0].className, box[0].textContent, box[1].tagName, box[1].open, \
                 box[1].querySelector('pre').textContent, box[0].getBoundingClientRect().height]; })()",
    );
    assert!(shown[0].as_str().unwrap().contains("cause"), "{shown}");
    let cause = shown[1].as_str().unwrap();
    assert!(cause.starts_with("it made no legal move in its smoke games: "), "{cause}");
    assert!(cause.contains("timeout") && !cause.contains('\n') && !cause.contains("sandbox"), "{cause}");
    assert_eq!((shown[2].as_str(), shown[3].as_bool()), (Some("DETAILS"), Some(false)), "folded: {shown}");
    assert_eq!(shown[4].as_str(), Some(error), "the whole report in the details");
    // The student page says what its assignments are played under.
    let text = browser.eval("document.body.innerText");
    assert!(text.as_str().unwrap().contains(budget), "{text}");

    // A player's own words in the cause stay text: its markup never runs.
    let (code, made) = submit(&server, Some(&bob), "file", &markup_player());
    assert_eq!(code, 201, "{made}");
    let failed = wait_for(&server, &bob, made["id"].as_i64().unwrap(), finished);
    assert_eq!(failed["status"], "failed", "{failed}");
    browser.open(&format!("{}/me?as=bob#token={bob}", server.url));
    browser
        .wait_for("document.querySelector('tr[data-status=\"failed\"]') !== null", Duration::from_secs(30));
    let shown = browser.eval(
        "(() => { const cell = document.querySelector('tr[data-status=\"failed\"]').cells[4]; \
         return [cell.querySelector('.cause').textContent, cell.querySelectorAll('img').length, window.pwned === undefined]; })()",
    );
    assert!(shown[0].as_str().unwrap().contains("<img src=x onerror=window.pwned=1>"), "{shown}");
    assert_eq!((shown[1].as_u64(), shown[2].as_bool()), (Some(0), Some(true)), "{shown}");

    // So do the leaderboard and the staff page.
    let (_, listed) = get(&server, "/api/assignments", None);
    assert_eq!(
        (listed["assignments"][0]["time_per_turn"].as_str(), listed["assignments"][0]["clock"].as_str()),
        (Some("2.00 s"), Some("cpu")),
        "{listed}"
    );
    let board = dump(&chromium, &format!("{}/", server.url));
    assert!(board.contains(&format!("Trap project: {budget}.")), "{board}");
    let staff = dump(&chromium, &format!("{}/staff#token={prof}", server.url));
    assert!(staff.contains(&format!("<span id=\"budget\">{budget}</span>")), "{staff}");
}

/// Two assignments: Trap (its class tournament two games a pairing, points
/// per level passed and per group defeated) and Intuitive AI.
const TWO_ASSIGNMENTS: &str = r#"
name = "AI course"

[[assignment]]
name = "project"
title = "Trap project"
game = "trap"
[assignment.grading]
levels = ["easy"]
games = 2
wins_to_pass = [1]
[assignment.tournament]
games = 2
[assignment.points]
per_level = [10]
per_group_defeated = 5

[[assignment]]
name = "reveal"
title = "Intuitive AI"
game = "intuitive-ai"
[assignment.grading]
levels = ["easy"]
games = 4
"#;

#[test]
fn staff_see_each_assignment_apart_students_pick_opponents_and_see_their_own_final_results() {
    let Some(chromium) = support::browser::chromium() else { return };
    let data = tempfile::tempdir().unwrap();
    let course = support::write_file(data.path(), "course.toml", TWO_ASSIGNMENTS);
    let [ann, ben, cy] = ["ann", "ben", "cy"].map(|n| add_student(data.path(), n));
    let prof = add_staff(data.path(), "prof");
    let server = Server::start(data.path(), &["--course", course.to_str().unwrap(), "--round-robin", "off"]);
    let submit_for = |token: &str, assignment: &str, bytes: &[u8]| -> i64 {
        let (content_type, body) = arena_server::client::multipart_with(
            &[("assignment", assignment)],
            "file",
            "libplayer.so",
            bytes,
        );
        let (code, made) = super::answer(
            agent()
                .post(format!("{}/api/submissions", server.url))
                .header("Content-Type", content_type)
                .header("Authorization", format!("Bearer {token}"))
                .send(&body[..]),
        );
        assert_eq!(code, 201, "{made}");
        made["id"].as_i64().unwrap()
    };
    let medium = std::fs::read(library("medium")).unwrap();
    let easy = std::fs::read(library("easy")).unwrap();
    for (token, bytes) in [(&ann, &medium), (&ben, &easy), (&prof, &easy)] {
        let id = submit_for(token, "project", bytes);
        assert_eq!(wait_for(&server, token, id, finished)["status"], "done");
    }

    // Finalize the Trap project.
    let (code, started) =
        post_json(&server, "/api/staff/finalize?assignment=project", &prof, &serde_json::json!({}));
    assert_eq!(code, 202, "{started}");
    let done = super::finalize_state(&server, &prof);
    assert_eq!(done["status"], "done", "{done}");
    // Each group sees its own line of grades.csv, and no other's.
    let grades = std::fs::read_to_string(data.path().join("final/project/grades.csv")).unwrap();
    let rows = super::csv_rows(&grades);
    let column = |name: &str| rows[0].iter().position(|h| h == name).unwrap();
    for (token, group) in [(&ann, "ann"), (&ben, "ben")] {
        let row = rows.iter().find(|r| r[column("group")] == group).unwrap();
        let (code, mine) = get(&server, "/api/final", Some(token));
        assert_eq!(code, 200, "{mine}");
        let results = mine["results"].as_array().unwrap();
        assert_eq!(results.len(), 1, "{mine}");
        let result = &results[0];
        assert_eq!(result["assignment"], "project");
        assert_eq!(result["rank"].to_string(), row[column("rank")], "{mine} {grades}");
        assert_eq!(result["groups_defeated"].to_string(), row[column("groups_defeated")], "{mine}");
        assert_eq!(result["points"].as_f64(), row[column("points")].parse::<f64>().ok(), "{mine}");
        assert_eq!(result["groups"], 2, "{mine}");
    }
    let (_, none) = get(&server, "/api/final", Some(&cy));
    assert_eq!(none["results"], serde_json::json!([]), "a group without a counted submission: {none}");
    assert_eq!(get(&server, "/api/final", None).0, 401);

    let mut browser = support::devtools::Browser::start(&chromium);
    browser.open(&format!("{}/me#token={ann}", server.url));
    browser
        .wait_for("document.querySelector('tr[data-final=\"project\"]') !== null", Duration::from_secs(30));
    let (_, mine) = get(&server, "/api/final", Some(&ann));
    let line = browser.eval("document.querySelector('tr[data-final=\"project\"]').innerText");
    let expected = format!(
        "Trap project\t{} of {}\t{} of 2\t{}",
        mine["results"][0]["points"].as_f64().unwrap(),
        mine["results"][0]["possible"].as_f64().unwrap(),
        mine["results"][0]["rank"],
        mine["results"][0]["groups_defeated"]
    );
    assert_eq!(line.as_str(), Some(expected.as_str()));
    // The groups ann may challenge, as a list: the leaderboard's, but hers
    // (cy has nothing graded; staff's testing group plays no one).
    browser.wait_for("document.querySelectorAll('#opponent option').length > 0", Duration::from_secs(30));
    let offered = browser.eval("[...document.querySelectorAll('#opponent option')].map(o => o.value)");
    assert_eq!(offered, serde_json::json!(["ben"]));
    let (_, listed) = get(&server, "/api/scrimmages/opponents?assignment=project", Some(&cy));
    assert_eq!(listed["opponents"], serde_json::json!(["ann", "ben"]));
    assert_eq!(get(&server, "/api/scrimmages/opponents?assignment=project", None).0, 401);
    // Another group's page shows no final results of ann's.
    browser.open(&format!("{}/me?as=cy#token={cy}", server.url));
    browser.wait_for(
        "document.getElementById('who').textContent === 'logged in as cy'",
        Duration::from_secs(30),
    );
    assert_eq!(browser.eval("document.getElementById('final').hidden"), true);
    browser.wait_for("document.querySelectorAll('#opponent option').length > 0", Duration::from_secs(30));
    let offered = browser.eval("[...document.querySelectorAll('#opponent option')].map(o => o.value)");
    assert_eq!(offered, serde_json::json!(["ann", "ben"]), "cy may challenge either");

    // The staff page: each submission labelled by its assignment, graded
    // per the assignment chosen, staff's testing group apart.
    browser.open(&format!("{}/staff#token={prof}", server.url));
    browser.wait_for(
        "document.querySelector('#groups tr[data-group=\"ann\"]') !== null",
        Duration::from_secs(30),
    );
    let row = browser.eval("document.querySelector('#groups tr[data-group=\"ann\"]').cells[2].textContent");
    assert!(row.as_str().unwrap().starts_with("#1 Trap project by ann done"), "{row}");
    let groups = browser.eval("[...document.querySelectorAll('#groups tr')].map(r => r.dataset.group)");
    assert_eq!(groups, serde_json::json!(["ann", "ben", "cy"]), "staff's testing group apart");
    let testing = browser
        .eval("document.querySelector('#testing-groups tr[data-group=\"prof\"]').cells[0].textContent");
    assert_eq!(testing, "prof (staff testing)");
    let latest = browser.eval("document.querySelector('#roster tr[data-name=\"ann\"]').cells[3].textContent");
    assert_eq!(latest, "#1 Trap project done");
    let graded = "document.querySelector('#roster tr[data-name=\"ann\"]').cells[4].textContent";
    assert_eq!(browser.eval(graded), "yes");
    browser.eval("const s = document.getElementById('assignment'); s.value = 'reveal'; s.dispatchEvent(new Event('change')); true");
    browser.wait_for(
        "document.getElementById('graded-head').textContent === 'Graded (Intuitive AI)'",
        Duration::from_secs(30),
    );
    assert_eq!(browser.eval(graded), "no", "ann has nothing graded in Intuitive AI");

    // A Trap submission being graded shows on the Trap board only.
    let slow = submit_for(&cy, "project", &super::sleepy_player(2.0));
    let started = Instant::now();
    while get(&server, &format!("/api/submissions/{slow}"), Some(&cy)).1["status"] == "queued" {
        assert!(started.elapsed() < Duration::from_secs(60), "the slow player never started");
        std::thread::sleep(Duration::from_millis(50));
    }
    browser.open(&format!("{}/?assignment=project", server.url));
    browser.wait_for(
        "document.getElementById('queue').textContent.startsWith('Grading a submission')",
        Duration::from_secs(30),
    );
    browser.open(&format!("{}/?assignment=reveal", server.url));
    browser.wait_for("document.getElementById('queue').textContent !== 'Loading…'", Duration::from_secs(30));
    assert_eq!(browser.eval("document.getElementById('queue').textContent"), "No grading running.");
}
