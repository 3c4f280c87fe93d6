//! What a worker is started as, whatever the game: what it hosts
//! (`Hosted`: a library, a built-in level, or a program, `Launch`), the
//! limits it runs under (`WorkerLimits`), and the command that starts it:
//! the arena binary (`worker_program`), which applies the limits itself
//! (`process_limits.rs`) before it becomes the worker. `process.rs`
//! spawns it with these and talks to it.

use std::{ffi::OsString, path::PathBuf, process::Command, sync::OnceLock, time::Duration};

use crate::{play::clock::Clock, players::levels::Level, sandbox::Sandbox};

use super::{
    process_limits::{ProcessLimits, LIMITS_ARG},
    run_as::UserIds,
};

/// Limits every worker runs under.
#[derive(Clone, Debug, PartialEq)]
pub struct WorkerLimits {
    /// Address-space cap (RLIMIT_AS), bytes.
    pub memory_bytes: u64,
    /// CPU-time backstop for the worker's whole life (RLIMIT_CPU), seconds.
    pub cpu_seconds: u64,
    /// Processes and threads the worker's user may have (RLIMIT_NPROC; not
    /// enforced for root).
    pub processes: u64,
    /// How far past its budget a call may go before it is lost (the
    /// settings' grace): a player that has not answered is killed
    /// `clock::KILL_MARGIN` after that (`clock::Limits`).
    pub grace: Duration,
    /// Output (stdout + stderr) kept per request for the logs; the rest is
    /// counted and dropped.
    pub output_cap: usize,
    /// Output a player may print in one game before it is stopped.
    pub output_limit: u64,
    /// The program run as a worker (the arena binary).
    pub program: PathBuf,
    /// Whether workers run in the sandbox (crates/arena-sandbox).
    pub sandbox: Sandbox,
    /// The clock a request's budget is enforced on, and so when a worker
    /// that has not answered is killed (`clock::Limits`).
    pub clock: Clock,
    /// The arena's environment variables passed to workers by name
    /// (`--pass-env`, the tournament file's `pass_env`), besides the few
    /// every worker gets (`environment.rs`); unset ones are not passed.
    pub pass_env: Vec<String>,
    /// The unprivileged user unsandboxed workers run as (`run_as.rs`: a
    /// Gradescope autograder's, which runs as root); None: the arena's
    /// user. A sandboxed worker is walled in by its sandbox instead, which
    /// it enters as the arena's user.
    pub run_as: Option<UserIds>,
}

/// What `WorkerLimits::new` passes: set once by `arena serve --pass-env`
/// (the server makes its workers' limits itself).
static PASS_BY_DEFAULT: OnceLock<Vec<String>> = OnceLock::new();

impl WorkerLimits {
    /// The defaults, with the worker program found next to this executable.
    pub fn new() -> Result<WorkerLimits, String> {
        Ok(WorkerLimits { program: worker_program()?, ..WorkerLimits::for_programs() })
    }

    /// The defaults, for hosting only program players (which need no worker
    /// program): what they run under when libraries are loaded in process.
    pub fn for_programs() -> WorkerLimits {
        WorkerLimits {
            // The sandbox starts program players through the arena binary too.
            program: worker_program().unwrap_or_default(),
            memory_bytes: 1 << 30,
            cpu_seconds: 3600,
            processes: 512,
            grace: crate::play::clock::DEFAULT_GRACE,
            output_cap: 64 << 10,
            output_limit: 1 << 20,
            sandbox: Sandbox::On,
            clock: Clock::Wall,
            pass_env: PASS_BY_DEFAULT.get().cloned().unwrap_or_default(),
            run_as: None,
        }
    }

    /// The user a worker runs as: `run_as`, unless it is `sandboxed`.
    pub(super) fn user(&self, sandboxed: bool) -> Option<UserIds> {
        self.run_as.filter(|_| !sandboxed)
    }

    /// What the kernel holds each worker process to, and the user it
    /// becomes, whether it is `sandboxed` or not.
    pub(super) fn process_limits(&self, sandboxed: bool) -> ProcessLimits {
        ProcessLimits {
            memory_bytes: self.memory_bytes,
            cpu_seconds: self.cpu_seconds,
            processes: self.processes,
            run_as: self.user(sandboxed),
        }
    }

    /// Makes every later `WorkerLimits::new()` (and `for_programs()`) of
    /// this process pass `names`; the first call decides.
    pub fn pass_by_default(names: Vec<String>) {
        let _ = PASS_BY_DEFAULT.set(names);
    }
}

/// The program that runs workers: the arena binary itself (`arena
/// __worker ...`). `$ARENA_BIN` overrides; from a test binary (not `arena`)
/// it is found beside it or one folder up (`target/debug/deps/..`).
pub fn worker_program() -> Result<PathBuf, String> {
    if let Some(path) = std::env::var_os("ARENA_BIN") {
        return Ok(PathBuf::from(path));
    }
    let exe = std::env::current_exe().map_err(|e| format!("cannot locate the arena executable: {e}"))?;
    if exe.file_name().is_some_and(|name| name == "arena") {
        return Ok(exe);
    }
    let candidates: Vec<PathBuf> = exe.ancestors().skip(1).take(2).map(|dir| dir.join("arena")).collect();
    candidates.iter().find(|p| p.is_file()).cloned().ok_or_else(|| {
        let looked: Vec<String> = candidates.iter().map(|p| p.display().to_string()).collect();
        format!(
            "cannot find the arena program to run workers (looked at {}): build it with `cargo build -p arena`, or set ARENA_BIN",
            looked.join(", ")
        )
    })
}

/// What a worker hosts.
#[derive(Clone, Debug, PartialEq)]
pub enum Hosted {
    Library(PathBuf),
    Builtin(Level),
    /// A program that speaks the protocol itself.
    Program(Launch),
}

impl Hosted {
    /// What its sandbox lets it read besides the system's files, and where
    /// it starts, sandboxed or not (None: its scratch folder).
    pub(super) fn view(&self) -> (Vec<PathBuf>, Option<PathBuf>) {
        match self {
            Hosted::Library(path) => (vec![path.clone()], None),
            Hosted::Builtin(_) => (Vec::new(), None),
            Hosted::Program(launch) => {
                let dir = launch.dir.clone().or_else(|| std::env::current_dir().ok());
                (launch.reads.clone(), dir)
            }
        }
    }
}

/// How to start a program player: what to run, where, with what
/// environment (on top of every worker's: `environment.rs`), and what it
/// may read when sandboxed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Launch {
    pub program: PathBuf,
    pub args: Vec<OsString>,
    pub dir: Option<PathBuf>,
    pub env: Vec<(OsString, OsString)>,
    /// The player's own files and folders, and what its interpreter needs.
    pub reads: Vec<PathBuf>,
}

impl Launch {
    /// The command line, as a person would type it.
    pub fn command_line(&self) -> String {
        let words = std::iter::once(self.program.as_os_str()).chain(self.args.iter().map(|a| a.as_os_str()));
        words.map(|w| w.to_string_lossy().into_owned()).collect::<Vec<_>>().join(" ")
    }
}

/// The first argument that makes the arena binary a worker.
pub const WORKER_ARG: &str = "__worker";

/// The arena binary, applying the worker's limits itself before it goes on
/// (`process_limits.rs`): `arena __limits LIMITS ...`, for a worker that
/// is `sandboxed` or not.
pub(super) fn arena_command(limits: &WorkerLimits, sandboxed: bool) -> Command {
    let mut command = Command::new(&limits.program);
    command.arg(LIMITS_ARG).arg(limits.process_limits(sandboxed).to_arg());
    command
}

/// The arena binary as a worker: `arena __limits LIMITS __worker [--sandbox
/// SPEC] ARGS`.
pub(super) fn arena_worker(
    limits: &WorkerLimits,
    sandbox: Option<&str>,
    args: &[&std::ffi::OsStr],
) -> Command {
    let mut command = arena_command(limits, sandbox.is_some());
    command.arg(WORKER_ARG);
    if let Some(spec) = sandbox {
        command.arg("--sandbox").arg(spec);
    }
    command.args(args);
    command
}
