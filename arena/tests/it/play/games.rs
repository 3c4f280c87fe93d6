//! `arena play` and `arena bench` for Intuitive AI, Wumpus World, Magic
//! Forest and Hexapawn: text and JSON output, the summary's numbers agree
//! with the games, the same seed gives the same games, errors are one line;
//! `--replay` writes replays that `arena replay --verify` accepts and that
//! tell the games `--json` tells; `--watch` draws them as `arena replay` does.

use std::path::Path;

use crate::support::{arena, library, play_json, stderr, stdout};
use arena_core::{games::replays::GameReplay, replay::ReplayBody as _};
use serde_json::Value;

/// The games of a JSON document with the times left out.
fn games_without_times(doc: &Value) -> Vec<Value> {
    let mut games = doc["games"].as_array().unwrap().clone();
    for game in &mut games {
        let game = game.as_object_mut().unwrap();
        game.remove("time_us");
        game.remove("cpu_us");
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
    // Black wins Hexapawn with best play: hard never loses as Black.
    assert_eq!(text.matches("easy (White) vs hard (Black): hard wins").count(), 2, "{text}");
    assert!(text.trim_end().ends_with("seed 3"), "{text}");
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
            &["play", "--game", "hexapawn", "hard", "easy", "--games", "2", "--replay", "x.json"],
            "--replay x.json: a file holds one game; give a folder to keep 2 games",
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

/// The files in a folder, sorted.
fn files_in(folder: &Path) -> Vec<String> {
    let mut names: Vec<String> =
        std::fs::read_dir(folder).unwrap().map(|e| e.unwrap().file_name().into_string().unwrap()).collect();
    names.sort();
    names
}

/// A replay file's name without `.json` or `.json.gz` (large ones are compressed).
fn stem_of(file: &str) -> &str {
    file.strip_suffix(".json.gz").or_else(|| file.strip_suffix(".json")).unwrap_or(file)
}

/// Frames with the time each step took (`  [12 us]` ending a line) left
/// out: it differs from run to run.
fn untimed(text: &str) -> String {
    text.split('\n')
        .map(|line| match line.rfind("  [") {
            Some(at) if line.ends_with(']') => &line[..at],
            _ => line,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn play_replay_writes_every_game_and_each_verifies_through_the_cli() {
    let dir = tempfile::tempdir().unwrap();
    let cases: [(&str, &[&str], [&str; 4]); 4] = [
        ("intuitive-ai", &["hard"], ["game-1-hard", "game-2-hard", "game-3-hard", "game-4-hard"]),
        ("wumpus", &["easy"], ["game-1-easy", "game-2-easy", "game-3-easy", "game-4-easy"]),
        ("magic-forest", &["medium"], ["game-1-medium", "game-2-medium", "game-3-medium", "game-4-medium"]),
        (
            "hexapawn",
            &["hard", "easy"],
            ["game-1-hard-vs-easy", "game-2-easy-vs-hard", "game-3-hard-vs-easy", "game-4-easy-vs-hard"],
        ),
    ];
    for (game, players, stems) in cases {
        let folder = dir.path().join(game);
        let mut args = vec!["play", "--game", game];
        args.extend(players);
        args.extend(["--games", "4", "--seed", "11", "--json", "--replay", folder.to_str().unwrap()]);
        let output = arena(&args, &[]);
        assert!(output.status.success(), "{game}: {}", stderr(&output));
        assert!(stderr(&output).contains("4 replay(s) written to"), "{game}: {}", stderr(&output));
        let doc: Value = serde_json::from_slice(&output.stdout).unwrap();
        let files = files_in(&folder);
        assert_eq!(files.iter().map(|f| stem_of(f)).collect::<Vec<_>>(), stems, "{game}");
        for (file, played) in files.iter().zip(doc["games"].as_array().unwrap()) {
            let path = folder.join(file);
            let verify = arena(&["replay", path.to_str().unwrap(), "--verify"], &[]);
            assert!(verify.status.success(), "{game} {file}: {}", stderr(&verify));
            assert!(stdout(&verify).starts_with(&format!("{}: verified: ", path.display())), "{game}");
            // The replay tells the game `--json` tells.
            let replay = GameReplay::read(&path).unwrap();
            assert_eq!(replay.body.game().name(), game);
            assert_eq!(replay.seed, played["seed"].as_u64().unwrap(), "{game} {file}");
            assert_eq!(replay.result.reason, played["reason"].as_str().unwrap(), "{game} {file}");
            let names: Vec<&str> = replay.players.iter().map(|p| p.name.as_str()).collect();
            if game == "hexapawn" {
                assert_eq!(u64::from(replay.result.turns), played["plies"].as_u64().unwrap());
                let seats: Vec<usize> = played["seats"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|s| s.as_u64().unwrap() as usize)
                    .collect();
                assert_eq!(names, seats.iter().map(|&s| players[s]).collect::<Vec<_>>(), "{file}");
                let winner = players[played["winner"].as_u64().unwrap() as usize];
                assert_eq!(names[replay.result.winner.unwrap()], winner, "{file}");
            } else {
                assert_eq!(names, players);
                assert_eq!(u64::from(replay.result.turns), played["steps"].as_u64().unwrap());
                assert_eq!(replay.result.score, played["score"].as_i64(), "{game} {file}");
                assert_eq!(replay.result.outcome.as_deref() == Some("win"), played["won"] == true);
            }
        }
    }
    // One game into one file (gzip by its name); it is the folder's game 3.
    let one = dir.path().join("three.json.gz");
    let args = ["play", "--game", "wumpus", "easy", "--only-game", "3", "--seed", "11"];
    let output = arena(&[&args[..], &["--replay", one.to_str().unwrap()]].concat(), &[]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(stderr(&output).contains("replay written to"), "{}", stderr(&output));
    let verify = arena(&["replay", one.to_str().unwrap(), "--verify"], &[]);
    assert!(verify.status.success(), "{}", stderr(&verify));
    let third = files_in(&dir.path().join("wumpus")).into_iter().find(|f| f.starts_with("game-3-")).unwrap();
    let same = GameReplay::read(&dir.path().join("wumpus").join(third)).unwrap();
    let one = GameReplay::read(&one).unwrap();
    assert_eq!((one.seed, &one.result), (same.seed, &same.result));
}

#[test]
fn watch_draws_each_game_as_arena_replay_does() {
    let dir = tempfile::tempdir().unwrap();
    for (game, players) in
        [("magic-forest", &["hard"][..]), ("intuitive-ai", &["easy"]), ("hexapawn", &["hard", "easy"])]
    {
        let mut args = vec!["play", "--game", game];
        args.extend(players);
        args.extend(["--games", "2", "--seed", "5"]);
        let folder = dir.path().join(game);
        let saved = arena(&[&args[..], &["--replay", folder.to_str().unwrap()]].concat(), &[]);
        assert!(saved.status.success(), "{}", stderr(&saved));
        let watched = arena(&[&args[..], &["--watch"]].concat(), &[]);
        assert!(watched.status.success(), "{game}: {}", stderr(&watched));
        let text = untimed(&stdout(&watched));
        assert!(!text.contains('\x1b'), "no escape codes when not a terminal");
        // Each game's frames, then its line; the games in order.
        let mut rest = text.as_str();
        for file in files_in(&folder) {
            let shown = untimed(&stdout(&arena(&["replay", folder.join(&file).to_str().unwrap()], &[])));
            assert!(shown.lines().count() > 5, "{game} {file}: {shown}");
            rest = rest.strip_prefix(&shown).unwrap_or_else(|| panic!("{game} {file}: {shown}\n---\n{rest}"));
            let (line, after) = rest.split_once('\n').unwrap();
            assert!(line.starts_with("game "), "{game}: {line}");
            rest = after;
        }
    }
}
