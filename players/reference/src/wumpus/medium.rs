use player_api::wumpus::{
    Goal, WumpusAction, WumpusConfig, WumpusGameInfo, WumpusPlacement, WumpusPlayer, WumpusRequest,
};

use super::{best_shot, head_out, knowledge::Knowledge, nearest_safe, plan::Planner};

/// Medium: a logical agent. A square is safe when no world consistent with
/// the percepts puts a pit or a live wumpus there (model checking over the
/// frontier: "chance exactly 0"). It explores the nearest safe square,
/// shoots only when a shot kills for certain, and never gambles: with
/// nothing safe left it goes back and climbs out.
pub struct Medium {
    config: WumpusConfig,
    knowledge: Knowledge,
}

impl Default for Medium {
    fn default() -> Self {
        let config = WumpusConfig::aima();
        Medium { config, knowledge: Knowledge::new(&config) }
    }
}

impl WumpusPlayer for Medium {
    fn new_game(&mut self, info: &WumpusGameInfo) {
        *self = Medium { config: info.config, knowledge: Knowledge::new(&info.config) };
    }

    fn step(&mut self, req: &WumpusRequest) -> WumpusAction {
        self.knowledge.observe(req);
        let action = self.decide(req);
        self.knowledge.acted(req, action);
        action
    }
}

impl Medium {
    fn decide(&self, req: &WumpusRequest) -> WumpusAction {
        let k = &self.knowledge;
        if req.percept.glitter && !req.has_gold {
            return WumpusAction::Grab;
        }
        if req.has_gold {
            return head_out(k, req, self.config.goal);
        }
        let beliefs = k.beliefs();
        let safe_unknown = k.safe_unknown(&beliefs);
        let planner = Planner::new(req.at, req.facing, k.visited.union(safe_unknown), k.size());
        if let Some(action) = nearest_safe(&planner, safe_unknown) {
            return action;
        }
        if req.arrows > 0 {
            let one = self.config.wumpus == WumpusPlacement::One;
            let shot = best_shot(k, &beliefs, &planner, k.visited, one);
            if let Some(shot) = shot.filter(|s| s.kill >= 1.0 - 1e-9) {
                return shot.first;
            }
        }
        if self.config.goal == Goal::GrabGold {
            return WumpusAction::TurnLeft;
        }
        head_out(k, req, self.config.goal)
    }
}
