//! `arena sprt`: is NEW stronger than OLD? Real games between the built-in
//! levels and a crashing fixture, the verdict and the JSON (docs/sprt.md).

use std::process::{Command, Stdio};

use crate::support::{arena, library, pass_env, stderr, stdout, BAD_PLAYER_ORDERS};
use serde_json::Value;

/// A short, small game: Trap on a 5x5 board at 50 ms a turn, charged on
/// the CPU clock as the server charges (on the wall clock a loaded machine
/// could stall a turn past 50 ms and change a verdict or a count).
const FAST: [&str; 6] = ["--time-per-turn", "50ms", "--clock", "cpu", "--board-size", "5"];

/// Runs `arena sprt ARGS --json` and parses what it prints.
fn sprt_json(args: &[&str], env: &[(&str, &str)]) -> Value {
    let mut all = vec!["sprt"];
    all.extend_from_slice(args);
    all.push("--json");
    let output = arena(&all, env);
    assert!(output.status.success(), "arena {all:?} failed: {}", stderr(&output));
    serde_json::from_slice(&output.stdout).unwrap_or_else(|e| panic!("not JSON ({e}): {}", stdout(&output)))
}

fn number(doc: &Value, key: &str) -> u64 {
    doc[key].as_u64().unwrap_or_else(|| panic!("{key} in {doc}"))
}

/// The counts agree with each other: pairs of games, NEW's W/D/L.
fn assert_consistent(doc: &Value) {
    let pentanomial: Vec<u64> =
        doc["pentanomial"].as_array().unwrap().iter().map(|n| n.as_u64().unwrap()).collect();
    assert_eq!(pentanomial.iter().sum::<u64>(), number(doc, "pairs"), "{doc}");
    assert_eq!(2 * number(doc, "pairs"), number(doc, "games"), "{doc}");
    assert_eq!(number(doc, "wins") + number(doc, "draws") + number(doc, "losses"), number(doc, "games"));
    // NEW's points, counted by pairs and by games.
    let points: u64 = pentanomial.iter().zip(0..).map(|(n, halves)| n * halves).sum();
    assert_eq!(points, 2 * number(doc, "wins") + number(doc, "draws"), "{doc}");
}

#[test]
fn hard_is_accepted_as_stronger_than_easy_within_a_few_hundred_games() {
    let doc = sprt_json(&[&["hard", "easy", "--seed", "1"][..], &FAST].concat(), &[]);
    assert_eq!(doc["verdict"], "H1", "{doc}");
    assert_eq!(doc["ending"], "bound");
    assert!(number(&doc, "games") <= 400, "{doc}");
    assert!(doc["llr"].as_f64().unwrap() >= doc["upper_bound"].as_f64().unwrap());
    assert!((doc["upper_bound"].as_f64().unwrap() - (0.95f64 / 0.05).ln()).abs() < 1e-12);
    assert!((doc["lower_bound"].as_f64().unwrap() - (0.05f64 / 0.95).ln()).abs() < 1e-12);
    assert_eq!((doc["elo0"].as_f64(), doc["elo1"].as_f64()), (Some(0.0), Some(5.0)));
    assert_eq!(doc["elo_model"], "logistic");
    assert!(doc["elo_lower"].as_f64().unwrap() > 0.0, "{doc}");
    assert_eq!(doc["new"]["name"], "hard");
    assert_eq!(doc["old"]["source"], "easy");
    assert_eq!(doc["new"]["failures"]["crashed"], 0);
    assert_eq!(doc["seed"], 1);
    assert_consistent(&doc);
}

#[test]
fn easy_is_never_accepted_as_stronger_than_itself() {
    for seed in ["1", "2", "3"] {
        let doc =
            sprt_json(&[&["easy", "easy", "--seed", seed, "--max-games", "600"][..], &FAST].concat(), &[]);
        assert_ne!(doc["verdict"], "H1", "{doc}");
        assert!(number(&doc, "games") <= 600);
        assert_consistent(&doc);
    }
}

#[test]
fn a_player_that_crashes_every_game_is_rejected_quickly_with_its_crashes_listed() {
    let bad = library("bad-player");
    let mut args = vec![bad.to_str().unwrap(), "easy", "--seed", "3", "--time-per-turn", "50ms"];
    args.extend(pass_env(&BAD_PLAYER_ORDERS));
    let doc = sprt_json(&args, &[("BAD_PLAYER_MODE", "segfault")]);
    assert_eq!(doc["verdict"], "H0", "{doc}");
    let games = number(&doc, "games");
    assert!(games <= 100, "{doc}");
    assert_eq!(doc["new"]["failures"]["crashed"], games, "{doc}");
    assert_eq!(doc["old"]["failures"]["crashed"], 0);
    assert!(doc["new"]["first_failure"].as_str().unwrap().starts_with("game 1: crashed"), "{doc}");
    // The text lists them too.
    let mut text_args = vec!["sprt"];
    text_args.extend(&args);
    let output = arena(&text_args, &[("BAD_PLAYER_MODE", "segfault")]);
    let text = stdout(&output);
    assert!(
        text.contains(&format!("failures: bad-player: {games} crashed (first: game 1: crashed")),
        "{text}"
    );
    assert!(text.contains("H0 accepted: bad-player is not stronger than easy by 5 Elo"), "{text}");
}

#[test]
fn the_same_seed_gives_the_same_verdict_and_counts_at_any_concurrency() {
    let run = |concurrency: &str| {
        sprt_json(
            &[&["hard", "medium", "--seed", "2", "--concurrency", concurrency][..], &FAST].concat(),
            &[],
        )
    };
    let (one, two) = (run("1"), run("2"));
    assert_eq!(one["verdict"], "H1", "{one}");
    assert_eq!(one, two);
}

#[test]
fn ctrl_c_prints_where_the_test_stands() {
    // A test too fine to end soon (1/100 Elo): stopped from outside.
    let child = Command::new(env!("CARGO_BIN_EXE_arena"))
        .args(["sprt", "medium", "easy", "--elo1", "0.01", "--max-games", "100000000", "--seed", "5"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_secs(2));
    // SAFETY: a signal to the child this test started.
    unsafe { libc::kill(child.id() as libc::pid_t, libc::SIGINT) };
    let output = child.wait_with_output().unwrap();
    let text = stdout(&output);
    assert_eq!(output.status.code(), Some(130), "{text}{}", stderr(&output));
    assert!(text.contains("interrupted after ") && text.contains("no verdict yet"), "{text}");
    assert!(text.contains("LLR ") && text.contains("pairs by medium's points"), "{text}");
}

#[test]
fn bad_input_gets_one_clear_error_line() {
    for (args, says) in [
        (vec!["nonesuch", "easy"], "unknown player 'nonesuch'"),
        (vec!["--game", "wumpus", "easy", "hard"], "wumpus is a single-player game"),
        (vec!["easy", "hard", "--elo0", "5", "--elo1", "0"], "--elo1 0 must be above --elo0 5"),
        (vec!["easy", "hard", "--elo0", "5", "--elo1", "5"], "--elo1 5 must be above --elo0 5"),
        (vec!["easy", "hard", "--alpha", "1.5"], "--alpha 1.5: an error rate is between 0 and 1"),
        (vec!["easy", "hard", "--beta", "0"], "--beta 0: an error rate is between 0 and 1"),
    ] {
        let mut all = vec!["sprt"];
        all.extend(&args);
        let output = arena(&all, &[]);
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        let err = stderr(&output);
        let errors: Vec<&str> = err.lines().filter(|l| l.starts_with("error:")).collect();
        assert_eq!(errors.len(), 1, "{args:?}: {err}");
        assert!(errors[0].contains(says), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{err}");
        assert!(stdout(&output).is_empty());
    }
}

#[test]
fn measure_sprt_reports_error_rates_and_mean_games() {
    let output = arena(&["measure", "sprt", "--runs", "50", "--elo1", "40", "--true-elo", "0,40"], &[]);
    assert!(output.status.success(), "{}", stderr(&output));
    let text = stdout(&output);
    assert!(text.contains("| true Elo | pentanomial: H1 |"), "{text}");
    assert!(
        text.contains("pentanomial at elo0: H1 accepted ")
            && text.contains("trinomial at elo1: H0 accepted "),
        "{text}"
    );
}
