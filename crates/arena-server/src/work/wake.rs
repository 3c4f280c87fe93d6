//! The signal the server's threads share: [`Wake`], told of a change (a
//! submission arrived, a grading moved on, a game was stored) by whoever
//! made it, waited on by whoever acts on it (the grading slots, the
//! scrimmage and league threads, the leaderboards). Depends on nothing
//! else of the server.

use std::{
    sync::{Condvar, Mutex},
    time::Duration,
};

/// Tells whoever waits that something changed (a submission arrived, a
/// grading moved on): every waiter wakes. A generation count, so that a
/// change made while a waiter was busy is not missed.
#[derive(Default)]
pub struct Wake {
    generation: Mutex<u64>,
    signal: Condvar,
}

impl Wake {
    pub fn notify(&self) {
        *self.generation.lock().unwrap_or_else(|e| e.into_inner()) += 1;
        self.signal.notify_all();
    }

    /// The current generation, to wait for a later one.
    pub fn generation(&self) -> u64 {
        *self.generation.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Waits until a change after generation `seen`, or `timeout`; the
    /// generation then.
    pub fn wait_after(&self, seen: u64, timeout: Duration) -> u64 {
        let generation = self.generation.lock().unwrap_or_else(|e| e.into_inner());
        let (generation, _) = self
            .signal
            .wait_timeout_while(generation, timeout, |generation| *generation == seen)
            .unwrap_or_else(|e| e.into_inner());
        *generation
    }

    /// Waits for a change from now on, or `timeout`.
    pub fn wait(&self, timeout: Duration) {
        let seen = self.generation();
        self.wait_after(seen, timeout);
    }
}
