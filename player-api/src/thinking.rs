//! A stopwatch of a player's own thinking, on the clock its game charges,
//! for a player that manages its time (`Thinking`).
//!
//! Which clock to read. The arena charges a turn on one of two clocks
//! (`--clock`): `cpu` charges the CPU time the player used; `wall`
//! charges a player in a worker process its *own* time, the wall time less
//! the time the machine kept it from a core. For a player that computes on
//! one thread, both are its thread's CPU time, so a search budgeted by that
//! time thinks as long, and searches as far, on a busy machine as on an
//! idle one, under either clock. That is the default ([`Charged::Cpu`]),
//! and why a library needs no word from the arena to keep to its budget:
//! the ABI's structs tell no clock, and need not.
//!
//! The wall clock charges a player in the arena's own process (its
//! built-in levels, a library under `--in-process`) all its wall time,
//! waits for a core included: budgeted by CPU time, such a player on a
//! busy machine would be charged far more than it measured. So the arena
//! tells the players it calls in its own process which clock it charges
//! ([`charging`], around every call it times), and [`Thinking::start`]
//! reads the wall there. A library has its own copy of this crate, which
//! the arena's word does not reach: it gets the default, right in a worker.
//!
//! A player that sleeps or blocks while it thinks (threads that wait on
//! each other, input) is charged that time on the wall clock but not on the
//! CPU clock: it knows which clock its course charges, and asks for it
//! ([`Thinking::on`]).

use std::{
    cell::Cell,
    time::{Duration, Instant},
};

/// The clock a game charges a player's thinking on, as a player reads it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Charged {
    /// The calling thread's CPU time: what the CPU clock charges, and the
    /// wall clock charges a worker's player that computes on one thread.
    #[default]
    Cpu,
    /// Time on the wall, waits for a core included: what the wall clock
    /// charges a player in the arena's own process.
    Wall,
}

thread_local! {
    /// The clock the arena said it charges the call running on this thread.
    static TOLD: Cell<Option<Charged>> = const { Cell::new(None) };
}

/// Runs `call` with this thread told that the game charges `clock`: the
/// players it calls here start their [`Thinking`] on it. The arena's
/// referee runs every call it times in its own process this way.
pub fn charging<T>(clock: Charged, call: impl FnOnce() -> T) -> T {
    /// Puts back what the thread was told before, even if `call` panics.
    struct Restore(Option<Charged>);
    impl Drop for Restore {
        fn drop(&mut self) {
            TOLD.with(|told| told.set(self.0));
        }
    }
    let _restore = Restore(TOLD.with(|told| told.replace(Some(clock))));
    call()
}

/// How long a player has thought since it started this stopwatch, on the
/// clock its game charges.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Thinking {
    clock: Charged,
    wall: Instant,
    cpu: Duration,
}

impl Thinking {
    /// Starts on the clock the arena told this thread ([`charging`]), else
    /// on the thread's CPU time (see the module's doc).
    pub fn start() -> Thinking {
        Thinking::on(TOLD.with(Cell::get).unwrap_or_default())
    }

    /// Starts on `clock`, whatever the arena told.
    pub fn on(clock: Charged) -> Thinking {
        let cpu = match clock {
            Charged::Cpu => thread_cpu(),
            Charged::Wall => Duration::ZERO,
        };
        Thinking { clock, wall: Instant::now(), cpu }
    }

    /// The clock it reads.
    pub fn clock(&self) -> Charged {
        self.clock
    }

    /// The time thought since `start`.
    pub fn elapsed(&self) -> Duration {
        match self.clock {
            Charged::Cpu => thread_cpu().saturating_sub(self.cpu),
            Charged::Wall => self.wall.elapsed(),
        }
    }
}

/// The calling thread's CPU time (user and system) since it started. One
/// system call, about as cheap as reading the wall; where the system
/// cannot tell (not a Unix), the wall time since the process first asked.
pub fn thread_cpu() -> Duration {
    #[cfg(unix)]
    {
        let mut now = libc::timespec { tv_sec: 0, tv_nsec: 0 };
        // SAFETY: plain system call writing one timespec.
        if unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut now) } == 0 {
            return Duration::new(now.tv_sec as u64, now.tv_nsec as u32);
        }
    }
    static FIRST: std::sync::OnceLock<Instant> = std::sync::OnceLock::new();
    FIRST.get_or_init(Instant::now).elapsed()
}

#[cfg(test)]
mod tests {
    use super::*;

    const MS: Duration = Duration::from_millis(1);

    fn spin_cpu(for_: Duration) {
        let start = thread_cpu();
        let mut x = 0u64;
        while thread_cpu() - start < for_ {
            x = std::hint::black_box(x.wrapping_add(1));
        }
    }

    #[test]
    fn the_cpu_clock_counts_computing_not_sleeping() {
        let thinking = Thinking::on(Charged::Cpu);
        std::thread::sleep(40 * MS);
        assert!(thinking.elapsed() < 20 * MS, "{:?}", thinking.elapsed());
        spin_cpu(30 * MS);
        assert!(thinking.elapsed() >= 30 * MS, "{:?}", thinking.elapsed());
    }

    #[test]
    fn the_wall_clock_counts_sleeping() {
        let thinking = Thinking::on(Charged::Wall);
        std::thread::sleep(40 * MS);
        assert!(thinking.elapsed() >= 40 * MS, "{:?}", thinking.elapsed());
    }

    #[test]
    fn a_stopwatch_starts_on_the_clock_the_thread_was_told() {
        assert_eq!(Thinking::start().clock(), Charged::Cpu);
        assert_eq!(charging(Charged::Wall, || Thinking::start().clock()), Charged::Wall);
        // Nested, and put back after, a panic included.
        charging(Charged::Wall, || {
            assert_eq!(charging(Charged::Cpu, || Thinking::start().clock()), Charged::Cpu);
            assert_eq!(Thinking::start().clock(), Charged::Wall);
        });
        let panicked = std::panic::catch_unwind(|| charging(Charged::Wall, || panic!("a player's panic")));
        assert!(panicked.is_err());
        assert_eq!(Thinking::start().clock(), Charged::Cpu);
        // Told only on this thread.
        charging(Charged::Wall, || {
            let other = std::thread::spawn(|| Thinking::start().clock()).join().unwrap();
            assert_eq!(other, Charged::Cpu);
        });
    }
}
