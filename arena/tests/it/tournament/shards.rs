//! Sharded tournaments on one machine (the Slurm tests run the same
//! through a cluster): every game type's tournament played as shards gives
//! the single run's games and standings; standings merged from shard
//! journals are byte-identical to the single run's; missing games are
//! listed and then played alone; a journal of another schedule is refused
//! by name.

use std::path::{Path, PathBuf};

use crate::support::{
    self, all_journal_games, arena, csv_without_times, journal_games, library, stderr, write_file,
};
use arena_core::tournament::{config::Tournament, journal, schedule, shard};

/// The same tournament twice in `dir`: `single/t.toml` and
/// `sharded/t.toml`, each with its output in `out` beside it.
fn twins(dir: &Path, body: &str) -> (PathBuf, PathBuf) {
    let file = |name: &str| {
        std::fs::create_dir_all(dir.join(name)).unwrap();
        write_file(&dir.join(name), "t.toml", &format!("output = \"out\"\n{body}"))
    };
    (file("single"), file("sharded"))
}

fn ok(args: &[&str]) -> std::process::Output {
    let output = arena(args, &[]);
    assert!(output.status.success(), "arena {args:?}: {}", stderr(&output));
    output
}

fn run_shards(file: &Path, count: usize) {
    for i in 1..=count {
        let output = ok(&["tournament", "run", file.to_str().unwrap(), "--shard", &format!("{i}/{count}")]);
        assert!(stderr(&output).contains(&format!("shard {i}/{count}: ")), "{}", stderr(&output));
        // One round, known at the start: no shard is run twice.
        assert!(!stderr(&output).contains("for the next round"), "{}", stderr(&output));
    }
}

fn read(path: PathBuf) -> String {
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn every_game_types_tournament_sharded_gives_the_single_runs_results() {
    let menace = library("menace");
    let cases = [
        "format = \"round-robin\"\ngames_per_pairing = 4\nseed = 3\nplayers = [\"easy\", \"medium\", \"hard\"]\n".to_string(),
        "format = \"gauntlet\"\ngames_per_pairing = 2\nseed = 4\nplayers = [\"hard\", \"medium\"]\n".into(),
        "format = \"grade\"\nseed = 5\nplayers = [\"easy\"]\n".into(),
        "game = \"wumpus\"\ngames_per_player = 20\nseed = 6\nplayers = [\"easy\", \"medium\", \"hard\"]\n".into(),
        // A learner learns across a pairing: split, it would play other games.
        format!(
            "game = \"hexapawn\"\nformat = \"round-robin\"\ngames_per_pairing = 12\nseed = 6\nplayers = [\"easy\", \"hard\", \"{}\"]\n",
            menace.display()
        ),
    ];
    for body in &cases {
        let dir = tempfile::tempdir().unwrap();
        let (single, sharded) = twins(dir.path(), body);
        ok(&["tournament", "run", single.to_str().unwrap()]);
        run_shards(&sharded, 3);
        assert!(!dir.path().join("sharded/out/standings.csv").exists(), "a shard writes no standings");
        let report = ok(&["tournament", "report", sharded.to_str().unwrap()]);
        assert!(stderr(&report).contains("(0 played now)"), "{}", stderr(&report));
        let (a, b) = (dir.path().join("single/out"), dir.path().join("sharded/out"));
        let games = all_journal_games(&b);
        assert_eq!(games.iter().map(|g| g.index).collect::<Vec<_>>(), (0..games.len()).collect::<Vec<_>>());
        assert_eq!(games, journal_games(&a), "{body}");
        assert_eq!(
            csv_without_times(&read(b.join("standings.csv"))),
            csv_without_times(&read(a.join("standings.csv"))),
            "{body}"
        );
        if body.contains("hexapawn") {
            // Each pairing whole in one shard's journal.
            for i in 1..=3 {
                let (_, results, _) =
                    journal::read(&b.join(format!("journal.shard-{i}-of-3.jsonl"))).unwrap();
                let mut pairings: Vec<usize> = results.iter().map(|r| r.index / 12).collect();
                pairings.dedup();
                assert_eq!(results.len(), 12 * pairings.len(), "shard {i}: {pairings:?}");
            }
        }
    }
}

#[test]
fn standings_merged_from_shard_journals_are_byte_identical() {
    let dir = tempfile::tempdir().unwrap();
    let body = "format = \"grade\"\nseed = 8\nplayers = [\"hard\", \"easy\"]\n";
    let (single, sharded) = twins(dir.path(), body);
    ok(&["tournament", "run", single.to_str().unwrap()]);
    // The single run's games, dealt into the journals 4 shards would write.
    let tournament = Tournament::load(&sharded).unwrap();
    let schedule = schedule::schedule(&tournament);
    let (_, results, _) = journal::read(&dir.path().join("single/out").join(journal::FILE_NAME)).unwrap();
    let fingerprint = arena_core::tournament::fingerprint(&tournament, &schedule);
    for index in 1..=4 {
        let shard = shard::Shard { index, count: 4 };
        let mine = shard::games_of(&tournament, &schedule, shard);
        let (mut journal, _) = journal::Journal::open(
            &tournament.output,
            &shard.journal_name(),
            &tournament.name,
            &fingerprint,
            schedule.len(),
        )
        .unwrap();
        let games: Vec<_> = results.iter().filter(|r| mine[r.index]).cloned().collect();
        assert!(!games.is_empty());
        journal.append(&games).unwrap();
    }
    ok(&["tournament", "report", sharded.to_str().unwrap()]);
    for file in [
        "standings.md",
        "standings.csv",
        "standings.json",
        "index.html",
        "grades.md",
        "grade-hard.md",
        "grade-easy.md",
    ] {
        let (a, b) =
            (read(dir.path().join("single/out").join(file)), read(dir.path().join("sharded/out").join(file)));
        assert!(a == b, "{file} differs:\n{a}\n---\n{b}");
    }
}

#[test]
fn missing_games_are_listed_then_played_alone() {
    let dir = tempfile::tempdir().unwrap();
    let text = "format = \"round-robin\"\ngames_per_pairing = 6\nseed = 2\noutput = \"out\"\nplayers = [\"easy\", \"medium\", \"hard\"]\n";
    let file = write_file(dir.path(), "t.toml", text);
    let path = file.to_str().unwrap();
    let none = arena(&["tournament", "report", path], &[]);
    assert_eq!(none.status.code(), Some(2));
    assert!(stderr(&none).contains("no journal in"), "{}", stderr(&none));
    ok(&["tournament", "run", path, "--shard", "2/3"]);
    let report = arena(&["tournament", "report", path], &[]);
    assert_eq!(report.status.code(), Some(1), "{}", stderr(&report));
    let err = stderr(&report);
    assert!(
        err.contains("12 of 18 games are in no journal")
            && err.contains("journal.shard-2-of-3.jsonl (6 games)"),
        "{err}"
    );
    assert!(!dir.path().join("out/standings.md").exists());
    // A plain run plays only what no journal has, into journal.jsonl.
    let run = ok(&["tournament", "run", path]);
    assert!(
        stderr(&run).contains("resuming: 6 of 18") && stderr(&run).contains("(12 played now)"),
        "{}",
        stderr(&run)
    );
    let games = all_journal_games(&dir.path().join("out"));
    assert_eq!(games.iter().map(|g| g.index).collect::<Vec<_>>(), (0..18).collect::<Vec<_>>());
    assert_eq!(journal_games(&dir.path().join("out")).len(), 12);
    assert!(dir.path().join("out/standings.md").exists());
    // Running the shard again plays nothing.
    let again = ok(&["tournament", "run", path, "--shard", "2/3"]);
    assert!(stderr(&again).contains("(0 played now)"), "{}", stderr(&again));
}

#[test]
fn a_shard_journal_of_another_schedule_is_refused_by_name() {
    let dir = tempfile::tempdir().unwrap();
    let text = "format = \"round-robin\"\nseed = 1\noutput = \"out\"\nplayers = [\"easy\", \"medium\"]\n";
    let file = write_file(dir.path(), "t.toml", text);
    let path = file.to_str().unwrap();
    ok(&["tournament", "run", path, "--shard", "1/2"]);
    std::fs::write(&file, text.replace("seed = 1", "seed = 2")).unwrap();
    for args in [
        vec!["tournament", "run", path, "--shard", "2/2"],
        vec!["tournament", "run", path],
        vec!["tournament", "report", path],
        vec!["tournament", "slurm", path, "--shards", "2", "--submit"],
    ] {
        let output = arena(&args, &[]);
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        let err = stderr(&output);
        assert!(
            err.contains("journal.shard-1-of-2.jsonl belongs to a different schedule"),
            "{args:?}: {err}"
        );
        assert_eq!(err.lines().count(), 1, "{err}");
    }
    assert!(!dir.path().join("out/journal.shard-2-of-2.jsonl").exists(), "nothing played");
    let bad = arena(&["tournament", "run", path, "--shard", "3/2"], &[]);
    assert!(stderr(&bad).contains("I must be between 1 and N"), "{}", stderr(&bad));
}

#[test]
fn plan_gives_size_cost_and_shards() {
    let dir = tempfile::tempdir().unwrap();
    let text = "format = \"round-robin\"\ngames_per_pairing = 4\nseed = 2\noutput = \"out\"\nplayers = [\"easy\", \"medium\", \"hard\"]\n[settings]\ntime_per_turn = \"2s\"\n";
    let file = write_file(dir.path(), "t.toml", text);
    let path = file.to_str().unwrap();
    let output = ok(&["tournament", "plan", path, "--calibrate", "2", "--within", "1m"]);
    let text = support::stdout(&output);
    assert!(text.contains("12 games (3 pairings), 3 players, 2.00 s per turn"), "{text}");
    assert!(text.contains("calibration games"), "{text}");
    assert!(!dir.path().join("out").exists(), "a calibration journals nothing");
    // From a journal once there is one; the worst case is turns x budget x games.
    ok(&["tournament", "run", path]);
    let output = ok(&["tournament", "plan", path, "--within", "1m"]);
    let text = support::stdout(&output);
    assert!(text.contains("mean of 12 journaled games"), "{text}");
    let turns: f64 = text.split(" turns a game").next().unwrap().rsplit(' ').next().unwrap().parse().unwrap();
    let worst_min: f64 =
        text.split("worst case: ").nth(1).unwrap().split(' ').next().unwrap().parse().unwrap();
    assert!((turns * 2.0 * 12.0 / 60.0 - worst_min).abs() < 1.0, "{turns} turns: {text}");
}
