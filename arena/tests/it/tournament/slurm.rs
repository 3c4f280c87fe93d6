//! Tournaments on a real Slurm cluster (`.ci/slurm-up` starts a one-node
//! one): 4 shards through `arena tournament slurm --submit --wait` give
//! the standings of a single-machine run; a task cancelled mid-run is
//! re-submitted alone and nothing is lost or played twice; a refused
//! submission and a missing sbatch are one clear line.
//!
//! Without a cluster these tests say so and pass, unless
//! ARENA_REQUIRE_SLURM=1 (CI) makes them fail.

use std::{
    io::{BufRead, BufReader},
    path::{Path, PathBuf},
    process::{Command, Stdio},
    time::{Duration, Instant},
};

use crate::support::{
    all_journal_games, arena, csv_without_times, library, slurm_cluster as cluster, stderr, stdout,
    write_file,
};
use arena_core::tournament::journal;

/// `dir/NAME/t.toml` with its output in `out` beside it.
fn file_in(dir: &Path, name: &str, body: &str) -> PathBuf {
    std::fs::create_dir_all(dir.join(name)).unwrap();
    write_file(&dir.join(name), "t.toml", &format!("output = \"out\"\n{body}"))
}

fn standings_csv(file: &Path) -> Vec<String> {
    csv_without_times(&std::fs::read_to_string(file.parent().unwrap().join("out/standings.csv")).unwrap())
}

fn slurm_args<'a>(file: &'a Path, extra: &[&'a str]) -> Vec<&'a str> {
    let mut args = vec!["tournament", "slurm", file.to_str().unwrap(), "--shards", "4"];
    args.extend_from_slice(extra);
    args
}

/// Tournament `body` played on this machine (`single/`) and submitted to
/// Slurm in 4 shards (`cluster/`, waited for); the two files, and what
/// the submission printed.
fn played_here_and_on_slurm(dir: &Path, body: &str) -> (PathBuf, PathBuf, String) {
    let single = file_in(dir, "single", body);
    let output = arena(&["tournament", "run", single.to_str().unwrap()], &[]);
    assert!(output.status.success(), "{}", stderr(&output));
    let cluster = file_in(dir, "cluster", body);
    let output = arena(&slurm_args(&cluster, &["--submit", "--wait"]), &[]);
    assert!(output.status.success(), "{}\n{}", stdout(&output), stderr(&output));
    (single, cluster, stdout(&output))
}

/// The Easy, Medium and Hard libraries, as a tournament file lists them.
fn levels_as_libraries() -> String {
    let players: Vec<String> =
        ["easy", "medium", "hard"].iter().map(|l| format!("\"{}\"", library(l).display())).collect();
    players.join(", ")
}

/// The games journaled in folder `out`, as their pairings: (index, seats, seed).
fn pairings(out: &Path) -> Vec<(usize, [usize; 2], u64)> {
    all_journal_games(out).iter().map(|g| (g.index, g.seats, g.seed)).collect()
}

#[test]
fn four_shards_through_slurm_give_the_single_machine_standings() {
    if !cluster() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let body = format!(
        "format = \"round-robin\"\ngames_per_pairing = 8\nseed = 11\nplayers = [{}]\n[settings]\ntime_per_turn = \"1s\"\n",
        levels_as_libraries()
    );
    let (single, cluster, text) = played_here_and_on_slurm(dir.path(), &body);
    assert!(text.contains("submitted: shards job ") && text.contains("(4 of 4 shards: 1,2,3,4)"), "{text}");
    assert!(text.contains("24 games (0 played now)"), "the merge job's log is shown: {text}");
    let out = dir.path().join("cluster/out");
    for i in 1..=4 {
        let (_, games, _) = journal::read(&out.join(format!("journal.shard-{i}-of-4.jsonl"))).unwrap();
        assert_eq!(games.len(), 6, "shard {i}");
    }
    assert!(out.join("slurm/shards.sbatch").exists() && out.join("slurm/shard-1-of-4.log").exists());
    assert_eq!(all_journal_games(&out), all_journal_games(&dir.path().join("single/out")));
    assert_eq!(standings_csv(&cluster), standings_csv(&single));
}

#[test]
fn a_cancelled_task_is_resubmitted_alone_and_nothing_is_lost_or_doubled() {
    if !cluster() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    // A player that takes 25 ms a move, so that a shard lasts a few seconds.
    let body = format!(
        "format = \"round-robin\"\ngames_per_pairing = 12\nseed = 5\nplayers = [\"easy\", \"medium\", \"{}\"]\n[settings]\npass_env = [\"BAD_PLAYER_MODE\", \"BAD_PLAYER_SLEEP_MS\"]\n",
        library("bad-player").display()
    );
    let env = [("BAD_PLAYER_MODE", "sleep"), ("BAD_PLAYER_SLEEP_MS", "25")];
    let file = file_in(dir.path(), "cluster", &body);
    let out = dir.path().join("cluster/out");
    let mut child = Command::new(env!("CARGO_BIN_EXE_arena"))
        .args(slurm_args(&file, &["--submit", "--wait"]))
        .envs(env)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let submitted = lines.find(|l| l.as_ref().is_ok_and(|l| l.starts_with("submitted:"))).unwrap().unwrap();
    let array = submitted.split("shards job ").nth(1).unwrap().split(' ').next().unwrap().to_string();

    // Cancel the first shard that has journaled a game and is not done.
    let started = Instant::now();
    let cancelled = 'found: loop {
        for i in 1..=4 {
            let path = out.join(format!("journal.shard-{i}-of-4.jsonl"));
            let games =
                std::fs::read_to_string(&path).map(|t| t.lines().count().saturating_sub(1)).unwrap_or(0);
            if (1..6).contains(&games) {
                let status = Command::new("scancel").arg(format!("{array}_{i}")).status().unwrap();
                assert!(status.success());
                break 'found i;
            }
        }
        assert!(started.elapsed() < Duration::from_secs(120), "no shard started");
        std::thread::sleep(Duration::from_millis(20));
    };
    let first = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&first.stderr);
    assert_eq!(first.status.code(), Some(1), "the merge finds games missing: {err}");
    assert!(err.contains("are in no journal"), "{err}");
    let before = all_journal_games(&out);
    assert!(before.len() < 36, "the cancelled shard was cut short");

    let again = arena(&slurm_args(&file, &["--submit", "--wait"]), &env);
    let text = stdout(&again);
    assert!(again.status.success(), "{text}\n{}", stderr(&again));
    assert!(text.contains(&format!("(1 of 4 shards: {cancelled})")), "only the cancelled shard: {text}");
    let after = all_journal_games(&out);
    assert_eq!(
        after.iter().map(|g| g.index).collect::<Vec<_>>(),
        (0..36).collect::<Vec<_>>(),
        "each game once"
    );
    assert!(before.iter().all(|g| after.contains(g)), "no game journaled before is lost or changed");

    let single = file_in(dir.path(), "single", &body);
    let output = arena(&["tournament", "run", single.to_str().unwrap()], &env);
    assert!(output.status.success(), "{}", stderr(&output));
    assert_eq!(after, all_journal_games(&dir.path().join("single/out")));
    assert_eq!(standings_csv(&file), standings_csv(&single));
}

#[test]
fn a_refused_submission_shows_sbatchs_message() {
    if !cluster() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let file =
        file_in(dir.path(), "t", "format = \"round-robin\"\nseed = 1\nplayers = [\"easy\", \"medium\"]\n");
    let output = arena(&slurm_args(&file, &["--partition", "no-such-partition", "--submit"]), &[]);
    assert_eq!(output.status.code(), Some(2));
    let err = stderr(&output);
    assert!(
        err.contains("sbatch refused") && err.contains("shards.sbatch") && err.contains("partition"),
        "{err}"
    );
    assert_eq!(err.lines().count(), 1, "{err}");
}

#[test]
fn without_sbatch_the_error_says_where_to_run() {
    let dir = tempfile::tempdir().unwrap();
    let file =
        file_in(dir.path(), "t", "format = \"round-robin\"\nseed = 1\nplayers = [\"easy\", \"medium\"]\n");
    let empty = dir.path().join("empty-path");
    std::fs::create_dir_all(&empty).unwrap();
    let output = arena(&slurm_args(&file, &["--submit"]), &[("PATH", empty.to_str().unwrap())]);
    assert_eq!(output.status.code(), Some(2));
    let err = stderr(&output);
    assert!(err.contains("sbatch not found: run this on a machine of the Slurm cluster"), "{err}");
    // The scripts are written all the same, to submit by hand.
    let script = std::fs::read_to_string(dir.path().join("t/out/slurm/shards.sbatch")).unwrap();
    assert!(script.contains(&format!("exec {} tournament run", env!("CARGO_BIN_EXE_arena"))), "{script}");
}

#[test]
fn a_swiss_through_slurm_plays_an_array_per_round_and_gives_the_single_machine_standings() {
    if !cluster() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    // Five entrants (a bye each round), 3 rounds of 4 games a pairing.
    let body = format!(
        "format = \"swiss\"\nrounds = 3\ngames_per_pairing = 4\nseed = 13\nplayers = [{}, \"easy\", \"medium\"]\n[settings]\ntime_per_turn = \"1s\"\n",
        levels_as_libraries()
    );
    let (single, cluster, text) = played_here_and_on_slurm(dir.path(), &body);
    assert!(text.contains("(4 of 4 shards: 1,2,3,4)"), "round 1's array: {text}");
    assert!(text.contains("the Swiss's later rounds: jobs "), "rounds 2 and 3 chained: {text}");
    assert!(text.contains("24 games (0 played now)"), "the merge job's log is shown: {text}");
    assert_eq!(
        pairings(&dir.path().join("cluster/out")),
        pairings(&dir.path().join("single/out")),
        "the same pairings, round by round"
    );
    assert_eq!(standings_csv(&cluster), standings_csv(&single));
    // Submitted again once done: nothing to play, the merge job alone.
    let again = arena(&slurm_args(&cluster, &["--submit", "--wait"]), &[]);
    assert!(again.status.success(), "{}", stderr(&again));
    assert!(stdout(&again).contains("every shard is done"), "{}", stdout(&again));
}

#[test]
fn a_swiss_whose_round_fails_cancels_the_later_rounds_and_resumes_when_submitted_again() {
    if !cluster() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let body = "format = \"swiss\"\nrounds = 3\ngames_per_pairing = 2\nseed = 17\nplayers = [\"easy\", \"medium\", \"hard\", \"easy\"]\n";
    let file = file_in(dir.path(), "cluster", body);
    // Slurm cannot open this output file: round 1's tasks fail at once;
    // the later rounds' arrays are cancelled (their dependency can never
    // be met) and the merge job runs after them: nothing hangs.
    let started = Instant::now();
    let output =
        arena(&slurm_args(&file, &["--sbatch-arg=--output=/nonexistent/job.log", "--submit", "--wait"]), &[]);
    assert!(!output.status.success(), "{}", stdout(&output));
    assert!(stdout(&output).contains("the Swiss's later rounds: jobs "), "{}", stdout(&output));
    assert!(started.elapsed() < Duration::from_secs(120));
    assert!(all_journal_games(&dir.path().join("cluster/out")).is_empty());
    // Submitted again: every round, one after the other.
    let output = arena(&slurm_args(&file, &["--submit", "--wait"]), &[]);
    assert!(output.status.success(), "{}\n{}", stdout(&output), stderr(&output));
    let single = file_in(dir.path(), "single", body);
    let run = arena(&["tournament", "run", single.to_str().unwrap()], &[]);
    assert!(run.status.success(), "{}", stderr(&run));
    assert_eq!(pairings(&dir.path().join("cluster/out")).len(), 3 * 2 * 2);
    assert_eq!(pairings(&dir.path().join("cluster/out")), pairings(&dir.path().join("single/out")));
    assert_eq!(standings_csv(&file), standings_csv(&single));
}
