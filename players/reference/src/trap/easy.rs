use player_api::trap::{Pos, TrapGameInfo, TrapPlayer, TrapRequest};
use rand_chacha::ChaCha8Rng;

use super::pick::{fallback_target, random_cell, seeded};

/// Easy: a random legal move; throws at a random free neighbour of the opponent.
pub struct Easy {
    rng: ChaCha8Rng,
}

impl Default for Easy {
    fn default() -> Self {
        Easy { rng: seeded(0) }
    }
}

impl TrapPlayer for Easy {
    fn new_game(&mut self, info: &TrapGameInfo) {
        self.rng = seeded(info.seed);
    }

    fn get_move(&mut self, req: &TrapRequest) -> Pos {
        random_cell(req.state.legal_moves(req.seat), &mut self.rng).unwrap_or(req.me())
    }

    fn get_trap(&mut self, req: &TrapRequest) -> Pos {
        random_cell(req.state.free_neighbours(req.opponent()), &mut self.rng)
            .unwrap_or_else(|| fallback_target(&req.state, req.opponent()))
    }
}
