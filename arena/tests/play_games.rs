//! `arena play` and `arena bench` for Intuitive AI, Wumpus World, Magic
//! Forest and Hexapawn: text and JSON output, the summary's numbers agree
//! with the games, the same seed gives the same games, errors are one line.

mod support;

use serde_json::Value;
use support::{arena, library, play_json, stderr, stdout};

/// The games of a JSON document with the times left out.
fn games_without_times(doc: &Value) -> Vec<Value> {
    let mut games = doc["games"].as_array().unwrap().clone();
    for game in &mut games {
        game.as_object_mut().unwrap().remove("time_us");
    }
    games
}

/// The summary of a single-player document must be the games' own numbers.
fn check_solo_summary(doc: &Value, games: usize) {
    let list = doc["games"].as_array().unwrap();
    assert_eq!(list.len(), games);
    let player = &doc["players"][0];
    assert_eq!(player["games"], games);
    let n = games as f64;
    let mean = list.iter().map(|g| g["score"].as_f64().unwrap()).sum::<f64>() / n;
    assert!((player["mean_score"].as_f64().unwrap() - mean).abs() < 1e-9, "{player}");
    let [lower, upper] = [0, 1].map(|i| player["interval"][i].as_f64().unwrap());
    assert!(lower <= mean && mean <= upper && upper - lower > 0.0, "{player}");
    let won = list.iter().filter(|g| g["won"] == true).count() as f64 / n;
    let died = list.iter().filter(|g| g["deaths"].as_u64().unwrap() > 0).count() as f64 / n;
    assert!((player["win_rate"].as_f64().unwrap() - won).abs() < 1e-9);
    assert!((player["death_rate"].as_f64().unwrap() - died).abs() < 1e-9);
    for (i, game) in list.iter().enumerate() {
        assert_eq!(game["index"], i);
        assert!(game["steps"].as_u64().unwrap() > 0, "{game}");
        assert!(!game["reason"].as_str().unwrap().is_empty());
    }
}

#[test]
fn intuitive_ai_json_and_text() {
    let doc = play_json(&["--game", "intuitive-ai", "hard", "--games", "60", "--seed", "4"], &[]);
    assert_eq!(doc["game"], "intuitive-ai");
    assert_eq!(doc["settings"]["board_size"], 4);
    assert_eq!(doc["players"][0]["name"], "hard");
    check_solo_summary(&doc, 60);
    // Hard is far better than random (-0.43) on any 60 boards.
    assert!(doc["players"][0]["mean_score"].as_f64().unwrap() > 0.2, "{}", doc["players"][0]);

    let output = arena(&["play", "--game", "intuitive-ai", "easy", "--games", "5", "--seed", "4"], &[]);
    assert!(output.status.success(), "{}", stderr(&output));
    let text = stdout(&output);
    assert_eq!(text.lines().filter(|l| l.starts_with("game ")).count(), 5, "{text}");
    assert!(text.contains("easy  mean score ") && text.contains("won ") && text.contains("died "), "{text}");
    assert!(text.trim_end().ends_with("5 games of intuitive-ai (4x4 board), seed 4"), "{text}");
}

#[test]
fn wumpus_presets_and_determinism() {
    let args = ["--game", "wumpus", "medium", "--games", "30", "--seed", "9"];
    let aima = play_json(&args, &[]);
    assert_eq!(aima["settings"]["preset"], "aima");
    check_solo_summary(&aima, 30);
    // The same seed gives the same games.
    assert_eq!(games_without_times(&aima), games_without_times(&play_json(&args, &[])));
    let project = play_json(&[&args[..], &["--preset", "project"]].concat(), &[]);
    assert_eq!(project["settings"]["preset"], "project");
    assert_eq!(project["settings"]["size"], 6);
    assert_ne!(games_without_times(&aima), games_without_times(&project));
    // One game of the series, alone, is the same game.
    let one = play_json(&[&args[..3], &["--seed", "9", "--only-game", "7"]].concat(), &[]);
    let mut alone = games_without_times(&one).remove(0);
    let in_series = games_without_times(&aima).remove(6);
    assert_eq!(alone["index"], 6);
    alone.as_object_mut().unwrap().remove("index");
    let mut in_series = in_series;
    in_series.as_object_mut().unwrap().remove("index");
    assert_eq!(alone, in_series);
}

#[test]
fn magic_forest_reports_forests_cleared() {
    let doc = play_json(
        &["--game", "magic-forest", "hard", "--games", "12", "--seed", "2", "--largest-forest", "5"],
        &[],
    );
    assert_eq!(doc["settings"]["largest_forest"], 5);
    check_solo_summary(&doc, 12);
    let cleared: Vec<u64> =
        doc["games"].as_array().unwrap().iter().map(|g| g["cleared"].as_u64().unwrap()).collect();
    assert!(cleared.iter().all(|&c| c <= 3), "3x3, 4x4, 5x5: {cleared:?}");
    let mean = cleared.iter().sum::<u64>() as f64 / 12.0;
    assert!((doc["players"][0]["forests_cleared"].as_f64().unwrap() - mean).abs() < 1e-9);
}

#[test]
fn hexapawn_pairs_swap_seats_and_menace_learns_within_the_match() {
    let menace = library("menace");
    let args = ["--game", "hexapawn", menace.to_str().unwrap(), "hard", "--games", "40", "--seed", "3"];
    let doc = play_json(&[&args[..], &["--in-process"]].concat(), &[]);
    assert_eq!(doc["game"], "hexapawn");
    assert_eq!(doc["players"][0]["name"], "menace");
    let games = doc["games"].as_array().unwrap();
    for pair in games.chunks(2) {
        assert_eq!(pair[0]["seed"], pair[1]["seed"]);
        assert_eq!(pair[0]["seats"], serde_json::json!([0, 1]));
        assert_eq!(pair[1]["seats"], serde_json::json!([1, 0]));
    }
    // Hard never loses as Black; menace, Black in odd games, stops losing.
    let black_wins: Vec<bool> = games.iter().skip(1).step_by(2).map(|g| g["winner"] == 0).collect();
    assert!(games.iter().step_by(2).all(|g| g["winner"] == 1), "hard as Black never loses");
    assert!(!black_wins[..5].iter().all(|&w| w), "menace starts knowing nothing: {black_wins:?}");
    assert!(black_wins[10..].iter().all(|&w| w), "one instance learns over the match: {black_wins:?}");
    let wins = games.iter().filter(|g| g["winner"] == 0).count();
    let player = &doc["players"][0];
    assert_eq!(player["wins"], wins);
    assert!((player["win_rate"].as_f64().unwrap() - wins as f64 / 40.0).abs() < 1e-9);
    assert!(player["interval"][0].as_f64().unwrap() <= player["mean_score"].as_f64().unwrap());
    assert_eq!(player["death_rate"], Value::Null);

    let output = arena(&["play", "--game", "hexapawn", "easy", "hard", "--games", "4", "--seed", "3"], &[]);
    let text = stdout(&output);
    assert_eq!(text.lines().filter(|l| l.starts_with("game ")).count(), 4, "{text}");
    assert!(text.contains("easy (White) vs hard (Black): hard wins"), "{text}");
    // Black wins Hexapawn with best play: even easy wins as Black against hard.
    assert!(text.trim_end().ends_with("seed 3") && text.contains("hard  2 wins"), "{text}");
}

#[test]
fn the_same_seed_gives_the_same_lines() {
    for game in ["intuitive-ai", "wumpus", "magic-forest"] {
        let run = || {
            let output = arena(&["play", "--game", game, "medium", "--games", "8", "--seed", "21"], &[]);
            assert!(output.status.success(), "{}", stderr(&output));
            stdout(&output).lines().filter(|l| l.starts_with("game ")).map(String::from).collect::<Vec<_>>()
        };
        let first = run();
        assert_eq!(first.len(), 8);
        assert_eq!(first, run(), "{game}");
    }
}

#[test]
fn bench_compares_with_the_levels_on_the_same_worlds() {
    let output = arena(&["bench", "--game", "intuitive-ai", "medium", "--games", "100", "--seed", "1"], &[]);
    assert!(output.status.success(), "{}", stderr(&output));
    let text = stdout(&output);
    assert!(text.contains("the same 100 worlds for every player (seed 1)"), "{text}");
    // Medium against itself on the same worlds: exactly no difference.
    let medium = text.lines().find(|l| l.starts_with("medium  ")).unwrap();
    assert!(medium.ends_with("+0.000 (+0.000 .. +0.000)"), "{medium}");
    for level in ["easy  ", "hard  "] {
        assert!(text.lines().any(|l| l.starts_with(level)), "{text}");
    }
    assert!(text.contains("above the interval of: easy"), "{text}");

    let output = arena(&["bench", "--game", "hexapawn", "hard", "--games", "6", "--seed", "1"], &[]);
    let text = stdout(&output);
    assert!(output.status.success(), "{}", stderr(&output));
    // Hard as Black never loses, whoever is White.
    for level in ["easy", "medium", "hard"] {
        let line =
            text.lines().find(|l| l.starts_with(&format!("{level}  "))).unwrap_or_else(|| panic!("{text}"));
        assert!(line.trim_end().ends_with("3/3"), "{line}");
    }
}

#[test]
fn wrong_options_are_one_clear_line() {
    let cases: [(&[&str], &str); 7] = [
        (&["play", "--game", "wumpus", "hard", "easy"], "wumpus is a single-player game: name one player"),
        (&["play", "--game", "hexapawn", "hard"], "hexapawn is a two-player game"),
        (&["play", "hard"], "trap is a two-player game"),
        (
            &["play", "--game", "intuitive-ai", "hard", "--preset", "aima"],
            "--preset: intuitive-ai has no such option",
        ),
        (
            &["play", "--game", "wumpus", "hard", "--board-size", "5"],
            "--board-size: wumpus has no such option",
        ),
        (
            &["play", "--game", "magic-forest", "hard", "--largest-forest", "12"],
            "--largest-forest: largest forest 12",
        ),
        (
            &["play", "--game", "hexapawn", "hard", "easy", "--replay", "x.json"],
            "--replay saves Trap games only",
        ),
    ];
    for (args, expected) in cases {
        let output = arena(args, &[]);
        let err = stderr(&output);
        assert_eq!(output.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(expected), "{args:?}: expected {expected:?} in {err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: one line: {err}");
        assert!(stdout(&output).is_empty());
    }
}
