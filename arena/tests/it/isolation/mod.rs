//! A misbehaving player loses with its reason and cannot hurt the arena:
//! rule breaks and failures through `arena play` (bad_players.rs); every
//! way a worker can fail, with nothing left behind (containment.rs); the
//! sandbox against players that try to escape (sandbox.rs); how workers
//! start (spawning.rs); a worker runs only while it is asked (frozen.rs).

mod bad_players;
mod containment;
mod frozen;
mod sandbox;
mod spawning;

/// Processes whose command line holds `needle`.
pub(crate) fn processes_with(needle: &str) -> Vec<String> {
    std::fs::read_dir("/proc")
        .unwrap()
        .filter_map(|e| std::fs::read(e.ok()?.path().join("cmdline")).ok())
        .map(|line| String::from_utf8_lossy(&line).replace('\0', " "))
        .filter(|line| line.contains(needle))
        .collect()
}

/// Processes whose command line holds `needle` once they have had a
/// moment to go: a killed namespace empties asynchronously.
pub(crate) fn processes_left(needle: &str) -> Vec<String> {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(3);
    loop {
        let left = processes_with(needle);
        if left.is_empty() || std::time::Instant::now() >= deadline {
            return left;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
}

/// The processes below `pid`, found through /proc.
pub(crate) fn descendants(pid: u32) -> Vec<u32> {
    let mut found = Vec::new();
    let mut next = vec![pid];
    while let Some(parent) = next.pop() {
        for task in std::fs::read_dir(format!("/proc/{parent}/task")).into_iter().flatten().flatten() {
            let text = std::fs::read_to_string(task.path().join("children")).unwrap_or_default();
            for child in text.split_whitespace().filter_map(|p| p.parse::<u32>().ok()) {
                found.push(child);
                next.push(child);
            }
        }
    }
    found
}

/// The CPU time process `pid` has used so far (its threads', not its
/// children's), from /proc; zero once it is gone.
pub(crate) fn cpu_time(pid: u32) -> std::time::Duration {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    // After the command's name (in parentheses), from field 3: utime and stime are 14 and 15.
    let after = stat.rfind(')').map_or("", |end| &stat[end + 2..]);
    let fields: Vec<&str> = after.split_whitespace().collect();
    let ticks: u64 = fields.get(11..13).map_or(0, |t| t.iter().filter_map(|f| f.parse::<u64>().ok()).sum());
    // SAFETY: a plain sysconf.
    let per_second = unsafe { libc::sysconf(libc::_SC_CLK_TCK) } as u64;
    std::time::Duration::from_millis(ticks * 1000 / per_second)
}
