use player_api::trap::{Pos, TrapGameInfo, TrapPlayer, TrapRequest};
use rand_chacha::ChaCha8Rng;

use super::pick::{best_cell, fallback_target, seeded};

/// Medium: moves to the cell with the most free neighbours; throws at the
/// opponent's free neighbour that minimises (opponent's free neighbours -
/// own free neighbours). Ties are broken at random.
pub struct Medium {
    rng: ChaCha8Rng,
}

impl Default for Medium {
    fn default() -> Self {
        Medium { rng: seeded(0) }
    }
}

impl TrapPlayer for Medium {
    fn new_game(&mut self, info: &TrapGameInfo) {
        self.rng = seeded(info.seed);
    }

    fn get_move(&mut self, req: &TrapRequest) -> Pos {
        let score = |to: Pos| {
            let mut after = req.state;
            after.move_player(req.seat, to);
            after.free_neighbour_count(to) as i32
        };
        best_cell(req.state.legal_moves(req.seat), &mut self.rng, score).unwrap_or(req.me())
    }

    fn get_trap(&mut self, req: &TrapRequest) -> Pos {
        let (me, opponent) = (req.me(), req.opponent());
        let score = |target: Pos| {
            let mut after = req.state;
            after.place_trap(target);
            after.free_neighbour_count(me) as i32 - after.free_neighbour_count(opponent) as i32
        };
        best_cell(req.state.free_neighbours(opponent), &mut self.rng, score)
            .unwrap_or_else(|| fallback_target(&req.state, opponent))
    }
}
