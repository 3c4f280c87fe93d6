//! Grading, finalize and the league on a Slurm cluster (`--executor slurm`, docs/server.md), as run locally.

use std::{
    path::Path,
    process::Command,
    time::{Duration, Instant},
};

use serde_json::Value;

use super::{add_student, finished, get, grade_summary, submit, wait_for, Server};
use crate::support::{self, arena, library, stdout};

// On the one-node cluster `.ci/slurm-up` starts; without one these tests
// say so and pass, unless ARENA_REQUIRE_SLURM=1 (CI).

/// Grades each of `libraries` (one student each) on a server started with
/// `extra` and `env`: each student's grade summary, in order, and the
/// server's data folder.
fn grade_class(libraries: &[&str], extra: &[&str], env: &[(&str, &str)]) -> (Vec<Value>, tempfile::TempDir) {
    let data = tempfile::tempdir().unwrap();
    let tokens: Vec<String> =
        (0..libraries.len()).map(|i| add_student(data.path(), &format!("student{i}"))).collect();
    let server = Server::start_with(data.path(), extra, env);
    let ids: Vec<i64> = libraries
        .iter()
        .zip(&tokens)
        .map(|(name, token)| {
            let (code, accepted) =
                submit(&server, Some(token), "file", &std::fs::read(library(name)).unwrap());
            assert_eq!(code, 201, "{accepted}");
            accepted["id"].as_i64().unwrap()
        })
        .collect();
    let grades = ids
        .iter()
        .zip(&tokens)
        .map(|(&id, token)| {
            let graded = wait_for(&server, token, id, finished);
            assert_eq!(graded["status"], "done", "{graded}");
            assert_eq!((graded["played"].as_i64(), graded["total"].as_i64()), (Some(30), Some(30)));
            grade_summary(&graded["grade"])
        })
        .collect();
    (grades, data)
}

/// The Slurm jobs of submission `id` in data folder `data`, oldest first.
fn slurm_jobs(data: &Path, id: i64) -> Vec<arena_server::store::db::Job> {
    arena_server::store::db::jobs_of(&arena_server::store::db::open(data).unwrap(), id).unwrap()
}

#[test]
fn a_class_graded_through_slurm_gets_the_grades_of_local_grading() {
    if !support::slurm_cluster() {
        return;
    }
    let class = ["easy", "medium", "hard"];
    let slurm = ["--round-robin", "off", "--executor", "slurm", "--grading-slots", "3"];
    let (on_slurm, data) = grade_class(&class, &slurm, &[]);
    let (local, _) = grade_class(&class, &["--round-robin", "off"], &[]);
    assert_eq!(on_slurm, local);
    for id in 1..=3 {
        let jobs = slurm_jobs(data.path(), id);
        assert_eq!(jobs.len(), 1, "one job each: {jobs:?}");
        assert_eq!(jobs[0].end, Some(("COMPLETED".to_string(), Some(0))), "{jobs:?}");
        let script =
            std::fs::read_to_string(data.path().join(format!("runs/{id}/slurm/grade.sbatch"))).unwrap();
        assert!(
            script.contains(&format!(
                "exec {} tournament run {}",
                env!("CARGO_BIN_EXE_arena"),
                data.path().canonicalize().unwrap().join(format!("runs/{id}/grade.toml")).display()
            )),
            "{script}"
        );
    }
}

#[test]
fn a_grading_job_outlives_a_server_restart_and_once_cancelled_is_resubmitted_playing_no_game_twice() {
    if !support::slurm_cluster() {
        return;
    }
    // 40 ms a move: the run lasts several seconds.
    let slow = [("BAD_PLAYER_MODE", "sleep"), ("BAD_PLAYER_SLEEP_MS", "40")];
    let options = ["--round-robin", "off", "--executor", "slurm"];
    let data = tempfile::tempdir().unwrap();
    let alice = add_student(data.path(), "alice");
    let server = Server::start_with(data.path(), &options, &slow);
    let player = std::fs::read(library("bad-player")).unwrap();
    let (code, accepted) = submit(&server, Some(&alice), "file", &player);
    assert_eq!(code, 201, "{accepted}");
    let id = accepted["id"].as_i64().unwrap();
    let out = data.path().join(format!("runs/{id}/out"));
    let journaled = || {
        std::fs::read_to_string(out.join("journal.jsonl")).map_or(0, |t| t.lines().count().saturating_sub(1))
    };
    let started = Instant::now();
    while journaled() == 0 {
        assert!(
            started.elapsed() < Duration::from_secs(120),
            "no game played: {:?}",
            slurm_jobs(data.path(), id)
        );
        std::thread::sleep(Duration::from_millis(20));
    }

    // The server dies; its job plays on, and the restarted server follows
    // it instead of submitting another.
    server.kill();
    let jobs = slurm_jobs(data.path(), id);
    assert!(jobs.len() == 1 && jobs[0].end.is_none(), "{jobs:?}");
    let server = Server::start_with(data.path(), &options, &slow);
    wait_for(&server, &alice, id, |s| s["status"] == "playing" || finished(s));
    // Then that job is cancelled mid-run.
    let before = journaled();
    assert!(before < 30, "the run ended before it could be cancelled: make the player slower");
    let status = Command::new("scancel").arg(&jobs[0].slurm_id).status().unwrap();
    assert!(status.success());

    let graded = wait_for(&server, &alice, id, finished);
    assert_eq!(graded["status"], "done", "{graded}");
    let after = slurm_jobs(data.path(), id);
    assert_eq!(after.len(), 2, "the cancelled job, then one more: {after:?}");
    assert_eq!(after[0].slurm_id, jobs[0].slurm_id, "{after:?}");
    assert_eq!(after[0].end.as_ref().map(|e| e.0.as_str()), Some("CANCELLED"), "{after:?}");
    assert_eq!(after[1].end, Some(("COMPLETED".to_string(), Some(0))), "{after:?}");
    // The second job resumed from the journal: every game once.
    let journal = support::journal_games(&out);
    assert_eq!(journal.iter().map(|g| g.index).collect::<Vec<_>>(), (0..30).collect::<Vec<_>>());
    // Its players got what the server's own would (--pass-env).
    let script = std::fs::read_to_string(data.path().join(format!("runs/{id}/slurm/grade.sbatch"))).unwrap();
    assert!(script.contains("--pass-env BAD_PLAYER_MODE --pass-env BAD_PLAYER_SLEEP_MS\n"), "{script}");
    let log = data.path().join(format!("runs/{id}/slurm/job-{}.log", after[1].slurm_id));
    let resumed = std::fs::read_to_string(log).unwrap();
    assert!(resumed.contains("resuming: "), "cancelled with {before} games played: {resumed}");

    let (local, _) = grade_class(&["bad-player"], &["--round-robin", "off"], &slow);
    assert_eq!(vec![grade_summary(&graded["grade"])], local);
}

#[test]
fn a_grading_job_that_keeps_failing_is_resubmitted_three_times_then_the_submission_fails_saying_why() {
    if !support::slurm_cluster() {
        return;
    }
    // Slurm cannot open this output file: every job fails at once.
    let options =
        ["--round-robin", "off", "--executor", "slurm", "--sbatch-arg=--output=/nonexistent/job.log"];
    let data = tempfile::tempdir().unwrap();
    let alice = add_student(data.path(), "alice");
    let server = Server::start(data.path(), &options);
    let (_, accepted) = submit(&server, Some(&alice), "file", &std::fs::read(library("easy")).unwrap());
    let failed = wait_for(&server, &alice, accepted["id"].as_i64().unwrap(), finished);
    assert_eq!(failed["status"], "failed", "{failed}");
    let jobs = slurm_jobs(data.path(), 1);
    assert_eq!(jobs.len(), 4, "the first job and three more: {jobs:?}");
    assert!(jobs.iter().all(|j| j.end.as_ref().is_some_and(|e| e.0 == "FAILED")), "{jobs:?}");
    let last = &jobs[3].slurm_id;
    let output = data.path().canonicalize().unwrap().join(format!("runs/1/slurm/job-{last}.log"));
    assert_eq!(
        failed["error"].as_str().unwrap(),
        format!(
            "the Slurm jobs of its grading run ended 4 times without finishing it (0 of 30 games played): \
             the last, job {last}, ended FAILED (exit code 1); its output: {}",
            output.display()
        )
    );
}

#[test]
fn a_server_that_cannot_submit_grading_jobs_says_why_before_it_starts() {
    let data = tempfile::tempdir().unwrap();
    let empty = data.path().join("empty-path");
    std::fs::create_dir_all(&empty).unwrap();
    let serve = |extra: &[&str], env: &[(&str, &str)]| {
        let mut args = vec!["serve", "--data", data.path().to_str().unwrap(), "--listen", "127.0.0.1:0"];
        args.extend_from_slice(extra);
        let output = arena(&args, env);
        assert_eq!(output.status.code(), Some(2), "{}", stdout(&output));
        let err = support::stderr(&output);
        assert_eq!(err.lines().count(), 1, "{err}");
        err
    };
    let err = serve(&["--executor", "slurm"], &[("PATH", empty.to_str().unwrap())]);
    assert!(
        err.contains("sbatch not found: run this on a machine of the Slurm cluster (a login node), or grade on this machine: --executor local"),
        "{err}"
    );
    let err = serve(&["--time", "1:00:00"], &[]);
    assert!(err.contains("--time is for grading jobs on a Slurm cluster: add --executor slurm"), "{err}");
    if support::slurm_cluster() {
        let err = serve(&["--executor", "slurm", "--partition", "no-such-partition"], &[]);
        assert!(err.contains("sbatch would refuse these jobs (--partition=no-such-partition)"), "{err}");
    }
}

#[test]
fn finalize_through_slurm_writes_local_finalizes_grades_and_games_and_says_why_when_its_jobs_keep_failing() {
    if !support::slurm_cluster() {
        return;
    }
    let (_, data) = grade_class(&["easy", "medium", "hard"], &["--round-robin", "off"], &[]);
    let data_arg = data.path().to_str().unwrap();
    let finalize = |extra: &[&str]| arena(&[&["serve", "finalize", "--data", data_arg], extra].concat(), &[]);
    let out = finalize(&[]);
    assert!(out.status.success(), "{}", support::stderr(&out));
    // The default course's one assignment.
    let (on_slurm, local) = (data.path().join("final/trap"), data.path().join("final-trap-local"));
    std::fs::rename(&on_slurm, &local).unwrap();

    // Slurm cannot open this output file: every job fails at once; the
    // unfinished shards are submitted 3 more times, then finalize says why.
    let out =
        finalize(&["--executor", "slurm", "--shards", "2", "--sbatch-arg=--output=/nonexistent/job.log"]);
    assert!(!out.status.success());
    let err = support::stderr(&out);
    assert_eq!(err.lines().count(), 1, "{err}");
    let shard_log = on_slurm.canonicalize().unwrap().join("round-robin/slurm/shard-1-of-2.log");
    assert!(
        err.contains("the Slurm jobs of final round robin ended 4 times without finishing it (0 of 30 games played; shard(s) 1,2 of 2 unfinished)")
            && err.ends_with(&format!("; the output of shard 1: {}\n", shard_log.display())),
        "{err}"
    );
    assert!(!on_slurm.join("grades.csv").exists());

    // Run again: the shards and the merge job play the round robin; the
    // same grades, the same games, the same standings as local finalize.
    let out = finalize(&["--executor", "slurm", "--shards", "2"]);
    assert!(out.status.success(), "{}", support::stderr(&out));
    let read = |dir: &Path, name: &str| std::fs::read_to_string(dir.join(name)).unwrap();
    assert_eq!(read(&on_slurm, "grades.csv"), read(&local, "grades.csv"));
    let games = |dir: &Path| support::all_journal_games(&dir.join("round-robin"));
    assert_eq!(games(&on_slurm).len(), 30);
    assert_eq!(games(&on_slurm), games(&local));
    let standings = |dir: &Path| support::csv_without_times(&read(dir, "round-robin/standings.csv"));
    assert_eq!(standings(&on_slurm), standings(&local));
    // Every game was played by a shard's job, none here.
    for path in arena_core::tournament::merge::journal_files(&on_slurm.join("round-robin")).unwrap() {
        let name = path.file_name().unwrap().to_str().unwrap().to_string();
        let (_, played, _) = arena_core::tournament::journal::read(&path).unwrap();
        assert!(name.starts_with("journal.shard-") || played.is_empty(), "{name}: {} games", played.len());
    }
    let merge_log = std::fs::read_dir(on_slurm.join("round-robin/slurm"))
        .unwrap()
        .filter_map(|e| e.unwrap().file_name().into_string().ok())
        .filter(|name| name.starts_with("merge-") && name.ends_with(".log"))
        .count();
    assert_eq!(merge_log, 1, "the merge job ran once (the failed ones wrote no output)");

    // And again: the journals hold every game; no job is submitted.
    let record = || read(&on_slurm, "round-robin/slurm/merge-job");
    let before = record();
    let out = finalize(&["--executor", "slurm", "--shards", "2"]);
    assert!(out.status.success(), "{}", support::stderr(&out));
    assert_eq!(record(), before);
    assert_eq!(read(&on_slurm, "grades.csv"), read(&local, "grades.csv"));
}

/// The league's batch folders in data folder `data` not marked over.
fn batches_not_over(data: &Path) -> Vec<std::path::PathBuf> {
    let Ok(entries) = std::fs::read_dir(data.join("league")) else { return Vec::new() };
    entries.flatten().map(|e| e.path()).filter(|batch| !batch.join("over").exists()).collect()
}

/// The league's games stored in data folder `data`: (a, b, game) and the
/// result without its times, in that order.
fn league_games(data: &Path) -> Vec<((i64, i64, i64), Value)> {
    let db = rusqlite::Connection::open(data.join("arena.db")).unwrap();
    let mut query = db.prepare("SELECT a, b, game, result FROM games ORDER BY a, b, game").unwrap();
    query
        .query_map([], |r| Ok(((r.get(0)?, r.get(1)?, r.get(2)?), r.get::<_, String>(3)?)))
        .unwrap()
        .map(|row| {
            let (key, text) = row.unwrap();
            let result: arena_core::tournament::record::GameResult = serde_json::from_str(&text).unwrap();
            (key, serde_json::to_value(result.without_times()).unwrap())
        })
        .collect()
}

/// Runs the league of data folder `data` on a server started with `extra`
/// until its `games` games are stored and each batch job it followed is
/// marked over; the games, as [`league_games`] gives them.
fn play_league(data: &Path, extra: &[&str], games: usize) -> Vec<((i64, i64, i64), Value)> {
    let server = Server::start(data, extra);
    let started = Instant::now();
    loop {
        let (_, board) = get(&server, "/api/leaderboard", None);
        // A batch's games are stored as its job plays them; the batch is
        // marked over only once Slurm says the job ended, a poll or more
        // later (a busy machine's slurmctld takes its time).
        let not_over = batches_not_over(data);
        if board["round_robin"]["standings"]["games"] == games && not_over.is_empty() {
            break;
        }
        assert!(started.elapsed() < Duration::from_secs(300), "{board}; batches not over: {not_over:?}");
        std::thread::sleep(Duration::from_millis(100));
    }
    drop(server);
    league_games(data)
}

#[test]
fn the_league_through_slurm_plays_each_pairings_10_games_once_with_local_plays_results_across_a_restart() {
    if !support::slurm_cluster() {
        return;
    }
    let (_, data) = grade_class(&["easy", "medium", "hard"], &["--round-robin", "off"], &[]);
    let slurm = ["--executor", "slurm", "--grading-slots", "3"];
    // The server dies as soon as its first batch job is submitted; the
    // restarted one follows that job (and stores its games) instead of
    // choosing those pairings again.
    let server = Server::start(data.path(), &slurm);
    let first_job = data.path().join("league/batch-1/jobs");
    let started = Instant::now();
    while std::fs::read_to_string(&first_job).map_or(true, |jobs| jobs.is_empty()) {
        assert!(started.elapsed() < Duration::from_secs(120), "no league batch submitted");
        std::thread::sleep(Duration::from_millis(20));
    }
    server.kill();
    let on_slurm = play_league(data.path(), &slurm, 30);
    // Every pairing's 10 games, once each, in order.
    let keys: Vec<(i64, i64, i64)> = on_slurm.iter().map(|(key, _)| *key).collect();
    let expected: Vec<(i64, i64, i64)> =
        [(1, 2), (1, 3), (2, 3)].iter().flat_map(|&(a, b)| (0..10).map(move |g| (a, b, g))).collect();
    assert_eq!(keys, expected);
    // Played by batch jobs: each batch's games in its file, each batch done.
    let batches: Vec<std::path::PathBuf> =
        std::fs::read_dir(data.path().join("league")).unwrap().map(|e| e.unwrap().path()).collect();
    assert!(batches.len() >= 5, "3 pairings at a time, 2 games each: {batches:?}");
    let mut journaled = 0;
    for batch in &batches {
        let over = std::fs::read_to_string(batch.join("over")).unwrap_or_default();
        assert_eq!(over, "\"done\"", "{} is not done", batch.display());
        let jobs = std::fs::read_to_string(batch.join("jobs")).unwrap();
        assert_eq!(jobs.lines().count(), 1, "one job each: {jobs}");
        journaled += std::fs::read_to_string(batch.join("games.jsonl")).unwrap().lines().count();
    }
    assert_eq!(journaled, 30, "no game played twice");

    // The same games played here: the same results.
    let db = rusqlite::Connection::open(data.path().join("arena.db")).unwrap();
    db.execute("DELETE FROM games", []).unwrap();
    drop(db);
    let local = play_league(data.path(), &["--grading-slots", "3"], 30);
    assert_eq!(on_slurm, local);
}

#[test]
fn a_class_swiss_through_slurm_gives_local_finalizes_games_and_grades() {
    if !support::slurm_cluster() {
        return;
    }
    let (_, data) = grade_class(&["easy", "medium", "hard", "easy"], &["--round-robin", "off"], &[]);
    let data_arg = data.path().to_str().unwrap();
    let course = support::write_file(
        data.path(),
        "course.toml",
        "[[assignment]]\nname = \"trap\"\ngame = \"trap\"\n[assignment.tournament]\nformat = \"swiss\"\nrounds = 3\ngames = 2\n\
         [assignment.points]\nper_level = [0, 0, 0]\nby_rank = [3, 2, 1]\n",
    );
    let finalize = |extra: &[&str]| {
        arena(
            &[&["serve", "finalize", "--data", data_arg, "--course", course.to_str().unwrap()], extra]
                .concat(),
            &[],
        )
    };
    let out = finalize(&[]);
    assert!(out.status.success(), "{}", support::stderr(&out));
    let (on_slurm, local) = (data.path().join("final/trap"), data.path().join("final-trap-local"));
    std::fs::rename(&on_slurm, &local).unwrap();
    // Three rounds: an array per round, each after the one before.
    let out = finalize(&["--executor", "slurm", "--shards", "2"]);
    assert!(out.status.success(), "{}", support::stderr(&out));
    let read = |dir: &Path, name: &str| std::fs::read_to_string(dir.join(name)).unwrap();
    assert_eq!(read(&on_slurm, "grades.csv"), read(&local, "grades.csv"));
    let games = |dir: &Path| support::all_journal_games(&dir.join("swiss"));
    assert_eq!(games(&on_slurm).len(), 3 * 2 * 2);
    assert_eq!(games(&on_slurm), games(&local));
    for path in arena_core::tournament::merge::journal_files(&on_slurm.join("swiss")).unwrap() {
        let name = path.file_name().unwrap().to_str().unwrap().to_string();
        let (_, played, _) = arena_core::tournament::journal::read(&path).unwrap();
        assert!(name.starts_with("journal.shard-") || played.is_empty(), "{name}: {} games", played.len());
    }
}
