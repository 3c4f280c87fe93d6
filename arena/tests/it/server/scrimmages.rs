//! Scrimmages no group can use to hold the machine: each is a bounded job
//! (cut at its games' time, the games played counting), and staff cancel
//! one, waiting or playing. (The queue's order across groups is tested on
//! the database: `server::scrimmage`'s unit tests.)

use std::time::{Duration, Instant};

use serde_json::{json, Value};

use super::{add_student, finished, get, post_json, sleepy_player, submit, wait_for, Server};
use crate::support::{self, arena, library};

/// The scrimmage `id` as `token`'s group sees it.
fn scrimmage(server: &Server, token: &str, id: i64) -> Value {
    let (code, mine) = get(server, "/api/scrimmages", Some(token));
    assert_eq!(code, 200, "{mine}");
    mine["scrimmages"].as_array().unwrap().iter().find(|s| s["id"] == id).cloned().unwrap()
}

/// Waits until scrimmage `id` is `status`.
fn wait_until(server: &Server, token: &str, id: i64, status: &str) -> Value {
    let started = Instant::now();
    loop {
        let seen = scrimmage(server, token, id);
        if seen["status"] == status {
            return seen;
        }
        assert!(started.elapsed() < Duration::from_secs(120), "never {status}: {seen}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// Waits until scrimmage `id` is over (its finish recorded).
fn wait_until_over(server: &Server, token: &str, id: i64) -> Value {
    let started = Instant::now();
    loop {
        let seen = scrimmage(server, token, id);
        if seen["finished"].is_string() {
            return seen;
        }
        assert!(started.elapsed() < Duration::from_secs(120), "never over: {seen}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn a_scrimmage_is_cut_at_its_bound_and_staff_cancel_one_waiting_or_playing() {
    let data = tempfile::tempdir().unwrap();
    let dir = data.path().to_str().unwrap();
    // 200 ms a turn and 10 s to start (the default: a Python player starts
    // slowly on a loaded machine): at one turn a game, a scrimmage may take
    // 10 x 0.2 + 10 = 12 s.
    let course = support::write_file(
        data.path(),
        "course.toml",
        "[[assignment]]\nname = \"trap\"\ngame = \"trap\"\n[assignment.settings]\ntime_per_turn = \"200ms\"\n\
         board_size = 5\n[assignment.grading]\nlevels = [\"easy\"]\ngames = 2\n\
         wins_to_pass = [0]\n[assignment.tournament]\ngames = 2\n",
    );
    let slow = add_student(data.path(), "slow");
    let quick = add_student(data.path(), "quick");
    let out = arena(&["serve", "add-student", "boss", "--staff", "--data", dir], &[]);
    let staff = support::stdout(&out).trim().to_string();
    let server = Server::start(
        data.path(),
        &["--course", course.to_str().unwrap(), "--round-robin", "off", "--scrimmage-turns", "1"],
    );
    // 0.6 s of each of its turns slept out (a move and a throw): a few
    // seconds a game, within the budget on the CPU clock.
    for (token, bytes) in [(&slow, sleepy_player(0.3)), (&quick, std::fs::read(library("easy")).unwrap())] {
        let (code, accepted) = submit(&server, Some(token), "file", &bytes);
        assert_eq!(code, 201, "{accepted}");
        let graded = wait_for(&server, token, accepted["id"].as_i64().unwrap(), finished);
        assert_eq!(graded["status"], "done", "{graded}");
    }

    // Cut at its bound: the games played count, the rest are not played.
    let asked = Instant::now();
    let (code, made) = post_json(&server, "/api/scrimmages", &slow, &json!({ "opponent": "quick" }));
    assert_eq!(code, 201, "{made}");
    let first = made["id"].as_i64().unwrap();
    let cut = wait_until(&server, &slow, first, "cut");
    let took = asked.elapsed();
    let played = cut["played"].as_i64().unwrap();
    assert!(played < 10, "cut before its 10 games: {cut}");
    let result = &cut["result"];
    let counted: i64 = ["wins", "draws", "losses"].iter().map(|k| result[k].as_i64().unwrap()).sum();
    assert_eq!(counted, played, "the games played count: {cut}");
    assert!(took >= Duration::from_secs(12), "not before its bound: {took:?}");
    assert!(took < Duration::from_secs(60), "its bound and the game under way: {took:?}");
    // Both groups see it cut.
    assert_eq!(scrimmage(&server, &quick, first)["status"], "cut");

    // Staff cancel one playing and one waiting behind it.
    let challenge = || {
        let (code, made) = post_json(&server, "/api/scrimmages", &quick, &json!({ "opponent": "slow" }));
        assert_eq!(code, 201, "{made}");
        made["id"].as_i64().unwrap()
    };
    let (playing, waiting) = (challenge(), challenge());
    wait_until(&server, &quick, playing, "playing");
    let cancel = |id: i64, token: &str| {
        post_json(&server, &format!("/api/staff/scrimmages/{id}/cancel"), token, &json!({}))
    };
    assert_eq!(cancel(waiting, &quick).0, 403, "staff's only");
    let (code, said) = cancel(waiting, &staff);
    assert_eq!((code, said["status"].as_str()), (200, Some("cancelled")), "{said}");
    let (code, said) = cancel(playing, &staff);
    assert_eq!(code, 200, "{said}");
    // Cancelled at once; over once its game under way ends.
    assert_eq!(scrimmage(&server, &quick, playing)["status"], "cancelled");
    let stopped = wait_until_over(&server, &quick, playing);
    assert_eq!(stopped["status"], "cancelled", "{stopped}");
    assert!(stopped["result"].is_object(), "the games played count: {stopped}");
    assert!(stopped["played"].as_i64().unwrap() < 10, "{stopped}");
    assert_eq!(cancel(9999, &staff).0, 404);
    // The waiting one was never played; both are over, so cancelling again changes nothing.
    let never = scrimmage(&server, &quick, waiting);
    assert_eq!((never["played"].as_i64(), never["result"].is_null()), (Some(0), true), "{never}");
    assert_eq!(cancel(playing, &staff).1["status"], "cancelled");

    // Staff see every group's, newest first.
    let (code, all) = get(&server, "/api/staff/scrimmages", Some(&staff));
    assert_eq!(code, 200, "{all}");
    let listed: Vec<(i64, &str)> = all["scrimmages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| (s["id"].as_i64().unwrap(), s["status"].as_str().unwrap()))
        .collect();
    assert_eq!(listed, [(waiting, "cancelled"), (playing, "cancelled"), (first, "cut")]);
    assert_eq!(get(&server, "/api/staff/scrimmages", Some(&slow)).0, 403);
}

/// Whether `text` holds a SHA-256 in hex (64 hex digits in a row).
fn holds_a_sha256(text: &str) -> bool {
    text.as_bytes().windows(64).any(|w| w.iter().all(u8::is_ascii_hexdigit))
}

#[test]
fn a_scrimmages_feeds_and_replays_are_titled_by_group_never_by_path_or_hash() {
    let data = tempfile::tempdir().unwrap();
    let course = support::write_file(
        data.path(),
        "course.toml",
        "[[assignment]]\nname = \"trap\"\ngame = \"trap\"\n[assignment.settings]\nboard_size = 5\n\
         [assignment.grading]\nlevels = [\"easy\"]\ngames = 2\nwins_to_pass = [0]\n",
    );
    let (alpha, beta) = (add_student(data.path(), "alpha"), add_student(data.path(), "beta"));
    let server = Server::start(data.path(), &["--course", course.to_str().unwrap(), "--round-robin", "off"]);
    // Two uploads whose players report the same name (the same library, a
    // byte apart: two files, two hashes), once told apart by their paths.
    let easy = std::fs::read(library("easy")).unwrap();
    let other = [easy.as_slice(), &[0]].concat();
    for (token, bytes) in [(&alpha, easy), (&beta, other)] {
        let (code, accepted) = submit(&server, Some(token), "file", &bytes);
        assert_eq!(code, 201, "{accepted}");
        let graded = wait_for(&server, token, accepted["id"].as_i64().unwrap(), finished);
        assert_eq!(graded["status"], "done", "{graded}");
    }
    let (code, made) = post_json(&server, "/api/scrimmages", &alpha, &json!({ "opponent": "beta" }));
    assert_eq!(code, 201, "{made}");
    let id = made["id"].as_i64().unwrap();
    // The feeds' titles, while it plays and after.
    let mut titles = Vec::new();
    let started = Instant::now();
    loop {
        let (_, live) = get(&server, "/api/live", Some(&alpha));
        for game in live["games"].as_array().unwrap() {
            if game["kind"] == "scrimmage" && game["of"] == id {
                titles.push(game["title"].as_str().unwrap().to_string());
            }
        }
        if scrimmage(&server, &alpha, id)["finished"].is_string() {
            break;
        }
        assert!(started.elapsed() < Duration::from_secs(120), "never over");
        std::thread::sleep(Duration::from_millis(20));
    }
    let played = wait_until_over(&server, &beta, id);
    assert_eq!(played["status"], "done", "{played}");
    assert!(!titles.is_empty(), "a feed was listed");
    let folder = std::fs::canonicalize(data.path()).unwrap().to_string_lossy().to_string();
    for title in &titles {
        assert!(title.contains("alpha vs beta") || title.contains("beta vs alpha"), "{title}");
        assert!(!title.contains(&folder) && !holds_a_sha256(title), "{title}");
    }
    // What the other side reads at `path`, whole.
    let as_beta = |path: &str| {
        let response = super::agent()
            .get(format!("{}{path}", server.url))
            .header("Authorization", format!("Bearer {beta}"))
            .call();
        response.unwrap().body_mut().read_to_string().unwrap()
    };
    // Each replay: its name and its viewer's title by group.
    let replays = played["replays"].as_array().unwrap();
    assert_eq!(replays.len(), 10, "{played}");
    for replay in replays {
        let name = replay["name"].as_str().unwrap();
        assert!(name.contains("alpha") && name.contains("beta") && !holds_a_sha256(name), "{name}");
        let page = as_beta(replay["url"].as_str().unwrap());
        let title = page.split("<title>").nth(1).and_then(|t| t.split("</title>").next()).unwrap();
        assert!(title.contains("alpha") && title.contains("beta"), "{title}");
        assert!(!title.contains(&folder) && !holds_a_sha256(title), "{title}");
        // Nor anywhere in the page: the players' sources are not named.
        assert!(!page.contains(&folder) && !page.contains("files/"), "a path in the viewer of {name}");
    }
    // Nor in a game's feed, which the other group watches whole.
    let (_, live) = get(&server, "/api/live", Some(&beta));
    let game = live["games"].as_array().unwrap().iter().find(|g| g["kind"] == "scrimmage" && g["of"] == id);
    let game = game.unwrap_or_else(|| panic!("the scrimmage's games listed: {live}"));
    {
        let feed = as_beta(&format!("/api/live/{}/feed", game["id"]));
        assert!(!feed.is_empty() && !feed.contains(&folder) && !feed.contains("files/"), "{feed}");
    }
}
