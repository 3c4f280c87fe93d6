//! `arena tune` (issue 51) on a toy player whose best value is known
//! (tests/fixtures/tune-toy-player: Hard with a share |aim - 6| / 8 of its
//! turns random, so strongest at aim = 6): it converges there; the same
//! seed gives the same trajectory at any concurrency; a tune stopped with
//! Ctrl-C and run again ends as the uninterrupted one; bad lines are one
//! line each; on the real one-node Slurm cluster (`.ci/slurm-up`) the
//! trajectory is the local one. A built-in's int parameter, Hard's depth,
//! is tuned within its range.

use std::{
    path::Path,
    process::{Command, Stdio},
    time::{Duration, Instant},
};

use crate::support::{arena, library, slurm_cluster, stderr, stdout};

/// A fast tune of the toy's `aim` from 1 (seed 3 unless `extra` has
/// one): small board, the CPU clock, in process (320 games a second).
fn toy_args(out: &Path, iterations: &str, extra: &[&str]) -> Vec<String> {
    let toy = library("tune-toy-player");
    let mut args: Vec<String> = [
        "tune",
        toy.to_str().unwrap(),
        "--param",
        "aim, float, 1, 0, 10, 0.5, 0.05",
        "--iterations",
        iterations,
        "--pairs-per-iteration",
        "8",
        "--board-size",
        "5",
        "--tc",
        "200ms",
        "--clock",
        "cpu",
        "--in-process",
        "--out",
        out.to_str().unwrap(),
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    args.extend(extra.iter().map(|s| s.to_string()));
    if !extra.contains(&"--seed") {
        args.extend(["--seed".to_string(), "3".to_string()]);
    }
    args
}

fn run(args: &[String]) -> (String, String) {
    let refs: Vec<&str> = args.iter().map(String::as_str).collect();
    let output = arena(&refs, &[]);
    assert!(output.status.success(), "{}\n{}", stdout(&output), stderr(&output));
    (stdout(&output), stderr(&output))
}

fn trajectory(out: &Path) -> String {
    std::fs::read_to_string(out.join("trajectory.csv")).unwrap()
}

/// The last theta of `aim` in a trajectory.
fn last_aim(csv: &str) -> f64 {
    csv.lines().last().unwrap().split(',').nth(1).unwrap().parse().unwrap()
}

#[test]
fn a_tune_finds_the_toys_best_value_and_the_sprt_confirms_it() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("tune");
    let (text, _) = run(&toy_args(&out, "150", &["--verify-max-games", "400"]));
    let csv = trajectory(&out);
    assert_eq!(csv.lines().count(), 152, "a header, the start and 150 iterations: {csv}");
    let aim = last_aim(&csv);
    assert!((aim - 6.0).abs() < 0.5, "aim ends at {aim}, the toy's best is 6:\n{csv}");
    assert!(text.contains("tuned ") && text.contains("over 150 iterations (2400 games)"), "{text}");
    let flags = text.lines().find(|l| l.starts_with("values: ")).unwrap();
    assert!(flags.starts_with("values: --param aim="), "{text}");
    assert!(text.contains("H1 accepted: the tuned values are stronger than the start"), "{text}");
    let svg = std::fs::read_to_string(out.join("trajectory.svg")).unwrap();
    assert!(svg.starts_with("<svg") && svg.contains("<polyline") && svg.contains("aim (float)"), "{svg}");
}

#[test]
fn the_same_seed_gives_the_same_trajectory_at_any_concurrency() {
    let dir = tempfile::tempdir().unwrap();
    let (one, two) = (dir.path().join("one"), dir.path().join("two"));
    let (text_one, _) = run(&toy_args(&one, "6", &["--no-verify", "--concurrency", "1"]));
    let (text_two, _) = run(&toy_args(&two, "6", &["--no-verify", "--concurrency", "2"]));
    assert_eq!(trajectory(&one), trajectory(&two));
    assert_eq!(
        text_one.replace(one.to_str().unwrap(), "OUT"),
        text_two.replace(two.to_str().unwrap(), "OUT")
    );
    // Another seed, another trajectory.
    let three = dir.path().join("three");
    run(&toy_args(&three, "6", &["--no-verify", "--seed", "4"]));
    assert_ne!(trajectory(&one), trajectory(&three));
}

#[test]
fn a_tune_stopped_by_ctrl_c_resumes_and_ends_as_the_uninterrupted_one() {
    let dir = tempfile::tempdir().unwrap();
    let (through, stopped) = (dir.path().join("through"), dir.path().join("stopped"));
    let (whole, _) = run(&toy_args(&through, "24", &["--no-verify"]));

    let args = toy_args(&stopped, "24", &["--no-verify"]);
    let child = Command::new(env!("CARGO_BIN_EXE_arena"))
        .args(&args[..])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let journal = stopped.join("tune.jsonl");
    let started = Instant::now();
    // A header and a few iterations on disk, then Ctrl-C.
    while std::fs::read_to_string(&journal).map_or(0, |t| t.lines().count()) < 5 {
        assert!(started.elapsed() < Duration::from_secs(120), "no iteration was journaled");
        std::thread::sleep(Duration::from_millis(10));
    }
    // SAFETY: a signal to the child this test started.
    unsafe { libc::kill(child.id() as libc::pid_t, libc::SIGINT) };
    let first = child.wait_with_output().unwrap();
    let text = stdout(&first);
    assert_eq!(first.status.code(), Some(130), "{text}\n{}", stderr(&first));
    assert!(text.contains("interrupted after ") && text.contains("run the same command"), "{text}");
    let kept = std::fs::read_to_string(&journal).unwrap().lines().count() - 1;
    assert!(kept < 24, "stopped part way: {kept}");

    let (again, _) = run(&args);
    assert!(again.contains(&format!("{kept} iterations resumed from the journal")), "{again}");
    assert_eq!(trajectory(&stopped), trajectory(&through));
    let values = |text: &str| text.lines().find(|l| l.starts_with("values: ")).unwrap().to_string();
    assert_eq!(values(&again), values(&whole));
}

#[test]
fn each_bad_line_is_one_error_naming_the_parameter_and_the_fix() {
    let toy = library("tune-toy-player");
    let toy = toy.to_str().unwrap();
    for (line, expected) in [
        (
            "aim, float, 1",
            "a tuned parameter is `NAME, int|float, START, MIN, MAX, C_END, R_END` (7 fields, found 3)",
        ),
        ("aim, float, 1, 10, 0, 0.5, 0.1", "parameter aim: MIN 10 is above MAX 0: swap them"),
        ("aim, float, 11, 0, 10, 0.5, 0.1", "parameter aim: START 11 is outside its range [0, 10]"),
        ("aim, real, 1, 0, 10, 0.5, 0.1", "parameter aim: type 'real' is neither int nor float"),
        ("aimm, float, 1, 0, 10, 0.5, 0.1", "parameter aimm: "),
    ] {
        let output = arena(&["tune", toy, "--param", line, "--in-process", "--iterations", "1"], &[]);
        let err = stderr(&output);
        assert_eq!(output.status.code(), Some(2), "{line}: {err}");
        assert!(err.contains(expected), "{line}: {err}");
        assert_eq!(err.trim_end().lines().count(), 1, "one line: {err}");
        assert!(!err.contains("panicked"), "{err}");
    }
    let output = arena(&["tune", toy, "--param", "aimm, float, 1, 0, 10, 0.5, 0.1", "--in-process"], &[]);
    let err = stderr(&output);
    assert!(err.contains("declares no parameter of that name (it declares: aim)"), "{err}");
    assert!(err.contains("--params"), "the command that lists them: {err}");
}

#[test]
fn on_slurm_the_tune_follows_the_local_trajectory() {
    if !slurm_cluster() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let (here, cluster) = (dir.path().join("here"), dir.path().join("cluster"));
    run(&toy_args(&here, "4", &["--no-verify"]));
    let (text, _) = run(&toy_args(&cluster, "4", &["--no-verify", "--slurm", "--workers", "3"]));
    assert_eq!(trajectory(&cluster), trajectory(&here), "{text}");
    // Each iteration's 4 pairs in 3 shares: 2, 1 and 1 pairs.
    for task in 1..=3 {
        assert!(cluster.join(format!("slurm/iteration-4/task-{task}.json")).exists());
    }
    assert!(cluster.join("slurm/tune.sbatch").exists());
}

#[test]
fn against_an_opponent_each_perturbed_player_plays_the_pairs() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("against");
    let (text, _) = run(&toy_args(&out, "3", &["--no-verify", "--against", "hard"]));
    assert!(text.contains("over 3 iterations (96 games)"), "8 pairs each for theta+ and theta-: {text}");
    for row in trajectory(&out).lines().skip(2) {
        let cells: Vec<&str> = row.split(',').collect();
        let games =
            |from: usize| cells[from..from + 3].iter().map(|c| c.parse::<u32>().unwrap()).sum::<u32>();
        assert_eq!((games(4), games(7)), (16, 16), "{row}");
        let net = |from: usize| cells[from].parse::<f64>().unwrap() - cells[from + 2].parse::<f64>().unwrap();
        assert_eq!(cells[10].parse::<f64>().unwrap(), (net(4) - net(7)) / 2.0, "{row}");
    }
}

/// An int parameter of a built-in: a short tune of Hard's `depth` over its
/// whole declared range plays every depth it tries (issue 67: any depth
/// but 3 crashed Hard, and a release build's tune aborted) and ends within
/// the range, each value played a whole number.
#[test]
fn a_tune_of_hard_s_depth_plays_the_depths_it_tries_and_ends_within_the_range() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("depth");
    let args: Vec<String> = [
        "tune",
        "hard",
        "--param",
        "depth, int, 3, 1, 5, 1.5, 0.05",
        "--iterations",
        "4",
        "--pairs-per-iteration",
        "2",
        "--board-size",
        "5",
        "--tc",
        "200ms",
        "--clock",
        "cpu",
        "--in-process",
        "--no-verify",
        "--seed",
        "5",
        "--out",
        out.to_str().unwrap(),
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    let (text, err) = run(&args);
    assert!(!err.contains("panicked"), "a player panicked: {err}");
    let csv = trajectory(&out);
    assert!(csv.starts_with("iteration,depth,depth+,depth-,"), "{csv}");
    let mut played = Vec::new();
    for row in csv.lines().skip(2) {
        let cells: Vec<f64> = row.split(',').take(4).map(|c| c.parse().unwrap()).collect();
        assert!((1.0..=5.0).contains(&cells[1]), "theta outside 1..5: {row}");
        for value in &cells[2..4] {
            assert!((1.0..=5.0).contains(value) && value.fract() == 0.0, "played {value}: {row}");
        }
        played.extend_from_slice(&cells[2..4]);
    }
    assert_eq!(played.len(), 8, "{csv}");
    assert!(played.iter().any(|&d| d != 3.0), "only the default was played: {csv}");
    let flag = text.lines().find(|l| l.starts_with("values: ")).unwrap();
    let depth: i64 = flag.strip_prefix("values: --param depth=").unwrap().trim().parse().unwrap();
    assert!((1..=5).contains(&depth), "{text}");
}
