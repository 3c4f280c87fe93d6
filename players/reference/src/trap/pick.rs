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

/// The first cell of `cells` (row-major) with the best `score` (highest):
/// the levels' deterministic tie rule.
pub(crate) fn best_cell(cells: Cells, mut score: impl FnMut(Pos) -> i32) -> Option<Pos> {
    let mut best: Option<(i32, Pos)> = None;
    for cell in cells {
        let s = score(cell);
        if best.is_none_or(|(b, _)| s > b) {
            best = Some((s, cell));
        }
    }
    best.map(|(_, cell)| cell)
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
