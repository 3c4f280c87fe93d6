//! The CPU time of this process's threads, by what they do: the bench runs
//! the server in its own process, so the server's cost is what its threads
//! spend (`/proc/self/task/*/stat`), told apart by their names from the
//! bench's clients (`bench-...`).
//!
//! Threads come and go (tokio's blocking pool, a run's game threads), so a
//! thread on its own samples them every 250 ms and keeps each one's last
//! reading: a thread that ended is counted up to its last sample.

use std::{
    collections::HashMap,
    sync::{
        atomic::{AtomicBool, Ordering},
        Arc, Mutex,
    },
    thread::JoinHandle,
    time::Duration,
};

/// What a thread does, by its name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Work {
    /// Answering HTTP: tokio's threads (`tokio-rt-worker`: the runtime's
    /// and its blocking pool's, database calls) and the server's accepting
    /// thread.
    Http,
    /// The live feeds' thread (`replay::live`).
    Feeds,
    /// The bench's own clients: pages, uploads, the main thread (which
    /// follows the submissions), this sampler.
    Bench,
    /// The rest: grading, the league, the leaderboard, their game threads.
    Games,
}

impl Work {
    fn of(name: &str, main: bool) -> Work {
        match name {
            _ if main => Work::Bench,
            "bench-server" => Work::Http,
            _ if name.starts_with("tokio-") => Work::Http,
            "live-feeds" => Work::Feeds,
            _ if name.starts_with("bench-") => Work::Bench,
            _ => Work::Games,
        }
    }
}

/// A thread's CPU ticks when first and last sampled, and its work.
#[derive(Clone, Copy)]
struct Readings {
    first: u64,
    last: u64,
    work: Work,
}

/// Samples this process's threads until stopped.
pub struct Sampler {
    stop: Arc<AtomicBool>,
    /// By thread id.
    threads: Arc<Mutex<HashMap<u32, Readings>>>,
    thread: Option<JoinHandle<()>>,
}

impl Sampler {
    /// From now on; a thread alive now counts from its reading now.
    pub fn start() -> Sampler {
        let stop = Arc::new(AtomicBool::new(false));
        let threads = Arc::new(Mutex::new(HashMap::new()));
        let sample = {
            let threads = threads.clone();
            move || {
                let mut threads = threads.lock().unwrap_or_else(|e| e.into_inner());
                for (tid, work, ticks) in read_threads() {
                    threads.entry(tid).or_insert(Readings { first: ticks, last: ticks, work }).last = ticks;
                }
            }
        };
        sample();
        let thread = {
            let stop = stop.clone();
            std::thread::Builder::new()
                .name("bench-cpu".into())
                .spawn(move || {
                    while !stop.load(Ordering::SeqCst) {
                        std::thread::sleep(Duration::from_millis(250));
                        sample();
                    }
                })
                .expect("a thread starts")
        };
        Sampler { stop, threads, thread: Some(thread) }
    }

    /// CPU seconds spent since the start, by work (a last sample first).
    pub fn stop(mut self) -> HashMap<Work, f64> {
        self.stop.store(true, Ordering::SeqCst);
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
        let threads = self.threads.lock().unwrap_or_else(|e| e.into_inner());
        let mut spent = HashMap::new();
        for readings in threads.values() {
            let ticks = readings.last - readings.first;
            *spent.entry(readings.work).or_insert(0.0) += ticks as f64 / ticks_per_second();
        }
        spent
    }
}

/// Every thread of this process: its id, its work, its CPU ticks (user + system).
fn read_threads() -> Vec<(u32, Work, u64)> {
    let Ok(tasks) = std::fs::read_dir("/proc/self/task") else { return Vec::new() };
    let main = std::process::id();
    tasks
        .flatten()
        .filter_map(|task| {
            let tid = task.file_name().to_str()?.parse().ok()?;
            let stat = std::fs::read_to_string(task.path().join("stat")).ok()?;
            let (name, ticks) = parse_stat(&stat)?;
            Some((tid, Work::of(name, tid == main), ticks))
        })
        .collect()
}

/// A stat line's name and its utime + stime (fields 14 and 15; the name,
/// field 2, is in parentheses and may hold spaces).
fn parse_stat(stat: &str) -> Option<(&str, u64)> {
    let (open, close) = (stat.find('(')?, stat.rfind(')')?);
    let fields: Vec<&str> = stat[close + 1..].split_whitespace().collect();
    let ticks = |i: usize| fields.get(i).and_then(|f| f.parse::<u64>().ok());
    Some((&stat[open + 1..close], ticks(11)? + ticks(12)?))
}

/// The process `pid`'s CPU seconds so far (user + system), if it is there.
pub fn of_process(pid: u32) -> Option<f64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    Some(parse_stat(&stat)?.1 as f64 / ticks_per_second())
}

fn ticks_per_second() -> f64 {
    // SAFETY: sysconf reads a constant.
    (unsafe { libc::sysconf(libc::_SC_CLK_TCK) }).max(1) as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stat_line_gives_its_name_and_cpu_ticks() {
        let stat = "4242 (tokio-rt-worker) S 1 2 3 0 -1 4194624 10 0 0 0 170 30 0 0 20 0 6 0 100 0 0";
        assert_eq!(parse_stat(stat), Some(("tokio-rt-worker", 200)));
        let spaced = "7 (a (b) c) R 1 2 3 0 -1 0 0 0 0 0 5 6 0 0";
        assert_eq!(parse_stat(spaced), Some(("a (b) c", 11)));
    }

    #[test]
    fn threads_are_told_apart_by_name() {
        assert_eq!(Work::of("tokio-rt-worker", false), Work::Http);
        assert_eq!(Work::of("bench-server", false), Work::Http);
        assert_eq!(Work::of("live-feeds", false), Work::Feeds);
        assert_eq!(Work::of("bench-page", false), Work::Bench);
        assert_eq!(Work::of("arena", true), Work::Bench);
        assert_eq!(Work::of("grader-0", false), Work::Games);
        assert_eq!(Work::of("leaderboard", false), Work::Games);
    }

    #[test]
    fn this_process_is_sampled() {
        let sampler = Sampler::start();
        let spin = std::time::Instant::now();
        while spin.elapsed() < Duration::from_millis(300) {
            std::hint::black_box(0);
        }
        let spent = sampler.stop();
        assert!(spent.values().sum::<f64>() > 0.0, "{spent:?}");
    }
}
