//! A worker process, whatever the game: spawn it as `launch.rs` says, with
//! rlimits (applied by the worker itself: `process_limits.rs`) and the
//! sandbox, wait for frames with a deadline, kill the process group, reap.
//!
//! The host side here is single-threaded: while it waits for a reply it
//! polls the reply pipe and the worker's output pipe together, so a player
//! that prints megabytes never blocks, and a deadline is a deadline: at
//! budget + grace the worker's whole process group is killed and reaped.
//!
//! A worker runs only while it is asked (`Frozen`): between its requests
//! its process group is stopped (SIGSTOP), and woken (SIGCONT) as the next
//! request is sent, so a thread it started cannot think on the opponent's
//! time, or keep a core busy while a person thinks; the course's
//! in-process referee gave a player no time between its turns either.

use std::{
    io::{Read, Write},
    os::{
        fd::{AsRawFd, RawFd},
        unix::process::{CommandExt, ExitStatusExt},
    },
    path::Path,
    process::{Child, ChildStderr, ChildStdin, ChildStdout, Command, ExitStatus, Stdio},
    time::{Duration, Instant},
};

use serde::{de::DeserializeOwned, Serialize};

use crate::{
    play::clock::{self, Clock, Limits, MainThread, ProcessClock, Scheduled, Starvation, WorkerSpent},
    play::fault::{player_line, player_text, Fault},
    players::protocol::{self, decode, encode, Reply},
    sandbox::{self, Confinement, Sandbox, Scratch},
};

use super::{
    environment,
    launch::{arena_command, arena_worker, Hosted, WorkerLimits},
};

/// What a worker said about its player when it started.
#[derive(Clone, Debug)]
pub struct Hello {
    pub name: String,
    pub author: String,
    pub games: Vec<String>,
    pub player_api: String,
    /// For libraries: the ABI version they were built for.
    pub abi: Option<u32>,
    /// The parameters it accepts (each checked to be a declaration).
    pub params: Vec<protocol::WireParam>,
    /// Whether it keeps a memory across matches.
    pub memory: bool,
}

/// What a pipe holds unread, at the least: one page (a user past the
/// kernel's pipe-pages-soft limit gets pipes of one page).
const PIPE_HOLDS_AT_LEAST: usize = 4096;

/// Whether a worker's process group is stopped between its requests.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Frozen {
    No,
    Yes,
    /// It could not be stopped (`Worker::freeze`): not tried again.
    Never,
}

/// What a worker's player had used when it last answered: where the next
/// request's CPU time and wait are counted from.
#[derive(Clone, Copy, Debug, Default)]
struct Seen {
    cpu: Option<Duration>,
    main: Option<Scheduled>,
}

impl Seen {
    /// How long the machine kept the player from a core between `self`
    /// and `now` (zero where either is unknown).
    fn machine_wait(self, now: Seen) -> Duration {
        match (self.cpu, now.cpu, self.main, now.main) {
            (Some(cpu0), Some(cpu1), Some(main0), Some(main1)) => clock::machine_wait(
                cpu1.saturating_sub(cpu0),
                Scheduled {
                    ran: main1.ran.saturating_sub(main0.ran),
                    waited: main1.waited.saturating_sub(main0.waited),
                },
            ),
            _ => Duration::ZERO,
        }
    }
}

/// A running worker process.
pub struct Worker {
    child: Child,
    stdin: ChildStdin,
    stdout: ChildStdout,
    stderr: Option<ChildStderr>,
    inbox: Vec<u8>,
    outbox: Vec<u8>,
    output: CappedOutput,
    grace: Duration,
    clock: Clock,
    /// The CPU clock of the process that runs the player (inside the
    /// sandbox, the keeper's child); None if it cannot be found.
    player_clock: Option<ProcessClock>,
    /// That process's main thread, for its wait for a core (None if unknown).
    player_main: Option<MainThread>,
    /// That process, whose children's CPU time is its own (`descendants_cpu`).
    player_pid: Option<libc::pid_t>,
    /// The worker process and whether it is sandboxed, until its player's
    /// process is found (`find_player`): its start-up is timed as a turn is.
    finding: Option<(libc::pid_t, bool)>,
    /// Its CPU time and wait when it last answered.
    seen: Seen,
    /// The core it was moved onto, following its caller's (`cores.rs`).
    core: Option<usize>,
    memory_bytes: u64,
    output_limit: u64,
    /// Bytes printed since the game started.
    printed: u64,
    /// Whether the last read of its output filled the buffer: more may wait.
    more_output: bool,
    /// Set once the worker is dead or unusable: every later request fails so.
    dead: Option<Fault>,
    /// Whether its process group is stopped between requests now.
    frozen: Frozen,
    pub hello: Hello,
    /// Its scratch folder (and cgroup), removed once it is reaped (declared
    /// after `child`, so dropped after the worker is killed and waited for).
    _quarters: Quarters,
}

/// What a worker has on disk, removed when dropped: a scratch folder (its
/// HOME and TMPDIR), inside its sandbox's confinement or, unsandboxed, alone.
enum Quarters {
    Confined(Confinement),
    Unconfined(Scratch),
}

impl Quarters {
    fn scratch(&self) -> &Path {
        match self {
            Quarters::Confined(confinement) => &confinement.spec.scratch,
            Quarters::Unconfined(scratch) => scratch.path(),
        }
    }
}

impl Worker {
    /// Starts a worker for `hosted` and waits (up to `startup`) for its hello.
    pub fn spawn(hosted: &Hosted, limits: &WorkerLimits, startup: Duration) -> Result<Worker, Fault> {
        let (reads, dir) = hosted.view();
        let quarters = match limits.sandbox {
            Sandbox::Off => {
                let scratch = Scratch::new().map_err(Fault::Unavailable)?;
                if let Some(user) = limits.user(false) {
                    // Its HOME and TMPDIR: the one folder it may write.
                    scratch.hand_to(user.uid, user.gid).map_err(Fault::Unavailable)?;
                }
                Quarters::Unconfined(scratch)
            }
            Sandbox::On => {
                sandbox::require(&limits.program).map_err(Fault::Unavailable)?;
                let confinement = Confinement::prepare(&reads, dir.clone(), limits.processes)
                    .map_err(Fault::Unavailable)?;
                // What to look at when a player cannot read something it should.
                tracing::debug!("a sandboxed worker may read {:?}", confinement.spec.read);
                Quarters::Confined(confinement)
            }
        };
        let spec = match &quarters {
            Quarters::Confined(confinement) => Some(confinement.spec.to_arg()),
            Quarters::Unconfined(_) => None,
        };
        let sandboxed = spec.is_some();
        let (mut command, program) = match (hosted, &spec) {
            (Hosted::Program(launch), None) => {
                let mut command = Command::new(&launch.program);
                command.args(&launch.args);
                (command, &launch.program)
            }
            (Hosted::Program(launch), Some(spec)) => {
                // `arena __sandbox SPEC -- PROGRAM ARGS`: enters, then runs the program.
                let mut command = arena_command(limits, true);
                command.arg(sandbox::SANDBOX_ARG).arg(spec).arg("--").arg(&launch.program).args(&launch.args);
                (command, &launch.program)
            }
            (Hosted::Library(path), spec) => {
                // The worker opens it from its scratch folder: an absolute path.
                let path = path.canonicalize().unwrap_or_else(|_| path.clone());
                (arena_worker(limits, spec.as_deref(), &[path.as_os_str()]), &limits.program)
            }
            (Hosted::Builtin(level), spec) => {
                let args = ["--builtin".as_ref(), level.name().as_ref()];
                (arena_worker(limits, spec.as_deref(), &args), &limits.program)
            }
        };
        // Never the arena's environment: it may hold secrets (environment.rs).
        command.env_clear().envs(environment::for_worker(quarters.scratch(), &limits.pass_env));
        if let Hosted::Program(launch) = hosted {
            command.envs(launch.env.iter().map(|(k, v)| (k, v)));
        }
        if !sandboxed {
            // Where the sandbox would start it (a sandboxed worker moves there itself).
            command.current_dir(dir.as_deref().unwrap_or(quarters.scratch()));
        }
        command.stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped()).process_group(0);
        if let (Hosted::Program(_), false) = (hosted, sandboxed) {
            // Not the arena binary: limited between fork and exec.
            let process_limits = limits.process_limits(false);
            // SAFETY: `apply` makes only async-signal-safe calls.
            unsafe {
                command.pre_exec(move || process_limits.apply());
            }
        }
        let mut child = command.spawn().map_err(|e| {
            let program = program.display();
            Fault::Unavailable(match limits.user(sandboxed) {
                Some(user) => format!(
                    "cannot start the worker program {program} as user {}: {e}: that user must be able to \
                     read and run it, and enter the folders above it",
                    user.uid
                ),
                None => format!("cannot start the worker program {program}: {e}"),
            })
        })?;
        let mut worker = Worker {
            stdin: child.stdin.take().expect("piped"),
            stdout: child.stdout.take().expect("piped"),
            stderr: child.stderr.take(),
            child,
            inbox: Vec::with_capacity(512),
            outbox: Vec::with_capacity(512),
            output: CappedOutput::new(limits.output_cap),
            grace: limits.grace,
            clock: limits.clock,
            player_clock: None,
            player_main: None,
            player_pid: None,
            finding: None,
            seen: Seen::default(),
            core: None,
            memory_bytes: limits.memory_bytes,
            output_limit: limits.output_limit,
            printed: 0,
            more_output: false,
            dead: None,
            frozen: Frozen::No,
            hello: Hello {
                name: String::new(),
                author: String::new(),
                games: Vec::new(),
                player_api: String::new(),
                abi: None,
                params: Vec::new(),
                memory: false,
            },
            _quarters: quarters,
        };
        // Its start-up (an interpreter, a library's statics) waits for a
        // core as a turn may: the machine's wait is not its own, up to the
        // bound. It is measured from the player process's birth.
        worker.finding = Some((worker.child.id() as libc::pid_t, sandboxed));
        worker.find_player();
        let limits = Limits { own: startup, cpu: None, cap: startup * clock::STARVATION_BOUND };
        let born = Seen { cpu: Some(Duration::ZERO), main: Some(clock::Scheduled::default()) };
        match worker.await_reply::<Reply>("start-up", startup, limits, born) {
            Ok(Reply::Hello { protocol, name, author, games, player_api, abi, params, memory }) => {
                if protocol != protocol::VERSION {
                    return Err(Fault::Unavailable(format!(
                        "the player speaks protocol {protocol}, this arena speaks {}",
                        protocol::VERSION
                    )));
                }
                // Its words, kept in standings and replays: plain and cut as a fault's are.
                let (name, author, player_api) =
                    (player_line(name), player_line(author), player_line(player_api));
                if let Err(why) = protocol::declared(&params) {
                    return Err(Fault::Unavailable(player_text(why)));
                }
                worker.hello = Hello { name, author, games, player_api, abi, params, memory };
                let player = player_process(worker.child.id() as libc::pid_t, sandboxed);
                worker.player_clock = player.and_then(ProcessClock::of);
                worker.player_main = player.and_then(MainThread::of);
                worker.player_pid = player;
                worker.freeze();
                worker.seen = worker.player_seen();
                Ok(worker)
            }
            Ok(Reply::Error { message }) => Err(Fault::Unavailable(message)),
            Ok(other) => Err(Fault::Protocol(format!("expected hello, got {other:?}"))),
            Err(Fault::Crashed(how)) => {
                // Its last words say why (a missing module, a bad argument).
                let text = worker.output.text();
                match text.lines().rev().map(str::trim).find(|l| !l.is_empty()) {
                    Some(last) => Err(Fault::Unavailable(format!("it {how} before saying hello: {last}"))),
                    None => Err(Fault::Unavailable(format!("it {how} before saying hello"))),
                }
            }
            Err(fault) => Err(fault),
        }
    }

    /// Sends `request` (a protocol message, as one frame) and waits for the
    /// reply within the limits of `budget` on the worker's clock
    /// (`clock::Limits`).
    pub fn request<A: DeserializeOwned>(
        &mut self,
        request: &impl Serialize,
        what: &'static str,
        budget: Duration,
    ) -> Result<A, Fault> {
        if let Some(fault) = &self.dead {
            return Err(fault.clone());
        }
        // It runs where the game that asks runs (a slot of the core pool).
        let core = crate::play::cores::pinned();
        if let Some(cpu) = core.filter(|_| core != self.core) {
            super::affinity::move_group(self.child.id() as libc::pid_t, cpu);
            self.core = core;
        }
        let limits = self.clock.limits(budget, self.grace);
        // One reading of each clock per request: the CPU time and wait since
        // its last answer (an idle worker uses none; one that thinks between
        // turns is charged for it on its next turn).
        let before = self.seen;
        self.outbox.clear();
        encode(request, &mut self.outbox);
        // A request that fits in the pipe whatever its size (a pipe holds at
        // least a page; the worker has read every earlier one) is written
        // while the worker is still stopped: woken, it finds it at once,
        // instead of waking once for SIGCONT and again for the request.
        let fits = self.outbox.len() <= PIPE_HOLDS_AT_LEAST;
        if !fits {
            self.thaw()?;
        }
        if let Err(e) = self.stdin.write_all(&self.outbox) {
            // The worker is gone (EPIPE): find out how it died.
            tracing::debug!("writing to the worker failed: {e}");
            return Err(self.died());
        }
        if fits {
            self.thaw()?;
        }
        let reply = self.await_reply(what, budget, limits, before);
        if self.dead.is_none() {
            self.freeze();
        }
        self.seen = self.player_seen();
        if let (Some(cpu_before), Some(cpu_after)) = (before.cpu, self.seen.cpu) {
            let waited = before.machine_wait(self.seen);
            let cpu = cpu_after.saturating_sub(cpu_before);
            tracing::trace!("{what}: {cpu:?} of CPU, {waited:?} waiting for a core");
            clock::report_worker(WorkerSpent { cpu, waited });
        }
        reply
    }

    /// Starts its accounts of CPU time and waits afresh: the time a spare
    /// worker spent frozen between its hello and its first game (while
    /// the arena loaded the other players) is no call's, and what the
    /// machine did to it meanwhile must not be weighed against its first.
    pub fn rebase(&mut self) {
        self.seen = self.player_seen();
    }

    /// Stops its process group until the next request (see the module's
    /// doc). A group gone is a worker dead, which its next request finds
    /// out. A group that cannot be stopped (not seen: the arena may signal
    /// the processes it started) runs on unfrozen, said once in the log:
    /// its player plays as it did before workers were frozen.
    fn freeze(&mut self) {
        if self.frozen != Frozen::No {
            return;
        }
        self.frozen = match self.signal_group(libc::SIGSTOP) {
            Ok(()) => Frozen::Yes,
            Err(e) if e.raw_os_error() == Some(libc::ESRCH) => Frozen::No,
            Err(e) => {
                tracing::warn!("cannot stop a worker between its turns ({e}): it runs unfrozen");
                Frozen::Never
            }
        };
    }

    /// Wakes its process group for a request. A group that cannot be woken
    /// would time out through no fault of its player's: the request fails
    /// instead, as the arena's (`Unavailable`), and the worker is killed.
    fn thaw(&mut self) -> Result<(), Fault> {
        if self.frozen != Frozen::Yes {
            return Ok(());
        }
        self.frozen = Frozen::No;
        match self.signal_group(libc::SIGCONT) {
            Err(e) if e.raw_os_error() != Some(libc::ESRCH) => {
                Err(self
                    .fail(Fault::Unavailable(format!("cannot wake the player's worker for its turn: {e}"))))
            }
            // Gone: writing the request finds out how it died.
            _ => Ok(()),
        }
    }

    /// Sends `signal` to the worker's whole process group.
    fn signal_group(&self, signal: libc::c_int) -> std::io::Result<()> {
        // SAFETY: plain syscall; the group id is the worker's pid (process_group(0)).
        match unsafe { libc::kill(-(self.child.id() as libc::pid_t), signal) } {
            0 => Ok(()),
            _ => Err(std::io::Error::last_os_error()),
        }
    }

    /// The CPU time its player's process has used so far.
    fn player_cpu(&self) -> Option<Duration> {
        self.player_clock.and_then(ProcessClock::read)
    }

    /// Looks for the process that runs its player while it is not known
    /// (sandboxed, the keeper starts it a moment after the worker starts).
    fn find_player(&mut self) {
        let Some((worker, sandboxed)) = self.finding else { return };
        if let Some(player) = player_process(worker, sandboxed) {
            self.player_clock = ProcessClock::of(player);
            self.player_main = MainThread::of(player);
            self.player_pid = Some(player);
            self.finding = None;
        }
    }

    /// Whether its player is still to be born: a sandboxed worker's keeper
    /// (the arena's own code) has not yet started it.
    fn unborn(&self) -> bool {
        self.finding.is_some_and(|(_, sandboxed)| sandboxed)
    }

    /// Its player's CPU time and main thread's schedule so far.
    fn player_seen(&self) -> Seen {
        Seen { cpu: self.player_cpu(), main: self.player_main.as_ref().and_then(MainThread::read) }
    }

    /// Takes the output printed since the last call.
    pub fn take_output(&mut self) -> CappedOutput {
        let fresh = CappedOutput::new(self.output.cap);
        std::mem::replace(&mut self.output, fresh)
    }

    /// The fault of a call of `budget` killed at `used` of its own time:
    /// past budget + grace on the wall clock, past the backstop on the CPU's.
    fn out_of_own_time(&self, what: &'static str, used: Duration, budget: Duration) -> Fault {
        let backstop = self.clock == Clock::Cpu;
        Fault::Timeout { what, used, budget, grace: self.grace, killed: true, clock: Clock::Wall, backstop }
    }

    /// Waits for the reply within `limits`, counting the player's CPU time
    /// and wait from `before`.
    fn await_reply<A: DeserializeOwned>(
        &mut self,
        what: &'static str,
        budget: Duration,
        limits: Limits,
        before: Seen,
    ) -> Result<A, Fault> {
        let started = Instant::now();
        let mut starvation = Starvation::default();
        let mut chunk = [0u8; 16 << 10];
        // The time before its player was born is the keeper's, setting up
        // the sandbox, however long the machine keeps the keeper from a
        // core: never the player's. `born` is when it was found (the
        // benefit of the doubt, a look's interval, is the player's).
        let mut born = Duration::ZERO;
        loop {
            match decode::<A>(&self.inbox) {
                Ok(Some((reply, used))) => {
                    self.inbox.drain(..used);
                    self.drain_written_output();
                    if self.printed > self.output_limit {
                        return Err(self.fail(Fault::OutputFlood { limit: self.output_limit }));
                    }
                    return Ok(reply);
                }
                Ok(None) => {}
                Err(error) => return Err(self.fail(Fault::Protocol(error.to_string()))),
            }
            let unborn = self.unborn();
            self.find_player();
            let elapsed = started.elapsed();
            if unborn {
                born = elapsed;
            }
            let lived = elapsed - born;
            // Own time is at most the time it lived: nothing to judge before
            // that reaches the limit. A wait for a core shows only once
            // the player gets one, so a call that lasts is looked at every
            // few milliseconds for a starvation still under way.
            let mut wait = limits.own.saturating_sub(lived);
            if self.unborn() {
                if elapsed >= limits.cap {
                    // Past the bound before it could even start: the machine's.
                    let fault = Fault::Overloaded { what, wall: elapsed, waited: elapsed, budget };
                    return Err(self.fail(fault));
                }
                wait = Starvation::LOOK;
            } else if elapsed >= Starvation::LOOK && self.player_main.is_some() {
                let now = self.player_seen();
                let starved = match (&self.player_main, now.main) {
                    (Some(thread), Some(main)) => starvation.look(thread, main),
                    _ => Duration::ZERO,
                };
                let waited = (before.machine_wait(now) + starved).min(lived);
                let own = lived - waited;
                if own > limits.own {
                    let fault = self.out_of_own_time(what, own, budget);
                    return Err(self.fail(fault));
                }
                if elapsed >= limits.cap {
                    // Its own processes crowding it out are its own doing,
                    // not the machine's (the process clock has only its
                    // threads): their CPU time is not a wait it is forgiven.
                    // Read once, here: a walk of /proc.
                    let theirs = self.player_pid.map_or(Duration::ZERO, descendants_cpu);
                    let waited = waited.saturating_sub(theirs);
                    let own = lived - waited;
                    let fault = if own > limits.own {
                        self.out_of_own_time(what, own, budget)
                    } else {
                        Fault::Overloaded { what, wall: elapsed, waited, budget }
                    };
                    return Err(self.fail(fault));
                }
                wait = (limits.own - own)
                    .clamp(Duration::from_millis(1), Starvation::LOOK)
                    .min(limits.cap - elapsed);
            } else if wait.is_zero() {
                // Nothing known of its waits: its own time is the time it lived.
                let fault = self.out_of_own_time(what, lived, budget);
                return Err(self.fail(fault));
            } else if self.player_main.is_some() {
                wait = wait.min(Starvation::LOOK);
            }
            if let (Some(allowed), Some(before)) = (limits.cpu, before.cpu) {
                let used = self.player_cpu().unwrap_or(before).saturating_sub(before);
                if used > allowed {
                    let (grace, clock) = (self.grace, Clock::Cpu);
                    let fault =
                        Fault::Timeout { what, used, budget, grace, killed: true, clock, backstop: false };
                    return Err(self.fail(fault));
                }
                // Look again when the allowance could be used up, on every core.
                wait = wait.min(((allowed - used) / cores()).max(Duration::from_millis(1)));
            }
            let (reply_ready, output_ready) =
                poll2(self.stdout.as_raw_fd(), self.stderr.as_ref().map(|e| e.as_raw_fd()), wait);
            if output_ready {
                self.drain_output();
                if self.printed > self.output_limit {
                    return Err(self.fail(Fault::OutputFlood { limit: self.output_limit }));
                }
            }
            if reply_ready {
                match self.stdout.read(&mut chunk) {
                    Ok(0) | Err(_) => return Err(self.died()),
                    Ok(n) => {
                        self.inbox.extend_from_slice(&chunk[..n]);
                        if self.inbox.len() > protocol::MAX_FRAME + 4 {
                            return Err(
                                self.fail(Fault::Protocol("a reply longer than the frame limit".into()))
                            );
                        }
                    }
                }
            }
        }
    }

    /// Reads what the player printed before it replied and is still in the
    /// pipe, without waiting: what a turn printed is that turn's (its
    /// notes), not the next one's. Output written before the reply is seen
    /// ready with it, and read with it; only a read that filled the buffer
    /// may have left some (no system call otherwise). Bounded: a flood is
    /// the next request's.
    fn drain_written_output(&mut self) {
        for _ in 0..16 {
            if !self.more_output || !poll2(-1, self.stderr.as_ref().map(|e| e.as_raw_fd()), Duration::ZERO).1
            {
                return;
            }
            self.drain_output();
        }
    }

    /// Reads what the player printed, without blocking (the pipe is ready).
    fn drain_output(&mut self) {
        let Some(stderr) = self.stderr.as_mut() else { return };
        let mut chunk = [0u8; 16 << 10];
        self.more_output = false;
        match stderr.read(&mut chunk) {
            Ok(0) | Err(_) => self.stderr = None,
            Ok(n) => {
                self.more_output = n == chunk.len();
                self.printed += n as u64;
                self.output.push(&chunk[..n]);
            }
        }
    }

    /// Whether the worker has died or been stopped.
    pub fn is_dead(&self) -> bool {
        self.dead.is_some()
    }

    /// A new game starts: the output allowance starts again.
    pub fn reset_output_allowance(&mut self) {
        self.printed = 0;
    }

    /// The worker's reply pipe closed: it died, or hung up on us. Reaps it
    /// and says how.
    fn died(&mut self) -> Fault {
        // A dying process closes its pipes before it can be reaped (freeing a
        // large address space takes a while): give it time to finish dying
        // before deciding that it hung up on us.
        let until = Instant::now() + Duration::from_millis(200);
        while let Ok(None) = self.child.try_wait() {
            if Instant::now() >= until {
                return self.fail(Fault::Protocol("it closed its reply pipe without answering".into()));
            }
            std::thread::sleep(Duration::from_millis(1));
        }
        // Collect its last words (an abort message, an allocation failure).
        let until = Instant::now() + Duration::from_millis(50);
        while self.stderr.is_some() && Instant::now() < until {
            if poll2(-1, self.stderr.as_ref().map(|e| e.as_raw_fd()), Duration::from_millis(10)).1 {
                self.drain_output();
            }
        }
        self.kill();
        let status = self.child.wait().ok();
        let fault = Fault::Crashed(describe_exit(status, &self.output, self.memory_bytes));
        self.dead = Some(fault.clone());
        fault
    }

    /// Kills the worker for `fault` and remembers why.
    pub(super) fn fail(&mut self, fault: Fault) -> Fault {
        self.kill();
        let _ = self.child.wait();
        self.dead = Some(fault.clone());
        fault
    }

    /// SIGKILL to the worker's whole process group: it and anything it
    /// forked, frozen or not (the kernel wakes a stopped process to kill
    /// it: nothing of the group is left stopped).
    fn kill(&mut self) {
        let group = self.child.id() as libc::pid_t;
        // SAFETY: plain syscall. The group id is the worker's pid
        // (process_group(0)); a group outlives its leader while members
        // remain, so after reaping this still reaches forked stragglers.
        unsafe {
            libc::kill(-group, libc::SIGKILL);
        }
    }
}

impl Drop for Worker {
    fn drop(&mut self) {
        // The whole group: a dead worker's forked children die too.
        self.kill();
        if self.dead.is_none() {
            let _ = self.child.wait();
        }
    }
}

/// The process that runs the player of the worker started as `child`: the
/// child itself, or, sandboxed, the keeper's child that is not the PID
/// namespace's init (crates/arena-sandbox/src/enter.rs).
fn player_process(child: libc::pid_t, sandboxed: bool) -> Option<libc::pid_t> {
    if !sandboxed {
        return Some(child);
    }
    let children = std::fs::read_to_string(format!("/proc/{child}/task/{child}/children")).ok()?;
    children.split_whitespace().filter_map(|p| p.parse().ok()).find(|pid: &libc::pid_t| {
        let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
        // "NSpid:\t<pid here>\t<pid in the namespace>"; the init is 1 there.
        status
            .lines()
            .find_map(|l| l.strip_prefix("NSpid:"))
            .and_then(|l| l.split_whitespace().last())
            .is_some_and(|inner| inner != "1")
    })
}

/// The CPU time the descendants of process `pid` have used (theirs and
/// their reaped children's), from `/proc`: what a player's own processes
/// took from the core it shares with them.
fn descendants_cpu(pid: libc::pid_t) -> Duration {
    // SAFETY: a plain query.
    let ticks = unsafe { libc::sysconf(libc::_SC_CLK_TCK) }.max(1) as f64;
    let mut total = 0.0;
    let mut stack = vec![pid];
    while let Some(parent) = stack.pop() {
        let Ok(tasks) = std::fs::read_dir(format!("/proc/{parent}/task")) else { continue };
        for task in tasks.flatten() {
            let children = std::fs::read_to_string(task.path().join("children")).unwrap_or_default();
            for child in children.split_whitespace().filter_map(|c| c.parse::<libc::pid_t>().ok()) {
                let stat = std::fs::read_to_string(format!("/proc/{child}/stat")).unwrap_or_default();
                // After COMM's last ')': the state is field 3, utime 14 ... cstime 17.
                let after = stat.rsplit_once(')').map_or("", |(_, rest)| rest);
                let fields: Vec<&str> = after.split_whitespace().collect();
                let times = fields.get(11..15).unwrap_or_default();
                total += times.iter().filter_map(|t| t.parse::<f64>().ok()).sum::<f64>() / ticks;
                stack.push(child);
            }
        }
    }
    Duration::from_secs_f64(total)
}

/// The cores a player's threads could use at once.
fn cores() -> u32 {
    static CORES: std::sync::OnceLock<u32> = std::sync::OnceLock::new();
    *CORES.get_or_init(|| std::thread::available_parallelism().map_or(1, |n| n.get() as u32))
}

/// Waits until `reply` or `output` is readable (or closed), or `wait` passes.
fn poll2(reply: RawFd, output: Option<RawFd>, wait: Duration) -> (bool, bool) {
    let mut fds = [
        libc::pollfd { fd: reply, events: libc::POLLIN, revents: 0 },
        libc::pollfd { fd: output.unwrap_or(-1), events: libc::POLLIN, revents: 0 },
    ];
    let timeout = libc::timespec {
        tv_sec: wait.as_secs() as libc::time_t,
        tv_nsec: wait.subsec_nanos() as libc::c_long,
    };
    // SAFETY: fds is a valid array of 2 pollfd; negative fds are ignored by ppoll.
    let n = unsafe { libc::ppoll(fds.as_mut_ptr(), 2, &timeout, std::ptr::null()) };
    if n <= 0 {
        return (false, false);
    }
    let ready =
        |p: &libc::pollfd| p.fd >= 0 && p.revents & (libc::POLLIN | libc::POLLHUP | libc::POLLERR) != 0;
    (ready(&fds[0]), ready(&fds[1]))
}

fn describe_exit(status: Option<ExitStatus>, output: &CappedOutput, memory_bytes: u64) -> String {
    let out_of_memory = output.text().contains("memory allocation of");
    let mut how = match status {
        Some(s) if s.signal().is_some() => {
            let signal = s.signal().unwrap_or(0);
            format!("killed by signal {signal} ({})", signal_name(signal))
        }
        Some(s) => format!("exited with status {}", s.code().unwrap_or(-1)),
        None => "vanished".to_string(),
    };
    if out_of_memory {
        how.push_str(&format!(": out of memory (cap {} MiB)", memory_bytes >> 20));
    }
    how
}

fn signal_name(signal: i32) -> &'static str {
    match signal {
        libc::SIGSEGV => "SIGSEGV, a segmentation fault",
        libc::SIGABRT => "SIGABRT, an abort",
        libc::SIGKILL => "SIGKILL",
        libc::SIGBUS => "SIGBUS",
        libc::SIGFPE => "SIGFPE",
        libc::SIGILL => "SIGILL",
        libc::SIGXCPU => "SIGXCPU, the CPU-time limit",
        libc::SIGTERM => "SIGTERM",
        libc::SIGPIPE => "SIGPIPE",
        _ => "a signal",
    }
}

/// What a player printed: the first `cap` bytes kept, the rest counted.
#[derive(Clone, Debug, Default)]
pub struct CappedOutput {
    kept: Vec<u8>,
    dropped: u64,
    cap: usize,
}

impl CappedOutput {
    fn new(cap: usize) -> CappedOutput {
        CappedOutput { kept: Vec::new(), dropped: 0, cap }
    }

    fn push(&mut self, bytes: &[u8]) {
        let room = self.cap.saturating_sub(self.kept.len());
        let (keep, drop) = bytes.split_at(room.min(bytes.len()));
        self.kept.extend_from_slice(keep);
        self.dropped += drop.len() as u64;
    }

    pub fn is_empty(&self) -> bool {
        self.kept.is_empty() && self.dropped == 0
    }

    /// What was printed, as a player's notes take it: the kept bytes, and
    /// how many more were dropped.
    pub fn printed(&self) -> (Vec<u8>, u64) {
        (self.kept.clone(), self.dropped)
    }

    /// The kept text, with a note of how much was dropped.
    pub fn text(&self) -> String {
        let mut text = String::from_utf8_lossy(&self.kept).into_owned();
        if self.dropped > 0 {
            text.push_str(&format!("\n[... {} more bytes dropped]", self.dropped));
        }
        text
    }
}
