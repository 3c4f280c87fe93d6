use player_api::intuitive::{Cell, CellSet, IntuitiveGameInfo, IntuitivePlayer, IntuitiveRequest};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use super::{belief::neighbour_sets, random_cell};

/// Medium: local rules, one hint at a time. It opens a cell next to a hint
/// without a breeze (certainly no pit) if there is one; otherwise a cell
/// next to no breeze at all; only when nothing else is left, a cell next to
/// a breeze. Ties are broken at random.
pub struct Medium {
    rng: ChaCha8Rng,
}

impl Default for Medium {
    fn default() -> Self {
        Medium { rng: ChaCha8Rng::seed_from_u64(0) }
    }
}

impl IntuitivePlayer for Medium {
    fn new_game(&mut self, info: &IntuitiveGameInfo) {
        self.rng = ChaCha8Rng::seed_from_u64(info.seed);
    }

    fn reveal(&mut self, req: &IntuitiveRequest) -> Cell {
        let view = &req.view;
        let near = neighbour_sets(view.size());
        let hints = view.open().minus(view.gold().map_or(CellSet::EMPTY, CellSet::single));
        let around = |cells: CellSet| cells.fold(CellSet::EMPTY, |acc, h| acc.union(near[h as usize]));
        let closed = view.closed();
        let next_to_calm = closed.intersection(around(hints.minus(view.breeze())));
        let away_from_breeze = closed.minus(around(view.breeze()));
        let choice = [next_to_calm, away_from_breeze, closed]
            .into_iter()
            .find(|c| !CellSet::is_empty(*c))
            .unwrap_or(closed);
        random_cell(choice, view.size(), &mut self.rng).expect("the arena only asks while a cell is closed")
    }
}
