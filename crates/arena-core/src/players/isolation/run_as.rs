//! Players run as an unprivileged user, where no sandbox walls them in
//! (`--sandbox off` in a Gradescope autograder, whose container lacks user
//! namespaces): which user, becoming it, and ending every process of it.
//!
//! Outside the sandbox a player has its user's rights. As root (all a
//! Gradescope container runs as), that is reading the grading secret,
//! writing the results and killing the grader; as a user of its own, it
//! can do none of these, and every process it leaves (a `setsid` daemon)
//! can be found by its user and ended before the results are written.
//! A worker becomes the user in `ProcessLimits::apply` (the one place a
//! worker is limited, before anything of the player's runs).

use std::{
    ffi::CString,
    io,
    time::{Duration, Instant},
};

/// The user players run as: made by the autograder's `setup.sh` for them
/// alone, so that ending all its processes ends only players.
pub const PLAYER_USER: &str = "arena-player";

/// The user taken where there is no `PLAYER_USER`: every system has it.
const FALLBACK_USER: &str = "nobody";

/// How long processes of the user may take to die once killed (one in
/// uninterruptible sleep, on a slow disk) before the grading gives up.
const DYING: Duration = Duration::from_secs(10);

/// A user and group to run as.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UserIds {
    pub uid: u32,
    pub gid: u32,
}

impl UserIds {
    /// Makes this process that user, with that group and no other, for
    /// good (root's real, effective and saved ids all go). Async-signal-
    /// safe (plain calls, no allocation), so it may run between fork and
    /// exec.
    pub fn become_user(self) -> io::Result<()> {
        // SAFETY: plain syscalls on this process's own credentials.
        unsafe {
            // Root's supplementary groups first: they would stay otherwise.
            if libc::setgroups(0, std::ptr::null()) != 0
                || libc::setgid(self.gid) != 0
                || libc::setuid(self.uid) != 0
            {
                return Err(io::Error::last_os_error());
            }
            if libc::getuid() != self.uid || libc::geteuid() != self.uid || libc::getegid() != self.gid {
                return Err(io::Error::from_raw_os_error(libc::EPERM));
            }
        }
        Ok(())
    }
}

/// The unprivileged user players run as, found and tried.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayerUser {
    pub name: String,
    pub ids: UserIds,
}

impl PlayerUser {
    /// `arena-player`, or `nobody` where there is none, once this process
    /// (root) has been seen to become it. Otherwise the one line that says
    /// why not and what to do: grading unsafely is not an option.
    pub fn find() -> Result<PlayerUser, String> {
        let refuse = |why: String| {
            format!(
                "cannot run players as an unprivileged user: {why}: run the arena as root with the user \
                 `{PLAYER_USER}` (the autograder's setup.sh creates it), or turn the sandbox on"
            )
        };
        // SAFETY: plain syscall.
        let me = unsafe { libc::geteuid() };
        if me != 0 {
            return Err(refuse(format!("the arena runs as user {me}, not root")));
        }
        let user = [PLAYER_USER, FALLBACK_USER]
            .into_iter()
            .find_map(lookup)
            .ok_or_else(|| refuse(format!("there is no user `{PLAYER_USER}`, nor `{FALLBACK_USER}`")))?;
        if user.ids.uid == 0 || user.ids.gid == 0 {
            return Err(refuse(format!("the user `{}` is root", user.name)));
        }
        as_user(user.ids, || 0)
            .map_err(|e| refuse(format!("cannot become the user `{}`: {e}", user.name)))?;
        Ok(user)
    }

    /// Kills every process of the user (a player's `setsid` daemon
    /// included) and waits until none is left alive: what must hold before
    /// results are written. The error says how many outlived it.
    pub fn end_all_processes(&self) -> Result<(), String> {
        let deadline = Instant::now() + DYING;
        loop {
            // Killed as the user itself: kill(-1) then reaches its processes
            // and no others, with no process id read and reused meanwhile.
            as_user(self.ids, kill_all)
                .map_err(|e| format!("cannot end the processes of the user `{}`: {e}", self.name))?;
            let left = live_processes(self.ids.uid);
            if left.is_empty() {
                return Ok(());
            }
            if Instant::now() >= deadline {
                return Err(format!(
                    "{} processes of the user `{}` outlived SIGKILL for {} s (pids {left:?}): no results \
                     can be trusted while they run",
                    left.len(),
                    self.name,
                    DYING.as_secs()
                ));
            }
            std::thread::sleep(Duration::from_millis(10));
        }
    }
}

/// The user `name` from the system's user database; None if it has none.
fn lookup(name: &str) -> Option<PlayerUser> {
    let c_name = CString::new(name).ok()?;
    // SAFETY: zeroed is a valid passwd (null pointers, zero ids); getpwnam_r
    // fills it, its strings in `buffer`, and sets `found` to it or null.
    let mut entry: libc::passwd = unsafe { std::mem::zeroed() };
    let mut buffer = vec![0 as libc::c_char; 16 << 10];
    let mut found = std::ptr::null_mut();
    let status = unsafe {
        libc::getpwnam_r(c_name.as_ptr(), &mut entry, buffer.as_mut_ptr(), buffer.len(), &mut found)
    };
    (status == 0 && !found.is_null())
        .then(|| PlayerUser { name: name.to_string(), ids: UserIds { uid: entry.pw_uid, gid: entry.pw_gid } })
}

/// Runs `action` in a child process that has become `ids` (forked: this
/// process keeps its own rights); its exit code 0 is success.
fn as_user(ids: UserIds, action: fn() -> i32) -> io::Result<()> {
    // SAFETY: the child makes only async-signal-safe calls (those of
    // `become_user` and `action`), then _exits.
    let child = unsafe { libc::fork() };
    if child < 0 {
        return Err(io::Error::last_os_error());
    }
    if child == 0 {
        let code = match ids.become_user() {
            Ok(()) => action(),
            Err(e) => e.raw_os_error().unwrap_or(libc::EPERM),
        };
        // SAFETY: ends the child without running anything of the parent's.
        unsafe { libc::_exit(code) };
    }
    let mut status = 0;
    // SAFETY: waits for the child just forked.
    while unsafe { libc::waitpid(child, &mut status, 0) } < 0 {
        let error = io::Error::last_os_error();
        if error.kind() != io::ErrorKind::Interrupted {
            return Err(error);
        }
    }
    match (libc::WIFEXITED(status), libc::WEXITSTATUS(status)) {
        (true, 0) => Ok(()),
        (true, code) => Err(io::Error::from_raw_os_error(code)),
        (false, _) => {
            Err(io::Error::other(format!("its process ended by signal {}", libc::WTERMSIG(status))))
        }
    }
}

/// SIGKILL to every process this one may signal (all of its user's but
/// itself), until none is found: a fork made meanwhile is one more round.
fn kill_all() -> i32 {
    for _ in 0..100 {
        // SAFETY: plain syscall; as an unprivileged user, -1 reaches only
        // the processes of that user.
        if unsafe { libc::kill(-1, libc::SIGKILL) } != 0 {
            break;
        }
    }
    0
}

/// The processes of `uid` (by any of their user ids) that are alive:
/// zombies are dead, and wait only for a parent to reap them.
pub fn live_processes(uid: u32) -> Vec<i32> {
    let Ok(entries) = std::fs::read_dir("/proc") else { return Vec::new() };
    let mut live: Vec<i32> = entries
        .flatten()
        .filter_map(|entry| entry.file_name().to_str()?.parse::<i32>().ok())
        .filter(|pid| {
            let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
            let field = |name: &str| status.lines().find_map(|l| l.strip_prefix(name)).unwrap_or_default();
            let dead = field("State:").trim_start().starts_with(['Z', 'X']);
            let ids = field("Uid:").split_whitespace().filter_map(|id| id.parse::<u32>().ok());
            !dead && ids.into_iter().any(|id| id == uid)
        })
        .collect();
    live.sort_unstable();
    live
}

#[cfg(test)]
mod tests {
    use super::*;

    /// As root: a process of the user, and one it forked into a new
    /// session (a daemon), are both ended; root's own are not touched.
    #[test]
    fn every_process_of_the_user_ends_and_no_other() {
        // SAFETY: plain syscall.
        if unsafe { libc::geteuid() } != 0 {
            eprintln!("every_process_of_the_user_ends_and_no_other: skipped: it needs root");
            return;
        }
        let user = PlayerUser::find().expect("as root, a user to run players as");
        assert_ne!(user.ids.uid, 0);
        let mut root_sleeper = std::process::Command::new("sleep").arg("30").spawn().unwrap();
        let mut command = std::process::Command::new("sh");
        // A daemon in its own session, and the shell that started it, waiting.
        command.args(["-c", "setsid sleep 31 </dev/null >/dev/null 2>&1 & sleep 32"]);
        std::os::unix::process::CommandExt::uid(&mut command, user.ids.uid);
        std::os::unix::process::CommandExt::gid(&mut command, user.ids.gid);
        let mut shell = command.spawn().unwrap();
        let until = Instant::now() + Duration::from_secs(5);
        while live_processes(user.ids.uid).len() < 3 && Instant::now() < until {
            std::thread::sleep(Duration::from_millis(10));
        }
        assert!(live_processes(user.ids.uid).len() >= 3, "the shell, its sleep and the daemon run");
        user.end_all_processes().unwrap();
        assert!(!shell.wait().unwrap().success(), "the shell was killed");
        assert_eq!(live_processes(user.ids.uid), Vec::<i32>::new());
        assert_eq!(root_sleeper.try_wait().unwrap(), None, "root's process still runs");
        root_sleeper.kill().unwrap();
        root_sleeper.wait().unwrap();
    }
}
