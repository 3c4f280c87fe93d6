//! The grace: how far past its budget a turn may go before it is lost
//! (none unless `--grace` or a tournament file's `settings.grace` says
//! otherwise, 0 s to 5 s; a player that has not answered is killed 100 ms
//! later), and a timeout that says what it measured against what was allowed.

use serde_json::Value;

use crate::support::{self, library, play_json, stderr, stdout};

/// The bad player's orders: compute 650 ms of CPU time on its first move,
/// 1.3 x the 500 ms budget of [`ARGS`].
const SLOW_FIRST_TURN: [(&str, &str); 2] = [("BAD_PLAYER_MODE", "compute"), ("BAD_PLAYER_SPIN_MS", "650")];
const ARGS: [&str; 8] = ["--games", "2", "--seed", "4", "--time-per-turn", "500ms", "--clock", "cpu"];

/// Two games (one per seat) of the bad player with a slow first turn
/// against Easy, on the CPU clock.
fn slow_first_turn(extra: &[&str]) -> Value {
    let bad = library("bad-player");
    let mut args = vec![bad.to_str().unwrap(), "easy"];
    args.extend(ARGS);
    args.extend_from_slice(extra);
    args.extend(support::pass_env(&support::BAD_PLAYER_ORDERS));
    play_json(&args, &SLOW_FIRST_TURN)
}

fn reasons(doc: &Value) -> Vec<String> {
    doc["games"].as_array().unwrap().iter().map(|g| g["reason"].as_str().unwrap().to_string()).collect()
}

/// The seconds a timeout's reason says were used ("timeout: 0.65 s of CPU > ...").
fn used(reason: &str) -> f64 {
    let rest = reason.strip_prefix("timeout: ").unwrap_or_else(|| panic!("{reason}"));
    rest.split(' ').next().unwrap().parse().unwrap_or_else(|_| panic!("{reason}"))
}

#[test]
fn a_turn_past_budget_and_grace_loses_with_what_it_used_and_was_allowed() {
    // No grace (the default): isolated, it is killed once it has used 0.60 s
    // of CPU (0.1 s past its budget), without an answer.
    let doc = slow_first_turn(&[]);
    assert_eq!(doc["players"][0]["failures"]["timeout"], 2, "{:?}", reasons(&doc));
    for reason in reasons(&doc) {
        assert!(reason.ends_with(" s of CPU > 0.50 s, no answer: killed"), "{reason}");
        assert!((0.60..0.65).contains(&used(&reason)), "{reason}");
    }
    // A grace short of the turn: it answers before it is killed (at 0.70 s),
    // late, and the whole turn is measured; in process too.
    for extra in [&["--grace", "100ms"][..], &["--grace", "100ms", "--in-process"][..]] {
        let doc = slow_first_turn(extra);
        assert_eq!(doc["players"][0]["failures"]["timeout"], 2, "{extra:?}: {:?}", reasons(&doc));
        for reason in reasons(&doc) {
            assert!(reason.ends_with(" s of CPU > 0.60 s (0.50 s + 0.10 s grace)"), "{extra:?}: {reason}");
            assert!((0.65..0.70).contains(&used(&reason)), "{extra:?}: {reason}");
        }
    }
}

#[test]
fn a_grace_that_covers_a_slow_turn_keeps_it_in_the_game() {
    for extra in [&["--grace", "300ms"][..], &["--grace", "300ms", "--in-process"][..]] {
        let doc = slow_first_turn(extra);
        let player = &doc["players"][0];
        assert_eq!(player["failures"]["timeout"], 0, "{extra:?}: {:?}", reasons(&doc));
        // Its slow turn was played, and counted.
        assert!(player["max_turn_cpu_ms"].as_f64().unwrap() >= 650.0, "{extra:?}: {player}");
    }
}

#[test]
fn the_grace_flag_is_0s_to_5s() {
    for grace in ["0s", "5s"] {
        let out = support::arena(&["play", "easy", "easy", "--games", "1", "--grace", grace], &[]);
        assert!(out.status.success(), "--grace {grace}: {}", stderr(&out));
    }
    let out = support::arena(&["play", "easy", "easy", "--games", "1", "--grace", "5.5s"], &[]);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    let first = err.lines().next().unwrap_or_default();
    assert!(first.contains("--grace") && first.contains("out of range: a grace is 0s to 5s"), "{err}");
}

#[test]
fn a_tournament_files_grace_is_0s_to_5s_and_its_games_are_judged_with_it() {
    let dir = tempfile::tempdir().unwrap();
    let run = |grace: &str| {
        let text = format!(
            "format = \"round-robin\"\nplayers = [\"{}\", \"easy\"]\ngames_per_pairing = 2\nseed = 4\n\
             output = \"out-{grace}\"\n[settings]\ntime_per_turn = \"500ms\"\nclock = \"cpu\"\ngrace = \"{grace}\"\n\
             pass_env = [\"BAD_PLAYER_MODE\", \"BAD_PLAYER_SPIN_MS\"]\n",
            library("bad-player").display()
        );
        let file = support::write_file(dir.path(), &format!("t-{grace}.toml"), &text);
        let out = support::arena(&["tournament", "run", file.to_str().unwrap()], &SLOW_FIRST_TURN);
        (out, dir.path().join(format!("out-{grace}")))
    };
    // No grace (the default, written): lost past the budget itself.
    let (out, folder) = run("0s");
    assert!(out.status.success(), "{}{}", stdout(&out), stderr(&out));
    let games = support::journal_games(&folder);
    assert_eq!(games.len(), 2);
    for game in &games {
        assert!(game.reason.ends_with(" s of CPU > 0.50 s, no answer: killed"), "{}", game.reason);
    }
    // The most: 5 s, which covers the slow turn.
    let (out, folder) = run("5s");
    assert!(out.status.success(), "{}{}", stdout(&out), stderr(&out));
    let games = support::journal_games(&folder);
    assert_eq!(games.len(), 2);
    assert!(games.iter().all(|g| !g.reason.starts_with("timeout")), "{:?}", games);
    // Past it: one line naming the setting and the range.
    let (out, _) = run("5.5s");
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(err.contains("settings.grace: '5.5s' is out of range: a grace is 0s to 5s"), "{err}");
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
}
