use player_api::wumpus::{
    Area, Goal, WumpusAction, WumpusGameInfo, WumpusPlayer, WumpusRequest, WumpusWorld,
};
use rand::{seq::IndexedRandom, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Easy: grabs the gold when it glitters and climbs out with it when it is
/// back at the start; otherwise a random Forward or turn. Forward counts
/// only when it looks safe: the square ahead was visited, or nothing is
/// sensed here. At the start with nowhere safe-looking to go, it climbs out.
pub struct Easy {
    rng: ChaCha8Rng,
    goal: Goal,
    size: u8,
    visited: Area,
}

impl Default for Easy {
    fn default() -> Self {
        Easy { rng: ChaCha8Rng::seed_from_u64(0), goal: Goal::ClimbWithGold, size: 4, visited: Area::EMPTY }
    }
}

impl WumpusPlayer for Easy {
    fn new_game(&mut self, info: &WumpusGameInfo) {
        *self = Easy {
            rng: ChaCha8Rng::seed_from_u64(info.seed),
            goal: info.config.goal,
            size: info.config.size,
            visited: Area::EMPTY,
        };
    }

    fn step(&mut self, req: &WumpusRequest) -> WumpusAction {
        self.visited.insert(req.at);
        let p = req.percept;
        if p.glitter && !req.has_gold {
            return WumpusAction::Grab;
        }
        let can_climb = self.goal == Goal::ClimbWithGold && req.at == WumpusWorld::START;
        if can_climb && req.has_gold {
            return WumpusAction::Climb;
        }
        let looks_safe = |visited: Area, ahead| visited.contains(ahead) || !(p.breeze || p.stench);
        let ahead = req.at.step(req.facing, self.size);
        let mut choices = vec![WumpusAction::TurnLeft, WumpusAction::TurnRight];
        if ahead.is_some_and(|a| looks_safe(self.visited, a)) {
            choices.push(WumpusAction::Forward);
        }
        let anywhere = req.at.neighbours(self.size).squares().any(|a| looks_safe(self.visited, a));
        if can_climb && !anywhere {
            return WumpusAction::Climb;
        }
        *choices.choose(&mut self.rng).expect("two turns are always there")
    }
}
