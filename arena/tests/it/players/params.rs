//! Parameters reach every kind of player (issue 51): a library (ABI v2, in
//! process and in a sandboxed worker), a built-in level, a Python course
//! player and a program that speaks the protocol by hand; `arena check
//! --params` lists what each declares; a bad value is one line naming the
//! parameter and the fix.

use serde_json::Value;

use crate::support::{abi_fixtures, arena, play_json, stderr, stdout, workspace_root};

fn v2_fixture() -> String {
    let (_, path) = &abi_fixtures()[1];
    path.display().to_string()
}

fn v1_fixture() -> String {
    abi_fixtures()[0].1.display().to_string()
}

fn python_env() -> Vec<(&'static str, String)> {
    vec![("PYTHONPATH", workspace_root().join("players/python/src").display().to_string())]
}

fn env<'a>(base: &'a [(&'static str, String)]) -> Vec<(&'static str, &'a str)> {
    base.iter().map(|(k, v)| (*k, v.as_str())).collect()
}

fn course_player() -> String {
    format!("python:{}", workspace_root().join("arena/tests/python/params_course").display())
}

fn program() -> String {
    format!("cmd:python3 {}", workspace_root().join("arena/tests/python/params_program.py").display())
}

/// What each game of a match did: (turns, winner, reason).
fn games(doc: &Value) -> Vec<(u64, Value, String)> {
    doc["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| {
            (g["turns"].as_u64().unwrap(), g["winner"].clone(), g["reason"].as_str().unwrap().to_string())
        })
        .collect()
}

#[test]
fn a_library_plays_by_its_parameter_in_process_and_in_a_sandboxed_worker() {
    let library = v2_fixture();
    let run = |pick: &str, in_process: bool| {
        let param = format!("pick={pick}");
        let mut args = vec![library.as_str(), "easy", "--games", "2", "--seed", "3", "--param", &param];
        if in_process {
            args.push("--in-process");
        }
        games(&play_json(&args, &[]))
    };
    let first = run("0", false);
    let fifth = run("5", false);
    assert_ne!(first, fifth, "pick=5 must play other moves than pick=0");
    assert_eq!(fifth, run("5", true), "in process and in a worker, the same parameter plays the same games");
    assert_eq!(
        first,
        games(&play_json(&[&library, "easy", "--games", "2", "--seed", "3"], &[])),
        "the default"
    );
}

#[test]
fn hard_at_its_default_weights_plays_as_hard_and_other_weights_play_otherwise() {
    let plain = games(&play_json(&["hard", "medium", "--games", "4", "--seed", "11"], &[]));
    let defaults = [
        "--param1",
        "depth=3",
        "--param1",
        "move_mobility=1",
        "--param1",
        "move_lookahead=0.5",
        "--param1",
        "trap_mobility=2",
        "--param1",
        "trap_opponent=1",
    ];
    let args = [&["hard", "medium", "--games", "4", "--seed", "11"][..], &defaults].concat();
    assert_eq!(plain, games(&play_json(&args, &[])));
    let shallow = [
        "hard",
        "medium",
        "--games",
        "4",
        "--seed",
        "11",
        "--param1",
        "depth=1",
        "--param1",
        "trap_opponent=0",
    ];
    assert_ne!(plain, games(&play_json(&shallow, &[])), "other weights must change the games");
    // The second player's are its own: Hard as player two.
    let second = ["medium", "hard", "--games", "4", "--seed", "11"];
    let changed = [&second[..], &["--param2", "depth=1", "--param2", "trap_opponent=0"]].concat();
    assert_ne!(games(&play_json(&second, &[])), games(&play_json(&changed, &[])));
}

#[test]
fn a_python_course_player_reads_its_parameters_in_init_and_as_a_module_global() {
    let base = python_env();
    let player = course_player();
    let doc =
        play_json(&[&player, "easy", "--seed", "1", "--param", "echo=1", "--param", "weight=4"], &env(&base));
    let reason = doc["games"][0]["reason"].as_str().unwrap();
    assert!(
        reason.contains("given [('echo', 1), ('weight', 4.0)] module [('echo', 1), ('weight', 4.0)]"),
        "{reason}"
    );
    // Unset, each is at its default: the player plays.
    let doc = play_json(&[&player, "easy", "--seed", "1"], &env(&base));
    assert!(!doc["games"][0]["reason"].as_str().unwrap().contains("given"), "{doc}");
}

#[test]
fn a_program_is_told_its_parameters_in_a_setup_request() {
    let player = program();
    let doc = play_json(&[&player, "easy", "--seed", "1", "--param", "echo=1", "--param", "weight=7.5"], &[]);
    let reason = doc["games"][0]["reason"].as_str().unwrap();
    // Every declared one is given: those not set at their defaults.
    assert!(reason.contains(r#"given {"echo": 1, "grow": 0, "weight": 7.5}"#), "{reason}");
}

#[test]
fn check_params_lists_what_each_kind_of_player_declares() {
    let base = python_env();
    let list = |player: &str| {
        let output = arena(&["check", player, "--params"], &env(&base));
        assert!(output.status.success(), "{player}: {}", stderr(&output));
        stdout(&output)
    };
    let hard = list("hard");
    assert!(hard.starts_with("name            type   default  range\n"), "{hard}");
    assert!(hard.contains("\ndepth           int    3        1..5\n"), "{hard}");
    assert!(hard.contains("\nmove_lookahead  float  0.5      0..10\n"), "{hard}");
    assert!(list("expert").contains("\nterritory  float  0.25     0..10\n"));
    assert!(list(&v2_fixture()).contains("\npick  int    0        0..8\n"));
    for player in [course_player(), program()] {
        let text = list(&player);
        assert!(
            text.contains("\necho    int    0        0..1\nweight  float  2.5      0..10\n"),
            "{player}: {text}"
        );
    }
    assert_eq!(list("easy"), "easy takes no parameters\n");
    assert!(list(&v1_fixture()).contains("takes no parameters (a library of ABI v1 cannot declare any)"));
}

/// `arena ARGS` fails with one line on stderr holding each of `expected`.
fn one_line_error(args: &[&str], expected: &[&str]) {
    let base = python_env();
    let output = arena(args, &env(&base));
    assert!(!output.status.success(), "{args:?} must fail");
    let err = stderr(&output);
    assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: {err}");
    assert!(!err.contains("panicked"), "{err}");
    for part in expected {
        assert!(err.contains(part), "{args:?}: missing {part:?} in {err}");
    }
}

#[test]
fn a_bad_parameter_is_one_line_naming_it_and_the_fix() {
    one_line_error(
        &["play", "hard", "easy", "--param", "speed=2"],
        &[
            "player 'hard' has no parameter 'speed': it takes depth, move_mobility",
            "arena check PLAYER --params",
        ],
    );
    one_line_error(
        &["play", "hard", "easy", "--param", "depth=7"],
        &["'depth' = 7 is outside its range 1..5"],
    );
    one_line_error(&["play", "hard", "easy", "--param", "depth=deep"], &["'depth' is an int, not 'deep'"]);
    one_line_error(&["play", "easy", "hard", "--param2", "tempo=x"], &["'hard' has no parameter 'tempo'"]);
    one_line_error(
        &["play", &v1_fixture(), "easy", "--param", "pick=1"],
        &["takes no parameters, so not 'pick'"],
    );
    one_line_error(
        &["play", &program(), "easy", "--param", "weight=11"],
        &["'weight' = 11 is outside its range 0..10"],
    );
    one_line_error(
        &["play", &course_player(), "easy", "--param", "echo=0.5"],
        &["'echo' is an int, not '0.5'"],
    );
    one_line_error(&["bench", "hard", "--param", "depth=0"], &["'depth' = 0 is outside its range 1..5"]);
    one_line_error(
        &["bench", "sprt", "hard", "hard", "--param2", "depth=9"],
        &["'depth' = 9 is outside its range 1..5"],
    );
    // Not NAME=VALUE at all: one line too, naming the flag.
    for (args, flag) in [
        (&["play", "hard", "easy", "--param", "depth"][..], "--param1 <NAME=VALUE>"),
        (&["play", "hard", "easy", "--param2", "depth"][..], "--param2 <NAME=VALUE>"),
        (&["bench", "hard", "--param", "depth"][..], "--param <NAME=VALUE>"),
    ] {
        one_line_error(args, &[flag, "'depth' is not NAME=VALUE: write it as --param mobility=1.5"]);
    }
}

#[test]
fn a_tournament_entry_sets_its_player_s_parameters_and_a_bad_one_is_named() {
    let dir = tempfile::tempdir().unwrap();
    let run = |entries: &str| {
        let text = format!(
            "format = \"round-robin\"\ngames_per_pairing = 2\nseed = 1\nplayers = [{entries}]\noutput = \"out\"\n"
        );
        let file = crate::support::write_file(dir.path(), "t.toml", &text);
        let _ = std::fs::remove_dir_all(dir.path().join("out"));
        arena(&["tournament", "run", file.to_str().unwrap()], &[])
    };
    let ok = run("\"easy\", { player = \"hard\", params = { depth = 2, move_lookahead = 0.75 } }");
    assert!(ok.status.success(), "{}", stderr(&ok));
    let bad = run("\"easy\", { player = \"hard\", params = { depth = 9 } }");
    let err = stderr(&bad);
    assert!(!bad.status.success());
    assert!(
        err.contains("cannot be loaded")
            && err.contains("hard: player 'hard': parameter 'depth' = 9 is outside its range 1..5"),
        "{err}"
    );
    let bad = run("\"easy\", { player = \"hard\", params = { depth = \"two\" } }");
    let err = stderr(&bad);
    assert!(err.contains("players[1].params.depth: a parameter is a number, not a string"), "{err}");
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
}
