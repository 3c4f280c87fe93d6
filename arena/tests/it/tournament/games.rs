//! Tournaments of the four new games: the ready files in tournaments/ run,
//! the duplicate format gives every player the worlds `arena play` gives,
//! a killed single-player run resumes to the same games, Hexapawn pairings
//! let a learner learn, bad keys are one clear line with its number, and a
//! library plays through the real plugin path beside the built-ins; their
//! replays (all, or a player's losses) are written, listed in index.html,
//! and neither lost nor doubled nor rewritten when a run resumes.

use std::path::{Path, PathBuf};

use crate::support::{arena, journal_games, library, play_json, stderr, workspace_root, write_file};
use arena_core::{
    games::replays::GameReplay,
    tournament::{journal, record::GameResult},
};
use serde_json::Value;

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
    let want = 20 + (std::process::id() as usize % 300);
    let (partial, resumed) = super::kill_and_resume(&killed, &dir.path().join("killed"), want);
    assert!(partial.len() < 1200, "the run must be cut short (it had {} games)", partial.len());
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
    let cases: [(&str, &str); 13] = [
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
            "seed = 1\ngame = \"wumpus\"\nformat = \"grade\"\nwins_to_pass = [1, 1, 1]\nplayers = [\"easy\"]\n",
            "line 5: wins_to_pass: a single-player game's grade passes on mean scores; use score_margin",
        ),
        (
            "seed = 1\ngame = \"hexapawn\"\nformat = \"grade\"\nplayers = [\"easy\"]\nopponents = [\"easy\", \"easy\"]\n",
            "line 6: opponents[1]: easy is there twice; name each level once",
        ),
        (
            "seed = 1\nformat = \"grade\"\nplayers = [\"easy\"]\ngames_per_pairing = 4\nwins_to_pass = [4, 5, 1]\n",
            "line 6: wins_to_pass: 5 wins out of 4 games per level cannot be had",
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
            "seed = 1\ngame = \"wumpus\"\nplayers = [\"easy\"]\n[settings]\ntime_per_trun = \"1s\"\n",
            "line 6: settings.time_per_trun: no such setting (the settings: time_per_turn, startup_time, grace, memory_limit, in_process, sandbox, clock, pass_env, board_size, turn_cap, preset, largest_forest)",
        ),
        (
            "seed = 1\ngame = \"trap\"\nformat = \"round-robin\"\nplayers = [\"easy\", \"hard\"]\n[settings]\nboard_size = \"big\"\n",
            "line 7: settings.board_size: a whole number is expected",
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
            "line 4: games_per_player: only single-player games (duplicate, grade) have it",
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

/// The files in a folder, sorted (none if it is missing).
fn files_in(folder: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(folder)
        .map(|d| d.map(|e| e.unwrap().file_name().into_string().unwrap()).collect())
        .unwrap_or_default();
    names.sort();
    names
}

/// Every replay in `folder` (with `.html` viewers or not): each reads and verifies.
fn replays_in(folder: &Path) -> Vec<(String, GameReplay)> {
    files_in(folder)
        .into_iter()
        .filter(|f| !f.ends_with(".html"))
        .map(|f| {
            let replay = GameReplay::read(&folder.join(&f)).unwrap();
            assert!(replay.verify().is_ok(), "{f}: {:?}", replay.verify());
            (f, replay)
        })
        .collect()
}

/// The replay links of an index.html; each must name a file that exists.
fn index_links(out: &Path) -> Vec<String> {
    let index = std::fs::read_to_string(out.join("index.html")).unwrap();
    let links: Vec<String> =
        index.split("<a href=\"").skip(1).map(|rest| rest.split('"').next().unwrap().to_string()).collect();
    for link in &links {
        assert!(out.join(link).is_file(), "{link} is linked but missing");
    }
    links
}

/// Cuts a run short after `kept` journaled games, as if it was killed
/// after writing game `kept + 1`'s replay, before journaling it and before
/// any later game: the replays of games after `kept + 1` are removed.
fn cut_after(out: &Path, kept: usize) {
    let journal = out.join(journal::FILE_NAME);
    let text = std::fs::read_to_string(&journal).unwrap();
    let lines: Vec<&str> = text.lines().take(1 + kept).collect();
    std::fs::write(&journal, format!("{}\n", lines.join("\n"))).unwrap();
    let folder = out.join("replays");
    for name in files_in(&folder) {
        let number: usize = name["game-".len()..].split('-').next().unwrap().parse().unwrap();
        if number > kept + 1 {
            std::fs::remove_file(folder.join(name)).unwrap();
        }
    }
}

fn modified(folder: &Path, names: &[String]) -> Vec<std::time::SystemTime> {
    names.iter().map(|n| std::fs::metadata(folder.join(n)).unwrap().modified().unwrap()).collect()
}

#[test]
fn a_single_player_tournament_saves_replays_and_resumes_without_loss_or_doubles() {
    let dir = tempfile::tempdir().unwrap();
    let text =
        "game = \"intuitive-ai\"\ngames_per_player = 6\nseed = 14\nconcurrency = 1\noutput = \"out\"\n\
                players = [\"hard\", \"easy\"]\n[replays]\nsave = \"all\"\n";
    let file = write_file(dir.path(), "solo.toml", text);
    run(&file);
    let out = dir.path().join("out");
    let folder = out.join("replays");
    let first = files_in(&folder);
    assert_eq!(first.iter().filter(|f| f.ends_with(".html")).count(), 12, "{first:?}");
    let replays = replays_in(&folder);
    assert_eq!(replays.len(), 12, "{first:?}");
    // World k for each player in turn: games 1, 3, ... hard's; 2, 4, ... easy's.
    let games = journal_games(&out);
    for ((name, replay), game) in replays.iter().zip(&games) {
        let player = if game.seats[0] == 0 { "hard" } else { "easy" };
        assert!(name.starts_with(&format!("game-{:02}-{player}.", game.index + 1)), "{name}");
        assert_eq!(replay.players[0].name, player);
        assert_eq!(replay.seed, game.seed);
        assert_eq!(replay.result.score, Some(game.solo.as_ref().unwrap().score), "{name}");
    }
    assert_eq!(replays[0].1.seed, replays[1].1.seed, "both players play world 1");
    let links = index_links(&out);
    assert_eq!(links.len(), 12);
    assert!(links.iter().all(|l| l.starts_with("replays/game-") && l.ends_with(".html")), "{links:?}");

    cut_after(&out, 7);
    let output = arena(&["tournament", "run", file.to_str().unwrap()], &[]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(stderr(&output).contains("12 games (5 played now)"), "{}", stderr(&output));
    assert_eq!(files_in(&folder), first);
    assert_eq!(replays_in(&folder).len(), 12);
    assert_eq!(journal_games(&out), games);
    assert_eq!(index_links(&out).len(), 12);
}

#[test]
fn a_single_player_tournament_keeps_the_games_a_player_did_not_win() {
    let dir = tempfile::tempdir().unwrap();
    let text = "game = \"wumpus\"\ngames_per_player = 8\nseed = 3\noutput = \"out\"\n\
                players = [\"hard\", \"easy\"]\n[replays]\nsave = \"losses\"\nplayer = \"easy\"\nviewers = false\n";
    run(&write_file(dir.path(), "losses.toml", text));
    let out = dir.path().join("out");
    let replays = replays_in(&out.join("replays"));
    assert!(files_in(&out.join("replays")).iter().all(|f| !f.ends_with(".html")));
    let not_won: Vec<u64> = journal_games(&out)
        .iter()
        .filter(|g| g.seats[0] == 1 && !g.solo.as_ref().unwrap().won)
        .map(|g| g.seed)
        .collect();
    assert!(!not_won.is_empty(), "easy loses some of 8 caves");
    assert_eq!(replays.iter().map(|(_, r)| r.seed).collect::<Vec<_>>(), not_won);
    for (name, replay) in &replays {
        assert_eq!(replay.players[0].name, "easy", "{name}");
        assert_ne!(replay.result.outcome.as_deref(), Some("win"), "{name}");
    }
    // Without viewers, the index links the replay files themselves.
    assert_eq!(index_links(&out).len(), replays.len());
}

#[test]
fn a_hexapawn_tournament_saves_replays_and_a_resumed_pairing_keeps_its_files() {
    let dir = tempfile::tempdir().unwrap();
    let text = "game = \"hexapawn\"\nformat = \"round-robin\"\ngames_per_pairing = 4\nseed = 6\n\
                concurrency = 1\noutput = \"out\"\nplayers = [\"hard\", \"medium\", \"easy\"]\n\
                [replays]\nsave = \"all\"\n";
    let file = write_file(dir.path(), "hexapawn.toml", text);
    run(&file);
    let out = dir.path().join("out");
    let folder = out.join("replays");
    let first = files_in(&folder);
    let replays = replays_in(&folder);
    assert_eq!(replays.len(), 12, "{first:?}");
    let names = ["hard", "medium", "easy"];
    let games = journal_games(&out);
    for ((file, replay), game) in replays.iter().zip(&games) {
        let seated = game.seats.map(|id| names[id]);
        assert_eq!(file, &format!("game-{:02}-{}-vs-{}.json", game.index + 1, seated[0], seated[1]));
        let winner = replay.result.winner.map(|w| replay.players[w].name.as_str());
        assert_eq!(winner, game.winner.map(|id| names[id]), "{file}");
    }
    assert_eq!(index_links(&out).len(), 12);

    // Cut in the middle of the second pairing (games 5 to 8): the resumed
    // run plays that pairing again from its start (its players relive it),
    // writing only the games the journal lacks.
    cut_after(&out, 5);
    let kept: Vec<String> =
        first.iter().filter(|f| f.starts_with("game-05") || f.starts_with("game-04")).cloned().collect();
    let before = modified(&folder, &kept);
    let output = arena(&["tournament", "run", file.to_str().unwrap()], &[]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(stderr(&output).contains("12 games (7 played now)"), "{}", stderr(&output));
    assert_eq!(files_in(&folder), first);
    assert_eq!(modified(&folder, &kept), before, "journaled games' replays are not written again");
    assert_eq!(replays_in(&folder).len(), 12);
    assert_eq!(journal_games(&out), games);
}

#[test]
fn replays_stop_at_the_runs_byte_budget_the_report_says_so_and_a_resumed_run_keeps_counting() {
    let dir = tempfile::tempdir().unwrap();
    // Medium against the levels: it loses several games, each a replay of
    // some 35 KB with its viewer; 100 KiB is room for two.
    let text = "format = \"grade\"\ngames_per_pairing = 4\nseed = 8\nconcurrency = 1\noutput = \"out\"\n\
                players = [\"medium\"]\n[replays]\nsave = \"losses\"\nmax_bytes = \"100KiB\"\n";
    let file = write_file(dir.path(), "budget.toml", text);
    let output = arena(&["tournament", "run", file.to_str().unwrap()], &[]);
    assert!(output.status.success(), "{}", stderr(&output));
    let out = dir.path().join("out");
    let folder = out.join("replays");
    let bytes = |folder: &Path| -> u64 {
        files_in(folder).iter().map(|f| std::fs::metadata(folder.join(f)).unwrap().len()).sum()
    };
    let check = |games: &[GameResult], err: &str| {
        assert!(bytes(&folder) <= 100 << 10, "{}", bytes(&folder));
        let left_out: Vec<usize> = games.iter().filter(|g| g.replay_left_out).map(|g| g.index).collect();
        assert!(!left_out.is_empty(), "the budget is reached: {games:?}");
        // Each lost game has its replay, or says it was left out.
        for game in games.iter().filter(|g| g.winner.is_some_and(|w| w != 0)) {
            let stem = format!("game-{:02}-", game.index + 1);
            let kept = files_in(&folder).iter().any(|f| f.starts_with(&stem));
            assert_eq!(kept, !game.replay_left_out, "{stem}: {:?}", files_in(&folder));
        }
        assert!(
            err.contains(&format!(
                "{} replay(s) left out: the run's replays reached replays.max_bytes (100.0 KiB)",
                left_out.len()
            )),
            "{err}"
        );
        let report = std::fs::read_to_string(out.join("grade-medium.md")).unwrap();
        assert!(
            report.contains(&format!("The replays of {} of these games were not kept", left_out.len())),
            "{report}"
        );
        left_out.len()
    };
    let games = journal_games(&out);
    let left_out = check(&games, &stderr(&output));
    let kept = files_in(&folder);
    assert!(kept.len() >= 4, "two replays and their viewers: {kept:?}");
    // Resumed after its first game: the replays in the folder still count
    // (a game played again replacing its own), so the same ones are kept.
    cut_after(&out, 1);
    let output = arena(&["tournament", "run", file.to_str().unwrap()], &[]);
    assert!(output.status.success(), "{}", stderr(&output));
    let resumed = journal_games(&out);
    assert_eq!(resumed.len(), games.len());
    assert_eq!(check(&resumed, &stderr(&output)), left_out);
    assert_eq!(files_in(&folder), kept);

    let bad = text.replace("\"100KiB\"", "\"lots\"");
    let output =
        arena(&["tournament", "run", write_file(dir.path(), "bad.toml", &bad).to_str().unwrap()], &[]);
    let err = stderr(&output);
    assert!(
        !output.status.success() && err.contains("replays.max_bytes") && err.trim_end().lines().count() == 1,
        "{err}"
    );
}
