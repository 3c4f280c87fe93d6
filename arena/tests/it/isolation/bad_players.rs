//! Players that break the rules, as real libraries loaded from disk: each
//! loses with the right reason, and the arena goes on to the next game.

use crate::support::{self, library, pass_env, play_json, BAD_PLAYER_ORDERS};
use serde_json::Value;

/// Plays two games (one per seat) of the bad player against Easy and
/// returns the reasons; asserts the bad player lost both, by a failure of
/// kind `kind`.
fn reasons(mode: &str, kind: &str, extra: &[&str]) -> Vec<String> {
    let bad = library("bad-player");
    let mut args = vec![bad.to_str().unwrap(), "easy", "--games", "2", "--seed", "4"];
    args.extend_from_slice(extra);
    args.extend(pass_env(&BAD_PLAYER_ORDERS));
    let doc = play_json(&args, &[("BAD_PLAYER_MODE", mode)]);
    let games = doc["games"].as_array().unwrap();
    assert_eq!(games.len(), 2, "the arena must go on to the next game");
    for game in games {
        assert_eq!(game["winner"], Value::from(1), "{mode}: the bad player must lose {game}");
    }
    let bad_player = &doc["players"][0];
    assert_eq!(bad_player["losses"], Value::from(2));
    assert_eq!(bad_player["failures"][kind], Value::from(2), "{mode}: {bad_player}");
    games.iter().map(|g| g["reason"].as_str().unwrap().to_string()).collect()
}

#[test]
fn a_move_off_the_board_loses() {
    // Seat 1 starts at (0,3) and seat 2 at (6,3): row 7 is off a 7x7 board.
    assert_eq!(reasons("off-board", "illegal", &[]), ["illegal move (7,3): off the board"; 2]);
}

#[test]
fn a_move_that_is_not_a_king_step_loses() {
    let r = reasons("far", "illegal", &[]);
    assert_eq!(r[0], "illegal move (2,3): not one king step from (0,3)");
    assert_eq!(r[1], "illegal move (4,3): not one king step from (6,3)");
}

#[test]
fn a_move_onto_an_occupied_cell_loses() {
    for reason in reasons("onto-trap", "illegal", &[]) {
        assert!(reason.starts_with("illegal move (") && reason.ends_with("): a trap is there"), "{reason}");
    }
}

#[test]
fn a_trap_thrown_at_a_player_loses() {
    let r = reasons("trap-on-opponent", "illegal", &[]);
    assert_eq!(r[0], "illegal trap (6,3): player 2 stands there");
    // In seat 2 it throws after Easy's first (random) move: at wherever player 1 stands.
    assert!(r[1].starts_with("illegal trap (") && r[1].ends_with("): player 1 stands there"), "{}", r[1]);
}

#[test]
fn a_panic_loses_with_its_message_and_location() {
    for reason in reasons("panic", "panicked", &[]) {
        assert!(reason.starts_with("panicked: bad-player panics on purpose at "), "{reason}");
        assert!(reason.contains("bad-player/src/lib.rs:"), "{reason}");
    }
}

#[test]
fn a_player_whose_constructor_panics_is_a_load_error() {
    for extra in [&[][..], &["--in-process"][..]] {
        let bad = library("bad-player");
        let mut args = vec!["play", bad.to_str().unwrap(), "easy"];
        args.extend_from_slice(extra);
        args.extend(pass_env(&BAD_PLAYER_ORDERS));
        let output = support::arena(&args, &[("BAD_PLAYER_MODE", "panic-new")]);
        assert_eq!(output.status.code(), Some(2), "{extra:?}");
        let err = support::stderr(&output);
        assert!(
            err.contains("cannot load player") && err.contains("bad-player refuses to start"),
            "{extra:?}: {err}"
        );
        assert_eq!(err.lines().count(), 1, "{err}");
    }
}

#[test]
fn sleeping_past_the_budget_is_a_timeout() {
    // In process, the call returns late and is measured.
    for reason in reasons("sleep", "timeout", &["--time-per-turn", "100ms", "--in-process"]) {
        let rest = reason.strip_prefix("timeout: ").unwrap_or_else(|| panic!("{reason}"));
        let (used, allowed) = rest.split_once(" of its own time > ").unwrap_or_else(|| panic!("{reason}"));
        assert_eq!(allowed, "0.10 s");
        let used: f64 = used.trim_end_matches(" s").parse().unwrap();
        assert!(used >= 0.3, "slept 0.3 s, measured {used}");
    }
    // Isolated (the default), it is killed at budget + grace + 100 ms.
    for reason in reasons("sleep", "timeout", &["--time-per-turn", "100ms"]) {
        assert!(
            reason.starts_with("timeout: 0.") && reason.ends_with("> 0.10 s, no answer: killed"),
            "{reason}"
        );
    }
}

#[test]
fn a_well_behaved_mode_plays_normally() {
    let bad = library("bad-player");
    let mut args = vec![bad.to_str().unwrap(), "easy", "--games", "2", "--seed", "4"];
    args.extend(pass_env(&BAD_PLAYER_ORDERS));
    let doc = play_json(&args, &[("BAD_PLAYER_MODE", "none")]);
    let failures = doc["players"][0]["failures"].as_object().unwrap();
    assert!(failures.values().all(|n| n == 0), "{failures:?}");
}
