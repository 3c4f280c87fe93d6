use player_api::magic_forest::{Dir, ForestAction, ForestGameInfo, ForestPlayer, ForestRequest};
use rand::{seq::IndexedRandom, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Easy: a random move (stones cost 10 and a random thrower gains nothing from them).
pub struct Easy {
    rng: ChaCha8Rng,
}

impl Default for Easy {
    fn default() -> Self {
        Easy { rng: ChaCha8Rng::seed_from_u64(0) }
    }
}

impl ForestPlayer for Easy {
    fn new_game(&mut self, info: &ForestGameInfo) {
        self.rng = ChaCha8Rng::seed_from_u64(info.seed);
    }

    fn step(&mut self, _req: &ForestRequest) -> ForestAction {
        ForestAction::walk(*Dir::ALL.choose(&mut self.rng).expect("four directions"))
    }
}
