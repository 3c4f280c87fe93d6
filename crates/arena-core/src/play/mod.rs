//! One game between players, and the matches and series made of games: the
//! referee's calls (`referee/`: every call that counts is timed and judged
//! in `referee/calls.rs`), the two clocks and the stopwatch (`clock.rs`),
//! time controls (`time_control.rs`), every way a player fails
//! (`fault.rs`), the games' seeds (`seeds.rs`), a two-player match
//! (`two_player.rs`), a single-player series and its step loop (`solo/`),
//! games spread over threads (`parallel.rs`) and the cores they run on
//! (`cores.rs`). Generic over the game traits (`crate::game`): nothing
//! here names a game.

pub mod clock;
pub mod cores;
pub mod fault;
pub mod parallel;
pub mod referee;
pub mod seeds;
pub mod solo;
pub mod time_control;
pub mod two_player;
