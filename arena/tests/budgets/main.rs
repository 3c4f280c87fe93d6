//! The reference bots' time budgets, measured on the wall clock: tests
//! that need the machine to themselves, so a test binary of their own
//! beside tests/it (cargo runs test binaries one after another), and they
//! take turns here (`machine`). Sharing the cores with other tests stalls
//! a search: Trap's Expert, whose turns take 14-17 ms alone, was seen at
//! 39.5 ms of its 50 ms in the one binary's run, and it lost a game on time
//! when the two budget tests ran side by side (issue 24).

mod intuitive;
mod trap;

use std::sync::{Mutex, MutexGuard};

/// One budget test at a time: held for the whole test.
fn machine() -> MutexGuard<'static, ()> {
    static MACHINE: Mutex<()> = Mutex::new(());
    MACHINE.lock().unwrap_or_else(|e| e.into_inner())
}
