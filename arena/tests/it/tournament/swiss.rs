//! Swiss rounds (`format = "swiss"`): the same file and seed play the
//! same games; a Swiss stopped after a round (or within one) resumes to
//! the uninterrupted run's games and standings; played as shards, round by
//! round, it gives the single run's; its standings show score and
//! Buchholz; bad `rounds` and a single-player game are one clear line.

use std::path::{Path, PathBuf};

use crate::support::{all_journal_games, arena, csv_without_times, stderr, stdout, write_file};
use arena_core::tournament::{journal, pairing, record::GameResult};

/// Seven entrants (an odd field: a bye each round), 3 rounds of 2 games.
const BODY: &str = "format = \"swiss\"\nrounds = 3\ngames_per_pairing = 2\nseed = 21\n\
    players = [\"easy\", \"medium\", \"hard\", { player = \"easy\", name = \"easy-2\" }, \
    { player = \"medium\", name = \"medium-2\" }, { player = \"hard\", name = \"hard-2\" }, \
    { player = \"easy\", name = \"easy-3\" }]\n[settings]\ntime_per_turn = \"1s\"\n";

/// Per round: 3 pairings of 2 games.
const PER_ROUND: usize = 6;

fn file_in(dir: &Path, name: &str, body: &str) -> PathBuf {
    std::fs::create_dir_all(dir.join(name)).unwrap();
    write_file(&dir.join(name), "t.toml", &format!("output = \"out\"\n{body}"))
}

fn ok(args: &[&str]) -> std::process::Output {
    let output = arena(args, &[]);
    assert!(output.status.success(), "arena {args:?}: {}", stderr(&output));
    output
}

fn standings(file: &Path, name: &str) -> String {
    std::fs::read_to_string(file.parent().unwrap().join("out").join(name)).unwrap()
}

/// A game as the pairing decides it: index, seats, seed.
fn pairing_of(games: &[GameResult]) -> Vec<(usize, [usize; 2], u64)> {
    games.iter().map(|g| (g.index, g.seats, g.seed)).collect()
}

#[test]
fn the_same_file_and_seed_play_the_same_swiss() {
    assert_eq!(pairing::per_round(7, 2), PER_ROUND);
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = (file_in(dir.path(), "a", BODY), file_in(dir.path(), "b", BODY));
    let output = ok(&["tournament", "run", a.to_str().unwrap()]);
    ok(&["tournament", "run", b.to_str().unwrap()]);
    let games = all_journal_games(&dir.path().join("a/out"));
    assert_eq!(games.len(), 3 * PER_ROUND);
    assert_eq!(pairing_of(&games), pairing_of(&all_journal_games(&dir.path().join("b/out"))));
    // No rematch; each round every entrant plays once or has the bye.
    let mut met = std::collections::BTreeSet::new();
    for round in games.chunks(PER_ROUND) {
        let mut seen: Vec<usize> = round.iter().flat_map(|g| g.seats).collect();
        seen.sort_unstable();
        seen.dedup();
        assert_eq!(seen.len(), 6, "six play, one has the bye");
        for pair in round.chunks(2) {
            assert_eq!(pair[0].seats, [pair[1].seats[1], pair[1].seats[0]], "seat-swapped");
            assert_eq!(pair[0].seed, pair[1].seed, "on one seed");
            let mut key = pair[0].seats;
            key.sort_unstable();
            assert!(met.insert(key), "a rematch: {key:?}");
        }
    }
    let text = stdout(&output);
    assert!(text.contains("score") && text.contains("Buchholz"), "{text}");
    assert!(text.contains("Swiss, 3 of 3 rounds"), "{text}");
    let csv = standings(&a, "standings.csv");
    assert!(csv.lines().next().unwrap().ends_with(",swiss_score,buchholz,byes"), "{csv}");
    let json: serde_json::Value = serde_json::from_str(&standings(&a, "standings.json")).unwrap();
    assert_eq!(json["swiss"], serde_json::json!({"played": 3, "rounds": 3}));
    let scores: Vec<f64> =
        json["rows"].as_array().unwrap().iter().map(|r| r["swiss"]["score"].as_f64().unwrap()).collect();
    assert!(scores.is_sorted_by(|x, y| x >= y), "ranked by score: {scores:?}");
    // 3 rounds: 3 pairings scored each, a bye scoring 1 each round.
    assert_eq!(scores.iter().sum::<f64>(), 3.0 * 3.0 + 3.0);
    assert!(standings(&a, "standings.md").contains("| # | Player | score | Buchholz |"));
    let index = standings(&a, "index.html");
    assert!(index.contains("<th>Player</th><th>score</th><th>Buchholz</th><th>Games</th>"), "{index}");
}

#[test]
fn a_swiss_stopped_after_a_round_or_within_one_resumes_to_the_same_games() {
    let dir = tempfile::tempdir().unwrap();
    let whole = file_in(dir.path(), "whole", BODY);
    ok(&["tournament", "run", whole.to_str().unwrap()]);
    let all = all_journal_games(&dir.path().join("whole/out"));
    let (header, _, _) = journal::read(&dir.path().join("whole/out").join(journal::FILE_NAME)).unwrap();
    // Stopped after round 1, and in the middle of round 2.
    for kept in [PER_ROUND, PER_ROUND + 3] {
        let name = format!("cut-{kept}");
        let file = file_in(dir.path(), &name, BODY);
        let out = dir.path().join(&name).join("out");
        std::fs::create_dir_all(&out).unwrap();
        let text = std::fs::read_to_string(dir.path().join("whole/out").join(journal::FILE_NAME)).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        // The header, then the games of the indices kept.
        let mut cut = vec![lines[0].to_string()];
        for line in &lines[1..] {
            let game: GameResult = serde_json::from_str(line).unwrap();
            if game.index < kept {
                cut.push(line.to_string());
            }
        }
        std::fs::write(out.join(journal::FILE_NAME), cut.join("\n") + "\n").unwrap();
        let output = ok(&["tournament", "run", file.to_str().unwrap()]);
        assert!(stderr(&output).contains("resuming: "), "{}", stderr(&output));
        assert_eq!(pairing_of(&all_journal_games(&out)), pairing_of(&all), "kept {kept}");
        assert_eq!(
            csv_without_times(&standings(&file, "standings.csv")),
            csv_without_times(&standings(&whole, "standings.csv"))
        );
    }
    assert_eq!(header.games, 3 * PER_ROUND);
}

#[test]
fn a_sharded_swiss_played_round_by_round_gives_the_single_runs_games() {
    let dir = tempfile::tempdir().unwrap();
    let single = file_in(dir.path(), "single", BODY);
    let sharded = file_in(dir.path(), "sharded", BODY);
    ok(&["tournament", "run", single.to_str().unwrap()]);
    for round in 1..=3 {
        for i in 1..=2 {
            let output = ok(&["tournament", "run", sharded.to_str().unwrap(), "--shard", &format!("{i}/2")]);
            assert!(stderr(&output).contains(&format!("shard {i}/2: ")), "{}", stderr(&output));
            let next = stderr(&output).contains("run them again for the next round once this one is whole");
            // Not in the last round, where there is no next one.
            assert_eq!(next, round < 3, "said while a round is to come: {}", stderr(&output));
        }
        let games = all_journal_games(&dir.path().join("sharded/out"));
        assert_eq!(games.len(), round * PER_ROUND, "a shard plays its share of the current round only");
    }
    // Every round played: a shard has nothing more to play.
    ok(&["tournament", "run", sharded.to_str().unwrap(), "--shard", "1/2"]);
    ok(&["tournament", "report", sharded.to_str().unwrap()]);
    let (a, b) = (
        all_journal_games(&dir.path().join("single/out")),
        all_journal_games(&dir.path().join("sharded/out")),
    );
    assert_eq!(pairing_of(&a), pairing_of(&b));
    assert_eq!(
        csv_without_times(&standings(&single, "standings.csv")),
        csv_without_times(&standings(&sharded, "standings.csv"))
    );
}

#[test]
fn bad_rounds_and_a_single_player_swiss_are_one_clear_line() {
    let dir = tempfile::tempdir().unwrap();
    let cases = [
        (
            "format = \"swiss\"\nrounds = 0\nseed = 1\nplayers = [\"easy\", \"hard\", \"medium\"]\n",
            "rounds = 0: a Swiss needs 1 round or more",
        ),
        (
            "format = \"swiss\"\nrounds = 3\nseed = 1\nplayers = [\"easy\", \"hard\", \"medium\"]\n",
            "rounds = 3: 3 entrants meet each other in 2 rounds; use fewer rounds",
        ),
        (
            "format = \"round-robin\"\nrounds = 3\nseed = 1\nplayers = [\"easy\", \"hard\"]\n",
            "rounds: only the swiss format has rounds",
        ),
        (
            "game = \"wumpus\"\nformat = \"swiss\"\nseed = 1\nplayers = [\"easy\", \"hard\"]\n",
            "format = \"swiss\": wumpus is a single-player game, and a Swiss pairs two players",
        ),
    ];
    for (body, expected) in cases {
        let file = write_file(dir.path(), "t.toml", body);
        let output = arena(&["tournament", "run", file.to_str().unwrap()], &[]);
        let err = stderr(&output);
        assert!(!output.status.success());
        assert!(err.contains(expected), "expected {expected:?}, got {err}");
        assert_eq!(err.trim().lines().count(), 1, "{err}");
    }
}
