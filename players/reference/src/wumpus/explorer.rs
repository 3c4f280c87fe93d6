//! What Medium and Hard share: both keep what the percepts prove, grab the
//! gold, head out with it, and explore the nearest square known to be safe.
//! They differ only in when a shot is worth taking and in what they do when
//! nothing safe is left: that is a [`Temper`].

use player_api::wumpus::{
    WumpusAction, WumpusConfig, WumpusGameInfo, WumpusPlacement, WumpusPlayer, WumpusRequest,
};

use super::{
    best_shot, head_out,
    knowledge::{Beliefs, Knowledge},
    nearest_safe,
    plan::Planner,
};

/// How an explorer treats risk.
pub trait Temper: Default + Send {
    /// The least chance to kill for which a shot is taken.
    const MIN_KILL: f64;

    /// Nothing certainly safe is left to explore and no shot is taken.
    fn when_stuck(&self, stuck: &Stuck<'_>) -> WumpusAction;
}

/// Where an explorer stands when nothing safe is left.
pub struct Stuck<'a> {
    pub(crate) config: &'a WumpusConfig,
    pub(crate) knowledge: &'a Knowledge,
    pub(crate) beliefs: &'a Beliefs,
    pub(crate) planner: &'a Planner,
    pub(crate) req: &'a WumpusRequest,
}

/// An agent that explores what its knowledge proves safe, with temper `T`.
#[derive(Clone)]
pub struct Explorer<T> {
    config: WumpusConfig,
    knowledge: Knowledge,
    temper: T,
}

impl<T: Temper> Default for Explorer<T> {
    fn default() -> Self {
        let config = WumpusConfig::aima();
        Explorer { config, knowledge: Knowledge::new(&config), temper: T::default() }
    }
}

impl<T: Temper> WumpusPlayer for Explorer<T> {
    fn new_game(&mut self, info: &WumpusGameInfo) {
        *self =
            Explorer { config: info.config, knowledge: Knowledge::new(&info.config), temper: T::default() };
    }

    fn step(&mut self, req: &WumpusRequest) -> WumpusAction {
        self.knowledge.observe(req);
        let action = self.decide(req);
        self.knowledge.acted(req, action);
        action
    }
}

impl<T: Temper> Explorer<T> {
    /// Takes in what `req` shows and that `action` was played there, by
    /// whoever: analysis continues a game from any of its positions with
    /// what the agent knows by then.
    pub fn follow(&mut self, req: &WumpusRequest, action: WumpusAction) {
        self.knowledge.observe(req);
        self.knowledge.acted(req, action);
    }

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
            if let Some(shot) = shot.filter(|s| s.kill >= T::MIN_KILL) {
                return shot.first;
            }
        }
        self.temper.when_stuck(&Stuck {
            config: &self.config,
            knowledge: k,
            beliefs: &beliefs,
            planner: &planner,
            req,
        })
    }
}
