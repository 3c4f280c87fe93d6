use player_api::wumpus::{
    Goal, WumpusAction, WumpusConfig, WumpusGameInfo, WumpusPlacement, WumpusPlayer, WumpusRequest,
    WumpusWorld, DEATH_PENALTY, GOLD_REWARD,
};

use super::{
    best_shot, head_out,
    knowledge::{Beliefs, Knowledge},
    nearest_safe,
    plan::Planner,
};

/// A shot is taken when it kills with at least this chance (it costs 11
/// points; a kill or a clean miss both make squares safe).
const SHOT_THRESHOLD: f64 = 0.3;

/// Hard: the exact posterior over the unknown squares (AIMA's frontier
/// enumeration). Safe squares first (nearest by actions, turns counted);
/// then a likely shot; then the least risky square, if the expected value
/// of stepping there beats leaving now; else it climbs out.
pub struct Hard {
    config: WumpusConfig,
    knowledge: Knowledge,
}

impl Default for Hard {
    fn default() -> Self {
        let config = WumpusConfig::aima();
        Hard { config, knowledge: Knowledge::new(&config) }
    }
}

impl WumpusPlayer for Hard {
    fn new_game(&mut self, info: &WumpusGameInfo) {
        *self = Hard { config: info.config, knowledge: Knowledge::new(&info.config) };
    }

    fn step(&mut self, req: &WumpusRequest) -> WumpusAction {
        self.knowledge.observe(req);
        let action = self.decide(req);
        self.knowledge.acted(req, action);
        action
    }
}

impl Hard {
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
            if let Some(shot) = best_shot(k, &beliefs, &planner, k.visited, one) {
                if shot.kill >= SHOT_THRESHOLD {
                    return shot.first;
                }
            }
        }
        let gamble = k
            .unknown()
            .squares()
            .filter_map(|t| planner.to_enter(t).map(|(cost, first)| (beliefs.risk(t), cost, first)))
            .min_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        if let Some((risk, _, first)) = gamble {
            let gold = self.gold_chance(&beliefs);
            let gain = (1.0 - risk) * gold * f64::from(GOLD_REWARD) - risk * f64::from(DEATH_PENALTY);
            if gain > self.value_of_stopping(req) {
                return first;
            }
        }
        head_out(k, req, self.config.goal)
    }

    /// The chance that the gold is still to be had: it lies on one of the
    /// unvisited squares (uniformly), and not under a pit.
    fn gold_chance(&self, beliefs: &Beliefs) -> f64 {
        let k = &self.knowledge;
        let homes = k.unknown().minus(player_api::wumpus::Area::from_iter([WumpusWorld::START]));
        if homes.is_empty() {
            return 0.0;
        }
        homes.squares().map(|s| 1.0 - beliefs.pit(s)).sum::<f64>() / f64::from(homes.len())
    }

    /// What stopping now is worth against the score so far: about nothing
    /// when it can climb out; without a Climb, the actions left until the
    /// cap ends the game, each costing a point.
    fn value_of_stopping(&self, req: &WumpusRequest) -> f64 {
        match self.config.goal {
            Goal::ClimbWithGold => 0.0,
            Goal::GrabGold => -f64::from(self.config.action_cap.saturating_sub(req.actions)),
        }
    }
}
