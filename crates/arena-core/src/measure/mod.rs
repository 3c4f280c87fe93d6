//! The arena measuring itself (`arena measure <what>`; results in
//! docs/benchmarks.md): what its machinery costs (`overhead.rs`: isolation,
//! tournaments, programs), the game those runs play (`benchmarked.rs`),
//! how well a matchmade league ranks a class (`matchmaking_simulation.rs`)
//! and a field of thousands (`matchmaking_at_scale.rs`), and a Swiss
//! against the round robin (`swiss_simulation.rs`). The engine's own speed
//! is Trap's (`games/trap/engine_bench.rs`), SPRT's error rates
//! `strength/sprt/simulation.rs`, the server's `arena-server`'s `bench/`;
//! `busy_loops.rs` is a shared machine's load, to measure (and test) beside.

pub mod analysis;
pub mod benchmarked;
pub mod busy_loops;
pub mod matchmaking_at_scale;
pub mod matchmaking_simulation;
pub mod overhead;
pub mod swiss_simulation;
