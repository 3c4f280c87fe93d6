//! Work that cannot go on now waits, and is never failed for it: a
//! grading whose games the machine spoiled (its player kept from a core
//! past the bound, `clock::STARVATION_BOUND`) is postponed, its run kept
//! to be resumed from its journal after a backoff, its student told why
//! ("waiting for the machine: 2 games postponed"); one that found the
//! disk full waits for it to have room ("waiting: the server's disk is
//! full"; `full_disk.rs` holds that state). Neither is ever the student's
//! fault.

use std::{fmt, time::Duration};

use crate::store::disk;

/// Why a grading waits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Postponed {
    /// The machine spoiled its games (`games` of them; in its check, when
    /// `check`), which count for no one: it waits [`MACHINE`]'s backoff.
    Machine { games: usize, check: bool },
    /// A write failed for space: it waits until the disk has room, which
    /// `full_disk.rs` finds out (the database may not take a time).
    DiskFull,
}

impl Postponed {
    /// How long it waits after waiting `waits` times before, if it waits
    /// for a time (the full disk's wait is held in memory, not timed).
    pub fn backoff(self) -> Option<fn(u32) -> Duration> {
        match self {
            Postponed::Machine { .. } => Some(|waits| MACHINE.after(waits)),
            Postponed::DiskFull => None,
        }
    }
}

impl fmt::Display for Postponed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (games, check) = match *self {
            Postponed::DiskFull => return write!(f, "waiting: the server's disk is full"),
            Postponed::Machine { games: 0, .. } => {
                return write!(f, "waiting for the machine: its player could not start in time")
            }
            Postponed::Machine { games, check } => (games, check),
        };
        let s = if games == 1 { "" } else { "s" };
        let of = if check { " of its check" } else { "" };
        write!(f, "waiting for the machine: {games} game{s}{of} postponed")
    }
}

impl std::error::Error for Postponed {}

/// A wait that doubles at each wait after the first, up to `longest`.
#[derive(Clone, Copy, Debug)]
pub struct Backoff {
    pub first: Duration,
    pub longest: Duration,
}

impl Backoff {
    /// How long work that has waited `waits` times before waits now.
    pub fn after(&self, waits: u32) -> Duration {
        self.first.saturating_mul(1 << waits.min(16)).min(self.longest)
    }
}

/// A grading the machine spoiled: trying again costs games, so it waits
/// long.
pub const MACHINE: Backoff =
    Backoff { first: Duration::from_secs(30), longest: Duration::from_secs(15 * 60) };

/// The postponement `error` is, if it is one: a [`Postponed`] anywhere in
/// its chain, or a write that failed for space ([`disk::is_full`]).
pub fn postponed(error: &anyhow::Error) -> Option<Postponed> {
    let found = error.chain().find_map(|e| e.downcast_ref::<Postponed>()).copied();
    found.or_else(|| disk::is_full(error).then_some(Postponed::DiskFull))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_backoff_doubles_up_to_its_longest() {
        let waits: Vec<u64> = (0..7).map(|n| MACHINE.after(n).as_secs()).collect();
        assert_eq!(waits, [30, 60, 120, 240, 480, 900, 900]);
        assert_eq!(MACHINE.after(u32::MAX), MACHINE.longest);
    }

    #[test]
    fn a_postponement_says_how_many_games_and_is_found_in_a_chain() {
        assert_eq!(
            Postponed::Machine { games: 2, check: false }.to_string(),
            "waiting for the machine: 2 games postponed"
        );
        assert_eq!(
            Postponed::Machine { games: 1, check: true }.to_string(),
            "waiting for the machine: 1 game of its check postponed"
        );
        let machine = Postponed::Machine { games: 3, check: false };
        let error = anyhow::Error::new(machine).context("grading submission 4");
        assert_eq!(postponed(&error), Some(machine));
        assert_eq!(postponed(&anyhow::anyhow!("it does not load")), None);
    }

    #[test]
    fn a_write_that_failed_for_space_waits_for_the_disk_untimed() {
        let full =
            anyhow::Error::new(std::io::Error::from_raw_os_error(libc::ENOSPC)).context("cannot write x");
        assert_eq!(postponed(&full), Some(Postponed::DiskFull));
        assert_eq!(Postponed::DiskFull.to_string(), "waiting: the server's disk is full");
        assert!(Postponed::DiskFull.backoff().is_none());
        assert_eq!(
            Postponed::Machine { games: 1, check: false }.backoff().map(|b| b(1)),
            Some(MACHINE.after(1))
        );
    }
}
