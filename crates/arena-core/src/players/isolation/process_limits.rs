//! The kernel's limits on a worker process (its address space, core
//! dumps, CPU time, processes, raising its priority), the user it runs as where one is set
//! (`run_as.rs`), and its death with the thread that started it, applied
//! in the child before it runs anything of the player's.
//!
//! A worker the arena binary runs (`__worker`, `__sandbox`) is started as
//! `arena __limits LIMITS __worker ...` and applies them itself, first
//! thing. Why not between fork and exec: a `pre_exec` makes the standard
//! library fork, and a fork copies the page tables of the whole arena.
//! A server holding a league of 10,000 (630 MiB) spent more of its
//! graders' time forking workers than grading (docs/benchmarks.md,
//! "Workers started without a fork"); without a `pre_exec` the child is
//! started by posix_spawn (a vfork), whatever the arena's size. A program
//! player outside the sandbox needs no arena binary, so it is still
//! limited between fork and exec, by the same [`ProcessLimits::apply`].

use std::io;

use super::run_as::UserIds;

/// The first argument that makes the arena binary apply limits, then go
/// on with the rest of its command line.
pub const LIMITS_ARG: &str = "__limits";

/// What the kernel holds a worker to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ProcessLimits {
    /// RLIMIT_AS, bytes.
    pub memory_bytes: u64,
    /// RLIMIT_CPU, seconds.
    pub cpu_seconds: u64,
    /// RLIMIT_NPROC (not enforced for root).
    pub processes: u64,
    /// The unprivileged user it becomes (unsandboxed players of a
    /// Gradescope autograder); None: it stays the arena's user.
    pub run_as: Option<UserIds>,
}

impl ProcessLimits {
    /// Applies them to this process; it will be killed when the thread
    /// that started it ends. Async-signal-safe (setrlimit, the calls that
    /// change the user, prctl), so it may run between fork and exec.
    pub fn apply(&self) -> io::Result<()> {
        let rlimits = [
            (libc::RLIMIT_AS, self.memory_bytes),
            (libc::RLIMIT_CORE, 0),
            (libc::RLIMIT_CPU, self.cpu_seconds),
            (libc::RLIMIT_NPROC, self.processes),
            // No raising its own priority: a server's pages run above its
            // games (arena-server's `work/nice.rs`), and may have the right to.
            (libc::RLIMIT_NICE, 0),
        ];
        for (resource, value) in rlimits {
            let limit = libc::rlimit { rlim_cur: value, rlim_max: value };
            // SAFETY: a plain syscall on this process's own limits.
            if unsafe { libc::setrlimit(resource, &limit) } != 0 {
                return Err(io::Error::last_os_error());
            }
        }
        // The limits are set as the arena's user; the user changes before
        // the death signal, which a change of user clears.
        if let Some(user) = self.run_as {
            user.become_user()?;
        }
        // Even if the arena is killed with SIGKILL.
        // SAFETY: as above.
        if unsafe { libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL) } != 0 {
            return Err(io::Error::last_os_error());
        }
        Ok(())
    }

    /// The argument that carries them, and the arena's process ID (see
    /// [`enter`]); the user's ids after, if it has one to become.
    pub fn to_arg(&self) -> String {
        let mut arg =
            format!("{},{},{},{}", self.memory_bytes, self.cpu_seconds, self.processes, std::process::id());
        if let Some(user) = self.run_as {
            arg.push_str(&format!(",{},{}", user.uid, user.gid));
        }
        arg
    }

    fn from_arg(arg: &str) -> Option<(ProcessLimits, libc::pid_t)> {
        let numbers: Vec<u64> = arg.split(',').map(str::parse).collect::<Result<_, _>>().ok()?;
        let (&[memory_bytes, cpu_seconds, processes, parent], user) = numbers.split_at_checked(4)? else {
            return None;
        };
        let run_as = match user {
            [] => None,
            &[uid, gid] => Some(UserIds { uid: u32::try_from(uid).ok()?, gid: u32::try_from(gid).ok()? }),
            _ => return None,
        };
        let limits = ProcessLimits { memory_bytes, cpu_seconds, processes, run_as };
        Some((limits, libc::pid_t::try_from(parent).ok()?))
    }
}

/// If `args` (a whole command line) is `arena __limits LIMITS REST...`,
/// applies the limits and leaves `arena REST...`. Refuses to go on if the
/// arena that started this process is gone already: the death signal set
/// here would never come.
pub fn enter(args: &mut Vec<String>) -> Result<(), String> {
    if args.get(1).map(String::as_str) != Some(LIMITS_ARG) {
        return Ok(());
    }
    let arg = args.get(2).map(String::as_str).unwrap_or_default();
    let (limits, parent) = ProcessLimits::from_arg(arg).ok_or_else(|| {
        format!("{LIMITS_ARG} {arg:?}: expected MEMORY_BYTES,CPU_SECONDS,PROCESSES,PARENT_PID[,UID,GID]")
    })?;
    limits.apply().map_err(|e| format!("cannot apply the worker's limits: {e}"))?;
    // SAFETY: a plain syscall.
    if unsafe { libc::getppid() } != parent {
        return Err("the arena that started this worker has ended".into());
    }
    args.drain(1..3);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn command_line(words: &[&str]) -> Vec<String> {
        words.iter().map(|w| w.to_string()).collect()
    }

    #[test]
    fn the_argument_carries_the_limits_and_this_process() {
        let limits = ProcessLimits { memory_bytes: 1 << 30, cpu_seconds: 3600, processes: 512, run_as: None };
        let (read, parent) = ProcessLimits::from_arg(&limits.to_arg()).unwrap();
        assert_eq!(read, limits);
        assert_eq!(parent as u32, std::process::id());
        let as_user = ProcessLimits { run_as: Some(UserIds { uid: 999, gid: 998 }), ..limits };
        assert_eq!(ProcessLimits::from_arg(&as_user.to_arg()).unwrap().0, as_user);
        for bad in ["", "1,2,3", "1,2,3,4,5", "1,x,3,4", "1,2,3,-4", "1,2,3,4,5,6,7", "1,2,3,4,5,4294967296"]
        {
            assert_eq!(ProcessLimits::from_arg(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn a_command_line_without_limits_is_left_alone() {
        let mut args = command_line(&["arena", "__worker", "lib.so"]);
        enter(&mut args).unwrap();
        assert_eq!(args, command_line(&["arena", "__worker", "lib.so"]));
    }

    #[test]
    fn malformed_limits_name_the_form_expected() {
        let mut args = command_line(&["arena", LIMITS_ARG, "lots", "__worker", "lib.so"]);
        let error = enter(&mut args).unwrap_err();
        assert!(error.contains("MEMORY_BYTES,CPU_SECONDS,PROCESSES,PARENT_PID"), "{error}");
    }
}
