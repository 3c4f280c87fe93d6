//! The arena: loads players, referees their games, reports results.
//!
//! The `arena` binary (src/main.rs) is a thin command-line layer over this
//! library. See docs/ARCHITECTURE.md for the map.

pub mod check;
pub mod duration;
pub mod matches;
pub mod players;
pub mod plugin;
pub mod referee;
pub mod report;
pub mod scaffold;
pub mod seeds;
