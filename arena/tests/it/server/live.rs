//! Watching the server's games live (docs/server.md, "Watching games
//! live"): a group watches its own grading games, another group gets 404
//! (as does the public), staff watch any; the league's games are anyone's,
//! and their public feed carries no word a player wrote.

use std::time::{Duration, Instant};

use serde_json::Value;

use super::{add_student, agent, finished, get, log_in_on_page, submit, wait_for, Server, SLOW};
use crate::replay::live::{parse_events, watch, Event};
use crate::support::{self, library};

/// The status and the events of game `id`'s feed, read to its end, with `token`.
fn feed(server: &Server, id: &Value, token: Option<&str>) -> (u16, Vec<Event>) {
    let mut request = agent().get(format!("{}/api/live/{id}/feed", server.url));
    if let Some(token) = token {
        request = request.header("Authorization", format!("Bearer {token}"));
    }
    let mut response = request.call().unwrap();
    let status = response.status().as_u16();
    let text = response.body_mut().read_to_string().unwrap();
    (status, parse_events(&text))
}

/// The games `/api/live` lists for `token` once `ready` holds (30 s at most).
fn live_games(server: &Server, token: Option<&str>, ready: impl Fn(&[Value]) -> bool) -> Vec<Value> {
    let started = Instant::now();
    loop {
        let (code, list) = get(server, "/api/live", token);
        assert_eq!(code, 200, "{list}");
        let games = list["games"].as_array().unwrap().clone();
        if ready(&games) {
            return games;
        }
        assert!(started.elapsed() < Duration::from_secs(60), "still {list}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

fn staff(data: &std::path::Path) -> String {
    let out =
        support::arena(&["serve", "add-student", "boss", "--staff", "--data", data.to_str().unwrap()], &[]);
    assert!(out.status.success(), "{}", support::stderr(&out));
    support::stdout(&out).trim().to_string()
}

#[test]
fn a_group_watches_its_grading_games_and_another_group_gets_404() {
    let data = tempfile::tempdir().unwrap();
    let (alice, bob, boss) =
        (add_student(data.path(), "alice"), add_student(data.path(), "bob"), staff(data.path()));
    let server = Server::start_with(data.path(), &["--round-robin", "off"], &SLOW);
    let (code, accepted) =
        submit(&server, Some(&alice), "file", &std::fs::read(library("bad-player")).unwrap());
    assert_eq!(code, 201, "{accepted}");
    let id = accepted["id"].as_i64().unwrap();
    let games = live_games(&server, Some(&alice), |games| {
        games.iter().any(|g| g["kind"] == "grading" && g["of"] == id && g["ended"] == true)
    });
    let game = games.iter().find(|g| g["kind"] == "grading" && g["ended"] == true).unwrap();
    let (code, events) = feed(&server, &game["id"], Some(&alice));
    assert_eq!(code, 200);
    let watched = watch(&events);
    let end: Value = serde_json::from_str(&watched.end).unwrap();
    assert_eq!(end["seed"], Value::Null, "the server's seeds stay its own");
    assert_eq!(feed(&server, &game["id"], Some(&bob)).0, 404, "another group's grading game");
    assert_eq!(feed(&server, &game["id"], None).0, 404, "the public");
    assert_eq!(feed(&server, &game["id"], Some(&boss)).0, 200, "staff");
    assert!(
        live_games(&server, Some(&bob), |_| true).iter().all(|g| g["kind"] != "grading"),
        "not listed to bob"
    );
    let page = agent().get(format!("{}{}", server.url, game["url"].as_str().unwrap())).call().unwrap();
    assert_eq!(page.status().as_u16(), 200);
    wait_for(&server, &alice, id, finished);
}

#[test]
fn the_public_league_feed_carries_no_player_text() {
    let data = tempfile::tempdir().unwrap();
    let (alice, bob, boss) =
        (add_student(data.path(), "alice"), add_student(data.path(), "bob"), staff(data.path()));
    // Both graded (alice's plays legally), the league held...
    let server = Server::start(data.path(), &["--round-robin", "off"]);
    for (token, name) in [(&alice, "bad-player"), (&bob, "easy")] {
        let (code, accepted) = submit(&server, Some(token), "file", &std::fs::read(library(name)).unwrap());
        assert_eq!(code, 201, "{accepted}");
        wait_for(&server, token, accepted["id"].as_i64().unwrap(), finished);
    }
    server.kill();
    // ... then, in the league, alice's player panics with its own words on its first move.
    let server = Server::start_with(data.path(), &[], &[("BAD_PLAYER_MODE", "panic")]);
    let games =
        live_games(&server, None, |games| games.iter().any(|g| g["kind"] == "league" && g["ended"] == true));
    assert!(games.iter().all(|g| g["kind"] == "league"), "the public sees the league only: {games:?}");
    let game = games.iter().find(|g| g["ended"] == true).unwrap();
    let (code, public) = feed(&server, &game["id"], None);
    assert_eq!(code, 200);
    let (_, whole) = feed(&server, &game["id"], Some(&boss));
    let text = |events: &[Event]| events.iter().map(|e| e.data.as_str()).collect::<Vec<_>>().join("\n");
    assert!(text(&whole).contains("on purpose"), "staff see the player's words: {}", text(&whole));
    assert!(!text(&public).contains("on purpose"), "the public does not: {}", text(&public));
    assert!(!text(&public).contains(".so"), "nor where a player's file is: {}", text(&public));
    let watched = watch(&public);
    let end: Value = serde_json::from_str(&watched.end).unwrap();
    assert_eq!(end["result"]["reason"], "panicked", "the failure's kind: {}", end["result"]);
    assert_eq!(watched.turns, end["turns"].as_array().unwrap().clone(), "the moves are public");
}

/// Follows the live viewer open in `browser` until its game is over: what
/// it showed each time it changed (`[state, turns, result]`), and the last
/// frames it drew while live (`window.snap`: `{k, frames}`, frames without
/// `last`, which marks the newest frame only while live).
fn follow_on_page(browser: &mut crate::support::devtools::Browser) -> Vec<Value> {
    let strip = "(fs) => fs.map((f) => { const c = Object.assign({}, f); delete c.last; return c; })";
    let mut seen: Vec<Value> = Vec::new();
    let until = Instant::now() + Duration::from_secs(120);
    loop {
        let now = browser.eval(&format!(
            "(() => {{ const b = document.body.dataset; if (b.state === 'live') window.snap = {{ k: Number(b.turns), \
             frames: JSON.stringify(({strip})(ArenaLive.frames())) }}; return [b.state || '', Number(b.turns || 0), \
             (document.getElementById('result') || {{}}).textContent || '']; }})()"
        ));
        if seen.last() != Some(&now) {
            seen.push(now.clone());
        }
        if now[0] == "over" {
            return seen;
        }
        assert!(Instant::now() < until, "the game did not end on the page: {seen:?}");
        std::thread::sleep(Duration::from_millis(40));
    }
}

/// What `follow_on_page` saw holds: turns appeared one by one while the
/// game was played, the page ended on its last, and the frames drawn live
/// are those of `file` (the game's replay, as its feed's end carried it).
fn assert_followed(browser: &mut crate::support::devtools::Browser, seen: &[Value], file: &str) {
    let live: Vec<u64> = seen.iter().filter(|s| s[0] == "live").map(|s| s[1].as_u64().unwrap()).collect();
    assert!(live.len() >= 3, "turns appear one by one while the game is played: {seen:?}");
    assert!(live.windows(2).all(|w| w[0] < w[1]), "in order: {seen:?}");
    let replay: Value = serde_json::from_str(file).unwrap();
    let turns = replay["turns"].as_array().unwrap().len() as u64;
    assert_eq!(seen.last().unwrap()[1], turns, "the page ends on the game's last turn: {seen:?}");
    // Compared as values: a server's replay passed through a JSON value (its
    // seed kept back, the public's view), which orders an object's keys.
    let strip = "(fs) => fs.map((f) => { const c = Object.assign({}, f); delete c.last; return c; })";
    let canonical = "(v) => JSON.stringify(v, (k, x) => x && typeof x === 'object' && !Array.isArray(x) \
                     ? Object.fromEntries(Object.entries(x).sort(([a], [b]) => (a < b ? -1 : 1))) : x)";
    let same = browser.eval(&format!(
        "(() => {{ const file = {file}; const all = ({strip})(ArenaGames.trap.frames(file)).slice(0, snap.k + 1); \
         const canonical = {canonical}; return canonical(all) === canonical(JSON.parse(snap.frames)); }})()"
    ));
    assert_eq!(same, Value::Bool(true), "the frames drawn live are the file's");
}

/// In a real browser, as people do: the leaderboard's link to a league game
/// in progress, and a student's button to their grading game in progress,
/// each followed to a viewer that shows the turns as they are played and
/// draws the frames of the game's replay.
#[test]
fn the_leaderboard_and_the_student_page_link_games_in_progress_that_play_on_the_page() {
    let Some(chromium) = support::browser::chromium() else { return };
    let data = tempfile::tempdir().unwrap();
    let (alice, bob) = (add_student(data.path(), "alice"), add_student(data.path(), "bob"));
    // Both graded quickly...
    let server = Server::start_with(data.path(), &["--round-robin", "off"], &SLOW);
    for (token, name) in [(&alice, "bad-player"), (&bob, "easy")] {
        let (code, accepted) = submit(&server, Some(token), "file", &std::fs::read(library(name)).unwrap());
        assert_eq!(code, 201, "{accepted}");
        wait_for(&server, token, accepted["id"].as_i64().unwrap(), finished);
    }
    server.kill();
    // ... then alice's player thinks 250 ms a move: games long enough to watch.
    let slow = [("BAD_PLAYER_MODE", "sleep"), ("BAD_PLAYER_SLEEP_MS", "250")];
    let server = Server::start_with(data.path(), &[], &slow);
    let mut browser = support::devtools::Browser::start(&chromium);

    // The leaderboard lists the league's game in progress; its link is followed.
    browser.open(&format!("{}/", server.url));
    browser.wait_for("document.querySelector('#live-games a') !== null", Duration::from_secs(60));
    let link = browser.eval("document.querySelector('#live-games a').getAttribute('href')");
    let link = link.as_str().unwrap();
    let id = link.rsplit('/').next().unwrap().to_string();
    browser.open(&format!("{}{link}", server.url));
    let seen = follow_on_page(&mut browser);
    let (_, events) = feed(&server, &Value::from(id.parse::<u64>().unwrap()), None);
    assert_followed(&mut browser, &seen, &watch(&events).end);

    // Alice submits again; her page shows the grading game in progress, whose
    // viewer it opens (a page of the fetched viewer, her token after #).
    let (code, accepted) =
        submit(&server, Some(&alice), "file", &std::fs::read(library("bad-player")).unwrap());
    assert_eq!(code, 201, "{accepted}");
    log_in_on_page(&mut browser, &server, &alice);
    browser.wait_for(
        "document.querySelector('#live-games button[data-live]') !== null",
        Duration::from_secs(60),
    );
    let id = browser.eval("document.querySelector('#live-games button[data-live]').dataset.live");
    let id: u64 = id.as_str().unwrap().parse().unwrap();
    // As `openLive` does, in this tab rather than a new one.
    browser.open_fetched(&format!("fetch('/live/{id}')"), "'#token=' + encodeURIComponent(token)");
    let seen = follow_on_page(&mut browser);
    let (_, events) = feed(&server, &Value::from(id), Some(&alice));
    assert_followed(&mut browser, &seen, &watch(&events).end);
}
