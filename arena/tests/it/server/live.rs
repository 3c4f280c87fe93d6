//! Watching the server's games live (docs/server.md, "Watching games
//! live"): a group watches its own grading games, another group gets 404
//! (as does the public), staff watch any; the league's games are anyone's,
//! and their public feed carries no word a player wrote.

use std::time::{Duration, Instant};

use serde_json::Value;

use super::{add_student, agent, finished, get, submit, wait_for, Server, SLOW};
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
