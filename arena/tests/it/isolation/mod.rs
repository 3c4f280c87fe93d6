//! A misbehaving player loses with its reason and cannot hurt the arena:
//! rule breaks and failures through `arena play` (bad_players.rs); every
//! way a worker can fail, with nothing left behind (containment.rs); the
//! sandbox against players that try to escape (sandbox.rs); how workers
//! start (spawning.rs).

mod bad_players;
mod containment;
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
