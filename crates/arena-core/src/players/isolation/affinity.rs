//! A worker's processes (every process of its group, every thread of
//! those) moved onto one core: a worker follows the core of the thread
//! that talks to it, the core pool's slot of that thread's game
//! (`cores.rs`), whichever thread started it.

/// Moves every process of process group `group` onto `cpu`.
pub(super) fn move_group(group: libc::pid_t, cpu: usize) {
    let Ok(processes) = std::fs::read_dir("/proc") else { return };
    for pid in processes.flatten().filter_map(|e| e.file_name().to_str()?.parse::<libc::pid_t>().ok()) {
        if process_group(pid) == Some(group) {
            let Ok(threads) = std::fs::read_dir(format!("/proc/{pid}/task")) else { continue };
            for tid in threads.flatten().filter_map(|e| e.file_name().to_str()?.parse::<libc::pid_t>().ok()) {
                let _ = crate::play::cores::pin(tid, cpu);
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
