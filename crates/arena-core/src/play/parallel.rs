//! Games of a match or series played on several threads, handed on in
//! their order. A game's seed and seats come from its index, so the games
//! are the same whatever the number of threads; each thread keeps its own
//! player instances (its own workers).

use std::{
    collections::BTreeMap,
    ops::ControlFlow,
    sync::{
        atomic::{AtomicBool, AtomicU32, Ordering},
        mpsc,
    },
    thread,
};

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
    let never = AtomicBool::new(false);
    play_in_order_until(indices, threads, &never, make, play, |index, result| {
        on_result(index, result);
        ControlFlow::Continue(())
    });
}

/// [`play_in_order`] that can end early: once `on_result` breaks, or
/// `stop` is set, no game is started any more. Games already started are
/// finished; after a break none is handed on, after `stop` every one is
/// (in order), so a caller stopped from outside (Ctrl-C) counts what was
/// played. Which games are handed on depends only on where `on_result`
/// broke, not on the number of threads.
pub fn play_in_order_until<S, R: Send>(
    indices: std::ops::Range<u32>,
    threads: usize,
    stop: &AtomicBool,
    make: impl Fn() -> S + Sync,
    play: impl Fn(&mut S, u32) -> R + Sync,
    mut on_result: impl FnMut(u32, R) -> ControlFlow<()>,
) {
    let threads = threads.clamp(1, indices.len().max(1));
    if threads == 1 {
        let mut state = make();
        for index in indices {
            if stop.load(Ordering::SeqCst) || on_result(index, play(&mut state, index)).is_break() {
                return;
            }
        }
        return;
    }
    let next = AtomicU32::new(indices.start);
    // Set by a break: the threads take no new game.
    let broke = AtomicBool::new(false);
    let (sender, receiver) = mpsc::channel();
    let priority = crate::play::cores::inherited();
    thread::scope(|scope| {
        for _ in 0..threads {
            let (sender, next, broke, make, play, end) =
                (sender.clone(), &next, &broke, &make, &play, indices.end);
            // A worker dies with the thread that started it (PR_SET_PDEATHSIG):
            // this thread lives until its last game is done.
            scope.spawn(move || {
                crate::play::cores::set_inherited(priority);
                let mut state = make();
                loop {
                    if stop.load(Ordering::SeqCst) || broke.load(Ordering::SeqCst) {
                        break;
                    }
                    let index = next.fetch_add(1, Ordering::SeqCst);
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
            if broke.load(Ordering::SeqCst) {
                continue;
            }
            waiting.insert(index, result);
            while let Some(result) = waiting.remove(&due) {
                due += 1;
                if on_result(due - 1, result).is_break() {
                    broke.store(true, Ordering::SeqCst);
                    break;
                }
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

    #[test]
    fn a_break_hands_on_the_same_games_at_every_thread_count() {
        for threads in [1, 2, 3, 8] {
            let mut seen = Vec::new();
            let never = AtomicBool::new(false);
            play_in_order_until(
                0..100,
                threads,
                &never,
                || (),
                |_, index| index,
                |index, result| {
                    seen.push(result);
                    if index == 13 {
                        ControlFlow::Break(())
                    } else {
                        ControlFlow::Continue(())
                    }
                },
            );
            assert_eq!(seen, (0..14).collect::<Vec<u32>>(), "{threads} threads");
        }
    }
}
