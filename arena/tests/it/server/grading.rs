//! Grading a submission: the course format's grade and its replays, a kill mid-grading resumed, the queue.

use super::{
    add_student, agent, finished, get, grade_summary, leaderboard_when, sleepy_player, submit, wait_for,
    Server, SLOW,
};
use crate::support::{self, arena, library};
use arena_server::store::secret::{Purpose, Secret};

#[test]
fn a_library_is_graded_in_the_course_format_and_shows_on_the_leaderboard() {
    let data = tempfile::tempdir().unwrap();
    let alice = add_student(data.path(), "alice");
    let bob = add_student(data.path(), "bob");
    // A known secret, so that the test can compute the grading seed.
    let secret = "5e".repeat(32);
    let server = Server::start_in(data.path(), &[], &[("ARENA_SERVER_SECRET", &secret)]);

    let easy = std::fs::read(library("easy")).unwrap();
    let (code, accepted) = submit(&server, Some(&alice), "file", &easy);
    assert_eq!(code, 201, "{accepted}");
    let id = accepted["id"].as_i64().unwrap();
    assert_eq!(accepted["status"], "queued");

    // Only its owner sees it.
    assert_eq!(get(&server, &format!("/api/submissions/{id}"), Some(&bob)).0, 404);
    assert_eq!(get(&server, &format!("/api/submissions/{id}"), None).0, 401);

    let graded = wait_for(&server, &alice, id, finished);
    assert_eq!(graded["status"], "done", "{graded}");
    assert_eq!((graded["played"].as_i64(), graded["total"].as_i64()), (Some(30), Some(30)));
    let grade = &graded["grade"];
    let levels = grade["levels"].as_array().unwrap();
    let names: Vec<&str> = levels.iter().map(|l| l["level"].as_str().unwrap()).collect();
    assert_eq!(names, ["easy", "medium", "hard"]);
    for (level, needed) in levels.iter().zip([6, 4, 2]) {
        let count = |key: &str| level[key].as_u64().unwrap();
        assert_eq!(count("wins") + count("draws") + count("losses"), 10, "{level}");
        assert_eq!(count("needed"), needed);
        assert_eq!(level["passed"].as_bool(), Some(count("wins") >= needed));
    }

    // The games it lost, each with its viewer, for its owner only.
    let (code, listed) = get(&server, &format!("/api/submissions/{id}/replays"), Some(&alice));
    assert_eq!(code, 200, "{listed}");
    let replays = listed["replays"].as_array().unwrap();
    let losses: u64 = levels.iter().map(|l| l["losses"].as_u64().unwrap()).sum();
    assert_eq!(replays.len() as u64, losses, "{listed}");
    let url = replays[0]["url"].as_str().unwrap();
    let mut viewer = agent()
        .get(format!("{}{url}", server.url))
        .header("Authorization", format!("Bearer {alice}"))
        .call()
        .unwrap();
    assert_eq!(viewer.status().as_u16(), 200);
    let page = viewer.body_mut().read_to_string().unwrap();
    assert!(page.contains("<html"), "an HTML viewer");
    // Every submission is graded on the same seeds, derived from the data
    // folder's secret: neither the viewer nor the grade gives one away.
    let (_, course) = get(&server, "/api/assignments", None);
    let assignment = course["assignments"][0]["name"].as_str().unwrap();
    let seed = Secret::from_bytes([0x5e; 32]).seed(Purpose::Grading, assignment);
    let run = std::fs::read_to_string(data.path().join(format!("runs/{id}/grade.toml"))).unwrap();
    assert!(run.contains(&format!("seed = {seed}\n")), "{run}");
    assert!(page.contains(arena_core::replay::html::HIDDEN_SEED));
    assert!(!page.contains(&seed.to_string()), "the viewer holds no seed");
    for level in levels {
        for lost in level["lost"].as_array().into_iter().flatten() {
            assert!(lost.get("seed").is_none(), "{lost}");
        }
    }
    assert_eq!(get(&server, url, Some(&bob)).0, 404);
    assert_eq!(get(&server, &format!("/api/submissions/{id}/replays"), Some(&bob)).0, 404);
    assert_eq!(
        get(&server, &format!("/api/submissions/{id}/replays/..%2F..%2Farena.db"), Some(&alice)).0,
        404
    );

    // The same grade as the course's grading tournament on the same seed.
    let toml = format!(
        "format = \"grade\"\nseed = {seed}\noutput = \"out\"\nplayers = [{:?}]\n",
        library("easy").to_str().unwrap()
    );
    let local = tempfile::tempdir().unwrap();
    let file = support::write_file(local.path(), "grade.toml", &toml);
    let run = arena(&["tournament", "run", file.to_str().unwrap()], &[]);
    assert!(run.status.success(), "{}", support::stderr(&run));
    let table = std::fs::read_to_string(local.path().join("out/grades.md")).unwrap();
    let row = table.lines().last().unwrap();
    let local_wins: Vec<&str> =
        row.split('|').skip(2).take(3).map(|cell| cell.split_whitespace().next().unwrap()).collect();
    let server_wins: Vec<String> = levels.iter().map(|l| format!("{}/10", l["wins"])).collect();
    assert_eq!(local_wins, server_wins, "{row}");

    // A library that is no player is refused with the loader's reason.
    let (code, accepted) =
        submit(&server, Some(&bob), "file", &std::fs::read(library("not-a-player")).unwrap());
    assert_eq!(code, 201, "{accepted}");
    let bobs = accepted["id"].as_i64().unwrap();
    let failed = wait_for(&server, &bob, bobs, finished);
    assert_eq!(failed["status"], "failed", "{failed}");
    let error = failed["error"].as_str().unwrap();
    assert!(error.starts_with("cannot load player 'libplayer.so'"), "named as uploaded: {error}");
    assert!(error.contains("add `player_api::export_player!` to it"), "{error}");
    assert!(failed["grade"].is_null());
    // So is one built against another player-api.
    let (_, accepted) =
        submit(&server, Some(&bob), "file", &std::fs::read(library("incompatible-player")).unwrap());
    let failed = wait_for(&server, &bob, accepted["id"].as_i64().unwrap(), finished);
    assert_eq!(failed["status"], "failed", "{failed}");
    assert!(
        failed["error"].as_str().unwrap().contains("rebuild the player against this arena's player-api"),
        "{failed}"
    );

    // The leaderboard is rebuilt in memory a moment after a change.
    let board = leaderboard_when(&server, |board| !board["groups"].as_array().unwrap().is_empty());
    let students = board["groups"].as_array().unwrap();
    assert_eq!(students.len(), 1, "only graded submissions count: {board}");
    assert_eq!(students[0]["group"], "alice", "a student of their own is a group of one");
    assert_eq!(students[0]["submission"], id);
    assert_eq!(grade_summary(&students[0]["grade"]), grade_summary(grade));
}

#[test]
fn a_server_killed_mid_grading_resumes_and_grades_the_same() {
    let data = tempfile::tempdir().unwrap();
    let alice = add_student(data.path(), "alice");
    let slow = std::fs::read(library("bad-player")).unwrap();
    let server = Server::start_with(data.path(), &[], &SLOW);
    let (code, accepted) = submit(&server, Some(&alice), "file", &slow);
    assert_eq!(code, 201, "{accepted}");
    let id = accepted["id"].as_i64().unwrap();
    let playing = wait_for(&server, &alice, id, |s| s["played"].as_i64().unwrap() > 0 || finished(s));
    server.kill();
    assert_eq!(playing["status"], "playing", "killed mid-grading: {playing}");
    assert!(playing["played"].as_i64().unwrap() < 30, "{playing}");

    let server = Server::start_with(data.path(), &[], &SLOW);
    let graded = wait_for(&server, &alice, id, finished);
    assert_eq!(graded["status"], "done", "{graded}");
    assert_eq!(graded["played"], 30);
    // Every game journaled once: the interrupted run was resumed, not doubled.
    let journal = support::journal_games(&data.path().join("runs").join(id.to_string()).join("out"));
    assert_eq!(journal.len(), 30, "killed at {playing}");
    let indices: std::collections::BTreeSet<usize> = journal.iter().map(|g| g.index).collect();
    assert_eq!(indices.len(), 30);

    // The same grade as an uninterrupted run of the same file.
    let other = tempfile::tempdir().unwrap();
    let token = add_student(other.path(), "alice");
    let fresh = Server::start_with(other.path(), &[], &SLOW);
    let (_, accepted) = submit(&fresh, Some(&token), "file", &slow);
    let again = wait_for(&fresh, &token, accepted["id"].as_i64().unwrap(), finished);
    assert_eq!(grade_summary(&again["grade"]), grade_summary(&graded["grade"]));
}

/// Grading starts, in order, of the submissions in `ids` (their
/// `grading_turn`), None for one never graded.
fn turns(server: &Server, token: &str, ids: &[i64]) -> Vec<Option<i64>> {
    ids.iter()
        .map(|id| get(server, &format!("/api/submissions/{id}"), Some(token)).1["grading_turn"].as_i64())
        .collect()
}

#[test]
fn the_queue_takes_students_in_turn_and_a_newer_submission_supersedes_a_waiting_one() {
    for supersede in ["on", "off"] {
        let data = tempfile::tempdir().unwrap();
        let alice = add_student(data.path(), "alice");
        let bob = add_student(data.path(), "bob");
        let server = Server::start(data.path(), &["--round-robin", "off", "--supersede", supersede]);
        let easy = std::fs::read(library("easy")).unwrap();
        // Alice's first holds the queue for a few seconds.
        assert_eq!(submit(&server, Some(&alice), "file", &sleepy_player(0.01)).0, 201);
        wait_for(&server, &alice, 1, |s| s["status"] != "queued");
        // While alice's first is graded: two more of hers, then bob's.
        for token in [&alice, &alice, &bob] {
            assert_eq!(submit(&server, Some(token), "file", &easy).0, 201);
        }
        wait_for(&server, &bob, 4, finished);
        wait_for(&server, &alice, 3, finished);
        let alices = turns(&server, &alice, &[1, 2, 3]);
        let bobs = turns(&server, &bob, &[4]);
        // Bob waited for the one grading under way, no more.
        assert_eq!(bobs, vec![Some(2)], "{supersede}: alice {alices:?}");
        if supersede == "on" {
            assert_eq!(alices, vec![Some(1), None, Some(3)]);
            assert_eq!(get(&server, "/api/submissions/2", Some(&alice)).1["status"], "superseded");
        } else {
            wait_for(&server, &alice, 2, finished);
            assert_eq!(alices[0], Some(1));
            assert_eq!(turns(&server, &alice, &[2, 3]), vec![Some(3), Some(4)]);
        }
    }
}
