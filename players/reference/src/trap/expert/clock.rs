//! The time manager: how much of the turn's budget a search may use.
//!
//! The referee times the whole turn (move and throw together, plus the trip
//! to a worker and back), so Expert aims well inside what is left: it stops
//! starting new iterations at `soft` and abandons a running one at `hard`.
//! The clock is read every few hundred nodes, never per node.
//!
//! The clock is the game's (`player_api::thinking`): the thread's CPU time
//! where that is what the game charges, so that a busy machine takes none
//! of the search's depth; the wall's where the arena charges waits for a
//! core too (a level in its own process, on the wall clock).

use std::time::Duration;

use player_api::thinking::Thinking;

/// The share of the time left that one search aims at, and may never pass.
const SOFT_SHARE: f64 = 0.12;
const HARD_SHARE: f64 = 0.20;
/// Kept back whatever the budget: scheduling noise on a loaded machine.
const RESERVE: Duration = Duration::from_millis(2);

#[derive(Clone, Copy, Debug)]
pub struct Deadline {
    started: Thinking,
    soft: Duration,
    hard: Duration,
}

impl Deadline {
    /// A search of a turn whose budget has `time_left` remaining.
    pub fn for_turn(time_left: Duration) -> Deadline {
        let usable = time_left.saturating_sub(RESERVE);
        Deadline::new(usable.mul_f64(SOFT_SHARE), usable.mul_f64(HARD_SHARE))
    }

    /// A search that may use exactly `time` (benchmarks, analysis), on the
    /// same clock.
    pub fn fixed(time: Duration) -> Deadline {
        Deadline::new(time, time)
    }

    fn new(soft: Duration, hard: Duration) -> Deadline {
        Deadline { started: Thinking::start(), soft, hard }
    }

    pub fn elapsed(&self) -> Duration {
        self.started.elapsed()
    }

    /// Whether a new iteration may start: the next one costs several times
    /// the last, so none starts past half of the soft limit.
    pub fn may_deepen(&self) -> bool {
        self.elapsed() * 2 < self.soft
    }

    /// Whether a running iteration must be abandoned.
    pub fn passed(&self) -> bool {
        self.elapsed() >= self.hard
    }
}
