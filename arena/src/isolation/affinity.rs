//! The workers a thread started, and moving them (every process of their
//! groups, every thread of those) onto one core: the core pool's slot of
//! the thread's next game (`cores.rs`).

use std::cell::RefCell;

thread_local! {
    /// The process groups of the workers this thread started and has not
    /// dropped (a worker's group id is its pid).
    static STARTED: RefCell<Vec<libc::pid_t>> = const { RefCell::new(Vec::new()) };
}

/// A worker `group` was started by the calling thread.
pub(super) fn started(group: libc::pid_t) {
    STARTED.with(|s| s.borrow_mut().push(group));
}

/// Worker `group` is gone.
pub(super) fn gone(group: libc::pid_t) {
    STARTED.with(|s| s.borrow_mut().retain(|g| *g != group));
}

/// Moves every process of the calling thread's workers' groups onto `cpu`.
pub fn move_workers(cpu: usize) {
    let groups = STARTED.with(|s| s.borrow().clone());
    if groups.is_empty() {
        return;
    }
    let Ok(processes) = std::fs::read_dir("/proc") else { return };
    for pid in processes.flatten().filter_map(|e| e.file_name().to_str()?.parse::<libc::pid_t>().ok()) {
        if process_group(pid).is_some_and(|g| groups.contains(&g)) {
            let Ok(threads) = std::fs::read_dir(format!("/proc/{pid}/task")) else { continue };
            for tid in threads.flatten().filter_map(|e| e.file_name().to_str()?.parse::<libc::pid_t>().ok()) {
                let _ = crate::cores::pin(tid, cpu);
            }
        }
    }
}

/// The process group of `pid`, from `/proc/PID/stat` (its fifth field).
fn process_group(pid: libc::pid_t) -> Option<libc::pid_t> {
    let text = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // "PID (COMM) STATE PPID PGRP ...": COMM may hold anything, so after its last ')'.
    text[text.rfind(')')? + 1..].split_whitespace().nth(2)?.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_process_group_is_read_past_any_name() {
        let me = std::process::id() as libc::pid_t;
        // SAFETY: plain syscall.
        assert_eq!(process_group(me), Some(unsafe { libc::getpgrp() }));
    }
}
