//! Games of a match or series played on several threads, handed on in
//! their order. A game's seed and seats come from its index, so the games
//! are the same whatever the number of threads; each thread keeps its own
//! player instances (its own workers).

use std::{collections::BTreeMap, sync::mpsc, thread};

/// Plays games `indices` on up to `threads` threads. Each thread makes its
/// state (its player instances) with `make`, plays with `play`, and the
/// calling thread sees every result with `on_result` in index order.
pub fn play_in_order<S, R: Send>(
    indices: std::ops::Range<u32>,
    threads: usize,
    make: impl Fn() -> S + Sync,
    play: impl Fn(&mut S, u32) -> R + Sync,
    mut on_result: impl FnMut(u32, R),
) {
    let threads = threads.clamp(1, indices.len().max(1));
    if threads == 1 {
        let mut state = make();
        indices.for_each(|index| on_result(index, play(&mut state, index)));
        return;
    }
    let next = std::sync::atomic::AtomicU32::new(indices.start);
    let (sender, receiver) = mpsc::channel();
    let priority = crate::cores::inherited();
    thread::scope(|scope| {
        for _ in 0..threads {
            let (sender, next, make, play, end) = (sender.clone(), &next, &make, &play, indices.end);
            // A worker dies with the thread that started it (PR_SET_PDEATHSIG):
            // this thread lives until its last game is done.
            scope.spawn(move || {
                crate::cores::set_inherited(priority);
                let mut state = make();
                loop {
                    let index = next.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                    if index >= end || sender.send((index, play(&mut state, index))).is_err() {
                        break;
                    }
                }
            });
        }
        drop(sender);
        // Games finish in any order; hand them on in index order.
        let mut waiting = BTreeMap::new();
        let mut due = indices.start;
        for (index, result) in receiver {
            waiting.insert(index, result);
            while let Some(result) = waiting.remove(&due) {
                on_result(due, result);
                due += 1;
            }
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_come_in_order_from_every_thread_count() {
        for threads in [1, 2, 3, 8] {
            let mut seen = Vec::new();
            play_in_order(
                5..25,
                threads,
                || 0u32,
                |played, index| {
                    *played += 1;
                    // Later games finish first on some threads.
                    std::thread::sleep(std::time::Duration::from_micros(u64::from(25 - index) * 50));
                    index * 10
                },
                |index, result| seen.push((index, result)),
            );
            let want: Vec<(u32, u32)> = (5..25).map(|i| (i, i * 10)).collect();
            assert_eq!(seen, want, "{threads} threads");
        }
    }
}
