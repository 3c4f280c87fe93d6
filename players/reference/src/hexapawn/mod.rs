//! Hexapawn reference players (see `docs/rules/hexapawn.md`): Easy (random),
//! Medium (one ply of sense), Hard (perfect play), and Gardner's matchbox
//! learner, which starts knowing nothing.

mod easy;
mod exploiter;
mod hard;
mod medium;
mod menace;

pub use easy::Easy;
pub use exploiter::{Exploiter, SharedMenace};
pub use hard::{side_to_move_wins, Hard};
pub use medium::Medium;
pub use menace::Menace;

use player_api::hexapawn::HexMove;
use rand::Rng;
use rand_chacha::ChaCha8Rng;

/// One of `moves` uniformly at random.
fn random_move(moves: &[HexMove], rng: &mut ChaCha8Rng) -> Option<HexMove> {
    (!moves.is_empty()).then(|| moves[rng.random_range(0..moves.len())])
}
