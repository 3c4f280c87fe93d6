//! A check is a check, a game is a game: the server checks a submission
//! with `arena check`'s own games (its public seed, the CPU clock), so what
//! passes at home passes there; it refuses only a player that cannot play
//! at all, and a fault in a graded game is that game lost, with its reason.

use std::time::Duration;

use serde_json::Value;

use super::{add_student, finished, submit, wait_for, Server};
use crate::support::{self, arena, stdout, workspace_root};

/// Trap against Easy only, two games: a grade in seconds.
const COURSE: &str = "name = \"check test\"\n[[assignment]]\nname = \"trap\"\ngame = \"trap\"\n\
    [assignment.grading]\nlevels = [\"easy\"]\ngames = 2\nwins_to_pass = [1]\n";

/// The course-style test player, as `arena check` names it and packed as
/// a student sends it.
fn bad_player() -> (String, Vec<u8>) {
    let folder = workspace_root().join("arena/tests/python/bad_player");
    (format!("python:{}", folder.display()), arena_server::client::pack(&folder).unwrap())
}

/// `arena check` at home, the bad player in `mode`, on its defaults.
fn check_at_home(mode: &str) -> (bool, String) {
    let (spec, _) = bad_player();
    let out = arena(&["check", &spec, "--pass-env", "BAD_PYTHON_MODE"], &[("BAD_PYTHON_MODE", mode)]);
    (out.status.success(), stdout(&out))
}

/// The bad player in `mode` submitted to a server grading [`COURSE`],
/// in `data`: the server, its student's token, the submission once
/// finished.
fn submitted(data: &tempfile::TempDir, mode: &str) -> (Server, String, Value) {
    let course = support::write_file(data.path(), "course.toml", COURSE);
    let alice = add_student(data.path(), "alice");
    let server = Server::start_with(
        data.path(),
        &["--course", course.to_str().unwrap(), "--round-robin", "off"],
        &[("BAD_PYTHON_MODE", mode)],
    );
    let (code, made) = submit(&server, Some(&alice), "file", &bad_player().1);
    assert_eq!(code, 201, "{made}");
    let finished = wait_for(&server, &alice, made["id"].as_i64().unwrap(), finished);
    (server, alice, finished)
}

/// The lines of a check's text that say which games it played, and how.
fn games_played(text: &str) -> Vec<&str> {
    text.lines().filter(|l| l.starts_with("smoke games ") || l.starts_with("  game ")).collect()
}

#[test]
fn a_player_that_faults_in_some_positions_passes_both_checks_and_loses_those_games_in_its_grade() {
    // Its grid instead of its second move, as a real course player did.
    let (passed, text) = check_at_home("grid");
    assert!(passed, "{text}");
    assert!(
        text.contains("  warning: bad_player lost by a fault: invalid action: getMove returned a Grid"),
        "{text}"
    );
    assert!(!text.contains("problem:") && !text.contains("FAILED"), "{text}");
    assert!(text.lines().last().unwrap().starts_with("ok"), "{text}");

    let data = tempfile::tempdir().unwrap();
    let (server, alice, graded) = submitted(&data, "grid");
    assert_eq!(graded["status"], "done", "it plays, so it is graded: {graded}");
    let grade = &graded["grade"];
    let lost: Vec<&Value> = grade["levels"][0]["lost"].as_array().unwrap().iter().collect();
    assert_eq!(lost.len(), 2, "each game lost by its fault: {grade}");
    for game in lost {
        let reason = game["reason"].as_str().unwrap();
        assert!(reason.contains("getMove returned a Grid"), "the reason shown: {reason}");
    }
    let failures: u64 = grade["failures"].as_object().unwrap().values().map(|n| n.as_u64().unwrap()).sum();
    assert_eq!(failures, 2, "counted by kind: {grade}");
    assert_eq!(grade["failures"]["illegal"], 2, "{grade}");

    // The student's page says so beside the grade.
    let Some(chromium) = support::browser::chromium() else { return };
    let mut browser = support::devtools::Browser::start(&chromium);
    browser.open(&format!("{}/me#token={alice}", server.url));
    browser.wait_for("document.querySelector('tr[data-status=\"done\"]') !== null", Duration::from_secs(30));
    let text = browser.eval("document.querySelector('tr[data-status=\"done\"]').cells[4].innerText");
    assert!(text.as_str().unwrap().contains("lost by its faults: 2 illegal"), "{text}");
}

#[test]
fn a_player_that_never_makes_a_legal_move_is_refused_by_both_on_the_same_games() {
    // None for every move: it answers, but never with a move.
    let (passed, text) = check_at_home("none");
    assert!(!passed, "{text}");
    assert!(text.contains("  problem: bad_player made no legal move in its smoke games of trap"), "{text}");
    assert_eq!(text.lines().last(), Some("FAILED"), "{text}");
    assert!(
        text.contains("smoke games seed 1, time control 5s, on the cpu clock"),
        "the CPU clock by default: {text}"
    );
    let help = stdout(&arena(&["check", "--help"], &[]));
    assert!(help.contains("[default: cpu]") && help.contains("--clock wall"), "{help}");

    let data = tempfile::tempdir().unwrap();
    let (_server, _, failed) = submitted(&data, "none");
    assert_eq!(failed["status"], "failed", "{failed}");
    assert!(failed["grade"].is_null(), "{failed}");
    let error = failed["error"].as_str().unwrap();
    assert_eq!(error.lines().next(), Some("it made no legal move in its smoke games:"), "{error}");
    // Its cause in one line, as pages and Gradescope show it: that line and the first problem.
    let problem = error.lines().map(str::trim).find(|l| l.starts_with("problem: "));
    assert_eq!(problem, Some("problem: bad_player lost by a fault: invalid action: getMove returned None: getMove must return a (row, col) tuple of integers"), "{error}");
    // The same games as at home: the same seed, clock and moves.
    assert!(!games_played(&text).is_empty(), "{text}");
    assert_eq!(games_played(error), games_played(&text), "{error}");
}

#[test]
fn a_single_player_game_s_player_whose_every_first_action_is_invalid_cannot_play_it() {
    // Wumpus World records an invalid action as the step that ends the
    // game: it is not a move made. This player grabs where nothing glitters.
    let dir = tempfile::tempdir().unwrap();
    let player = support::write_file(
        dir.path(),
        "grabber.py",
        "from arena_player import WumpusPlayer, run\n\n\
         class Grabber(WumpusPlayer):\n    name = \"grabber\"\n\n    def step(self, percept):\n        return \"grab\"\n\n\
         if __name__ == \"__main__\":\n    run(Grabber)\n",
    );
    let out = arena(&["check", &format!("python:{}", player.display())], &[]);
    let text = stdout(&out);
    assert!(!out.status.success(), "{text}");
    assert!(text.contains("  problem: grabber made no legal move in its smoke games of wumpus"), "{text}");
    assert!(text.contains("invalid action: grab at"), "the reason shown: {text}");
    // The cautious example climbs out (or grabs what glitters): it plays.
    let cautious = workspace_root().join("players/python/examples/native/wumpus_cautious.py");
    let out = arena(&["check", &format!("python:{}", cautious.display())], &[]);
    assert!(out.status.success(), "{}", stdout(&out));
}
