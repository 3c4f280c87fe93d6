//! Isolated players: every way a player library can misbehave ends in a
//! recorded loss with a clear reason, its worker gone (no zombie, no leaked
//! descriptor), and the next game played with a fresh worker.
//!
//! The misbehaviour is picked by BAD_PLAYER_MODE, which workers are passed
//! (`WorkerLimits::pass_env`) when they start. A test that plays runs alone
//! in a process of its own (`alone!`): the mode travels in that process's
//! environment, and the descriptors and children it counts are its own.

use arena_core::games::intuitive::IntuitiveAi;
use arena_core::play::solo::{self, Budgets};
use arena_core::play::time_control::TimeControl;
use std::time::{Duration, Instant};

use crate::alone;
use crate::support::{self, library};
use arena_core::{
    games::trap::referee::TrapSettings,
    games::trap::Trap,
    play::fault::{Fault, FaultKind},
    play::two_player::{self, MatchConfig, MatchResult},
    players::isolation::WorkerLimits,
    players::plugin::LoadError,
    players::{Hosting, Level, Player, PlayerSpec},
    sandbox::Sandbox,
};

fn limits() -> WorkerLimits {
    WorkerLimits {
        memory_bytes: 256 << 20,
        pass_env: support::BAD_PLAYER_ORDERS.map(String::from).to_vec(),
        ..WorkerLimits::new().unwrap()
    }
}

fn settings() -> TrapSettings {
    settings_with_budget(Duration::from_millis(300))
}

fn settings_with_budget(turn_budget: Duration) -> TrapSettings {
    TrapSettings {
        time: TimeControl::PerTurn(turn_budget),
        startup_budget: Duration::from_secs(5),
        ..TrapSettings::default()
    }
}

/// What this process holds: open descriptors and child processes. (Threads
/// are counted in the soak benchmark: the test harness starts its own.)
#[derive(Debug, PartialEq)]
struct Holdings {
    descriptors: usize,
    children: Vec<String>,
}

fn holdings() -> Holdings {
    let count = |dir: &str| std::fs::read_dir(dir).unwrap().count();
    let me = std::process::id().to_string();
    let children = std::fs::read_dir("/proc")
        .unwrap()
        .filter_map(|e| std::fs::read_to_string(e.ok()?.path().join("stat")).ok())
        .filter(|stat| {
            // pid (comm) state ppid ...: comm may hold spaces, so split after ')'.
            let after = &stat[stat.rfind(')').unwrap() + 2..];
            after.split(' ').nth(1) == Some(me.as_str())
        })
        .collect();
    Holdings { descriptors: count("/proc/self/fd"), children }
}

/// Plays two games (one per seat) of bad-player in `mode` against Easy,
/// isolated, and checks that nothing is left behind.
fn play_bad(mode: &str, extra_env: &[(&str, &str)]) -> MatchResult<Trap> {
    play_bad_with(mode, extra_env, settings())
}

/// Callers run alone (`alone!`): the mode is set in the process's
/// environment, and its descriptors and children are counted.
fn play_bad_with(mode: &str, extra_env: &[(&str, &str)], settings: TrapSettings) -> MatchResult<Trap> {
    play_bad_under(mode, extra_env, settings, limits())
}

fn play_bad_under(
    mode: &str,
    extra_env: &[(&str, &str)],
    settings: TrapSettings,
    limits: WorkerLimits,
) -> MatchResult<Trap> {
    let path = library("bad-player");
    std::env::set_var("BAD_PLAYER_MODE", mode);
    for (key, value) in extra_env {
        std::env::set_var(key, value);
    }
    let before = holdings();
    let hosting = Hosting::isolated(limits);
    let player = Player::load(&PlayerSpec::Library(path), &hosting, settings.startup_budget).unwrap();
    let easy = Player::Builtin(Level::Easy);
    let config = MatchConfig {
        settings,
        games: 2,
        seed: 8,
        hosting,
        first_game: 0,
        concurrency: 1,
        controls: [None; 2],
        live: None,
    };
    let result = two_player::play([&player, &easy], &config, &mut |_| {}, None);
    let after = holdings();
    std::env::remove_var("BAD_PLAYER_MODE");
    for (key, _) in extra_env {
        std::env::remove_var(key);
    }
    assert_eq!(after, before, "{mode}: the arena must hold no more descriptors, threads or children");
    assert_eq!(result.games.len(), 2, "{mode}: the arena goes on to the next game");
    result
}

/// The faults of the bad player in both games (each with a fresh worker).
fn faults(result: &MatchResult<Trap>) -> Vec<Fault> {
    result
        .games
        .iter()
        .map(|g| match g.fault() {
            Some((0, fault)) => fault.clone(),
            other => panic!("the bad player should have faulted, got {other:?} ({})", g.record.ending),
        })
        .collect()
}

fn assert_both(mode: &str, kind: FaultKind, reason: impl Fn(&str) -> bool) {
    assert_both_with(mode, kind, reason, settings())
}

fn assert_both_with(mode: &str, kind: FaultKind, reason: impl Fn(&str) -> bool, settings: TrapSettings) {
    let result = play_bad_with(mode, &[], settings);
    for fault in faults(&result) {
        assert_eq!(fault.kind(), kind, "{mode}: {fault}");
        assert!(reason(&fault.to_string()), "{mode}: unexpected reason: {fault}");
    }
}

#[test]
fn a_panic_is_reported_with_its_message() {
    if !alone!() {
        return;
    }
    assert_both("panic", FaultKind::Panicked, |r| {
        r.starts_with("panicked: bad-player panics on purpose at ")
    });
}

#[test]
fn a_segfault_is_a_crash() {
    if !alone!() {
        return;
    }
    assert_both("segfault", FaultKind::Crashed, |r| {
        r == "crashed: killed by signal 11 (SIGSEGV, a segmentation fault)"
    });
}

#[test]
fn an_abort_is_a_crash() {
    if !alone!() {
        return;
    }
    assert_both("abort", FaultKind::Crashed, |r| r == "crashed: killed by signal 6 (SIGABRT, an abort)");
}

#[test]
fn exiting_is_a_crash() {
    if !alone!() {
        return;
    }
    assert_both("exit", FaultKind::Crashed, |r| r == "crashed: exited with status 0");
}

#[test]
fn an_endless_loop_is_killed_at_the_deadline() {
    if !alone!() {
        return;
    }
    assert_both("loop", FaultKind::Timeout, |r| {
        r.starts_with("timeout: ") && r.ends_with("> 0.30 s, no answer: killed")
    });
}

#[test]
fn sleeping_forever_is_killed_at_the_deadline() {
    if !alone!() {
        return;
    }
    assert_both("sleep-forever", FaultKind::Timeout, |r| r.ends_with("no answer: killed"));
}

#[test]
fn endless_allocation_hits_the_memory_cap() {
    if !alone!() {
        return;
    }
    // A generous budget: touching 256 MiB takes a while on a busy machine.
    let reason = |r: &str| r.contains("SIGABRT") && r.ends_with("out of memory (cap 256 MiB)");
    assert_both_with("alloc", FaultKind::Crashed, reason, settings_with_budget(Duration::from_secs(10)));
}

#[test]
fn flooding_the_output_is_stopped() {
    if !alone!() {
        return;
    }
    assert_both("flood", FaultKind::Output, |r| r == "output flood: printed more than 1024 KiB in one game");
}

#[test]
fn garbage_on_the_protocol_descriptors_is_a_protocol_fault() {
    if !alone!() {
        return;
    }
    assert_both("garbage", FaultKind::Protocol, |r| r.starts_with("garbage reply: "));
}

#[test]
fn hanging_up_without_answering_loses() {
    if !alone!() {
        return;
    }
    let result = play_bad("hangup", &[]);
    for fault in faults(&result) {
        assert!(matches!(fault.kind(), FaultKind::Protocol | FaultKind::Crashed), "{fault}");
    }
}

#[test]
fn printing_a_little_is_fine_and_does_not_break_the_protocol() {
    if !alone!() {
        return;
    }
    let result = play_bad("chatty", &[]);
    assert!(result.games.iter().all(|g| g.fault().is_none()), "chatty output must not count as a fault");
    assert!(result.games.iter().all(|g| !g.record.turns.is_empty()));
}

/// Unsandboxed, the worker's process group is what takes its children
/// down (sandboxed, its PID namespace does, setsid or not: sandbox.rs;
/// and the sandbox would not let it write the pid file).
#[test]
fn forked_children_die_with_the_worker() {
    if !alone!() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let pidfile = dir.path().join("pids");
    let unsandboxed = WorkerLimits { sandbox: Sandbox::Off, ..limits() };
    let env = [("BAD_PLAYER_PIDFILE", pidfile.to_str().unwrap())];
    let result = play_bad_under("fork", &env, settings(), unsandboxed);
    assert!(faults(&result).iter().all(|f| f.kind() == FaultKind::Timeout));
    let pids = std::fs::read_to_string(&pidfile).expect("the player started children");
    let state = |pid: &str| {
        std::fs::read_to_string(format!("/proc/{pid}/stat")).ok().map(|stat| {
            let after = stat[stat.rfind(')').unwrap() + 2..].to_string();
            after.chars().next().unwrap()
        })
    };
    for pid in pids.lines() {
        // Gone, or a zombie waiting for init: not running. SIGKILL takes
        // effect when the killed task is next scheduled, which on a loaded
        // machine can be a moment after the group was signalled.
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(2);
        while !matches!(state(pid), None | Some('Z')) && std::time::Instant::now() < deadline {
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
        let state = state(pid);
        assert!(matches!(state, None | Some('Z')), "child {pid} still runs (state {state:?})");
    }
}

#[test]
fn a_player_that_ignores_its_deadline_is_killed_within_budget_grace_and_100ms() {
    if !alone!() {
        return;
    }
    let settings = settings();
    let result = play_bad("sleep-forever", &[]);
    for fault in faults(&result) {
        let Fault::Timeout { used, budget, killed, .. } = fault else { panic!("{fault}") };
        assert!(killed);
        assert_eq!(budget, settings.time.first_turn());
        let limit = budget + arena_core::play::clock::KILL_MARGIN + Duration::from_millis(100);
        assert!(used >= budget && used <= limit, "killed after {used:?}, limit {limit:?}");
    }
}

#[test]
fn a_whole_game_against_a_hanging_player_takes_about_its_budget() {
    if !alone!() {
        return;
    }
    let _ = library("bad-player");
    let started = Instant::now();
    play_bad("loop", &[]);
    // Two games, each: start a worker, then one turn killed at budget + the
    // margin of its own time. The slack is for a loaded machine, where starting
    // workers and the wait for a core (not the player's) take seconds; it
    // stays under the 10 s that any wait of the referee's beyond the kill
    // (a backstop, a worker reaped late) would add.
    let per_game =
        settings().time.first_turn() + arena_core::play::clock::KILL_MARGIN + Duration::from_millis(100);
    assert!(started.elapsed() < 2 * per_game + Duration::from_secs(8), "{:?}", started.elapsed());
}

fn load_isolated(path: &std::path::Path) -> Result<Player, LoadError> {
    let hosting = Hosting::isolated(limits());
    Player::load(&PlayerSpec::Library(path.to_path_buf()), &hosting, Duration::from_secs(5))
}

#[test]
fn a_library_that_fails_to_load_is_a_clear_error() {
    let not_a_player = load_isolated(&library("not-a-player")).err().expect("must not load").to_string();
    assert!(
        not_a_player.contains("not an arena player") && not_a_player.contains("export_player!"),
        "{not_a_player}"
    );
    let dir = tempfile::tempdir().unwrap();
    let fake = dir.path().join("libfake.so");
    std::fs::write(&fake, "not a library").unwrap();
    let fake_error = load_isolated(&fake).err().expect("must not load").to_string();
    assert!(fake_error.contains("is not a shared library"), "{fake_error}");
}

#[test]
fn a_player_that_cannot_be_made_is_a_clear_error() {
    if !alone!() {
        return;
    }
    let path = library("bad-player");
    let error = {
        std::env::set_var("BAD_PLAYER_MODE", "panic-new");
        let hosting = Hosting::isolated(limits());
        let loaded = Player::load(&PlayerSpec::Library(path), &hosting, Duration::from_secs(5));
        std::env::remove_var("BAD_PLAYER_MODE");
        loaded.err().map(|e| e.to_string())
    };
    let error = error.expect("must not load");
    assert!(error.contains("panicked while starting: bad-player refuses to start"), "{error}");
}

/// Intuitive AI: two games of bad-player in `mode`, isolated, each with a
/// fresh worker; checks that nothing is left behind and returns how they ended.
fn intuitive_bad(mode: &str) -> Vec<arena_core::games::intuitive::record::IntuitiveRecord> {
    use arena_core::games::intuitive::record::IntuitiveSettings;
    let budgets = Budgets {
        turn: TimeControl::PerTurn(Duration::from_millis(300)),
        startup: Duration::from_secs(5),
        ..Budgets::default()
    };
    let settings = IntuitiveSettings { budgets, ..IntuitiveSettings::default() };
    std::env::set_var("BAD_PLAYER_MODE", mode);
    let before = holdings();
    let hosting = Hosting::isolated(limits());
    let spec = PlayerSpec::Library(library("bad-player"));
    let player = Player::load(&spec, &hosting, settings.budgets.startup).unwrap();
    let records = (0..2)
        .map(|seed| {
            let mut agent = player.new_agent::<IntuitiveAi>(&hosting, settings.budgets.startup).unwrap();
            solo::play::<IntuitiveAi>(&settings, seed, agent.as_mut())
        })
        .collect();
    let after = holdings();
    std::env::remove_var("BAD_PLAYER_MODE");
    assert_eq!(after, before, "{mode}: the arena must hold no more descriptors or children");
    records
}

fn intuitive_faults(mode: &str) -> Vec<Fault> {
    use arena_core::games::intuitive::record::IntuitiveEnding;
    intuitive_bad(mode)
        .into_iter()
        .map(|record| {
            assert_eq!(record.score, -1, "{mode}: a fault scores -1");
            match record.ending {
                IntuitiveEnding::Fault(fault) => fault,
                other => panic!("{mode}: the bad player should have faulted, got {other}"),
            }
        })
        .collect()
}

#[test]
fn an_intuitive_ai_player_in_an_endless_loop_is_killed_at_the_deadline() {
    if !alone!() {
        return;
    }
    for fault in intuitive_faults("loop") {
        let Fault::Timeout { what, used, budget, killed, .. } = fault else { panic!("{fault}") };
        assert!(killed && what == "turn", "{what} {killed}");
        let limit = budget + arena_core::play::clock::KILL_MARGIN + Duration::from_millis(100);
        assert!(used >= budget && used <= limit, "killed after {used:?}, limit {limit:?}");
    }
}

#[test]
fn an_intuitive_ai_player_that_panics_or_crashes_loses_with_the_reason() {
    if !alone!() {
        return;
    }
    for fault in intuitive_faults("panic") {
        let reason = fault.to_string();
        assert!(reason.starts_with("panicked: bad-player panics on purpose at "), "{reason}");
    }
    for fault in intuitive_faults("segfault") {
        assert_eq!(fault.kind(), FaultKind::Crashed, "{fault}");
        assert!(fault.to_string().contains("SIGSEGV"), "{fault}");
    }
}

#[test]
fn an_intuitive_ai_reveal_off_the_board_is_illegal_and_chatter_is_harmless() {
    use arena_core::games::intuitive::record::{IntuitiveEnd, IntuitiveEnding};
    if !alone!() {
        return;
    }
    for record in intuitive_bad("off-board") {
        assert_eq!(record.ending.to_string(), "illegal reveal (4,0): off the board");
        assert!(matches!(record.ending, IntuitiveEnding::Rules(IntuitiveEnd::Illegal { .. })));
    }
    for record in intuitive_bad("chatty") {
        assert!(!matches!(
            record.ending,
            IntuitiveEnding::Fault(_) | IntuitiveEnding::Rules(IntuitiveEnd::Illegal { .. })
        ));
        assert!(!record.reveals.is_empty());
    }
}
