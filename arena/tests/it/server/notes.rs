//! A player's notes on the server: its own group reads them in its grading
//! replays; the replays a scrimmage's other group sees keep none, and no
//! feed or public view carries them (docs/server.md).

use super::{add_student, agent, finished, get, submit, wait_for, Server};
use crate::support::library;
use arena_core::games::replays::GameReplay;

#[test]
fn a_groups_grading_replays_carry_its_notes_for_it_alone() {
    let data = tempfile::tempdir().unwrap();
    let alice = add_student(data.path(), "alice");
    let bob = add_student(data.path(), "bob");
    // A library that writes a line on stdout and on stderr every turn.
    let server = Server::start_with(data.path(), &[], &[("BAD_PLAYER_MODE", "chatty")]);
    let (code, accepted) =
        submit(&server, Some(&alice), "file", &std::fs::read(library("bad-player")).unwrap());
    assert_eq!(code, 201, "{accepted}");
    let id = accepted["id"].as_i64().unwrap();
    let graded = wait_for(&server, &alice, id, finished);
    assert_eq!(graded["status"], "done", "{graded}");

    let (_, listed) = get(&server, &format!("/api/submissions/{id}/replays"), Some(&alice));
    let url = listed["replays"][0]["url"].as_str().unwrap_or_else(|| panic!("a lost game: {listed}"));
    let mut viewer = agent()
        .get(format!("{}{url}", server.url))
        .header("Authorization", format!("Bearer {alice}"))
        .call()
        .unwrap();
    let page = viewer.body_mut().read_to_string().unwrap();
    assert!(page.contains("thinking about turn"), "the group reads its player's notes");
    assert_eq!(get(&server, url, Some(&bob)).0, 404, "another group does not");

    // The replay files: the notes are the submission's own, on its turns.
    let folder = data.path().join(format!("runs/{id}/out/replays"));
    let mut seen = 0;
    for entry in std::fs::read_dir(&folder).unwrap().flatten() {
        let path = entry.path();
        if path.extension().is_some_and(|e| e == "html") {
            continue;
        }
        let replay = GameReplay::read(&path).unwrap();
        replay.verify().unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert!(!replay.notes.is_empty(), "{}", path.display());
        let student = replay.notes[0].seat;
        for note in &replay.notes {
            assert_eq!(note.seat, student, "the reference bots write nothing");
            assert!(note.text.starts_with(&format!("thinking about turn {} ", note.turn)), "{note:?}");
        }
        seen += 1;
    }
    assert!(seen > 0);
}

#[test]
fn a_scrimmages_replays_which_both_groups_see_carry_no_notes() {
    let data = tempfile::tempdir().unwrap();
    let course = crate::support::write_file(
        data.path(),
        "course.toml",
        "[[assignment]]\nname = \"trap\"\ngame = \"trap\"\n[assignment.settings]\nboard_size = 5\n\
         [assignment.grading]\nlevels = [\"easy\"]\ngames = 2\nwins_to_pass = [0]\n",
    );
    let (alpha, beta) = (add_student(data.path(), "alpha"), add_student(data.path(), "beta"));
    let args = ["--course", course.to_str().unwrap(), "--round-robin", "off"];
    // Both sides write a line on stdout and on stderr every turn.
    let server = Server::start_with(data.path(), &args, &[("BAD_PLAYER_MODE", "chatty")]);
    let chatty = std::fs::read(library("bad-player")).unwrap();
    let other = [chatty.as_slice(), &[0]].concat();
    for (token, bytes) in [(&alpha, chatty), (&beta, other)] {
        let (code, accepted) = submit(&server, Some(token), "file", &bytes);
        assert_eq!(code, 201, "{accepted}");
        let graded = wait_for(&server, token, accepted["id"].as_i64().unwrap(), finished);
        assert_eq!(graded["status"], "done", "{graded}");
    }
    let (code, made) =
        super::post_json(&server, "/api/scrimmages", &alpha, &serde_json::json!({ "opponent": "beta" }));
    assert_eq!(code, 201, "{made}");
    let id = made["id"].as_i64().unwrap();
    let started = std::time::Instant::now();
    let played = loop {
        let (_, mine) = get(&server, "/api/scrimmages", Some(&beta));
        let seen = mine["scrimmages"].as_array().unwrap().iter().find(|s| s["id"] == id).cloned().unwrap();
        if seen["finished"].is_string() {
            break seen;
        }
        assert!(started.elapsed() < std::time::Duration::from_secs(120), "never over: {seen}");
        std::thread::sleep(std::time::Duration::from_millis(50));
    };
    assert_eq!(played["status"], "done", "{played}");
    let replays = played["replays"].as_array().unwrap();
    assert!(!replays.is_empty(), "{played}");
    for replay in replays {
        let url = replay["url"].as_str().unwrap();
        let mut viewer = agent()
            .get(format!("{}{url}", server.url))
            .header("Authorization", format!("Bearer {beta}"))
            .call()
            .unwrap();
        let page = viewer.body_mut().read_to_string().unwrap();
        assert!(page.contains("<html") && !page.contains("thinking about turn"), "{url}");
    }
    let folder = data.path().join(format!("scrimmages/{id}/out/replays"));
    let mut seen = 0;
    for path in std::fs::read_dir(&folder).unwrap().flatten().map(|e| e.path()) {
        if path.extension().is_some_and(|e| e == "html") {
            continue;
        }
        let replay = GameReplay::read(&path).unwrap();
        assert!(replay.notes.is_empty() && replay.result.turns > 0, "{}", path.display());
        seen += 1;
    }
    assert_eq!(seen, replays.len());
}
