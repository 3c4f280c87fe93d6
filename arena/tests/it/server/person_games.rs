//! A person plays on the course server (issue 49): a student's game
//! against a level from its own page, played in Chromium to its end; the
//! seat's token and the student's checked; one game at a time, a few an
//! hour; a page that goes away ends the game and frees its core.

use std::time::{Duration, Instant};

use serde_json::{json, Value};

use super::{add_student, agent, finished, get, post_json, seat_state, submit, wait_for, Server};
use crate::{
    play::person_page::click_to_the_end,
    support::{self, arena, browser::chromium, devtools::Browser},
};

/// Persons' games on the pool's cores now (they play at the scrimmages' priority).
fn playing(server: &Server, staff: &str) -> u64 {
    let (code, body) = get(server, "/api/staff/cores", Some(staff));
    assert_eq!(code, 200, "{body}");
    body["pool"]["running"]["scrimmage"].as_u64().unwrap()
}

fn staff(data: &std::path::Path) -> String {
    let out = arena(&["serve", "add-student", "boss", "--staff", "--data", data.to_str().unwrap()], &[]);
    support::stdout(&out).trim().to_string()
}

fn wait_until(what: &str, within: Duration, done: impl Fn() -> bool) {
    let started = Instant::now();
    while !done() {
        assert!(started.elapsed() < within, "{what}: not within {within:?}");
        std::thread::sleep(Duration::from_millis(200));
    }
}

#[test]
fn a_student_plays_a_level_from_its_page_to_the_end_in_chromium() {
    let Some(chromium) = chromium() else { return };
    let data = tempfile::tempdir().unwrap();
    let alice = add_student(data.path(), "alice");
    let staff = staff(data.path());
    let server = Server::start(data.path(), &[]);
    let (code, started) = post_json(&server, "/api/play", &alice, &json!({ "opponent": "easy" }));
    assert_eq!(code, 201, "{started}");
    let page = started["page"].as_str().unwrap().to_string();
    let mut browser = Browser::start(&chromium);
    browser.open(&format!("{}{page}", server.url));
    let news = click_to_the_end(&mut browser);
    assert!(news.contains("game over: you"), "the game's end is shown: {news}");
    // Over: its core is given back, its seat closed, and another may start.
    wait_until("the game's core freed", Duration::from_secs(30), || playing(&server, &staff) == 0);
    wait_until("the seat closed", Duration::from_secs(10), || seat_state(&server, &page).0 == 403);
    assert_eq!(post_json(&server, "/api/play", &alice, &json!({ "opponent": "easy" })).0, 201);
}

#[test]
fn seats_tokens_one_game_at_a_time_a_few_an_hour_and_a_page_that_goes_away() {
    let data = tempfile::tempdir().unwrap();
    let bob = add_student(data.path(), "bob");
    let carol = add_student(data.path(), "carol");
    let staff = staff(data.path());
    let server = Server::start(data.path(), &[]);
    let start = |token: &str| post_json(&server, "/api/play", token, &json!({ "opponent": "easy" }));
    // Bad asks: no student, an unknown opponent, no graded submission.
    let (code, _) = super::answer(
        agent()
            .post(format!("{}/api/play", server.url))
            .header("Content-Type", "application/json")
            .send(json!({ "opponent": "easy" }).to_string().as_bytes()),
    );
    assert_eq!(code, 401);
    let (code, said) = post_json(&server, "/api/play", &bob, &json!({ "opponent": "<b>x</b>" }));
    assert_eq!(code, 400, "{said}");
    let (code, said) = post_json(&server, "/api/play", &bob, &json!({ "opponent": "ours" }));
    assert_eq!(code, 409, "{said}");

    // A page that goes away: the game is given up and its core freed.
    let (code, started) = start(&bob);
    assert_eq!(code, 201, "{started}");
    let page = started["page"].as_str().unwrap().to_string();
    let (code, state) = seat_state(&server, &page);
    assert_eq!(code, 200, "{state}");
    // Another seat's page (carol's) cannot read or answer bob's.
    let (code, carols) = start(&carol);
    assert_eq!(code, 201, "{carols}");
    let carols = carols["page"].as_str().unwrap();
    let mut wrong = page.clone();
    wrong.replace_range(page.len() - 4.., "0000");
    assert_eq!(seat_state(&server, &wrong).0, 403);
    let answered = agent()
        .post(format!("{}{wrong}/answer", server.url))
        .send(json!({ "asked": 1, "line": "1 1" }).to_string().as_bytes())
        .unwrap();
    assert_eq!(answered.status().as_u16(), 403);
    assert_ne!(carols, page);
    // One at a time.
    let (code, said) = start(&bob);
    assert_eq!(code, 429, "{said}");
    assert!(said.to_string().contains("playing a game already"), "{said}");
    wait_until("both games on the pool", Duration::from_secs(30), || playing(&server, &staff) == 2);
    // Neither page polls again: both games end within the page's bound.
    wait_until("the games given up", Duration::from_secs(40), || playing(&server, &staff) == 0);
    wait_until("the seat closed", Duration::from_secs(10), || seat_state(&server, &page).0 == 403);

    // A few an hour: three more games (resigned at once), then refused.
    for _ in 0..3 {
        let (code, started) = start(&bob);
        assert_eq!(code, 201, "{started}");
        let page = started["page"].as_str().unwrap().to_string();
        wait_until("the question", Duration::from_secs(30), || {
            let state = seat_state(&server, &page).1;
            !state["question"].is_null()
        });
        let state = seat_state(&server, &page).1;
        let resigned = agent()
            .post(format!("{}{page}/answer", server.url))
            .send(json!({ "asked": state["asked"], "line": "resign" }).to_string().as_bytes())
            .unwrap();
        assert_eq!(resigned.status().as_u16(), 204);
        wait_until("the resigned game over", Duration::from_secs(30), || seat_state(&server, &page).0 == 403);
    }
    let (code, said) = start(&bob);
    assert_eq!(code, 429, "{said}");
    assert!(said.to_string().contains("in the last hour"), "{said}");
}

/// The value shown in `#id`'s options, as a list.
fn choices(browser: &mut Browser, id: &str) -> Value {
    browser.eval(&format!("[...document.querySelectorAll('#{id} option')].map(o => o.value)"))
}

#[test]
fn a_student_starts_a_game_from_its_submissions_page_and_sees_refusals_in_one_line() {
    let Some(chromium) = chromium() else { return };
    let data = tempfile::tempdir().unwrap();
    let dana = add_student(data.path(), "dana");
    let server = Server::start(data.path(), &[]);
    let mut browser = Browser::start(&chromium);
    browser.open(&format!("{}/me#token={dana}", server.url));
    browser
        .wait_for("document.querySelectorAll('#play-opponent option').length > 0", Duration::from_secs(30));
    assert_eq!(choices(&mut browser, "play-opponent"), json!(["ours", "easy", "medium", "hard"]));
    let play = |browser: &mut Browser, opponent: &str| {
        browser.eval(&format!(
            "document.getElementById('played').textContent = 'asking';
             document.getElementById('play-opponent').value = '{opponent}';
             document.querySelector('#play button').click()"
        ));
        // The handler clears the line at once, then says how it went.
        browser.wait_for(
            "!['asking', ''].includes(document.getElementById('played').textContent)",
            Duration::from_secs(30),
        );
        let line = browser.eval("document.getElementById('played').textContent");
        (line.as_str().unwrap().to_string(), browser.eval("document.getElementById('played').className"))
    };
    // Nothing graded of the group's yet: said in one line, no game.
    let (line, class) = play(&mut browser, "ours");
    assert!(line.contains("no graded submission") && !line.contains('\n'), "{line}");
    assert_eq!(class, "error");
    // A level: started, its page linked.
    let (line, _) = play(&mut browser, "easy");
    assert!(line.starts_with("started"), "{line}");
    let page = browser.eval("document.getElementById('play-page').getAttribute('href')");
    let page = page.as_str().unwrap().to_string();
    assert!(page.starts_with("/play/"), "{page}");
    assert_eq!(seat_state(&server, &page).0, 200);
    // One game at a time: the second refused, in one line.
    let (line, class) = play(&mut browser, "easy");
    assert!(line.contains("playing a game already") && !line.contains('\n'), "{line}");
    assert_eq!(class, "error");
    // The link's page plays the game to its end.
    browser.open(&format!("{}{page}", server.url));
    let news = click_to_the_end(&mut browser);
    assert!(news.contains("game over: you"), "{news}");
    wait_until("the seat closed", Duration::from_secs(10), || seat_state(&server, &page).0 == 403);
}

/// The state of `page`'s seat once it asks a question after the one
/// numbered `after`, or the game is over.
fn asked(server: &Server, page: &str, after: u64) -> Value {
    let started = Instant::now();
    loop {
        let (code, state) = seat_state(server, page);
        assert_eq!(code, 200, "{state}");
        if (!state["question"].is_null() && state["asked"].as_u64() > Some(after)) || state["over"] == true {
            return state;
        }
        assert!(started.elapsed() < Duration::from_secs(60), "no question at {page}: {state}");
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// Answers `state`'s question with its first choice.
fn answer_first(server: &Server, page: &str, state: &Value) {
    let line = state["question"]["choices"][0]["text"].as_str().unwrap();
    let posted = agent()
        .post(format!("{}{page}/answer", server.url))
        .send(json!({ "asked": state["asked"], "line": line }).to_string().as_bytes())
        .unwrap();
    assert_eq!(posted.status().as_u16(), 204);
}

/// A student plays its group's submission (issue 67), a Python player whose
/// import starts a thread that spins for ever: while the person thinks, the
/// bot's worker uses no CPU; the game holds a core of the pool, the bot's
/// processes on it; the bot is judged on the assignment's clock (the CPU's:
/// a move it sleeps 1.5 s through is in time), and the page's address is
/// kept in no cache.
#[test]
fn a_persons_game_stops_its_busy_bot_while_the_person_thinks_on_a_core_of_the_pool_on_the_cpu_clock() {
    let data = tempfile::tempdir().unwrap();
    let erin = add_student(data.path(), "erin");
    let staff = staff(data.path());
    // A second a turn, on the server's clock (the CPU's).
    let course = support::write_file(
        data.path(),
        "course.toml",
        "[[assignment]]\nname = \"trap\"\ngame = \"trap\"\n[assignment.settings]\ntime_per_turn = \"1s\"\n\
         [assignment.grading]\nlevels = [\"easy\"]\ngames = 2\nwins_to_pass = [0]\n",
    );
    let python = support::workspace_root().join("players/python/src").display().to_string();
    let flags = ["--course", course.to_str().unwrap(), "--round-robin", "off", "--analysis-nodes", "0"];
    let server = Server::start_in(data.path(), &flags, &[("PYTHONPATH", &python)]);
    let folder = support::workspace_root().join("arena/tests/python/busy_player");
    let (code, accepted) =
        submit(&server, Some(&erin), "file", &arena_server::client::pack(&folder).unwrap());
    assert_eq!(code, 201, "{accepted}");
    let graded = wait_for(&server, &erin, accepted["id"].as_i64().unwrap(), finished);
    assert_eq!(graded["status"], "done", "{graded}");

    let (code, started) = post_json(&server, "/api/play", &erin, &json!({ "opponent": "ours" }));
    assert_eq!(code, 201, "{started}");
    let page = started["page"].as_str().unwrap().to_string();
    let served = agent().get(format!("{}{page}", server.url)).call().unwrap();
    assert_eq!(
        served.headers().get("cache-control").unwrap(),
        "no-store",
        "its address holds the seat's token"
    );
    let state = asked(&server, &page, 0);
    assert!(!state["question"].is_null(), "the person moves first: {state}");

    // The person thinks: the bot's processes (all the server's, nothing else
    // plays) use no CPU.
    let bot = crate::isolation::descendants(server.child.id());
    assert!(!bot.is_empty());
    let cpu = || bot.iter().map(|pid| crate::isolation::cpu_time(*pid)).sum::<Duration>();
    let before = cpu();
    std::thread::sleep(Duration::from_secs(2));
    let used = cpu() - before;
    assert!(
        used < Duration::from_millis(100),
        "the bot used {used:?} of CPU in 2 s while the person thought"
    );
    // It holds a core of the pool, its bot's processes on that core.
    assert_eq!(playing(&server, &staff), 1);
    for pid in &bot {
        let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
        let cores = status.lines().find_map(|l| l.strip_prefix("Cpus_allowed_list:")).unwrap_or("").trim();
        assert!(cores.parse::<usize>().is_ok(), "process {pid} may run on {cores:?}: not one core");
    }

    // The bot sleeps 1.5 s a move from now on (a budget of 1 s): in time on
    // the CPU's clock, which the assignment charges.
    let player = walk(&data.path().join("players")).into_iter().find(|p| p.ends_with("PlayerAI.py")).unwrap();
    std::fs::write(player.with_file_name("slow"), "").unwrap();
    answer_first(&server, &page, &state);
    let throw = asked(&server, &page, state["asked"].as_u64().unwrap());
    answer_first(&server, &page, &throw);
    let moved = Instant::now();
    let after = asked(&server, &page, throw["asked"].as_u64().unwrap());
    let news = after["news"].to_string();
    assert!(!news.contains("timeout"), "{news}");
    assert!(moved.elapsed() >= Duration::from_millis(1500), "the bot slept: {after}");
    assert!(!after["question"].is_null() || news.contains("you lose"), "the game goes on: {after}");
}

/// Every file under `dir`.
fn walk(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let path = entry.path();
        if path.is_dir() {
            files.extend(walk(&path));
        } else {
            files.push(path);
        }
    }
    files
}
