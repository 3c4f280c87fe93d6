//! Isolated players: each player instance runs in its own worker process
//! that answers the protocol (`players/protocol/`) on pipes: the arena binary
//! itself, run as `arena __worker` to load exactly one library, or a
//! program that speaks the protocol itself (`external.rs`).
//!
//! Two layers: `process` starts, limits, waits for, kills and reaps a
//! worker, and moves frames, as `launch` says to start it (what it hosts,
//! its limits, its command); they know no game. `player` (IsolatedPlayer)
//! turns each game's requests into frames and the replies back.
//! `environment` is what a worker's environment holds (never the arena's);
//! `process_limits` what the kernel holds it to, applied by the worker
//! itself so that starting one never forks the (possibly large) arena.
//! `affinity` moves a worker's processes onto the core of the thread that
//! talks to it (the core pool's slot of its game, `cores.rs`). `run_as`
//! is the unprivileged user unsandboxed workers may be told to run as;
//! `spare` the worker that loaded a player, kept for its first game.

mod affinity;
pub mod environment;
mod launch;
mod player;
mod process;
pub mod process_limits;
pub mod run_as;
mod spare;

pub use launch::{worker_program, Hosted, Launch, WorkerLimits, WORKER_ARG};
pub use player::{IsolatedPlayer, WireAnswer, WireGame};
pub use process::{CappedOutput, Hello, Worker};
pub use spare::Spare;
