//! A tournament's `memory` (issue 49): each player's store given back at
//! the start of each of its pairings and replaced at the end, run after
//! run (the file's key, or `--memory`); learners' games only, never a
//! shard's.

use std::path::Path;

use crate::support::{arena, journal_games, stderr, write_file};

/// Runs `file` (with `extra` arguments): menace's (player 1's) wins as
/// Black in the first `n` games of its pairing with hard.
fn menace_wins_as_black(file: &Path, out: &Path, extra: &[&str], n: usize) -> usize {
    let output = arena(&[&["tournament", "run", file.to_str().unwrap(), "--json"][..], extra].concat(), &[]);
    assert!(output.status.success(), "{}", stderr(&output));
    let games = journal_games(out);
    let mut black: Vec<_> = games.iter().filter(|g| g.seats[1] == 1).collect();
    black.sort_by_key(|g| g.index);
    black.iter().take(n).filter(|g| g.winner == Some(1)).count()
}

#[test]
fn a_learner_keeps_its_boxes_from_one_tournament_to_the_next() {
    let dir = tempfile::tempdir().unwrap();
    let head = "game = \"hexapawn\"\nformat = \"round-robin\"\ngames_per_pairing = 8\nseed = 5\nplayers = [\"hard\", \"menace\"]\n";
    let first = write_file(dir.path(), "first.toml", &format!("{head}output = \"out1\"\nmemory = \"mem\"\n"));
    let before = menace_wins_as_black(&first, &dir.path().join("out1"), &[], 3);
    let store = dir.path().join("mem/menace.memory");
    let boxes = std::fs::read_to_string(&store).unwrap();
    assert!(boxes.starts_with("{\"learner\": \"menace\""), "{boxes}");
    assert!(!dir.path().join("mem/hard.memory").exists(), "hard hands nothing back");
    // The next tournament (without the key: --memory) starts from those boxes.
    let second = write_file(dir.path(), "second.toml", &format!("{head}output = \"out2\"\n"));
    let mem = dir.path().join("mem");
    let after =
        menace_wins_as_black(&second, &dir.path().join("out2"), &["--memory", mem.to_str().unwrap()], 3);
    assert!(after > before, "{before} wins as Black in the first run's first 3, {after} in the second's");
    assert_ne!(std::fs::read_to_string(&store).unwrap(), boxes, "replaced at the pairing's end");
    // Without memory, the second file plays as the first did.
    let fresh = write_file(dir.path(), "fresh.toml", &format!("{head}output = \"out3\"\n"));
    assert_eq!(menace_wins_as_black(&fresh, &dir.path().join("out3"), &[], 3), before);
}

#[test]
fn memory_is_refused_in_one_line_where_no_pairing_is_a_match() {
    let dir = tempfile::tempdir().unwrap();
    let trap = write_file(
        dir.path(),
        "trap.toml",
        "format = \"round-robin\"\ngames_per_pairing = 2\nseed = 1\nplayers = [\"easy\", \"medium\"]\nmemory = \"mem\"\n",
    );
    let output = arena(&["tournament", "run", trap.to_str().unwrap()], &[]);
    assert!(!output.status.success());
    let said = stderr(&output);
    assert!(said.contains("memory:") && said.trim().lines().count() == 1, "{said}");
    let output =
        arena(&["tournament", "run", trap.to_str().unwrap(), "--memory", "m", "--shard", "1/2"], &[]);
    assert!(!output.status.success());
    assert!(stderr(&output).contains("--memory"), "{}", stderr(&output));
}
