//! Tournaments of the four new games: the ready files in tournaments/ run,
//! the duplicate format gives every player the worlds `arena play` gives,
//! a killed single-player run resumes to the same games, Hexapawn pairings
//! let a learner learn, bad keys are one clear line with its number, and a
//! library plays through the real plugin path beside the built-ins.

mod support;

use std::{
    path::{Path, PathBuf},
    process::{Command, Stdio},
    time::{Duration, Instant},
};

use arena::tournament::{journal, record::GameResult};
use serde_json::Value;
use support::{arena, library, play_json, stderr, workspace_root};

fn write_file(dir: &Path, name: &str, text: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

/// The games in a journal, times left out, in schedule order.
fn journal_games(folder: &Path) -> Vec<GameResult> {
    let (_, mut results, _) = journal::read(&folder.join(journal::FILE_NAME)).unwrap();
    results.sort_by_key(|r| r.index);
    results.iter().map(GameResult::without_times).collect()
}

fn run(file: &Path) -> Value {
    let output = arena(&["tournament", "run", file.to_str().unwrap(), "--json"], &[]);
    assert!(output.status.success(), "{}", stderr(&output));
    serde_json::from_slice(&output.stdout).expect("standings as JSON")
}

/// A ready file from tournaments/, made small (and pointed at the debug
/// libraries), written into `dir` with its output there.
fn ready_file(dir: &Path, name: &str, games_key: &str, games: u32) -> PathBuf {
    let text =
        std::fs::read_to_string(workspace_root().join("tournaments").join(format!("{name}.toml"))).unwrap();
    let mut lines: Vec<String> = text
        .lines()
        .map(|line| match line.split_once('=') {
            Some((key, _)) if key.trim() == games_key => format!("{games_key} = {games}"),
            _ => line.replace("../target/release/libmenace.so", library("menace").to_str().unwrap()),
        })
        .collect();
    lines.insert(0, "output = \"out\"".into());
    write_file(dir, &format!("{name}.toml"), &lines.join("\n"))
}

fn rank_order(standings: &Value) -> Vec<String> {
    standings["rows"].as_array().unwrap().iter().map(|r| r["name"].as_str().unwrap().to_string()).collect()
}

#[test]
fn the_ready_single_player_files_run_and_rank_the_levels() {
    for (name, games) in [("intuitive-ai", 300), ("wumpus", 200), ("magic-forest", 60)] {
        let dir = tempfile::tempdir().unwrap();
        let standings = run(&ready_file(dir.path(), name, "games_per_player", games));
        assert_eq!(standings["game"], name);
        assert_eq!(standings["games"], 3 * games);
        let order = rank_order(&standings);
        assert_eq!(order.last().unwrap(), "easy", "{name}: {order:?}");
        for row in standings["rows"].as_array().unwrap() {
            assert_eq!(row["games"], games);
            let [lo, hi] = [0, 1].map(|i| row["interval"][i].as_f64().unwrap());
            assert!(lo <= row["mean_score"].as_f64().unwrap() && row["mean_score"].as_f64().unwrap() <= hi);
            assert!(row["win_rate"].as_f64().is_some() && row["death_rate"].as_f64().is_some());
        }
        for file in ["standings.md", "standings.csv", "standings.json", "index.html"] {
            assert!(dir.path().join("out").join(file).exists(), "{name}: {file}");
        }
        let md = std::fs::read_to_string(dir.path().join("out/standings.md")).unwrap();
        assert!(md.contains(&format!("same {games} worlds of {name}")), "{md}");
    }
}

#[test]
fn duplicate_worlds_are_the_worlds_of_arena_play() {
    let dir = tempfile::tempdir().unwrap();
    let text = "game = \"wumpus\"\ngames_per_player = 25\nseed = 31\noutput = \"out\"\nplayers = [\"hard\", \"easy\"]\n[settings]\npreset = \"project\"\n";
    run(&write_file(dir.path(), "w.toml", text));
    let games = journal_games(&dir.path().join("out"));
    assert_eq!(games.len(), 50);
    for (id, level) in ["hard", "easy"].iter().enumerate() {
        let doc = play_json(
            &["--game", "wumpus", level, "--games", "25", "--seed", "31", "--preset", "project"],
            &[],
        );
        let played: Vec<(u64, i64)> = doc["games"]
            .as_array()
            .unwrap()
            .iter()
            .map(|g| (g["seed"].as_u64().unwrap(), g["score"].as_i64().unwrap()))
            .collect();
        let in_tournament: Vec<(u64, i64)> = games
            .iter()
            .filter(|g| g.seats == [id, id])
            .map(|g| (g.seed, g.solo.as_ref().unwrap().score))
            .collect();
        assert_eq!(in_tournament, played, "{level}");
    }
}

#[test]
fn a_killed_single_player_run_resumes_to_the_same_games() {
    let dir = tempfile::tempdir().unwrap();
    let file = |output: &str| {
        let text = format!(
            "game = \"magic-forest\"\nformat = \"duplicate\"\ngames_per_player = 400\nseed = 8\nconcurrency = 2\noutput = \"{output}\"\nplayers = [\"hard\", \"medium\", \"easy\"]\n"
        );
        write_file(dir.path(), &format!("{output}.toml"), &text)
    };
    let whole = file("whole");
    run(&whole);
    let expected = journal_games(&dir.path().join("whole"));
    assert_eq!(expected.len(), 1200);

    let killed = file("killed");
    let mut child = Command::new(env!("CARGO_BIN_EXE_arena"))
        .args(["tournament", "run", killed.to_str().unwrap()])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let journal_path = dir.path().join("killed").join(journal::FILE_NAME);
    let want = 20 + (std::process::id() as usize % 300);
    let started = Instant::now();
    while std::fs::read_to_string(&journal_path).map(|t| t.lines().count()).unwrap_or(0) <= want
        && started.elapsed() < Duration::from_secs(60)
    {
        std::thread::sleep(Duration::from_millis(1));
    }
    child.kill().unwrap(); // SIGKILL
    child.wait().unwrap();
    let partial = journal_games(&dir.path().join("killed"));
    assert!(partial.len() < 1200, "the run must be cut short (it had {} games)", partial.len());

    let output = arena(&["tournament", "run", killed.to_str().unwrap()], &[]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(stderr(&output).contains("resuming: "), "{}", stderr(&output));
    let resumed = journal_games(&dir.path().join("killed"));
    assert_eq!(resumed.iter().map(|r| r.index).collect::<Vec<_>>(), (0..1200).collect::<Vec<_>>());
    assert_eq!(resumed, expected, "a resumed run gives the uninterrupted run's games");
}

#[test]
fn hexapawn_pairings_are_played_by_one_instance_per_player() {
    let dir = tempfile::tempdir().unwrap();
    let standings = run(&ready_file(dir.path(), "hexapawn", "games_per_pairing", 30));
    assert_eq!(standings["games"], 6 * 30);
    let names = rank_order(&standings);
    assert_eq!(names.last().unwrap(), "easy", "{names:?}");
    let games = journal_games(&dir.path().join("out"));
    // Players: easy 0, medium 1, hard 2, menace 3. Menace against hard,
    // Black in half the games, learns within the pairing.
    let pairing: Vec<&GameResult> =
        games.iter().filter(|g| g.seats.contains(&2) && g.seats.contains(&3)).collect();
    assert_eq!(pairing.len(), 30);
    let as_black: Vec<bool> =
        pairing.iter().filter(|g| g.seats[1] == 3).map(|g| g.winner == Some(3)).collect();
    assert!(!as_black[..4].iter().all(|&w| w), "menace starts knowing nothing: {as_black:?}");
    assert!(as_black[as_black.len() - 5..].iter().all(|&w| w), "and learns within the match: {as_black:?}");
    // Hard never loses as Black.
    assert!(games.iter().filter(|g| g.seats[1] == 2).all(|g| g.winner == Some(2)));
}

#[test]
fn a_library_plays_beside_the_builtins_through_the_plugin_path() {
    let dir = tempfile::tempdir().unwrap();
    let text = format!(
        "game = \"intuitive-ai\"\ngames_per_player = 150\nseed = 12\noutput = \"out\"\nplayers = [\"{}\", \"hard\", \"easy\"]\n[settings]\nin_process = true\n",
        library("hard").display()
    );
    let standings = run(&write_file(dir.path(), "mixed.toml", &text));
    let sources: Vec<&str> =
        standings["rows"].as_array().unwrap().iter().map(|r| r["source"].as_str().unwrap()).collect();
    assert!(sources[2] == "easy", "{sources:?}");
    let games = journal_games(&dir.path().join("out"));
    let scores = |id: usize| -> Vec<(u64, i64)> {
        games.iter().filter(|g| g.seats[0] == id).map(|g| (g.seed, g.solo.as_ref().unwrap().score)).collect()
    };
    assert_eq!(scores(0).len(), 150);
    // The library is the Hard level built as a cdylib: the same worlds, the same games.
    assert_eq!(scores(0), scores(1));
}

#[test]
fn bad_keys_of_the_new_games_are_one_line_with_its_number() {
    let dir = tempfile::tempdir().unwrap();
    let cases: [(&str, &str); 9] = [
        (
            "seed = 1\ngame = \"chess\"\nplayers = [\"easy\"]\n",
            "line 3: game = \"chess\": unknown game; use one of trap, intuitive-ai",
        ),
        (
            "seed = 1\ngame = \"wumpus\"\nformat = \"round-robin\"\nplayers = [\"easy\"]\n",
            "line 4: format = \"round-robin\": wumpus is a single-player game",
        ),
        (
            "seed = 1\ngame = \"hexapawn\"\nformat = \"duplicate\"\nplayers = [\"easy\"]\n",
            "line 4: format = \"duplicate\" is for single-player games",
        ),
        (
            "seed = 1\ngame = \"hexapawn\"\nformat = \"grade\"\nplayers = [\"easy\"]\n",
            "line 4: format = \"grade\" is the course's Trap grading",
        ),
        (
            "seed = 1\ngame = \"wumpus\"\nplayers = [\"easy\"]\n[settings]\npreset = \"huge\"\n",
            "line 6: settings.preset: unknown preset \"huge\": use aima or project",
        ),
        (
            "seed = 1\ngame = \"intuitive-ai\"\nplayers = [\"easy\"]\n[settings]\npreset = \"aima\"\n",
            "line 6: settings.preset: intuitive-ai has no preset",
        ),
        (
            "seed = 1\ngame = \"magic-forest\"\nplayers = [\"easy\"]\n[settings]\nlargest_forest = 12\n",
            "line 6: settings.largest_forest: largest forest 12 is not supported",
        ),
        (
            "seed = 1\ngame = \"wumpus\"\ngames_per_pairing = 4\nplayers = [\"easy\"]\n",
            "line 4: games_per_pairing: a duplicate tournament has no pairings",
        ),
        (
            "seed = 1\nformat = \"round-robin\"\ngames_per_player = 4\nplayers = [\"easy\", \"hard\"]\n",
            "line 4: games_per_player: only the duplicate format",
        ),
    ];
    for (i, (text, expected)) in cases.iter().enumerate() {
        let file = write_file(dir.path(), &format!("bad{i}.toml"), &format!("output = \"out{i}\"\n{text}"));
        let output = arena(&["tournament", "run", file.to_str().unwrap()], &[]);
        let err = stderr(&output);
        assert_eq!(output.status.code(), Some(2), "case {i}: {err}");
        assert!(err.contains(expected), "case {i}: expected {expected:?} in: {err}");
        assert_eq!(err.trim_end().lines().count(), 1, "case {i}: one line: {err}");
        assert!(!dir.path().join(format!("out{i}")).exists(), "case {i}: no output folder for a bad file");
    }
}
