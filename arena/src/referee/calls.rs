//! The one place every referee's calls into a player pass: a panic of a
//! player in the arena's own process becomes a fault (`caught`, used by
//! the referees' `InProcess` wrappers), and an answer over budget a timeout
//! (`timed`, around every agent call, wherever the player runs).

use std::{
    panic::{catch_unwind, AssertUnwindSafe},
    time::Duration,
};

use crate::{
    clock::{Clock, Spent, Stopwatch},
    fault::Fault,
};

/// Runs `call`, turning a panic into the fault that loses the game.
pub(crate) fn caught<T>(call: impl FnOnce() -> T) -> Result<T, Fault> {
    catch_unwind(AssertUnwindSafe(call)).map_err(|payload| {
        let message = payload
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "a panic with no message".to_string());
        Fault::Panicked(message)
    })
}

/// Runs one player call, measures it on both clocks, and turns an answer
/// over `budget` on `clock` into a timeout.
pub(crate) fn timed<T>(
    clock: Clock,
    budget: Duration,
    what: &'static str,
    call: impl FnOnce() -> Result<T, Fault>,
) -> (Result<T, Fault>, Spent) {
    let watch = Stopwatch::start();
    let answer = call();
    let spent = watch.stop();
    (answer.and_then(|answer| within(clock, budget, what, spent).map(|()| answer)), spent)
}

/// Whether a call that spent `spent` kept to `budget` on `clock`.
pub(crate) fn within(clock: Clock, budget: Duration, what: &'static str, spent: Spent) -> Result<(), Fault> {
    let used = clock.charged(spent);
    if used > budget {
        return Err(Fault::Timeout { what, used, budget, killed: false, clock });
    }
    Ok(())
}
