//! The server's threads' priorities: games level with the rest of the
//! machine, pages at `--pages-nice`.
//!
//! Games run at `--games-nice` (0: a fair share beside other users' work;
//! below that, a real course player could not be played at all). Pages
//! compete with games and other users' busy loops alike, and still answer
//! within tens of milliseconds at their p99 (docs/benchmarks.md, "The
//! server on a shared machine"); on a machine loaded far more, the threads
//! that answer requests (the runtime's, and its blocking pool's database
//! calls) can run above the games: `--pages-nice -5`. That needs the right
//! to raise a thread's priority: root, or the unit's `LimitNICE=`; without
//! it pages stay at the server's own priority, and a line says so once.
//!
//! Invariant: a game is played only on a thread at the games' nice (the
//! grading slots, scrimmages, the league, [`games_here`] for the rest); a
//! worker inherits its thread's, and cannot raise it (`RLIMIT_NICE` 0,
//! `ProcessLimits`).

use std::sync::atomic::{AtomicBool, Ordering};

/// Sets the calling thread's nice value (and so that of the threads and
/// workers it starts); `what` names the threads in the line said once if
/// it may not.
pub fn set(nice: i32, what: &str) {
    let fix = format!(
        "raising a priority needs root, or LimitNICE={} in the systemd unit: docs/server.md, \"Fair verdicts on a shared machine\"",
        20 - nice
    );
    set_or_say(nice, what, &fix);
}

/// [`set`], with `fix` the advice in the line said if it may not.
pub fn set_or_say(nice: i32, what: &str, fix: &str) {
    static SAID: AtomicBool = AtomicBool::new(false);
    if current() == nice {
        return;
    }
    // SAFETY: plain system calls on the calling thread.
    let refused = unsafe {
        let thread = libc::syscall(libc::SYS_gettid) as libc::id_t;
        libc::setpriority(libc::PRIO_PROCESS, thread, nice) != 0
    };
    if refused && !SAID.swap(true, Ordering::Relaxed) {
        tracing::warn!("cannot run the {what} at nice {nice}: {} ({fix})", std::io::Error::last_os_error());
    }
}

/// The calling thread's nice value.
pub fn current() -> i32 {
    // SAFETY: as above. getpriority's -1 is a value here: the thread exists.
    unsafe {
        let thread = libc::syscall(libc::SYS_gettid) as libc::id_t;
        libc::getpriority(libc::PRIO_PROCESS, thread)
    }
}

/// Runs `play` (games) on the calling thread at `games`, then puts the
/// thread back at the nice it had: for games started from a thread that
/// answers requests (`finalize`, from the staff's API).
pub fn games_here<T>(games: i32, play: impl FnOnce() -> T) -> T {
    let before = current();
    set(games, "games");
    let played = play();
    set(before, "pages");
    played
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn games_here_plays_at_the_games_nice_and_gives_the_thread_back() {
        std::thread::spawn(|| {
            let before = current();
            let during = games_here(before + 3, current);
            assert_eq!(during, before + 3);
            // Lowering a nice value back needs the right to (root): only then is it given back.
            if unsafe { libc::geteuid() } == 0 {
                assert_eq!(current(), before);
            }
        })
        .join()
        .unwrap();
    }
}
