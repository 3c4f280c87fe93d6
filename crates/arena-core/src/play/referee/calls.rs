//! The one place every referee's calls into a player pass: a panic of a
//! player in the arena's own process becomes a fault (`caught`, used by
//! the referees' `InProcess` wrappers), and an answer over budget a timeout
//! (`judged`, around every agent call, wherever the player runs; `turn`,
//! a request for an action on the player's clock).

use std::{
    panic::{catch_unwind, AssertUnwindSafe},
    time::Duration,
};

use player_api::thinking::{self, Charged};

use crate::{
    game::{Agent, Game},
    play::clock::{Clock, Spent, Stopwatch, QUICK},
    play::fault::Fault,
    play::time_control::TurnClock,
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

/// A player's answer to one call, judged against its budget.
pub(crate) enum Answer<T> {
    OnTime(T),
    /// Answered, but over budget: the fault is the timeout. The answer is
    /// kept for records that show what a late player said.
    Late(T, Fault),
    Failed(Fault),
}

impl<T> Answer<T> {
    /// The answer if it counts, else the fault that loses the game.
    pub(crate) fn result(self) -> Result<T, Fault> {
        match self {
            Answer::OnTime(answer) => Ok(answer),
            Answer::Late(_, fault) | Answer::Failed(fault) => Err(fault),
        }
    }
}

/// Runs one player call, measures it, and judges it against `budget` on
/// `clock`: lost past `budget` + `grace`. The one timing path of every call
/// of every game. Its thread's CPU time is read if the CPU's clock judges
/// it, or if `cpu` asks for it to be reported (`Stopwatch::reading`).
fn judged<T>(
    cpu: bool,
    clock: Clock,
    grace: Duration,
    budget: Duration,
    what: &'static str,
    call: impl FnOnce() -> Result<T, Fault>,
) -> (Answer<T>, Spent) {
    let watch = Stopwatch::reading(cpu || clock == Clock::Cpu);
    // A player in this process that manages its time reads the clock it is
    // charged on (a worker's player is charged its own time: player_api::thinking).
    let answer = thinking::charging(thinking_clock(clock), call);
    let spent = watch.stop();
    let used = clock.charged(spent);
    let answer = match answer {
        // What is kept of the player's words is cut here, once, for every call.
        Err(fault) => Answer::Failed(fault.cut()),
        Ok(answer) if used > budget + grace => Answer::Late(
            answer,
            Fault::Timeout { what, used, budget, grace, killed: false, clock, backstop: false },
        ),
        Ok(answer) => Answer::OnTime(answer),
    };
    (answer, spent)
}

/// One turn of a player on its clock `own` (its request made for
/// `own.limit()`): under a bank the player is told the bank first, timed
/// with the turn; then `act`, judged against the turn's limit and `grace`.
/// An answer in time is charged to the clock; a late one loses, and is not.
pub(crate) fn turn<G: Game>(
    clock: Clock,
    grace: Duration,
    own: &mut TurnClock,
    what: &'static str,
    agent: &mut (impl Agent<G> + ?Sized),
    request: G::Request,
) -> (Answer<G::Action>, Spent) {
    let (limit, bank) = (own.limit(), own.time_bank());
    // Its CPU time read unless its last turn was quick (the wall clock judges).
    let (answer, spent) = judged(!own.last_quick, clock, grace, limit, what, || {
        bank.map_or(Ok(()), |bank| agent.time_bank(bank))?;
        agent.act(request, limit)
    });
    own.last_quick = spent.wall < QUICK;
    if let Answer::OnTime(_) = answer {
        own.charge(clock.charged(spent));
    }
    (answer, spent)
}

/// What a player in this process reads to keep to its budget on `clock`:
/// in process, the wall clock charges every wait for a core.
fn thinking_clock(clock: Clock) -> Charged {
    match clock {
        Clock::Wall => Charged::Wall,
        Clock::Cpu => Charged::Cpu,
    }
}

/// `judged`, for callers that only need the answer if it counts (and
/// report no time: its CPU time is read only where it is judged).
pub(crate) fn timed<T>(
    clock: Clock,
    grace: Duration,
    budget: Duration,
    what: &'static str,
    call: impl FnOnce() -> Result<T, Fault>,
) -> (Result<T, Fault>, Spent) {
    let (answer, spent) = judged(false, clock, grace, budget, what, call);
    (answer.result(), spent)
}
