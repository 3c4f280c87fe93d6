//! `arena tournament`: files run, resumed after a kill, refused when
//! malformed, graded (run.rs); every game's tournaments, their duplicate
//! format and replays (games.rs); the grade format's own levels, games and
//! pass marks, of two-player and single-player games (grade.rs); sharded on
//! one machine (shards.rs) and through a Slurm cluster (slurm.rs).

mod games;
mod grade;
mod gradescope;
mod memory;
mod run;
mod shards;
mod slurm;
mod swiss;

use std::{
    path::Path,
    process::{Command, Stdio},
    time::{Duration, Instant},
};

use crate::support::{arena, journal_games, stderr};
use arena_core::tournament::{journal, record::GameResult};

/// Runs `file` (whose output folder is `out`) in a process killed with
/// SIGKILL once its journal holds more than `lines` games (or after a
/// minute), then runs it again to its end: the games journaled when it was
/// killed, and in the end (in schedule order, times left out).
fn kill_and_resume(file: &Path, out: &Path, lines: usize) -> (Vec<GameResult>, Vec<GameResult>) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_arena"))
        .args(["tournament", "run", file.to_str().unwrap()])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let journal_path = out.join(journal::FILE_NAME);
    let started = Instant::now();
    while std::fs::read_to_string(&journal_path).map(|t| t.lines().count()).unwrap_or(0) <= lines
        && started.elapsed() < Duration::from_secs(60)
    {
        std::thread::sleep(Duration::from_millis(1));
    }
    child.kill().unwrap(); // SIGKILL
    child.wait().unwrap();
    let partial = journal_games(out);

    let output = arena(&["tournament", "run", file.to_str().unwrap()], &[]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(stderr(&output).contains("resuming: "), "{}", stderr(&output));
    (partial, journal_games(out))
}
