//! The worker side: a process enters its sandbox before it loads a player
//! (`arena __worker --sandbox SPEC LIB`) or runs a program player
//! (`arena __sandbox SPEC -- PROGRAM ARGS...`).
//!
//! Entering makes three processes out of one: the keeper (the process the
//! arena started, outside the namespaces) unshares, forks the namespace's
//! init, then the worker. The init only reaps; when the worker ends the
//! keeper kills the init, and the kernel then kills everything left in the
//! PID namespace, `setsid()` or double fork or not. The keeper exits as the
//! worker did (same code, same signal), so the arena sees the worker's end.

use std::{ffi::OsString, io, os::unix::process::CommandExt, process::ExitCode};

use serde::{Deserialize, Serialize};

use super::{cgroup, filesystem, syscalls, Spec};

/// The first argument that makes the arena binary a sandbox launcher.
pub const SANDBOX_ARG: &str = "__sandbox";

/// What a worker's sandbox applied, as the worker found it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Applied {
    /// The kernel's Landlock ABI version.
    pub landlock_abi: i32,
    /// Whether it has a user namespace of its own (the arena is not root).
    pub user_namespace: bool,
    /// The cap on its processes and threads (its pids cgroup), if any.
    pub pids_max: Option<u64>,
    /// How many system calls its seccomp filter answers with an error.
    pub denied_calls: usize,
}

/// `arena __sandbox SPEC -- PROGRAM ARGS...` runs a program sandboxed;
/// `arena __sandbox SPEC --report` prints what the sandbox applied (JSON).
pub fn main(args: &[String]) -> ExitCode {
    let usage = || {
        eprintln!("usage: arena {SANDBOX_ARG} SPEC -- PROGRAM [ARGS...] | arena {SANDBOX_ARG} SPEC --report");
        ExitCode::from(3)
    };
    let Some((spec, rest)) = args.split_first() else { return usage() };
    let spec = match Spec::from_arg(spec) {
        Ok(spec) => spec,
        Err(why) => {
            eprintln!("arena sandbox: {why}");
            return ExitCode::from(3);
        }
    };
    if !matches!(rest, [flag] if flag == "--report") && !matches!(rest, [dashes, _, ..] if dashes == "--") {
        return usage();
    }
    let applied = match enter(&spec) {
        Ok(applied) => applied,
        Err(why) => {
            eprintln!("arena sandbox: {why}");
            return ExitCode::from(3);
        }
    };
    if rest[0] == "--report" {
        println!("{}", serde_json::to_string(&applied).expect("plain data"));
        return ExitCode::SUCCESS;
    }
    let error = std::process::Command::new(&rest[1]).args(rest[2..].iter().map(OsString::from)).exec();
    eprintln!("arena sandbox: cannot run {}: {error}", rest[1]);
    ExitCode::from(3)
}

/// Enters the sandbox `spec` describes. Returns in the worker, confined;
/// the keeper never returns (it exits as the worker does). Must be called
/// while the process has one thread.
pub fn enter(spec: &Spec) -> Result<Applied, String> {
    let pids_max = match &spec.cgroup {
        Some(dir) => {
            cgroup::join(dir)?;
            cgroup::max(dir)
        }
        None => None,
    };
    // SAFETY: plain syscalls, on a single-threaded process.
    let (uid, gid) = unsafe { (libc::geteuid(), libc::getegid()) };
    let user_namespace = uid != 0;
    let mut flags = libc::CLONE_NEWNET | libc::CLONE_NEWPID | libc::CLONE_NEWIPC;
    if user_namespace {
        flags |= libc::CLONE_NEWUSER;
    }
    // SAFETY: as above.
    if unsafe { libc::unshare(flags) } != 0 {
        let error = io::Error::last_os_error();
        return Err(if user_namespace {
            format!("cannot make a user namespace ({error}): this kernel or its settings forbid unprivileged user namespaces (sysctl user.max_user_namespaces, kernel.unprivileged_userns_clone)")
        } else {
            format!("cannot make network and PID namespaces ({error})")
        });
    }
    if user_namespace {
        let map = |file: &str, text: String| {
            std::fs::write(file, text).map_err(|e| format!("cannot write {file} for the user namespace: {e}"))
        };
        map("/proc/self/setgroups", "deny".into())?;
        map("/proc/self/uid_map", format!("{uid} {uid} 1"))?;
        map("/proc/self/gid_map", format!("{gid} {gid} 1"))?;
    }
    // The init's death signal is set after the fork: had the keeper died
    // before it was set, the init would reap for ever. So the init tells
    // the keeper once it is set, through a pipe only the keeper reads (a
    // keeper gone, the write fails and the init ends), and the keeper
    // waits for that before it forks the worker.
    let mut ready = [0; 2];
    // SAFETY: a plain syscall writing two descriptors.
    if unsafe { libc::pipe2(ready.as_mut_ptr(), libc::O_CLOEXEC) } != 0 {
        return Err(format!("cannot make a pipe: {}", io::Error::last_os_error()));
    }
    let init = fork()?;
    if init == 0 {
        run_init(ready);
    }
    // SAFETY: plain syscalls on descriptors of this process's own.
    unsafe {
        libc::close(ready[1]);
        let mut byte = 0u8;
        // One byte, or the end (an init that died): either way it is set.
        while libc::read(ready[0], (&raw mut byte).cast(), 1) < 0
            && io::Error::last_os_error().kind() == io::ErrorKind::Interrupted
        {}
        libc::close(ready[0]);
    }
    let worker = fork()?;
    if worker != 0 {
        keep(worker, init);
    }
    let landlock_abi = confine(spec)?;
    Ok(Applied { landlock_abi, user_namespace, pids_max, denied_calls: syscalls::denied_count() })
}

fn fork() -> Result<libc::pid_t, String> {
    // SAFETY: the process has one thread, so the child may run any code.
    match unsafe { libc::fork() } {
        -1 => Err(format!("cannot fork into the sandbox: {}", io::Error::last_os_error())),
        pid => Ok(pid),
    }
}

/// The worker confines itself: Landlock, no capabilities, seccomp.
fn confine(spec: &Spec) -> Result<i32, String> {
    // SAFETY: plain prctl calls.
    unsafe {
        // The worker dies with its keeper.
        libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL);
        if libc::prctl(libc::PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 {
            return Err(format!("cannot set no_new_privs: {}", io::Error::last_os_error()));
        }
    }
    let landlock_abi = filesystem::restrict(spec)?;
    let dir = spec.dir.as_ref().unwrap_or(&spec.scratch);
    std::env::set_current_dir(dir).map_err(|e| format!("cannot enter {}: {e}", dir.display()))?;
    for set in [caps::CapSet::Bounding, caps::CapSet::Ambient, caps::CapSet::Inheritable] {
        caps::clear(None, set).map_err(|e| format!("cannot drop capabilities: {e}"))?;
    }
    for set in [caps::CapSet::Effective, caps::CapSet::Permitted] {
        caps::clear(None, set).map_err(|e| format!("cannot drop capabilities: {e}"))?;
    }
    syscalls::install()?;
    Ok(landlock_abi)
}

/// The namespace's init: dies with the keeper (told it through `ready`,
/// see `enter`), holds no descriptor of the worker's and reaps orphans
/// until it is killed.
fn run_init(ready: [libc::c_int; 2]) -> ! {
    // SAFETY: plain syscalls on this process's own state.
    unsafe {
        libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL);
        // The keeper is the pipe's only reader: gone, the write fails.
        libc::close(ready[0]);
        if libc::write(ready[1], c"r".as_ptr().cast(), 1) != 1 {
            libc::_exit(0);
        }
        libc::close_range(0, libc::c_uint::MAX, 0);
        let mut chld: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut chld);
        libc::sigaddset(&mut chld, libc::SIGCHLD);
        libc::sigprocmask(libc::SIG_BLOCK, &chld, std::ptr::null_mut());
        loop {
            while libc::waitpid(-1, std::ptr::null_mut(), libc::WNOHANG | libc::__WALL) > 0 {}
            let mut info: libc::siginfo_t = std::mem::zeroed();
            libc::sigwaitinfo(&chld, &mut info);
        }
    }
}

/// The keeper: lets go of the protocol pipes (so the arena sees them close
/// when the worker dies), waits for the worker, empties the namespace, and
/// ends as the worker did.
fn keep(worker: libc::pid_t, init: libc::pid_t) -> ! {
    // SAFETY: plain syscalls; this process runs no other code after them.
    unsafe {
        let null = libc::open(c"/dev/null".as_ptr(), libc::O_RDWR);
        libc::dup2(null, 0);
        libc::dup2(null, 1);
        let mut status = 0;
        while libc::waitpid(worker, &mut status, 0) < 0 {
            if io::Error::last_os_error().kind() != io::ErrorKind::Interrupted {
                break;
            }
        }
        // Killing the init kills every process left in the namespace; its
        // reaping waits for them to be gone.
        libc::kill(init, libc::SIGKILL);
        libc::waitpid(init, std::ptr::null_mut(), 0);
        if libc::WIFSIGNALED(status) {
            let signal = libc::WTERMSIG(status);
            libc::signal(signal, libc::SIG_DFL);
            libc::raise(signal);
            libc::_exit(128 + signal);
        }
        libc::_exit(libc::WEXITSTATUS(status));
    }
}
