//! Gradescope: the arena as a Gradescope autograder (`arena grade
//! --gradescope` writes `results.json`: results.rs; `arena
//! grade autograder` builds the zip: autograder.rs). The class
//! tournament from Gradescope's export of submissions is the tournament
//! file's (`arena_core::players::gradescope`). docs/gradescope.md.

pub mod autograder;
pub mod results;
pub mod unprivileged;
