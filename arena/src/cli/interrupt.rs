//! Ctrl-C (and SIGTERM) for the commands that can stop part way and keep
//! what they did: `tournament run`, `sprt`.

use std::sync::atomic::{AtomicBool, Ordering};

/// Set by Ctrl-C or SIGTERM: stop starting games. A second one quits at once.
pub(crate) static STOP: AtomicBool = AtomicBool::new(false);

extern "C" fn on_interrupt(_: libc::c_int) {
    if STOP.swap(true, Ordering::SeqCst) {
        // SAFETY: async-signal-safe; workers die with us (PR_SET_PDEATHSIG),
        // and a tournament's journal holds every game that finished.
        unsafe { libc::_exit(130) };
    }
}

/// Sets [`STOP`] on Ctrl-C, and on SIGTERM too: Slurm's way to cancel a
/// job or end it at its time limit.
pub(crate) fn stop_on_interrupt() {
    for signal in [libc::SIGINT, libc::SIGTERM] {
        // SAFETY: installing a handler that only touches an atomic (or exits).
        unsafe { libc::signal(signal, on_interrupt as *const () as libc::sighandler_t) };
    }
}
