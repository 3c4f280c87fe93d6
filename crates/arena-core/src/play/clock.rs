//! Which clock a turn is charged on, and the one stopwatch every player
//! call is measured with.
//!
//! `wall` (the default) charges the time from request to answer, less the
//! time the machine kept the player from a core. `cpu` charges the CPU
//! time (user + system) the player used, as the course's referee did
//! (`time.process_time()`). Both times are measured and recorded for every
//! call, whichever clock charges.
//!
//! A verdict must not depend on the machine's load, so neither clock
//! charges a player for waiting for a core. A worker reads its player's
//! run-queue wait (the kernel's `run_delay` in `/proc/PID/schedstat`: time
//! the player's main thread was ready to run but had no core) and takes
//! the machine's share of it off the wall time: what is left, the player's *own* time, is what it
//! spent computing, sleeping or blocked. A call is lost past its budget +
//! the settings' grace (none by default, [`DEFAULT_GRACE`]); the limits of
//! one call (`Limits`), with the margin [`KILL_MARGIN`] = 100 ms:
//!
//! - `wall`: killed once its own time passes budget + grace + margin;
//! - `cpu`: killed once its CPU time passes budget + grace + margin, or its own time
//!   passes the backstop, max(3 x budget, budget + 10 s) (a player that
//!   sleeps or blocks uses no CPU time, and must still be stopped);
//! - either: a player still short of those limits is still thinking,
//!   however long the machine keeps it from a core, up to an absolute
//!   bound, `cap`: [`STARVATION_BOUND`] times its budget, grace and margin of wall
//!   time (102 s for a 5 s turn). Past it the player is stopped and the
//!   fault is the machine's (`Fault::Overloaded`), never the player's: its
//!   game is postponed, never counted (`tournament::run_part`), and played
//!   again once the machine has cores to give.
//!
//! Only the machine's wait is taken off (`machine_wait`): a player whose
//! own threads or processes crowd its main thread out is charged for it.
//!
//! A player in the arena's own process is charged its wall time (its wait
//! is not measured: in-process players are the trusted built-in levels).
//!
//! Where the CPU time comes from: a player in the arena's own process is
//! charged its thread's CPU time; a worker (isolation/) measures its
//! player's process (every thread of it) from outside and reports it to the
//! stopwatch of the calling thread (`report_worker_cpu`), since the agent
//! traits return only the answer.

use std::{
    cell::Cell,
    fmt,
    time::{Duration, Instant},
};

use serde::{Deserialize, Serialize};

use crate::play::time_control::TimeControl;

/// The clock a turn's time is charged on.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "lowercase")]
pub enum Clock {
    /// Time from request to answer, less the time spent waiting for a core.
    #[default]
    Wall,
    /// CPU time the player used (user + system), with a wall-clock backstop.
    Cpu,
}

impl Clock {
    /// What a call that spent `spent` is charged.
    pub fn charged(self, spent: Spent) -> Duration {
        match self {
            Clock::Wall => spent.own(),
            Clock::Cpu => spent.cpu,
        }
    }

    /// When a worker is stopped on this clock, for a call of `budget` that
    /// is lost past budget + `grace`: [`KILL_MARGIN`] later.
    pub fn limits(self, budget: Duration, grace: Duration) -> Limits {
        let backstop = backstop(budget);
        let killed = budget + grace + KILL_MARGIN;
        let cap = killed * STARVATION_BOUND;
        match self {
            Clock::Wall => Limits { own: killed, cpu: None, cap },
            // A sleeping player's backstop may be longer than the bound.
            Clock::Cpu => Limits { own: backstop, cpu: Some(killed), cap: cap.max(backstop * 2) },
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Clock::Wall => "wall",
            Clock::Cpu => "cpu",
        }
    }
}

/// On the CPU clock, the own time past which a call of `budget` is stopped
/// (a player that sleeps or blocks uses no CPU time): max(3 x budget,
/// budget + 10 s), past budget + [`MAX_GRACE`] + [`KILL_MARGIN`].
pub fn backstop(budget: Duration) -> Duration {
    (budget * 3).max(budget + Duration::from_secs(10))
}

/// How far past its limit (its budget, what is left of its bank) a call may
/// go before it is lost, unless the settings say otherwise: not at all, so
/// that a turn's limit is exact (time odds at 1 ms, a bank run out).
pub const DEFAULT_GRACE: Duration = Duration::ZERO;

/// The most grace the settings may give: up to it, the CPU clock's
/// backstop (at least budget + 10 s) stays past budget + grace + the
/// margin, and a course's 1 s on 5 s fits.
pub const MAX_GRACE: Duration = Duration::from_secs(5);

/// How long past budget + grace a worker that has not answered is waited
/// for before it is killed: an answer that comes meanwhile is measured
/// (and loses, with its time); one that does not is `no answer: killed`.
pub const KILL_MARGIN: Duration = Duration::from_millis(100);

/// A grace as the settings and `--grace` write it (`100ms`, `1s`, `0`):
/// 0 to [`MAX_GRACE`]; an error says the range.
pub fn parse_grace(text: &str) -> Result<Duration, String> {
    let grace = crate::report::units::parse_wait(text)?;
    if grace > MAX_GRACE {
        return Err(format!(
            "'{}' is out of range: a grace is 0s to {}s (how far past its budget a turn may go before it is lost)",
            text.trim(),
            MAX_GRACE.as_secs()
        ));
    }
    Ok(grace)
}

/// How many times its budget (and grace) a call may take on the wall while
/// the machine keeps its player from a core: a player within its own
/// limits is waited for that long, a real course player (3-5 s of CPU a
/// turn at 5 s) beside two busy loops included, then its game is
/// postponed (see the module's doc).
pub const STARVATION_BOUND: u32 = 20;

/// When a worker that has not answered is stopped (see the module's doc).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Its own time (wall time less the time it waited for a core).
    pub own: Duration,
    /// Its CPU time, on the CPU clock.
    pub cpu: Option<Duration>,
    /// Wall time: past it, a player within its other limits was kept from
    /// a core by the machine, and the fault is the machine's.
    pub cap: Duration,
}

impl fmt::Display for Clock {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// What one call took, on both clocks, and how long of it the player
/// waited for a core.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Spent {
    pub wall: Duration,
    pub cpu: Duration,
    /// Time the player was ready to run but had no core (measured for
    /// workers; zero in process).
    pub waited: Duration,
}

impl std::ops::Add for Spent {
    type Output = Spent;
    fn add(self, other: Spent) -> Spent {
        Spent { wall: self.wall + other.wall, cpu: self.cpu + other.cpu, waited: self.waited + other.waited }
    }
}

impl std::ops::AddAssign for Spent {
    fn add_assign(&mut self, other: Spent) {
        *self = *self + other;
    }
}

impl Spent {
    /// The player's own time: the wall time less its wait for a core.
    pub fn own(self) -> Duration {
        self.wall.saturating_sub(self.waited)
    }

    /// The mean of `n` calls that spent `self` in all (zero for none).
    pub fn mean(self, n: u32) -> Spent {
        Spent {
            wall: self.wall.checked_div(n).unwrap_or_default(),
            cpu: self.cpu.checked_div(n).unwrap_or_default(),
            waited: self.waited.checked_div(n).unwrap_or_default(),
        }
    }

    /// The larger of each clock (for "the longest turn").
    pub fn max(self, other: Spent) -> Spent {
        Spent {
            wall: self.wall.max(other.wall),
            cpu: self.cpu.max(other.cpu),
            waited: self.waited.max(other.waited),
        }
    }
}

/// What a worker measured of its player during one call.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct WorkerSpent {
    pub cpu: Duration,
    pub waited: Duration,
}

thread_local! {
    /// What workers reported during the current call on this thread.
    static WORKER_SPENT: Cell<Option<WorkerSpent>> = const { Cell::new(None) };
}

/// Called by a worker's host side once an answer is in: the CPU time the
/// player's process used for it, and how long it waited for a core.
pub fn report_worker(spent: WorkerSpent) {
    WORKER_SPENT.with(|c| {
        let before = c.get().unwrap_or_default();
        c.set(Some(WorkerSpent { cpu: before.cpu + spent.cpu, waited: before.waited + spent.waited }))
    });
}

/// Measures one call into a player, wherever it runs.
pub struct Stopwatch {
    wall: Instant,
    /// The thread's CPU time at the start, if read.
    thread_cpu: Option<Duration>,
}

/// A call into a player in this process shorter than this on the wall
/// clock is quick: under the wall clock the next call's CPU time need not
/// be read (`Stopwatch::reading`).
pub const QUICK: Duration = Duration::from_millis(1);

impl Stopwatch {
    pub fn start() -> Stopwatch {
        Stopwatch::reading(true)
    }

    /// Starts, reading the thread's CPU time only if `cpu`. A thread's CPU
    /// clock is a system call each way (no vDSO): under the wall clock a
    /// call in this process is judged on wall time, its CPU time only
    /// reported, and for a player whose last call was quick its two reads
    /// were half the time of a built-in's game. Unread, a call in this
    /// process is reported at its wall time: what it can have used at most.
    /// A worker's CPU time is its process's, read by the worker's host.
    pub fn reading(cpu: bool) -> Stopwatch {
        WORKER_SPENT.with(|c| c.set(None));
        Stopwatch { wall: Instant::now(), thread_cpu: cpu.then(thread_cpu) }
    }

    /// The time since `start`: a worker's player's CPU time and wait if a
    /// worker answered, else this thread's CPU time.
    pub fn stop(&self) -> Spent {
        match WORKER_SPENT.with(|c| c.take()) {
            Some(worker) => {
                let wall = self.wall.elapsed();
                Spent { wall, cpu: worker.cpu, waited: worker.waited.min(wall) }
            }
            None => {
                // Read in the reverse order of `start`'s: the CPU time's
                // interval lies within the wall time's.
                let cpu = self.thread_cpu.map(|start| thread_cpu().saturating_sub(start));
                let wall = self.wall.elapsed();
                Spent { wall, cpu: cpu.unwrap_or(wall), waited: Duration::ZERO }
            }
        }
    }
}

/// The calling thread's CPU time: the one reading players use too.
pub use player_api::thinking::thread_cpu;

/// The CPU-time clock of a process: all its threads, not its children.
#[derive(Clone, Copy, Debug)]
pub struct ProcessClock(libc::clockid_t);

impl ProcessClock {
    /// The clock of process `pid`, if it exists.
    pub fn of(pid: libc::pid_t) -> Option<ProcessClock> {
        let mut clock: libc::clockid_t = 0;
        // SAFETY: plain call writing one clockid_t.
        (unsafe { libc::clock_getcpuclockid(pid, &mut clock) } == 0).then_some(ProcessClock(clock))
    }

    /// The CPU time the process has used so far (one system call), or None
    /// once it is gone.
    pub fn read(self) -> Option<Duration> {
        read_clock(self.0)
    }
}

fn read_clock(clock: libc::clockid_t) -> Option<Duration> {
    let mut now = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: plain syscall writing one timespec.
    if unsafe { libc::clock_gettime(clock, &mut now) } != 0 {
        return None;
    }
    Some(Duration::new(now.tv_sec as u64, now.tv_nsec as u32))
}

/// A process's main thread as the scheduler counts it, from
/// `/proc/PID/schedstat` (the thread's time on a core, then `run_delay`:
/// its time ready to run but without a core), kept open and read again
/// with one `pread` per reading; and whether it is ready to run, from
/// `/proc/PID/stat`.
///
/// The kernel adds a wait to `run_delay` only once the thread gets its
/// core: a thread starved now has a wait that no reading shows yet.
/// `Starvation` finds it by watching.
#[derive(Debug)]
pub struct MainThread {
    schedstat: std::fs::File,
    stat: std::fs::File,
}

/// What `MainThread` reads.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Scheduled {
    /// Time on a core.
    pub ran: Duration,
    /// Time ready to run without a core.
    pub waited: Duration,
}

impl MainThread {
    /// The main thread of process `pid`, if the kernel tells its schedule.
    pub fn of(pid: libc::pid_t) -> Option<MainThread> {
        let open = |name: &str| std::fs::File::open(format!("/proc/{pid}/{name}")).ok();
        let thread = MainThread { schedstat: open("schedstat")?, stat: open("stat")? };
        thread.read().map(|_| thread)
    }

    /// Its time on a core and waiting for one so far, or None once it is gone.
    pub fn read(&self) -> Option<Scheduled> {
        use std::os::unix::fs::FileExt;
        let mut text = [0u8; 96];
        let n = self.schedstat.read_at(&mut text, 0).ok()?;
        let mut fields = std::str::from_utf8(&text[..n]).ok()?.split_whitespace();
        let mut next = || fields.next()?.parse().ok().map(Duration::from_nanos);
        Some(Scheduled { ran: next()?, waited: next()? })
    }

    /// Whether it is running or ready to run (state `R`), not sleeping.
    pub fn runnable(&self) -> bool {
        use std::os::unix::fs::FileExt;
        let mut text = [0u8; 512];
        let Ok(n) = self.stat.read_at(&mut text, 0) else { return false };
        // "PID (COMM) STATE ...": COMM may hold anything, so after its last ')'.
        let text = &text[..n];
        let after = text.iter().rposition(|&b| b == b')').map_or(text.len(), |i| i + 1);
        text[after..].iter().find(|b| !b.is_ascii_whitespace()) == Some(&b'R')
    }
}

/// A wait for a core that `run_delay` does not show yet: the main thread
/// ready to run, yet not run since the last look. Looked at every few
/// milliseconds once a call nears its limits, it tells since when (at the
/// latest) the thread has been starved.
#[derive(Debug, Default)]
pub struct Starvation {
    /// The last look: when, and the thread's time on a core then.
    last: Option<(Instant, Duration)>,
    /// Since when it has been ready to run without running.
    since: Option<Instant>,
}

impl Starvation {
    /// How often to look while watching.
    pub const LOOK: Duration = Duration::from_millis(20);

    /// Looks at `thread` (read now as `now`): its wait not yet in `run_delay`.
    pub fn look(&mut self, thread: &MainThread, now: Scheduled) -> Duration {
        let at = Instant::now();
        let stalled = matches!(self.last, Some((_, ran)) if ran == now.ran) && thread.runnable();
        self.since = match (stalled, self.since, self.last) {
            (true, Some(since), _) => Some(since),
            (true, None, Some((then, _))) => Some(then),
            _ => None,
        };
        self.last = Some((at, now.ran));
        self.since.map_or(Duration::ZERO, |since| at - since)
    }
}

/// How long of a call the machine kept a player from a core: its main
/// thread's wait for one, less the CPU time its other threads and
/// processes used meanwhile (a player's own threads crowding its main
/// thread out are its own doing, not the machine's). `cpu` is the whole
/// process's CPU time during the call; `main` the main thread's schedule.
pub fn machine_wait(cpu: Duration, main: Scheduled) -> Duration {
    let others = cpu.saturating_sub(main.ran);
    main.waited.saturating_sub(others)
}

/// The budgets every game has, and the clock they are charged on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budgets {
    /// How each turn, move or step is timed (the whole of it: a move and
    /// what follows): a budget per turn, or a time bank.
    pub turn: TimeControl,
    /// A player's start of game (`new_game`).
    pub startup: Duration,
    pub clock: Clock,
    /// How far past its limit a call may go on `clock` before it is lost.
    pub grace: Duration,
}

impl Default for Budgets {
    fn default() -> Self {
        Budgets {
            turn: TimeControl::default(),
            startup: Duration::from_secs(10),
            clock: Clock::Wall,
            grace: DEFAULT_GRACE,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spin(for_: Duration) {
        let until = Instant::now() + for_;
        let mut x = 0u64;
        while Instant::now() < until {
            x = std::hint::black_box(x.wrapping_add(1));
        }
    }

    #[test]
    fn sleeping_costs_wall_time_only_and_spinning_both() {
        let watch = Stopwatch::start();
        std::thread::sleep(Duration::from_millis(60));
        let slept = watch.stop();
        assert!(slept.wall >= Duration::from_millis(60), "{slept:?}");
        assert!(slept.cpu < Duration::from_millis(20), "{slept:?}");
        assert_eq!(Clock::Cpu.charged(slept), slept.cpu);
        assert_eq!(Clock::Wall.charged(slept), slept.wall);

        // Spun until 60 ms of this thread's CPU time, however long other
        // processes keep the core (a busy machine): CPU <= wall.
        let watch = Stopwatch::start();
        let start = thread_cpu();
        let mut x = 0u64;
        while thread_cpu() - start < Duration::from_millis(60) {
            x = std::hint::black_box(x.wrapping_add(1));
        }
        let spun = watch.stop();
        // Two clocks read by two calls: CPU <= wall up to their rates, which
        // NTP may slew apart (by 0.05% at most; allowed: 0.1%).
        assert!(
            spun.cpu >= Duration::from_millis(60) && spun.cpu <= spun.wall + spun.wall / 1000,
            "{spun:?}"
        );
    }

    #[test]
    fn a_call_whose_cpu_time_is_not_read_is_reported_at_its_wall_time_a_workers_at_its_own() {
        let ms = Duration::from_millis;
        let watch = Stopwatch::reading(false);
        std::thread::sleep(ms(20));
        let slept = watch.stop();
        assert!(slept.wall >= ms(20) && slept.cpu == slept.wall, "{slept:?}");
        let watch = Stopwatch::reading(true);
        std::thread::sleep(ms(20));
        assert!(watch.stop().cpu < ms(10));
        // A worker's CPU time is its process's, whatever was read here.
        let watch = Stopwatch::reading(false);
        report_worker(WorkerSpent { cpu: ms(3), waited: ms(0) });
        std::thread::sleep(ms(5));
        assert_eq!(watch.stop().cpu, ms(3));
    }

    #[test]
    fn a_worker_report_replaces_the_thread_time() {
        let watch = Stopwatch::start();
        let ms = Duration::from_millis;
        report_worker(WorkerSpent { cpu: ms(3), waited: ms(1) });
        report_worker(WorkerSpent { cpu: ms(4), waited: ms(2) });
        // (A wait is at most the call's wall time.)
        std::thread::sleep(ms(5));
        let spent = watch.stop();
        assert_eq!((spent.cpu, spent.waited), (ms(7), ms(3)));
        assert_eq!(spent.own(), spent.wall - ms(3));
        assert_eq!(Clock::Wall.charged(spent), spent.own());
        // A report is for one call only.
        let watch = Stopwatch::start();
        assert!(watch.stop().cpu < Duration::from_millis(3));
    }

    #[test]
    fn another_process_clock_is_readable() {
        let mut child = std::process::Command::new("sh")
            .args(["-c", "i=0; while [ $i -lt 200000 ]; do i=$((i+1)); done; sleep 5"])
            .spawn()
            .unwrap();
        let clock = ProcessClock::of(child.id() as libc::pid_t).expect("a live child's clock");
        let mut used = Duration::ZERO;
        for _ in 0..100 {
            used = clock.read().expect("a live child's clock");
            if used >= Duration::from_millis(20) {
                break;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        assert!(used >= Duration::from_millis(20), "{used:?}");
        child.kill().unwrap();
        child.wait().unwrap();
        assert_eq!(clock.read(), None);
    }

    #[test]
    fn the_limits_follow_the_clock() {
        let (s, ms) = (Duration::from_secs, Duration::from_millis);
        let g = DEFAULT_GRACE;
        // The wall clock: budget + grace + the margin of own time.
        assert_eq!(Clock::Wall.limits(s(2), g), Limits { own: ms(2100), cpu: None, cap: s(42) });
        // The CPU clock: its budget + grace + the margin of CPU, the backstop of own time.
        assert_eq!(Clock::Cpu.limits(s(2), g), Limits { own: s(12), cpu: Some(ms(2100)), cap: s(42) });
        // A long budget: three of them.
        assert_eq!(
            Clock::Cpu.limits(s(10), g),
            Limits { own: s(30), cpu: Some(ms(10100)), cap: ms(202_000) }
        );
        // The course's grace: 1 s on 5 s.
        assert_eq!(
            Clock::Cpu.limits(s(5), s(1)),
            Limits { own: s(15), cpu: Some(ms(6100)), cap: ms(122_000) }
        );
    }

    #[test]
    fn a_grace_is_0s_to_5s_and_the_backstop_stays_past_it() {
        let (s, ms) = (Duration::from_secs, Duration::from_millis);
        assert_eq!(parse_grace("0"), Ok(Duration::ZERO));
        assert_eq!(parse_grace("0s"), Ok(Duration::ZERO));
        assert_eq!(parse_grace("1s"), Ok(s(1)));
        assert_eq!(parse_grace("5s"), Ok(MAX_GRACE));
        let past = parse_grace("5.001s").unwrap_err();
        assert_eq!(
            past,
            "'5.001s' is out of range: a grace is 0s to 5s (how far past its budget a turn may go before it is lost)"
        );
        assert!(parse_grace("1 minute").is_err() && parse_grace("-1s").is_err());
        // On the CPU clock, a player that sleeps is stopped no sooner than
        // one that computes up to its grace would be.
        for budget in [ms(1), ms(100), s(5), s(60)] {
            let limits = Clock::Cpu.limits(budget, MAX_GRACE);
            assert!(limits.own > limits.cpu.unwrap(), "{budget:?}: {limits:?}");
        }
    }

    #[test]
    fn a_process_main_thread_schedule_is_readable() {
        let pid = std::process::id() as libc::pid_t;
        let main = MainThread::of(pid).expect("this kernel has /proc/PID/schedstat");
        let first = main.read().unwrap();
        spin(Duration::from_millis(20));
        let then = main.read().unwrap();
        assert!(then.waited >= first.waited && then.ran >= first.ran, "{first:?} {then:?}");
        assert!(MainThread::of(-1).is_none());
    }

    #[test]
    fn a_wait_the_player_made_itself_is_not_the_machine() {
        let ms = Duration::from_millis;
        // Alone: the whole wait is the machine's.
        assert_eq!(machine_wait(ms(100), Scheduled { ran: ms(100), waited: ms(400) }), ms(400));
        // Its other threads used 300 ms meanwhile: only 100 ms were the machine's.
        assert_eq!(machine_wait(ms(400), Scheduled { ran: ms(100), waited: ms(400) }), ms(100));
        // They used more than the wait: none was.
        assert_eq!(machine_wait(ms(2000), Scheduled { ran: ms(100), waited: ms(400) }), ms(0));
    }
}
