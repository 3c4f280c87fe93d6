//! How workers start: never by a fork of the arena (a fork copies the
//! page tables of the whole arena, which made a server holding a large
//! league spend its graders' time forking: `process_limits.rs`), yet under
//! the kernel's limits all the same, and gone when the arena is killed.

use std::{
    os::unix::process::CommandExt,
    path::Path,
    process::{Command, Stdio},
    sync::atomic::{AtomicUsize, Ordering},
    time::{Duration, Instant},
};

use arena_core::{
    players::isolation::{Hosted, Worker, WorkerLimits},
    players::Level,
    sandbox::Sandbox,
};

use super::{descendants, processes_left};
use crate::alone;
use crate::support::{self, library};

/// Forks of this process, counted by a `pthread_atfork` handler.
static FORKS: AtomicUsize = AtomicUsize::new(0);

extern "C" fn count_fork() {
    FORKS.fetch_add(1, Ordering::SeqCst);
}

/// This process's children (of any of its threads).
fn children() -> Vec<u32> {
    let mut found = Vec::new();
    for task in std::fs::read_dir("/proc/self/task").unwrap().flatten() {
        let text = std::fs::read_to_string(task.path().join("children")).unwrap_or_default();
        found.extend(text.split_whitespace().filter_map(|pid| pid.parse::<u32>().ok()));
    }
    found
}

/// The limit `name` (a row of /proc/PID/limits): its soft and hard values.
fn limit(pid: u32, name: &str) -> (String, String) {
    let text = std::fs::read_to_string(format!("/proc/{pid}/limits")).unwrap();
    let row = text.lines().find(|l| l.starts_with(name)).unwrap_or_else(|| panic!("no {name:?} in {text}"));
    let values: Vec<&str> = row[name.len()..].split_whitespace().collect();
    (values[0].to_string(), values[1].to_string())
}

#[test]
fn a_worker_starts_without_a_fork_of_the_arena_and_under_its_limits() {
    if !alone!() {
        return;
    }
    // SAFETY: registers a handler that only increments an atomic.
    assert_eq!(unsafe { libc::pthread_atfork(Some(count_fork), None, None) }, 0);
    // The counter sees what a `pre_exec` makes the standard library do.
    // SAFETY: the closure does nothing.
    let status = unsafe { Command::new("true").pre_exec(|| Ok(())).status() }.unwrap();
    assert!(status.success());
    assert_eq!(FORKS.load(Ordering::SeqCst), 1, "a spawn with pre_exec forks");

    let mut started = 0;
    for sandbox in [Sandbox::On, Sandbox::Off] {
        let limits = WorkerLimits {
            memory_bytes: 300 << 20,
            cpu_seconds: 77,
            processes: 99,
            sandbox,
            ..WorkerLimits::new().unwrap()
        };
        for hosted in [Hosted::Builtin(Level::Easy), Hosted::Library(library("easy"))] {
            let before = children();
            let worker = Worker::spawn(&hosted, &limits, Duration::from_secs(30))
                .unwrap_or_else(|fault| panic!("{hosted:?}, sandbox {sandbox:?}: {fault}"));
            started += 1;
            assert_eq!(FORKS.load(Ordering::SeqCst), 1, "{hosted:?}, sandbox {sandbox:?}: the arena forked");
            let new: Vec<u32> = children().into_iter().filter(|pid| !before.contains(pid)).collect();
            let [pid] = new[..] else { panic!("one worker process, not {new:?}") };
            // Sandboxed, this is the keeper; the player's process is its
            // child and inherits them.
            for (name, value) in [
                ("Max address space", "314572800"),
                ("Max cpu time", "77"),
                ("Max processes", "99"),
                ("Max core file size", "0"),
                // It may not raise its priority (a server's pages run above its games).
                ("Max nice priority", "0"),
            ] {
                let expected = (value.to_string(), value.to_string());
                assert_eq!(limit(pid, name), expected, "{hosted:?}, sandbox {sandbox:?}: {name}");
            }
            drop(worker);
        }
    }
    assert_eq!(started, 4);
}

fn running(pid: u32) -> bool {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    // Gone, or a zombie waiting to be reaped: not running.
    stat.rfind(')').is_some_and(|end| !stat[end + 2..].starts_with('Z'))
}

/// The death signal the worker sets itself (it is no longer set between
/// fork and exec) still takes every worker process down with the arena.
#[test]
fn workers_die_with_an_arena_killed_with_sigkill() {
    for sandbox in ["on", "off"] {
        let player = library("bad-player");
        let args = [
            &["play", player.to_str().unwrap(), "easy", "--tc", "60s", "--sandbox", sandbox][..],
            &support::pass_env(&support::BAD_PLAYER_ORDERS),
        ]
        .concat();
        let mut arena = Command::new(env!("CARGO_BIN_EXE_arena"))
            .args(&args)
            .env("BAD_PLAYER_MODE", "sleep-forever")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        // Both seats' workers up: the bad player's asleep in its turn.
        let deadline = Instant::now() + Duration::from_secs(30);
        let mut workers = Vec::new();
        while Instant::now() < deadline {
            workers = descendants(arena.id());
            let players = workers.iter().filter(|pid| is_worker(**pid, &player)).count();
            if players >= 1 && workers.len() >= 2 {
                break;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        assert!(workers.iter().any(|pid| is_worker(*pid, &player)), "sandbox {sandbox}: no worker started");
        arena.kill().unwrap(); // SIGKILL: no clean-up of its own
        arena.wait().unwrap();
        let deadline = Instant::now() + Duration::from_secs(5);
        while workers.iter().any(|pid| running(*pid)) && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(20));
        }
        let left: Vec<&u32> = workers.iter().filter(|pid| running(**pid)).collect();
        assert!(left.is_empty(), "sandbox {sandbox}: worker processes {left:?} outlived the arena");
    }
}

/// Killed at any moment of its workers' start (the sandbox's init forked
/// but not yet set to die with its keeper, say), the arena leaves no
/// process behind. (The moments are tried in turn; beside two busy loops
/// the init's window was hit about once in 60 kills before it was closed.)
#[test]
fn an_arena_killed_while_its_sandboxed_workers_start_leaves_no_process() {
    // A copy of its own: its path names this test's processes alone.
    let folder = tempfile::tempdir().unwrap();
    let copy = folder.path().join("libbad_player.so");
    std::fs::copy(library("bad-player"), &copy).unwrap();
    let path = copy.to_str().unwrap();
    for step in 0..24 {
        let mut arena = Command::new(env!("CARGO_BIN_EXE_arena"))
            .args(["play", path, "easy", "--tc", "60s", "--sandbox", "on"])
            .args(support::pass_env(&support::BAD_PLAYER_ORDERS))
            .env("BAD_PLAYER_MODE", "sleep-forever")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        std::thread::sleep(Duration::from_millis(step * 6));
        arena.kill().unwrap();
        arena.wait().unwrap();
    }
    assert_eq!(processes_left(path), Vec::<String>::new(), "processes outlived their arena");
}

/// Whether process `pid` is a worker hosting `player`.
fn is_worker(pid: u32, player: &Path) -> bool {
    let command_line = std::fs::read(format!("/proc/{pid}/cmdline")).unwrap_or_default();
    let needle = player.file_name().unwrap().as_encoded_bytes();
    command_line.windows(needle.len()).any(|w| w == needle)
}

#[test]
fn a_sandboxed_players_start_up_is_not_charged_the_time_before_it_is_born() {
    // The arena at nice 19 on core 0 beside a busy loop there: a sandboxed
    // worker's keeper (the arena's own code, which sets up the sandbox and
    // then starts the player) runs on slivers of the core, longer on the
    // wall than the 100 ms start-up budget. That time is the machine's and
    // the arena's, never the player's: it was charged as the player's
    // ("timeout in start-up: 0.21 s > 0.10 s"), failing a player that had
    // not run an instruction.
    let _load = support::BusyLoops::start(1, Some(0));
    let player = library("easy");
    let out = Command::new("taskset")
        .args(["-c", "0", "nice", "-n", "19", env!("CARGO_BIN_EXE_arena"), "play"])
        .arg(&player)
        .args(["easy", "--games", "2", "--seed", "5", "--startup-time", "100ms", "--sandbox", "on"])
        .output()
        .unwrap();
    let said = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success(), "{said}");
    assert!(said.contains("2 games") && !said.contains("timeout"), "{said}");
}

/// `arena play` plays each game on a core of its own, its workers with it
/// (as the server does): a worker's reply hands the core straight back to
/// the arena instead of waking another. The player fails any move made
/// where it may run on more than one core; two games at once.
#[test]
fn a_commands_games_each_run_their_workers_on_one_core() {
    let bad = library("bad-player");
    let mut args = vec![bad.to_str().unwrap(), "easy", "--games", "4", "--concurrency", "2", "--seed", "3"];
    args.extend(support::pass_env(&support::BAD_PLAYER_ORDERS));
    let doc = support::play_json(&args, &[("BAD_PLAYER_MODE", "one-core")]);
    assert_eq!(doc["games"].as_array().unwrap().len(), 4, "{doc}");
    let failures = doc["players"][0]["failures"].as_object().unwrap();
    assert!(failures.values().all(|n| n == 0), "a move made on more than one core: {failures:?}");
}
