use player_api::intuitive::{Cell, IntuitiveGameInfo, IntuitivePlayer, IntuitiveRequest};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use super::random_cell;

/// Easy: a random closed cell.
pub struct Easy {
    rng: ChaCha8Rng,
}

impl Default for Easy {
    fn default() -> Self {
        Easy { rng: ChaCha8Rng::seed_from_u64(0) }
    }
}

impl IntuitivePlayer for Easy {
    fn new_game(&mut self, info: &IntuitiveGameInfo) {
        self.rng = ChaCha8Rng::seed_from_u64(info.seed);
    }

    fn reveal(&mut self, req: &IntuitiveRequest) -> Cell {
        let view = &req.view;
        random_cell(view.closed(), view.size(), &mut self.rng)
            .expect("the arena only asks while a cell is closed")
    }
}
