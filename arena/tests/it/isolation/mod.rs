//! A misbehaving player loses with its reason and cannot hurt the arena:
//! rule breaks and failures through `arena play` (bad_players.rs); every
//! way a worker can fail, with nothing left behind (containment.rs); the
//! sandbox against players that try to escape (sandbox.rs); how workers
//! start (spawning.rs).

mod bad_players;
mod containment;
mod sandbox;
mod spawning;
