//! Intuitive AI reference players (see `docs/rules/intuitive-ai.md`): Easy
//! (random), Medium (local rules), Hard (exact Bayesian, greedy) and Expert
//! (the optimal policy).

mod belief;
mod easy;
mod expert;
mod hard;
mod medium;

pub use belief::{neighbour_sets, posterior, Posterior};
pub use easy::Easy;
pub use expert::{Decision, Expert, Limit, MAX_EXACT_CELLS};
pub use hard::Hard;
pub use medium::Medium;

use player_api::intuitive::{Cell, CellSet};
use rand::Rng;
use rand_chacha::ChaCha8Rng;

/// One of `cells` (cell numbers of a `size` board) uniformly at random.
fn random_cell(cells: CellSet, size: u8, rng: &mut ChaCha8Rng) -> Option<Cell> {
    match cells.len() {
        0 => None,
        n => cells.nth_index(rng.random_range(0..n)).map(|i| Cell::from_index(i, size)),
    }
}
