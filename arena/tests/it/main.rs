//! The arena's integration tests in one test binary (issue 24): the arena
//! library is linked into it once, and the player libraries are built once
//! per run (`support::libraries_dir`). Grouped by feature:
//!
//! - `play`: `arena play`, `bench` and the rest of the command line, the
//!   turn clock
//! - `players`: players loaded from disk through the ABI, Python players
//!   (the course's layout, a virtual environment's interpreter)
//! - `isolation`: misbehaving players lose with their reason and leave
//!   nothing behind; the sandbox against players that try to escape
//! - `tournament`: tournament files run, resumed, sharded, and on Slurm
//! - `tune`: `arena tune` on a toy player, resumed, and on Slurm
//! - `replay`: replay files, their verification, the HTML viewer
//! - `server`: the submissions server through its HTTP API and pages
//! - `games`: each game's referee and its reference levels' strength, in
//!   process
//! - `golden`: outputs compared byte for byte with `tests/golden/`
//! - `layering`: the library's modules depend on each other in no new circle
//! - `soak`: `scripts/suite-soak.sh`, which runs the whole suite again and
//!   again beside busy loops to bring out tests that fail now and then
//!
//! Run one group with its path: `cargo test -p arena --test it isolation::`.
//! A test that needs a process of its own starts with `alone!()`
//! (support/alone.rs). The reference bots' time budgets need the machine
//! to themselves: they are the one other binary, tests/budgets. The data
//! the tests read stays beside this folder: `tests/fixtures/` (misbehaving
//! libraries, workspace members; the ABI's frozen players, `abi-vN-player`,
//! workspaces of their own), `tests/python/`, `tests/golden/`.

mod support;

mod analysis;
mod docs;
mod games;
mod golden;
mod isolation;
mod layering;
mod play;
mod players;
mod replay;
mod server;
mod soak;
mod tournament;
mod tune;
