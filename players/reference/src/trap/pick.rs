//! Helpers the levels share: a seeded generator and uniform choices.

use player_api::trap::{Cells, Pos, TrapState};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// A player's own generator, seeded from the seed the arena hands it.
pub(crate) fn seeded(seed: u64) -> ChaCha8Rng {
    ChaCha8Rng::seed_from_u64(seed)
}

/// A uniformly random cell of `cells`, if any.
pub(crate) fn random_cell(cells: Cells, rng: &mut ChaCha8Rng) -> Option<Pos> {
    match cells.len() {
        0 => None,
        n => cells.nth_cell(rng.random_range(0..n)),
    }
}

/// The cells of `cells` with the best `score` (highest), one of them drawn
/// at random so that equal choices do not always break the same way.
pub(crate) fn best_cell(
    cells: Cells,
    rng: &mut ChaCha8Rng,
    mut score: impl FnMut(Pos) -> i32,
) -> Option<Pos> {
    let mut best = i32::MIN;
    let mut ties = Cells::EMPTY;
    for cell in cells {
        let s = score(cell);
        if s > best {
            best = s;
            ties = Cells::EMPTY;
        }
        if s == best {
            ties.insert(cell);
        }
    }
    random_cell(ties, rng)
}

/// A legal throw target when the preferred ones are gone: the first cell
/// next to the opponent that holds no player, else any such cell.
pub(crate) fn fallback_target(state: &TrapState, around: Pos) -> Pos {
    around
        .neighbours(state.size())
        .chain(Cells::board(state.size()))
        .find(|&c| state.check_target(c).is_ok())
        .expect("a board of 3x3 or more always has a cell without a player")
}
