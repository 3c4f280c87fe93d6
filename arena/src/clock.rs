//! Which clock a turn is charged on, and the one stopwatch every player
//! call is measured with.
//!
//! `wall` (the default) charges the time from request to answer. `cpu`
//! charges the CPU time (user + system) the player used, as the course's
//! referee did (`time.process_time()`), so a player is not cut off because
//! the machine is busy; a wall-clock backstop (3 x budget + grace) still
//! stops a player that sleeps or blocks. Both times are measured and
//! recorded for every call, whichever clock charges.
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

/// The clock a turn's time is charged on.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "lowercase")]
pub enum Clock {
    /// Time from request to answer.
    #[default]
    Wall,
    /// CPU time the player used (user + system), with a wall-clock backstop.
    Cpu,
}

impl Clock {
    /// What a call that spent `spent` is charged.
    pub fn charged(self, spent: Spent) -> Duration {
        match self {
            Clock::Wall => spent.wall,
            Clock::Cpu => spent.cpu,
        }
    }

    /// How long the arena waits for an answer before it kills the worker:
    /// the budget + grace on the wall clock, or the backstop on the CPU
    /// clock (the CPU budget itself is enforced as the CPU is used).
    pub fn wall_deadline(self, budget: Duration, grace: Duration) -> Duration {
        match self {
            Clock::Wall => budget + grace,
            Clock::Cpu => budget * 3 + grace,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Clock::Wall => "wall",
            Clock::Cpu => "cpu",
        }
    }
}

impl fmt::Display for Clock {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// What one call took, on both clocks.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Spent {
    pub wall: Duration,
    pub cpu: Duration,
}

impl std::ops::Add for Spent {
    type Output = Spent;
    fn add(self, other: Spent) -> Spent {
        Spent { wall: self.wall + other.wall, cpu: self.cpu + other.cpu }
    }
}

impl std::ops::AddAssign for Spent {
    fn add_assign(&mut self, other: Spent) {
        *self = *self + other;
    }
}

impl Spent {
    /// The mean of `n` calls that spent `self` in all (zero for none).
    pub fn mean(self, n: u32) -> Spent {
        Spent {
            wall: self.wall.checked_div(n).unwrap_or_default(),
            cpu: self.cpu.checked_div(n).unwrap_or_default(),
        }
    }

    /// The larger of each clock (for "the longest turn").
    pub fn max(self, other: Spent) -> Spent {
        Spent { wall: self.wall.max(other.wall), cpu: self.cpu.max(other.cpu) }
    }
}

thread_local! {
    /// CPU time workers reported during the current call on this thread.
    static WORKER_CPU: Cell<Option<Duration>> = const { Cell::new(None) };
}

/// Called by a worker's host side once an answer is in: the CPU time the
/// player's process used for it.
pub fn report_worker_cpu(cpu: Duration) {
    WORKER_CPU.with(|c| c.set(Some(c.get().unwrap_or_default() + cpu)));
}

/// Measures one call into a player, wherever it runs.
pub struct Stopwatch {
    wall: Instant,
    thread_cpu: Duration,
}

impl Stopwatch {
    pub fn start() -> Stopwatch {
        WORKER_CPU.with(|c| c.set(None));
        Stopwatch { wall: Instant::now(), thread_cpu: thread_cpu() }
    }

    /// The time since `start`: a worker's player's CPU time if a worker
    /// answered, else this thread's.
    pub fn stop(&self) -> Spent {
        let wall = self.wall.elapsed();
        let cpu =
            WORKER_CPU.with(|c| c.take()).unwrap_or_else(|| thread_cpu().saturating_sub(self.thread_cpu));
        Spent { wall, cpu }
    }
}

/// The calling thread's CPU time.
pub fn thread_cpu() -> Duration {
    read_clock(libc::CLOCK_THREAD_CPUTIME_ID).unwrap_or_default()
}

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

/// The budgets every game has, and the clock they are charged on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budgets {
    /// One turn, move or step (the whole of it: a move and what follows).
    pub turn: Duration,
    /// A player's start of game (`new_game`).
    pub startup: Duration,
    pub clock: Clock,
}

impl Default for Budgets {
    fn default() -> Self {
        Budgets { turn: Duration::from_secs(5), startup: Duration::from_secs(10), clock: Clock::Wall }
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

        let watch = Stopwatch::start();
        spin(Duration::from_millis(60));
        let spun = watch.stop();
        // Another process may take the core for a while: CPU <= wall.
        assert!(spun.cpu >= Duration::from_millis(10) && spun.cpu <= spun.wall, "{spun:?}");
    }

    #[test]
    fn a_worker_report_replaces_the_thread_time() {
        let watch = Stopwatch::start();
        report_worker_cpu(Duration::from_millis(3));
        report_worker_cpu(Duration::from_millis(4));
        assert_eq!(watch.stop().cpu, Duration::from_millis(7));
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
    fn the_backstop_is_three_budgets() {
        let (b, g) = (Duration::from_secs(2), Duration::from_millis(100));
        assert_eq!(Clock::Wall.wall_deadline(b, g), Duration::from_millis(2100));
        assert_eq!(Clock::Cpu.wall_deadline(b, g), Duration::from_millis(6100));
    }
}
