//! The command line as a user meets it: play's output and JSON, arena new
//! to a built and checked player, errors that are one clear line, the
//! commands' order in --help, `--version`, and `arena measure` under its
//! old names.

use crate::support::{self, arena, play_json, stderr, stdout, workspace_root};
use serde_json::Value;

#[test]
fn play_json_has_the_documented_fields() {
    let doc = play_json(&["easy", "medium", "--games", "4", "--seed", "12"], &[]);
    assert_eq!(doc["game"], "trap");
    assert_eq!(doc["seed"], 12);
    assert_eq!(doc["settings"]["board_size"], 7);
    assert_eq!(doc["settings"]["time_per_turn_ms"], 5000.0);
    let players = doc["players"].as_array().unwrap();
    assert_eq!(players[0]["name"], "easy");
    assert_eq!(players[1]["source"], "medium");
    let games = doc["games"].as_array().unwrap();
    assert_eq!(games.len(), 4);
    let mut wins = [0, 0];
    for (i, game) in games.iter().enumerate() {
        assert_eq!(game["index"], i);
        assert_eq!(
            game["seats"],
            if i % 2 == 0 { serde_json::json!([0, 1]) } else { serde_json::json!([1, 0]) }
        );
        assert!(game["turns"].as_u64().unwrap() > 0);
        assert_eq!(game["reason"], "trapped");
        if let Some(w) = game["winner"].as_u64() {
            wins[w as usize] += 1;
        }
    }
    assert_eq!(players[0]["wins"], wins[0]);
    assert_eq!(players[1]["wins"], wins[1]);
    assert_eq!(players[0]["losses"], wins[1]);
    for kind in ["timeout", "illegal", "panicked", "crashed", "protocol", "output", "unavailable"] {
        assert_eq!(players[0]["failures"][kind], 0, "{kind}");
    }
    assert!(doc["average_turns"].as_f64().unwrap() > 0.0);
}

#[test]
fn play_text_has_a_line_per_game_and_a_summary() {
    let output = arena(&["play", "hard", "easy", "--games", "3", "--seed", "1"], &[]);
    assert!(output.status.success());
    let text = stdout(&output);
    assert_eq!(text.lines().filter(|l| l.starts_with("game ")).count(), 3, "{text}");
    assert!(
        text.contains("hard  ") && text.contains(" wins ") && text.contains("3 games, average"),
        "{text}"
    );
    assert!(text.trim_end().ends_with("seed 1"), "{text}");
}

#[test]
fn watch_draws_the_board_every_turn() {
    let output = arena(&["play", "easy", "easy", "--seed", "2", "--watch", "--board-size", "5"], &[]);
    let text = stdout(&output);
    assert!(text.contains("player 1 (easy#1) moves (0,2) -> "), "{text}");
    assert!(text.contains("   0 1 2 3 4\n 0 "), "{text}");
}

#[test]
fn bad_arguments_are_one_clear_line() {
    let cases: [(&[&str], &str); 7] = [
        (&["play", "easy", "gandalf"], "unknown player 'gandalf'"),
        (
            &["measure", "matchmaking", "--games-per-entrant", "50,20"],
            "--games-per-entrant: give positive numbers, ascending",
        ),
        (&["play", "easy", "hard", "--time-per-turn", "soon"], "is not a duration"),
        (
            &["measure", "swiss", "--entrants", "10", "--rounds", "10"],
            "--rounds 10: use 1 to 9 rounds for 10 entrants",
        ),
        (&["measure", "swiss", "--entrants", "1"], "--entrants 1: a Swiss needs 2 entrants or more"),
        (&["play", "easy", "hard", "--games", "0"], "--games 0 plays nothing"),
        (&["play", "easy", "./missing.so"], "no player library at ./missing.so"),
    ];
    for (args, expected) in cases {
        let output = arena(args, &[]);
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        let err = stderr(&output);
        assert!(err.contains(expected), "{args:?}: {err}");
        assert!(!err.contains("panicked") && !err.contains("backtrace"), "{err}");
    }
}

/// `arena new` from an arena binary alone (copied into a folder with no
/// checkout above it, as one handed to students): the crate it writes
/// builds, with the `player-api` it carries, and its next steps name the
/// binary that ran.
#[test]
fn new_makes_a_player_that_builds_and_passes_check() {
    let dir = tempfile::tempdir().unwrap();
    let binary = dir.path().join("bin/arena");
    std::fs::create_dir(dir.path().join("bin")).unwrap();
    std::fs::copy(env!("CARGO_BIN_EXE_arena"), &binary).unwrap();
    let output = std::process::Command::new(&binary)
        .args(["new", "my-first-bot"])
        .current_dir(dir.path())
        .env("PATH", "/usr/bin:/bin")
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", stderr(&output));
    let said = stdout(&output);
    assert!(said.contains("cargo build --release"), "{said}");
    let run = binary.canonicalize().unwrap();
    assert!(said.contains(&format!("  {} check target/release/libmy_first_bot.so", run.display())), "{said}");
    let root = dir.path().join("my-first-bot");
    let manifest = std::fs::read_to_string(root.join("Cargo.toml")).unwrap();
    assert!(manifest.contains("path = \"player-api\""), "{manifest}");
    assert!(!manifest.contains(workspace_root().to_str().unwrap()), "no path of the checkout: {manifest}");
    // Share the workspace's target folder so the dependencies build once.
    let target = workspace_root().join("target/scaffold-test");
    let status = std::process::Command::new(env!("CARGO"))
        .args(["build", "--quiet"])
        .current_dir(&root)
        .env("CARGO_TARGET_DIR", &target)
        .status()
        .unwrap();
    assert!(status.success(), "the new player crate must build");
    let library = target.join("debug/libmy_first_bot.so");
    let output = arena(&["check", library.to_str().unwrap()], &[]);
    let text = stdout(&output);
    assert!(output.status.success(), "{text}{}", stderr(&output));
    assert!(text.contains("name        my-first-bot"), "{text}");
    let doc: Value = play_json(&[library.to_str().unwrap(), "easy", "--games", "2", "--seed", "1"], &[]);
    assert_eq!(doc["players"][0]["name"], "my-first-bot");
}

#[test]
fn isolated_games_leave_threads_and_descriptors_flat() {
    let sizes = ["--requests", "200", "--games", "40", "--soak-games", "300", "--starts", "20"];
    let output = arena(&[&["measure", "isolation"][..], &sizes].concat(), &[]);
    let text = stdout(&output);
    assert!(output.status.success(), "{text}{}", stderr(&output));
    let row = |name: &str| -> (String, String) {
        let line =
            text.lines().find(|l| l.starts_with(&format!("| {name} |"))).unwrap_or_else(|| panic!("{text}"));
        let cells: Vec<&str> = line.split('|').map(str::trim).collect();
        (cells[2].to_string(), cells[3].to_string())
    };
    let (threads_before, threads_after) = row("threads");
    assert_eq!(threads_before, threads_after, "{text}");
    let (fds_before, fds_after) = row("open descriptors");
    assert_eq!(fds_before, fds_after, "{text}");
    assert!(text.contains("| isolated worker, sandbox on |"), "{text}");
    assert!(text.contains("Sandbox cost per worker start: "), "{text}");
}

#[test]
fn measure_matchmaking_prints_its_table() {
    let output = arena(
        &["measure", "matchmaking", "--students", "12", "--trials", "1", "--newcomers", "2", "--up-to", "10"],
        &[],
    );
    let text = stdout(&output);
    assert!(output.status.success(), "{text}{}", stderr(&output));
    assert!(text.contains("League matchmaking: 12 students, 10 games a pairing"), "{text}");
    assert!(text.contains("| 10% | 66 |"), "{text}");
    assert!(!text.contains("| 15% |"), "--up-to 10 stops at 10%: {text}");
    assert!(text.contains("| matchmade | 2 |"), "{text}");
}

#[test]
fn measure_swiss_prints_its_table() {
    let output = arena(&["measure", "swiss", "--entrants", "40", "--rounds", "5,6", "--trials", "2"], &[]);
    let text = stdout(&output);
    assert!(output.status.success(), "{text}{}", stderr(&output));
    assert!(
        text.contains("Swiss against a round robin: 40 entrants (top 10% = 4), 2 games a pairing, 2 trials"),
        "{text}"
    );
    assert!(text.contains("round robin: 1,560 games"), "{text}");
    for (pairing, rounds, games) in
        [("swiss", 5, 200), ("random", 5, 200), ("swiss", 6, 240), ("random", 6, 240)]
    {
        let line = text.lines().find(|l| {
            let words: Vec<&str> = l.split_whitespace().collect();
            words.len() > 3 && words[..3] == [pairing, &rounds.to_string(), &games.to_string()]
        });
        assert!(line.is_some(), "{pairing} {rounds}: {text}");
    }
    assert!(text.contains("slowest pairing of a round: "), "{text}");
}

#[test]
fn help_lists_the_user_commands_first_and_the_measurements_under_measure() {
    let help = stdout(&arena(&["--help"], &[]));
    let commands: Vec<&str> = help
        .lines()
        .skip_while(|l| *l != "Commands:")
        .skip(1)
        .take_while(|l| !l.is_empty())
        .filter_map(|l| l.split_whitespace().next())
        .collect();
    let first_to_last = "play bench check new tune tournament serve submit grade replay analyse measure help";
    assert_eq!(commands.join(" "), first_to_last, "{help}");
    // One short line each, the detail in each command's own --help.
    let listed: Vec<&str> =
        help.lines().skip_while(|l| *l != "Commands:").skip(1).take_while(|l| !l.is_empty()).collect();
    assert!(listed.iter().all(|l| l.len() <= 100), "a command's line is too long: {help}");
    assert!(!help.contains("bench-"), "the old names are hidden: {help}");
    // What moved under another command is there, and its old name still runs (hidden).
    for (under, old) in [(["bench", "sprt"], "sprt"), (["grade", "autograder"], "gradescope-autograder")] {
        let new = arena(&[under[0], under[1], "--help"], &[]);
        assert!(new.status.success(), "{}", stderr(&new));
        let long = arena(&[under[0], "--help"], &[]);
        assert!(stdout(&long).contains(under[1]), "{}", stdout(&long));
        let old = arena(&[old, "--help"], &[]);
        assert!(old.status.success(), "{}", stderr(&old));
    }
    let measure = arena(&["measure", "--help"], &[]);
    assert!(measure.status.success(), "{}", stderr(&measure));
    let measure = stdout(&measure);
    for what in ["engine", "isolation", "program", "server", "tournament", "matchmaking", "swiss", "sprt"] {
        assert!(
            measure.lines().any(|l| l.trim_start().starts_with(&format!("{what} "))),
            "{what}: {measure}"
        );
    }
}

#[test]
fn version_names_the_version_and_the_commit() {
    let output = arena(&["--version"], &[]);
    assert!(output.status.success(), "{}", stderr(&output));
    // The commit checked out, as git names it: the binary is built again
    // when HEAD moves (arena/build.rs).
    let git = std::process::Command::new("git")
        .args(["log", "-1", "--format=%h %cs"])
        .current_dir(workspace_root())
        .output()
        .expect("git runs");
    assert!(git.status.success(), "{}", stderr(&git));
    let commit = stdout(&git);
    assert_eq!(stdout(&output), format!("arena {} ({})\n", env!("CARGO_PKG_VERSION"), commit.trim()));
}

#[test]
fn an_old_bench_name_runs_as_its_measure_command() {
    let args = ["--runs", "20", "--elo1", "40", "--true-elo", "0,40"];
    let old = arena(&[&["bench-sprt"][..], &args].concat(), &[]);
    let new = arena(&[&["measure", "sprt"][..], &args].concat(), &[]);
    assert!(old.status.success(), "{}", stderr(&old));
    assert!(stdout(&old).contains("| true Elo | pentanomial: H1 |"), "{}", stdout(&old));
    assert_eq!(stdout(&old), stdout(&new));
    let help = |args: &[&str]| stdout(&arena(args, &[])).replace("arena measure sprt", "arena bench-sprt");
    assert_eq!(help(&["bench-sprt", "--help"]), help(&["measure", "sprt", "--help"]));
}

#[test]
fn only_game_replays_that_game_of_the_match() {
    let full = play_json(&["easy", "medium", "--games", "6", "--seed", "31"], &[]);
    let one = play_json(&["easy", "medium", "--only-game", "5", "--seed", "31"], &[]);
    assert_eq!(one["games"].as_array().unwrap().len(), 1);
    assert_eq!(one["games"][0], full["games"][4]);
}

#[test]
fn bench_reports_every_level_the_grade_and_replay_commands() {
    let output = arena(&["bench", "medium", "--games", "6", "--seed", "2"], &[]);
    let text = stdout(&output);
    assert!(output.status.success(), "{}", stderr(&output));
    for line in ["easy ", "medium ", "hard ", "would-be grade: ", "95% interval"] {
        assert!(text.contains(line), "missing {line:?}: {text}");
    }
    // Every replay command it prints reproduces a game the player lost.
    let replay =
        text.lines().find(|l| l.contains("arena play medium hard")).expect("medium loses to hard sometimes");
    let k = replay.split("--only-game ").nth(1).unwrap().split(' ').next().unwrap();
    let doc = play_json(&["medium", "hard", "--seed", "2", "--only-game", k], &[]);
    assert_eq!(doc["games"][0]["winner"], 1, "{doc}");
}

/// Runs the arena with its output read by a reader that stops after
/// `lines` lines (`arena ... | head -n LINES`), and returns its stderr.
fn read_then_close(args: &[&str], lines: usize) -> (std::process::ExitStatus, String) {
    use std::io::{BufRead, BufReader, Read};
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_arena"))
        .args(args)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("the arena binary runs");
    let mut reader = BufReader::new(child.stdout.take().unwrap());
    for _ in 0..lines {
        let mut line = String::new();
        reader.read_line(&mut line).unwrap();
        assert!(!line.is_empty(), "arena {args:?} ended before printing {lines} lines");
    }
    drop(reader);
    let mut stderr = String::new();
    child.stderr.take().unwrap().read_to_string(&mut stderr).unwrap();
    (child.wait().unwrap(), stderr)
}

#[test]
fn a_reader_that_stops_early_ends_the_command_quietly() {
    // Per-game lines, the closing JSON (the reader gone before it is
    // printed), a single-player series and a help text.
    let cases: [(&[&str], usize); 4] = [
        (&["play", "easy", "easy", "--games", "100000", "--seed", "1"], 1),
        (&["play", "easy", "easy", "--games", "4", "--json"], 0),
        (&["play", "--game", "wumpus", "easy", "--games", "100000"], 2),
        (&["tournament", "plan", "tournaments/demo.toml"], 0),
    ];
    for (args, lines) in cases {
        let args: Vec<String> = args
            .iter()
            .map(|a| {
                if a.ends_with(".toml") {
                    workspace_root().join(a).display().to_string()
                } else {
                    a.to_string()
                }
            })
            .collect();
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let (status, stderr) = read_then_close(&args, lines);
        assert!(status.success(), "arena {args:?}: {status}: {stderr}");
        assert!(!stderr.contains("panicked") && !stderr.contains("Broken pipe"), "arena {args:?}: {stderr}");
    }
}

#[test]
fn play_gives_the_same_games_at_any_concurrency() {
    let medium = support::library("medium");
    let medium = medium.to_str().unwrap();
    let runs: [&[&str]; 3] = [
        &["easy", medium, "--games", "12", "--seed", "3"],
        &["--game", "wumpus", "medium", "--games", "12", "--seed", "3"],
        &["--game", "intuitive-ai", medium, "--games", "8", "--seed", "4"],
    ];
    // Times aside: a game's seed, seats, moves and ending come from its index.
    let timeless = |mut doc: Value| {
        fn strip(value: &mut Value) {
            match value {
                Value::Object(map) => {
                    map.retain(|k, _| !k.ends_with("_ms") && !k.ends_with("_us"));
                    map.values_mut().for_each(strip);
                }
                Value::Array(items) => items.iter_mut().for_each(strip),
                _ => {}
            }
        }
        strip(&mut doc);
        doc
    };
    for args in runs {
        let at = |n: &str| {
            let mut all = args.to_vec();
            all.extend(["--concurrency", n]);
            timeless(play_json(&all, &[]))
        };
        let one = at("1");
        assert_eq!(one["games"].as_array().map(Vec::len), Some(args[args.len() - 3].parse().unwrap()));
        assert_eq!(at("2"), one, "{args:?}");
        assert_eq!(at("3"), one, "{args:?}");
    }
}
