//! The worker that introduced a player when it was loaded (its hello),
//! kept for the player's first instance instead of killed and started
//! again: a Python player's start (an interpreter, numpy, the player's
//! modules) is ~0.1 s, twice over the whole of a short match's own start.
//! Few are kept at once (`KEPT_AT_MOST`): a tournament loads every
//! entrant, and must not hold each one's process idle until its first game.

use std::sync::{
    atomic::{AtomicUsize, Ordering},
    Arc, Mutex,
};

use super::{process::Worker, Hosted, WorkerLimits};

/// Spare workers alive in this process, at most: a match's two seats.
const KEPT_AT_MOST: usize = 2;
static KEPT: AtomicUsize = AtomicUsize::new(0);

/// A player's spare worker, if it has one; shared by the player's copies.
#[derive(Clone, Default)]
pub struct Spare(Arc<Mutex<Option<Kept>>>);

/// A spare worker and what it was started as.
struct Kept {
    worker: Option<Worker>,
    hosted: Hosted,
    limits: WorkerLimits,
}

impl Drop for Kept {
    fn drop(&mut self) {
        KEPT.fetch_sub(1, Ordering::SeqCst);
    }
}

impl Spare {
    /// Keeps `worker` (started as `hosted` under `limits`) if fewer than
    /// `KEPT_AT_MOST` are kept and it was started by the main thread; else
    /// lets it go. A worker dies with the thread that started it
    /// (PR_SET_PDEATHSIG): another thread's could die before its game.
    pub fn keep(worker: Worker, hosted: &Hosted, limits: &WorkerLimits) -> Spare {
        // SAFETY: plain syscalls.
        let main_thread = unsafe { libc::gettid() == libc::getpid() };
        if !main_thread {
            return Spare::default();
        }
        let room =
            KEPT.fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| (n < KEPT_AT_MOST).then_some(n + 1));
        if room.is_err() {
            return Spare::default();
        }
        let kept = Kept { worker: Some(worker), hosted: hosted.clone(), limits: limits.clone() };
        Spare(Arc::new(Mutex::new(Some(kept))))
    }

    /// The spare worker, once, if it was started as `hosted` under
    /// `limits` and is alive.
    pub fn take(&self, hosted: &Hosted, limits: &WorkerLimits) -> Option<Worker> {
        let mut slot = self.0.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        let matches = slot.as_ref().is_some_and(|kept| kept.hosted == *hosted && kept.limits == *limits);
        if !matches {
            return None;
        }
        let mut worker = slot.take().and_then(|mut kept| kept.worker.take()).filter(|w| !w.is_dead())?;
        worker.rebase();
        Some(worker)
    }
}
