//! A full disk is a state, not a loop. A write that fails for space
//! (`store::disk::is_full`) puts the server in it, with one log line.
//! While in it, the grading slots, the scrimmages and the league wait
//! ([`FullDisk::wait_for_room`]: one of them probes the data folder's disk
//! at each step of a backoff, the others sleep), uploads are refused (507),
//! and the gradings it stopped show "waiting: the server's disk is full",
//! even when the database could not take those words ([`FullDisk::shown`]:
//! the state is kept here, in memory, for that). The first probe that
//! finds room leaves it, with one log line, and the work goes on where it
//! stopped (a grading from its journal): nothing is lost.

use std::{
    collections::BTreeSet,
    path::PathBuf,
    sync::{Condvar, Mutex, MutexGuard},
    time::{Duration, Instant},
};

use serde::Serialize;

use crate::{
    store::db::{status, Submission},
    store::disk,
    work::waiting::{Backoff, Postponed},
    work::work_log::one_line,
};

/// How often a full disk is probed: a probe is one small write, so often
/// at first (work goes on within seconds of room), less so the longer it
/// stays full.
pub const DISK: Backoff = Backoff { first: Duration::from_secs(2), longest: Duration::from_secs(120) };

/// Whether the data folder's disk is full, shared by the server's threads
/// and its HTTP side.
pub struct FullDisk {
    dir: PathBuf,
    state: Mutex<State>,
    /// Told after each probe: the threads waiting look again.
    probed: Condvar,
}

#[derive(Default)]
struct State {
    full: Option<Full>,
    /// When the state was last left, and the probes it took: a disk full
    /// again soon after goes on with that backoff rather than start over
    /// (a disk that keeps filling is probed, and logged, less and less).
    left: Option<(Instant, u32)>,
}

struct Full {
    began: Instant,
    /// The write that failed, in its words.
    why: String,
    probes: u32,
    next_probe: Instant,
    /// A thread is probing now: the others wait for its answer.
    probing: bool,
    /// The gradings it stopped (submission ids).
    held: BTreeSet<i64>,
}

/// The state as staff see it (`GET /api/staff/cores`).
#[derive(Serialize, Debug, Clone, PartialEq)]
pub struct Seen {
    /// How long the disk has been full.
    pub seconds: u64,
    /// The write that failed, in its words.
    pub why: String,
    /// When the disk is probed next, from now.
    pub next_probe_in: u64,
    /// The gradings it stopped.
    pub gradings: Vec<i64>,
}

impl FullDisk {
    /// The state of data folder `dir`'s disk: not full, until a write says so.
    pub fn new(dir: PathBuf) -> FullDisk {
        FullDisk { dir, state: Mutex::default(), probed: Condvar::new() }
    }

    /// Whether `error` is a write that failed for space: if so, the state is
    /// entered (if it was not in it: one line in the log).
    pub fn hit(&self, error: &anyhow::Error) -> bool {
        let full = disk::is_full(error);
        if full {
            self.enter(&mut self.lock(), error);
        }
        full
    }

    /// Whether grading `id` stopped at a full disk (`error` is a write that
    /// failed for space): if so, as [`FullDisk::hit`], and the grading
    /// shows that it waits for room.
    pub fn hold(&self, id: i64, error: &anyhow::Error) -> bool {
        let full = disk::is_full(error);
        if full {
            let mut state = self.lock();
            self.enter(&mut state, error);
            if let Some(full) = state.full.as_mut() {
                full.held.insert(id);
            }
        }
        full
    }

    fn enter(&self, state: &mut State, error: &anyhow::Error) {
        if state.full.is_some() {
            return;
        }
        let probes = match state.left {
            Some((at, probes)) if at.elapsed() < DISK.longest => probes + 1,
            _ => 0,
        };
        let why = one_line(&said(error));
        tracing::error!(
            "the server's disk is full ({why}): gradings, scrimmages and the league wait; uploads are refused (507)"
        );
        let now = Instant::now();
        state.full = Some(Full {
            began: now,
            why,
            probes,
            next_probe: now + DISK.after(probes),
            probing: false,
            held: BTreeSet::new(),
        });
    }

    /// Whether the disk is full now (as last found).
    pub fn is_full(&self) -> bool {
        self.lock().full.is_some()
    }

    /// The state as staff see it: `None` while the disk has room.
    pub fn seen(&self) -> Option<Seen> {
        let state = self.lock();
        let full = state.full.as_ref()?;
        Some(Seen {
            seconds: full.began.elapsed().as_secs(),
            why: full.why.clone(),
            next_probe_in: full.next_probe.saturating_duration_since(Instant::now()).as_secs(),
            gradings: full.held.iter().copied().collect(),
        })
    }

    /// `submission` as it is: waiting for the disk if its grading stopped
    /// at it, whatever the database could record.
    pub fn shown(&self, mut submission: Submission) -> Submission {
        let held = self.lock().full.as_ref().is_some_and(|full| full.held.contains(&submission.id));
        if held && [status::CHECKING, status::PLAYING].contains(&submission.status.as_str()) {
            submission.status = status::WAITING.to_string();
            submission.waiting = Some(Postponed::DiskFull.to_string());
            submission.retry_at = None;
        }
        submission
    }

    /// Returns at once while the disk has room; while it is full, waits
    /// until it has room again: one waiting thread probes it at each step
    /// of [`DISK`]'s backoff, the others sleep until it has answered.
    pub fn wait_for_room(&self) {
        let mut state = self.lock();
        loop {
            let Some(full) = state.full.as_mut() else { return };
            let now = Instant::now();
            if full.probing || now < full.next_probe {
                let until = full.next_probe.saturating_duration_since(now).max(Duration::from_millis(100));
                state = self.probed.wait_timeout(state, until).unwrap_or_else(|e| e.into_inner()).0;
                continue;
            }
            full.probing = true;
            drop(state);
            let probed = disk::has_room(&self.dir);
            state = self.lock();
            // (Only a probe leaves the state, and one probes at a time.)
            let Some(full) = state.full.as_mut() else { return };
            full.probing = false;
            match probed {
                Err(e) if disk::io_is_full(&e) => {
                    full.probes += 1;
                    full.next_probe = Instant::now() + DISK.after(full.probes);
                }
                // Room (or another error, which the work will meet and say).
                _ => {
                    let seconds = full.began.elapsed().as_secs();
                    tracing::warn!("the server's disk has room again after {seconds} s: work goes on");
                    state.left = Some((Instant::now(), full.probes));
                    state.full = None;
                }
            }
            self.probed.notify_all();
        }
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// What `error` says of the write that failed: its last context (the file)
/// and the system's words, not what the work was doing.
fn said(error: &anyhow::Error) -> String {
    let causes: Vec<String> = error.chain().map(ToString::to_string).collect();
    causes[causes.len().saturating_sub(2)..].join(": ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn no_space() -> anyhow::Error {
        anyhow::Error::new(std::io::Error::from_raw_os_error(libc::ENOSPC)).context("cannot write x")
    }

    #[test]
    fn a_write_that_failed_for_space_enters_the_state_which_a_probe_that_finds_room_leaves() {
        let dir = tempfile::tempdir().unwrap();
        let disk = FullDisk::new(dir.path().to_path_buf());
        assert!(
            !disk.hit(&anyhow::anyhow!("No space left on device (os error 28)")),
            "words are not the disk"
        );
        assert!(!disk.is_full() && disk.seen().is_none());
        disk.wait_for_room();

        assert!(!disk.hold(6, &anyhow::anyhow!("it does not load")));
        assert!(disk.hold(7, &no_space()));
        assert!(disk.hit(&no_space()));
        let seen = disk.seen().unwrap();
        assert_eq!(
            (seen.gradings, seen.why.as_str()),
            (vec![7], "cannot write x: No space left on device (os error 28)")
        );
        let mut submission = Submission {
            id: 7,
            status: status::PLAYING.into(),
            student: "a".into(),
            group: "a".into(),
            sha256: String::new(),
            file_name: String::new(),
            size: 0,
            played: 3,
            total: 30,
            error: None,
            grade: None,
            created: String::new(),
            finished: None,
            late: false,
            player: None,
            grading_turn: Some(1),
            note: None,
            graded_under: None,
            assignment: "trap".into(),
            waiting: None,
            retry_at: None,
        };
        let shown = disk.shown(submission.clone());
        assert_eq!(
            (shown.status.as_str(), shown.waiting.as_deref()),
            ("waiting", Some("waiting: the server's disk is full"))
        );
        submission.id = 8;
        assert_eq!(disk.shown(submission.clone()).status, "playing", "not stopped by the disk");

        // The data folder has room: the first probe (after DISK.first) leaves the state.
        let started = Instant::now();
        disk.wait_for_room();
        assert!(started.elapsed() >= DISK.first - Duration::from_millis(100), "{:?}", started.elapsed());
        assert!(!disk.is_full() && disk.seen().is_none());
        submission.id = 7;
        assert_eq!(disk.shown(submission).status, "playing");

        // Full again at once: the backoff goes on from where it was.
        disk.hit(&no_space());
        assert!(disk.seen().unwrap().next_probe_in > DISK.first.as_secs());
    }
}
