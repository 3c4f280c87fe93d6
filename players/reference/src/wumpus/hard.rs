use player_api::wumpus::{
    Goal, WumpusAction, WumpusConfig, WumpusRequest, WumpusWorld, DEATH_PENALTY, GOLD_REWARD,
};

use super::{
    explorer::{Explorer, Stuck, Temper},
    head_out,
    knowledge::{Beliefs, Knowledge},
};

/// Hard: the exact posterior over the unknown squares (AIMA's frontier
/// enumeration). Safe squares first (nearest by actions, turns counted);
/// then a likely shot; then the least risky square, if the expected value
/// of stepping there beats leaving now; else it climbs out.
pub type Hard = Explorer<Probabilistic>;

/// Hard's temper: gambles when the expected value says so.
#[derive(Default, Clone)]
pub struct Probabilistic;

impl Temper for Probabilistic {
    /// A shot is taken when it kills with at least this chance (it costs 11
    /// points; a kill or a clean miss both make squares safe).
    const MIN_KILL: f64 = 0.3;

    /// The least risky unknown square, if stepping there is worth more
    /// than leaving now; else out.
    fn when_stuck(&self, stuck: &Stuck<'_>) -> WumpusAction {
        let Stuck { config, knowledge: k, beliefs, planner, req } = *stuck;
        let gamble = k
            .unknown()
            .squares()
            .filter_map(|t| planner.to_enter(t).map(|(cost, first)| (beliefs.risk(t), cost, first)))
            .min_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        if let Some((risk, _, first)) = gamble {
            let gold = gold_chance(k, beliefs);
            let gain = (1.0 - risk) * gold * f64::from(GOLD_REWARD) - risk * f64::from(DEATH_PENALTY);
            if gain > value_of_stopping(config, req) {
                return first;
            }
        }
        head_out(k, req, config.goal)
    }
}

/// The chance that the gold is still to be had: it lies on one of the
/// unvisited squares (uniformly), and not under a pit.
fn gold_chance(k: &Knowledge, beliefs: &Beliefs) -> f64 {
    let homes = k.unknown().minus(player_api::wumpus::Area::from_iter([WumpusWorld::START]));
    if homes.is_empty() {
        return 0.0;
    }
    homes.squares().map(|s| 1.0 - beliefs.pit(s)).sum::<f64>() / f64::from(homes.len())
}

/// What stopping now is worth against the score so far: about nothing
/// when it can climb out; without a Climb, the actions left until the
/// cap ends the game, each costing a point.
fn value_of_stopping(config: &WumpusConfig, req: &WumpusRequest) -> f64 {
    match config.goal {
        Goal::ClimbWithGold => 0.0,
        Goal::GrabGold => -f64::from(config.action_cap.saturating_sub(req.actions)),
    }
}
