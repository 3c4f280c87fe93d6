use player_api::hexapawn::{HexapawnAction, HexapawnGameInfo, HexapawnPlayer, HexapawnRequest};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use super::random_move;

/// Easy: a random legal move.
pub struct Easy {
    rng: ChaCha8Rng,
}

impl Default for Easy {
    fn default() -> Self {
        Easy { rng: ChaCha8Rng::seed_from_u64(0) }
    }
}

impl HexapawnPlayer for Easy {
    fn new_game(&mut self, info: &HexapawnGameInfo) {
        self.rng = ChaCha8Rng::seed_from_u64(info.seed);
    }

    fn get_move(&mut self, req: &HexapawnRequest) -> HexapawnAction {
        random_move(&req.board.legal_moves(), &mut self.rng)
            .map_or(HexapawnAction::Resign, HexapawnAction::Move)
    }
}
