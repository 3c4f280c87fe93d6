//! Tournament files run for real: resume after SIGKILL gives the same
//! results as an uninterrupted run, a changed file is refused, malformed
//! files are one clear error with no output, grade reports are written.

use std::{
    path::{Path, PathBuf},
    process::{Command, Stdio},
    time::{Duration, Instant},
};

use crate::support::{self, arena, journal_games, library, stderr, stdout, write_file};
use arena_core::tournament::journal;

/// A round robin with one slow-ish library player (2 ms a move) so that a
/// run lasts long enough to be killed in the middle.
fn slow_tournament(dir: &Path, output: &str) -> PathBuf {
    let bad = library("bad-player");
    let text = format!(
        r#"
name = "resume-test"
format = "round-robin"
games_per_pairing = 12
seed = 77
concurrency = 2
output = "{output}"
players = ["easy", "medium", "{}"]
"#,
        bad.display()
    );
    write_file(dir, &format!("{output}.toml"), &text)
}

/// Starts the slow tournament in a child arena (to be killed or interrupted).
fn spawn_slow(file: &Path, stderr: Stdio) -> std::process::Child {
    Command::new(env!("CARGO_BIN_EXE_arena"))
        .args(["tournament", "run", file.to_str().unwrap()])
        .args(support::pass_env(&support::BAD_PLAYER_ORDERS))
        .env("BAD_PLAYER_MODE", "sleep")
        .env("BAD_PLAYER_SLEEP_MS", "2")
        .stdout(Stdio::null())
        .stderr(stderr)
        .spawn()
        .unwrap()
}

/// Waits until the journal in `folder` has `lines` lines (the header counts).
fn wait_for_journal_lines(folder: &Path, lines: usize) {
    let path = folder.join(journal::FILE_NAME);
    let started = Instant::now();
    while std::fs::read_to_string(&path).map(|t| t.lines().count()).unwrap_or(0) < lines {
        assert!(started.elapsed() < Duration::from_secs(60), "no games were journaled");
        std::thread::sleep(Duration::from_millis(2));
    }
}

fn run_to_end(file: &Path) -> std::process::Output {
    let args =
        [&["tournament", "run", file.to_str().unwrap()][..], &support::pass_env(&support::BAD_PLAYER_ORDERS)];
    arena(&args.concat(), &[("BAD_PLAYER_MODE", "sleep"), ("BAD_PLAYER_SLEEP_MS", "2")])
}

#[test]
fn a_run_killed_with_sigkill_resumes_to_the_same_results() {
    let dir = tempfile::tempdir().unwrap();
    // The uninterrupted run.
    let whole = slow_tournament(dir.path(), "whole");
    let output = run_to_end(&whole);
    assert!(output.status.success(), "{}", stderr(&output));
    let expected = journal_games(&dir.path().join("whole"));
    assert_eq!(expected.len(), 36);

    // The same tournament, killed at a point that depends on the clock.
    let killed = slow_tournament(dir.path(), "killed");
    let mut child = spawn_slow(&killed, Stdio::null());
    let journal_path = dir.path().join("killed").join(journal::FILE_NAME);
    let want = 3 + (std::process::id() as usize % 20); // somewhere in the first two thirds
    let started = Instant::now();
    loop {
        let lines = std::fs::read_to_string(&journal_path).map(|t| t.lines().count()).unwrap_or(0);
        if lines > want || started.elapsed() > Duration::from_secs(60) {
            break;
        }
        std::thread::sleep(Duration::from_millis(2));
    }
    child.kill().unwrap(); // SIGKILL
    child.wait().unwrap();
    let partial = journal_games(&dir.path().join("killed"));
    assert!(partial.len() < 36, "the run must be cut short (it had {} games)", partial.len());

    let output = run_to_end(&killed);
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(stderr(&output).contains("resuming: "), "{}", stderr(&output));
    let resumed = journal_games(&dir.path().join("killed"));
    let indices: Vec<usize> = resumed.iter().map(|r| r.index).collect();
    assert_eq!(indices, (0..36).collect::<Vec<_>>(), "every game once, none twice");
    assert_eq!(resumed, expected, "a resumed run must give the uninterrupted run's games");
    let standings =
        |name: &str| std::fs::read_to_string(dir.path().join(name).join("standings.csv")).unwrap();
    let strip_times = |csv: String| -> Vec<String> {
        csv.lines().map(|l| l.rsplitn(3, ',').nth(2).unwrap_or(l).to_string()).collect()
    };
    assert_eq!(strip_times(standings("killed")), strip_times(standings("whole")));
}

#[test]
fn a_changed_file_is_not_resumed() {
    let dir = tempfile::tempdir().unwrap();
    let text = "format = \"round-robin\"\nseed = 1\noutput = \"out\"\nplayers = [\"easy\", \"medium\"]\n";
    let file = write_file(dir.path(), "t.toml", text);
    assert!(arena(&["tournament", "run", file.to_str().unwrap()], &[]).status.success());
    std::fs::write(&file, text.replace("seed = 1", "seed = 2")).unwrap();
    let output = arena(&["tournament", "run", file.to_str().unwrap()], &[]);
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).contains("belongs to a different schedule"), "{}", stderr(&output));
    // Running the unchanged file again just reports (nothing replayed).
    std::fs::write(&file, text).unwrap();
    let again = arena(&["tournament", "run", file.to_str().unwrap()], &[]);
    assert!(again.status.success());
    assert!(stderr(&again).contains("(0 played now)"), "{}", stderr(&again));
}

#[test]
fn malformed_files_are_one_clear_error_and_leave_no_output() {
    let dir = tempfile::tempdir().unwrap();
    let broken = dir.path().join("groups/broken-group");
    std::fs::create_dir_all(&broken).unwrap();
    std::fs::write(broken.join("libbroken.so"), "this is not a library").unwrap();
    let cases: [(&str, &str); 9] = [
        ("seed = 1\nplayers = [\"easy\", \"hard\"]\n", "missing field `format`"),
        ("format = \"round-robin\"\nplayers = [\"easy\", \"hard\"]\n", "missing field `seed`"),
        ("format = \"round-robin\"\nseed = \"x\"\nplayers = [\"easy\", \"hard\"]\n", "line 3: invalid type"),
        ("format = \"round-robin\"\nseed = 1\ncolour = \"red\"\nplayers = [\"easy\"]\n", "unknown field `colour`"),
        ("format = \"knockout\"\nseed = 1\n", "unknown variant `knockout`"),
        ("format = \"round-robin\"\nseed = 1\nplayers = [\"easy\", \"gandalf\"]\n", "line 4: players[1]: unknown player \"gandalf\""),
        ("format = \"round-robin\"\nseed = 1\nplayers = [\"easy\", \"hard\"]\n[settings]\ntime_per_turn = \"soon\"\n", "line 6: settings.time_per_turn"),
        ("format = \"round-robin\"\nseed = 1\nplayers = [\"easy\"]\n", "needs at least 2"),
        ("format = \"round-robin\"\nseed = 1\nplayers = [\"easy\"]\nplayer_folders = [\"groups\"]\n", "cannot be loaded"),
    ];
    for (i, (text, expected)) in cases.iter().enumerate() {
        let file = write_file(dir.path(), &format!("bad{i}.toml"), &format!("output = \"out{i}\"\n{text}"));
        let output = arena(&["tournament", "run", file.to_str().unwrap()], &[]);
        let err = stderr(&output);
        assert_eq!(output.status.code(), Some(2), "case {i}: {err}");
        assert!(err.contains(expected), "case {i}: expected {expected:?} in: {err}");
        assert!(!err.contains("panicked") && !err.contains("backtrace"), "{err}");
        assert!(stdout(&output).is_empty(), "case {i}: nothing on stdout");
        assert!(!dir.path().join(format!("out{i}")).exists(), "case {i}: no output folder for a bad file");
    }
    let missing = arena(&["tournament", "run", "/nowhere/t.toml"], &[]);
    assert!(stderr(&missing).contains("cannot read the tournament file /nowhere/t.toml"));
}

#[test]
fn the_broken_library_is_named_in_the_error() {
    let dir = tempfile::tempdir().unwrap();
    let group = dir.path().join("submissions/group-7");
    std::fs::create_dir_all(&group).unwrap();
    std::fs::write(group.join("libplayer.so"), "garbage").unwrap();
    std::fs::create_dir_all(dir.path().join("submissions/group-8")).unwrap();
    std::fs::copy(library("easy"), dir.path().join("submissions/group-8/libeasy.so")).unwrap();
    let file = write_file(
        dir.path(),
        "t.toml",
        "format = \"round-robin\"\nseed = 1\nplayer_folders = [\"submissions\"]\n",
    );
    let err = stderr(&arena(&["tournament", "run", file.to_str().unwrap()], &[]));
    assert!(err.contains("group-7/libplayer.so") && err.contains("not a shared library"), "{err}");
    assert!(!err.contains("group-8"), "only the broken one is named: {err}");
}

#[test]
fn json_standings_and_files_agree() {
    let dir = tempfile::tempdir().unwrap();
    let text = "format = \"round-robin\"\ngames_per_pairing = 4\nseed = 3\noutput = \"out\"\nplayers = [\"easy\", \"medium\", \"hard\"]\n";
    let file = write_file(dir.path(), "t.toml", text);
    let output = arena(&["tournament", "run", file.to_str().unwrap(), "--json"], &[]);
    assert!(output.status.success(), "{}", stderr(&output));
    let printed: serde_json::Value =
        serde_json::from_slice(&output.stdout).expect("stdout is one JSON object");
    let saved: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("out/standings.json")).unwrap())
            .unwrap();
    assert_eq!(printed, saved);
    let text = printed.to_string();
    for name in ["easy", "medium", "hard"] {
        assert!(text.contains(&format!("\"{name}\"")), "{text}");
    }
    assert!(dir.path().join("out/standings.md").exists() && dir.path().join("out/standings.csv").exists());
}

#[test]
fn grade_writes_a_report_per_student() {
    let dir = tempfile::tempdir().unwrap();
    let file = write_file(
        dir.path(),
        "g.toml",
        "format = \"grade\"\nseed = 5\noutput = \"out\"\nplayers = [\"hard\", \"easy\"]\n",
    );
    let output = arena(&["tournament", "run", file.to_str().unwrap()], &[]);
    assert!(output.status.success(), "{}", stderr(&output));
    let (_, results, _) = journal::read(&dir.path().join("out").join(journal::FILE_NAME)).unwrap();
    assert_eq!(results.len(), 2 * 3 * 10);
    let summary = std::fs::read_to_string(dir.path().join("out/grades.md")).unwrap();
    assert!(summary.contains("hard") && summary.contains("easy"), "{summary}");
    // The students share their names with two levels: the students keep them.
    assert!(
        dir.path().join("out/grade-hard.md").exists(),
        "{:?}",
        std::fs::read_dir(dir.path().join("out")).unwrap().collect::<Vec<_>>()
    );
    assert!(dir.path().join("out/grade-easy.md").exists());
    let hard = std::fs::read_to_string(dir.path().join("out/grade-hard.md")).unwrap();
    assert!(hard.contains("PASS"), "hard passes the course's grading: {hard}");
}

#[test]
fn ctrl_c_stops_cleanly_and_the_run_resumes() {
    let dir = tempfile::tempdir().unwrap();
    let file = slow_tournament(dir.path(), "interrupted");
    let child = spawn_slow(&file, Stdio::piped());
    wait_for_journal_lines(&dir.path().join("interrupted"), 5);
    let status = Command::new("kill").args(["-INT", &child.id().to_string()]).status().unwrap();
    assert!(status.success());
    let output = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&output.stderr);
    if output.status.code() == Some(130) {
        assert!(err.contains("interrupted after") && err.contains("run the same command to resume"), "{err}");
        assert!(!dir.path().join("interrupted/standings.md").exists(), "no standings from a partial run");
    } else {
        // The last games finished before the signal arrived: a whole run.
        assert!(output.status.success(), "{err}");
    }
    let kept = journal_games(&dir.path().join("interrupted"));
    assert!(!kept.is_empty());
    let output = run_to_end(&file);
    assert!(output.status.success(), "{}", stderr(&output));
    let indices: Vec<usize> =
        journal_games(&dir.path().join("interrupted")).iter().map(|r| r.index).collect();
    assert_eq!(indices, (0..36).collect::<Vec<_>>());
}

#[test]
fn a_run_terminated_with_its_workers_journals_no_false_crash() {
    // What Slurm does to a cancelled job: SIGTERM to every process of it,
    // the workers first here. Their games must not count as crashes.
    let dir = tempfile::tempdir().unwrap();
    let whole = slow_tournament(dir.path(), "whole");
    assert!(run_to_end(&whole).status.success());
    let file = slow_tournament(dir.path(), "terminated");
    let child = spawn_slow(&file, Stdio::piped());
    wait_for_journal_lines(&dir.path().join("terminated"), 5);
    let pid = child.id().to_string();
    let workers = Command::new("pgrep").args(["-P", &pid]).output().unwrap();
    let workers: Vec<String> =
        String::from_utf8_lossy(&workers.stdout).split_whitespace().map(String::from).collect();
    assert!(!workers.is_empty(), "the bad player runs in worker processes");
    assert!(Command::new("kill").arg("-TERM").args(&workers).status().unwrap().success());
    std::thread::sleep(Duration::from_millis(20));
    assert!(Command::new("kill").args(["-TERM", &pid]).status().unwrap().success());
    let output = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(130), "{err}");
    let kept = journal_games(&dir.path().join("terminated"));
    assert!(kept.iter().all(|g| g.fault.is_none()), "{kept:?}");
    let output = run_to_end(&file);
    assert!(output.status.success(), "{}", stderr(&output));
    assert_eq!(journal_games(&dir.path().join("terminated")), journal_games(&dir.path().join("whole")));
}

/// The README's demo writes every game's replay, and the index it names
/// links each game to its viewer.
#[test]
fn the_demo_links_every_game_to_its_replay() {
    let dir = tempfile::tempdir().unwrap();
    let demo = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tournaments/demo.toml");
    let file = dir.path().join("demo.toml");
    std::fs::copy(&demo, &file).unwrap();
    let out = arena(&["tournament", "run", file.to_str().unwrap()], &[]);
    assert!(out.status.success(), "{}", stderr(&out));
    let folder = dir.path().join("results/demo");
    let said = format!("{}{}", stdout(&out), stderr(&out));
    assert!(said.contains("results/demo/index.html"), "the run names its index: {said}");
    let index = std::fs::read_to_string(folder.join("index.html")).unwrap();
    let games = journal_games(&folder).len();
    assert_eq!(games, 60);
    let links: Vec<&str> = index
        .split("href=\"")
        .skip(1)
        .filter_map(|l| l.split('"').next())
        .filter(|l| l.starts_with("replays/"))
        .collect();
    assert_eq!(links.len(), games, "every game linked: {index}");
    for link in links {
        assert!(folder.join(link).is_file(), "{link} is written");
        let replay = folder.join(link.replace(".html", ".json"));
        assert!(replay.is_file(), "{} beside its viewer", replay.display());
    }
}

#[test]
fn a_game_the_machine_spoils_is_postponed_never_counted_and_played_when_the_machine_frees_up() {
    // bad-player is kept from core 0 (idle priority, beside a busy loop
    // there) while the file `starve` exists: its game's first move waits
    // past the bound (20 x 300 ms at 100 ms a turn).
    let dir = tempfile::tempdir().unwrap();
    let bad = library("bad-player");
    let starve = support::write_file(dir.path(), "starve", "");
    let text = format!(
        "format = \"round-robin\"\ngames_per_pairing = 2\nseed = 3\nconcurrency = 1\noutput = \"out\"\n\
         players = [\"easy\", \"{}\"]\n[settings]\ntime_per_turn = \"100ms\"\nclock = \"wall\"\nsandbox = \"off\"\n",
        bad.display()
    );
    let file = write_file(dir.path(), "t.toml", &text);
    let starve_env = starve.to_str().unwrap();
    let env = [
        ("BAD_PLAYER_MODE", "starved"),
        ("BAD_PLAYER_SPIN_MS", "2000"),
        ("BAD_PLAYER_STARVE_WHILE", starve_env),
    ];
    let args = [
        &["tournament", "run", file.to_str().unwrap(), "--patience", "0"][..],
        &support::pass_env(&support::BAD_PLAYER_ORDERS),
    ]
    .concat();
    let load = support::BusyLoops::start(1, Some(0));
    let out = arena(&args, &env);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(75), "postponed, to try again later: {err}");
    assert!(
        err.contains("game(s) postponed: the machine was overloaded")
            && err.contains("run the same command again"),
        "{err}"
    );
    // The run paused at the spoiled game: nothing of it journaled, no
    // standings from a part of the games, no replay of it.
    let played = journal_games(&dir.path().join("out"));
    assert!(played.iter().all(|g| g.fault.as_ref().is_none_or(|f| f.kind != "machine")), "{played:?}");
    assert!(played.len() < 2, "{played:?}");
    assert!(!dir.path().join("out/standings.csv").exists());

    // The machine frees up: the same command plays what is missing.
    drop(load);
    std::fs::remove_file(&starve).unwrap();
    let out = arena(&args, &env);
    assert!(out.status.success(), "{}", stderr(&out));
    let games = journal_games(&dir.path().join("out"));
    assert_eq!(games.len(), 2, "{games:?}");
    assert!(games.iter().all(|g| g.fault.is_none() && g.replayed == 0), "{games:?}");
    assert!(dir.path().join("out/standings.csv").is_file());
}
