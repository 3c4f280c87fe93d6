//! Magic Forest reference wanderers (see `docs/rules/magic-forest.md`).
//!
//! - Easy: a random move.
//! - Medium: the source document's rule set: per-tile monster and trap
//!   "probabilities" raised by clues (1/4, 1/3, 1/2, 1 by how many
//!   neighbours were visited), empty-looking tiles first, a stone before a
//!   likely monster, the least likely trap last; shortest paths over
//!   visited tiles.
//! - Hard: the exact posterior over the unexplored tiles (enumeration over
//!   the clue frontier), a stone when a monster is likely enough to pay for
//!   it, and the target with the least expected cost (death risk x penalty +
//!   path length) by shortest path.

mod easy;
mod hard;
mod medium;
mod memory;
mod paths;

pub use easy::Easy;
pub use hard::Hard;
pub use medium::Medium;
