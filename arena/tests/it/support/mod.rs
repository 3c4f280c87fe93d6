//! Shared by the integration tests: builds the player libraries (the real
//! cdylibs, loaded from disk through the ABI) and runs the arena binary.

pub mod alone;
pub mod browser;
pub mod devtools;
pub mod unprivileged;

use std::{
    path::{Path, PathBuf},
    process::{Command, Output},
    sync::OnceLock,
};

/// The libraries the tests load: the reference levels and the fixtures.
const LIBRARY_CRATES: &[&str] = &[
    "easy",
    "medium",
    "hard",
    "menace",
    "expert",
    "template-player",
    "bad-player",
    "escape-player",
    "not-a-player",
    "incompatible-player",
    "future-player",
    "tune-toy-player",
];

pub fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap().to_path_buf()
}

/// Where the player libraries are when this test run has built them
/// already: given to a test re-run in a process of its own (`alone!`).
const LIBRARIES: &str = "ARENA_TEST_LIBRARIES";

/// Builds every library crate once per test run (cargo skips what is
/// fresh) and returns the folder holding the `.so` files.
pub fn libraries_dir() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        if let Some(built) = std::env::var_os(LIBRARIES) {
            return PathBuf::from(built);
        }
        let target = std::env::var_os("CARGO_TARGET_DIR")
            .map(PathBuf::from)
            .unwrap_or_else(|| workspace_root().join("target"));
        let mut cargo = Command::new(env!("CARGO"));
        cargo.current_dir(workspace_root()).arg("build").arg("--quiet");
        for name in LIBRARY_CRATES {
            cargo.args(["-p", name]);
        }
        let status = cargo.status().expect("cargo runs");
        assert!(status.success(), "building the player libraries failed");
        target.join("debug")
    })
}

/// The path of the library built from crate `name`.
pub fn library(name: &str) -> PathBuf {
    libraries_dir().join(format!("lib{}.so", name.replace('-', "_")))
}

/// The folder of the frozen fixture crate built for ABI `version`: a
/// workspace of its own, with its own copy of player-api as released.
pub fn abi_fixture_crate(version: player_api::abi::AbiVersion) -> PathBuf {
    workspace_root().join(format!("arena/tests/fixtures/abi-v{}-player", version.number()))
}

/// The library of every released ABI version's frozen fixture, oldest
/// first: built once per test run (cargo skips what is fresh), against its
/// own lock file, into a target folder of their own.
pub fn abi_fixtures() -> &'static [(player_api::abi::AbiVersion, PathBuf)] {
    static BUILT: OnceLock<Vec<(player_api::abi::AbiVersion, PathBuf)>> = OnceLock::new();
    BUILT.get_or_init(|| {
        let target = std::env::var_os("CARGO_TARGET_DIR")
            .map(PathBuf::from)
            .unwrap_or_else(|| workspace_root().join("target"))
            .join("abi-fixtures");
        player_api::abi::AbiVersion::ALL
            .iter()
            .map(|&version| {
                let folder = abi_fixture_crate(version);
                let status = Command::new(env!("CARGO"))
                    .args(["build", "--quiet", "--locked"])
                    .current_dir(&folder)
                    .env("CARGO_TARGET_DIR", &target)
                    .status()
                    .expect("cargo runs");
                assert!(status.success(), "building {} failed", folder.display());
                let name = format!("libabi_v{}_player.so", version.number());
                (version, target.join("debug").join(name))
            })
            .collect()
    })
}

/// The variables the bad-player fixture reads (its orders): a worker gets
/// them only when the arena is told to pass them (`--pass-env`, the
/// tournament file's `pass_env`, `WorkerLimits::pass_env`).
pub const BAD_PLAYER_ORDERS: [&str; 8] = [
    "BAD_PLAYER_MODE",
    "BAD_PLAYER_CHILDREN",
    "BAD_PLAYER_STARVE_WHILE",
    "BAD_PLAYER_SLEEP_MS",
    "BAD_PLAYER_PIDFILE",
    "BAD_PLAYER_FLOOD_MB",
    "BAD_PLAYER_SPIN_MS",
    "BAD_PLAYER_CORE",
];

pub use arena_core::measure::busy_loops::BusyLoops;

/// Runs its closure when dropped, a panic's unwinding included: what a test
/// must undo however it ends (a thread told to stop, say).
pub struct OnDrop<F: FnMut()>(pub F);

impl<F: FnMut()> Drop for OnDrop<F> {
    fn drop(&mut self) {
        (self.0)()
    }
}

/// `--pass-env NAME` for each of `names`.
pub fn pass_env(names: &[&'static str]) -> Vec<&'static str> {
    names.iter().flat_map(|name| ["--pass-env", name]).collect()
}

/// Runs the arena binary with `args` and the given environment.
pub fn arena(args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_arena"));
    command.args(args).env_remove("RUST_LOG");
    for (key, value) in env {
        command.env(key, value);
    }
    command.output().expect("the arena binary runs")
}

pub fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

pub fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// Runs `arena play ... --json` and parses what it prints.
pub fn play_json(args: &[&str], env: &[(&str, &str)]) -> serde_json::Value {
    let mut all = vec!["play"];
    all.extend_from_slice(args);
    all.push("--json");
    let output = arena(&all, env);
    assert!(output.status.success(), "arena {all:?} failed: {}", stderr(&output));
    serde_json::from_slice(&output.stdout).unwrap_or_else(|e| panic!("not JSON ({e}): {}", stdout(&output)))
}

/// Whether a Slurm cluster answers (a node idle, busy, or cleaning up
/// after a job, as it is a moment after a test cancels one). Without one a
/// test that needs it says so and passes, unless ARENA_REQUIRE_SLURM=1
/// (CI) makes it fail.
pub fn slurm_cluster() -> bool {
    let answers = || {
        Command::new("sinfo")
            .args(["-h", "-o", "%T"])
            .output()
            .map(|o| {
                let states = String::from_utf8_lossy(&o.stdout);
                o.status.success()
                    && states
                        .split_whitespace()
                        .any(|s| ["idle", "mixed", "allocated", "completing"].contains(&s))
            })
            .unwrap_or(false)
    };
    let required = std::env::var("ARENA_REQUIRE_SLURM").as_deref() == Ok("1");
    // Where a cluster must answer, a busy controller gets a few seconds
    // (it once missed one `sinfo` while other tests' jobs ran).
    let up = answers()
        || (required
            && (0..10).any(|_| {
                std::thread::sleep(std::time::Duration::from_secs(1));
                answers()
            }));
    if !up {
        assert!(
            !required,
            "no Slurm cluster answers (sinfo) and ARENA_REQUIRE_SLURM=1: start one with `sudo .ci/slurm-up`"
        );
        eprintln!("skipped: no Slurm cluster (start one with `sudo .ci/slurm-up`)");
    }
    up
}

/// Writes `text` to `dir/name` and returns the path.
pub fn write_file(dir: &Path, name: &str, text: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

/// The games in a tournament's journal, times left out, in schedule order.
pub fn journal_games(folder: &Path) -> Vec<arena_core::tournament::record::GameResult> {
    use arena_core::tournament::{journal, record::GameResult};
    let (_, mut results, _) = journal::read(&folder.join(journal::FILE_NAME)).unwrap();
    results.sort_by_key(|r| r.index);
    results.iter().map(GameResult::without_times).collect()
}

/// The games of every journal in a tournament's output folder (a single
/// run's and the shards'), times left out, in schedule order; a game in
/// two journals appears twice.
pub fn all_journal_games(folder: &Path) -> Vec<arena_core::tournament::record::GameResult> {
    use arena_core::tournament::{journal, merge, record::GameResult};
    let mut results: Vec<GameResult> = merge::journal_files(folder)
        .unwrap()
        .iter()
        .flat_map(|path| journal::read(path).unwrap().1)
        .map(|r| r.without_times())
        .collect();
    results.sort_by_key(|r| r.index);
    results
}

/// A standings CSV without its time columns (which differ run to run).
pub fn csv_without_times(csv: &str) -> Vec<String> {
    let rows: Vec<Vec<&str>> = csv.lines().map(|l| l.split(',').collect()).collect();
    let timed: Vec<bool> =
        rows[0].iter().map(|h| h.ends_with("_us") || h.ends_with("_ms") || h.contains("time")).collect();
    rows.iter()
        .map(|row| row.iter().zip(&timed).filter(|(_, &t)| !t).map(|(v, _)| *v).collect::<Vec<_>>().join(","))
        .collect()
}

/// A fresh virtual environment `name` in `dir`, without pip and without the
/// system's site-packages (made offline): returns its python.
pub fn python_venv(dir: &Path, name: &str) -> PathBuf {
    let venv = dir.join(name);
    let status = Command::new("python3").args(["-m", "venv", "--without-pip"]).arg(&venv).status().unwrap();
    assert!(status.success(), "python3 -m venv failed");
    venv.join("bin/python")
}

/// `python_venv` with numpy and nothing else (the course's one import): the
/// system python's numpy copied in (hard links where it can: a sandboxed
/// player reads no folder outside its interpreter's), so it is made
/// offline, and no `arena_player` that the system may have installed is seen.
pub fn python_venv_with_numpy(dir: &Path, name: &str) -> PathBuf {
    let python = python_venv(dir, name);
    let ask = "import numpy, os; print(os.path.dirname(os.path.dirname(numpy.__file__)))";
    let found = Command::new("python3").args(["-c", ask]).output().unwrap();
    assert!(
        found.status.success(),
        "these tests need python3 with numpy: run `python3 -m pip install numpy`"
    );
    let system = PathBuf::from(String::from_utf8_lossy(&found.stdout).trim());
    let ask = "import sysconfig; print(sysconfig.get_paths()['purelib'])";
    let venv = Command::new(&python).args(["-c", ask]).output().unwrap();
    let site = PathBuf::from(String::from_utf8_lossy(&venv.stdout).trim());
    // numpy's wheels keep their libraries beside it (numpy.libs).
    for entry in std::fs::read_dir(&system).unwrap().flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        if name == "numpy" || name == "numpy.libs" {
            let copy = |flags: &str| Command::new("cp").arg(flags).arg(entry.path()).arg(&site).status();
            let copied = copy("-al").is_ok_and(|s| s.success()) || copy("-a").is_ok_and(|s| s.success());
            assert!(copied, "cannot copy {} into {}", entry.path().display(), site.display());
        }
    }
    python
}
