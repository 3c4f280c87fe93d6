//! Work that cannot go on now waits, and is never failed for it: a
//! grading whose games the machine spoiled (its player kept from a core
//! past the bound, `clock::STARVATION_BOUND`) is postponed, its run kept
//! to be resumed from its journal after a backoff, its student told why
//! ("waiting for the machine: 2 games postponed"). The machine's fault is
//! never the student's.

use std::{fmt, time::Duration};

/// Why a grading waits: the machine spoiled its games (`games` of them;
/// in its check, when `check`), which count for no one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Postponed {
    pub games: usize,
    pub check: bool,
}

impl fmt::Display for Postponed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.games == 0 {
            return write!(f, "waiting for the machine: its player could not start in time");
        }
        let s = if self.games == 1 { "" } else { "s" };
        let of = if self.check { " of its check" } else { "" };
        write!(f, "waiting for the machine: {} game{s}{of} postponed", self.games)
    }
}

impl std::error::Error for Postponed {}

/// The first wait, doubled at each wait after, up to `LONGEST`.
pub const FIRST: Duration = Duration::from_secs(30);
pub const LONGEST: Duration = Duration::from_secs(15 * 60);

/// How long work that has waited `waits` times before waits now.
pub fn backoff(waits: u32) -> Duration {
    FIRST.saturating_mul(1 << waits.min(16)).min(LONGEST)
}

/// The postponement `error` is, if it is one (anywhere in its chain).
pub fn postponed(error: &anyhow::Error) -> Option<Postponed> {
    error.chain().find_map(|e| e.downcast_ref::<Postponed>()).copied()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_backoff_doubles_up_to_its_longest() {
        let waits: Vec<u64> = (0..7).map(|n| backoff(n).as_secs()).collect();
        assert_eq!(waits, [30, 60, 120, 240, 480, 900, 900]);
        assert_eq!(backoff(u32::MAX), LONGEST);
    }

    #[test]
    fn a_postponement_says_how_many_games_and_is_found_in_a_chain() {
        assert_eq!(
            Postponed { games: 2, check: false }.to_string(),
            "waiting for the machine: 2 games postponed"
        );
        assert_eq!(
            Postponed { games: 1, check: true }.to_string(),
            "waiting for the machine: 1 game of its check postponed"
        );
        let error = anyhow::Error::new(Postponed { games: 3, check: false }).context("grading submission 4");
        assert_eq!(postponed(&error), Some(Postponed { games: 3, check: false }));
        assert_eq!(postponed(&anyhow::anyhow!("it does not load")), None);
    }
}
