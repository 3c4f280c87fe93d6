use player_api::magic_forest::{
    Area, Coord, ForestAction, ForestConfig, ForestGameInfo, ForestPlayer, ForestRequest,
    DEATH_PENALTY_PER_TILE, THROW_COST,
};

use super::{memory::Memory, paths::Paths};
use crate::frontier::Frontier;

const ZERO: f64 = 1e-9;

/// Hard: the exact posterior over the unexplored tiles, then the target
/// with the least expected cost: (chance of dying there) x (the death
/// penalty, 10n) + moves to get there + a stone (10) when a live monster
/// there is likely enough that the stone pays for itself (P > 1/n).
#[derive(Clone, Default)]
pub struct Hard {
    config: ForestConfig,
    memory: Memory,
}

impl ForestPlayer for Hard {
    fn new_game(&mut self, info: &ForestGameInfo) {
        *self = Hard { config: info.config, memory: Memory::default() };
    }

    fn step(&mut self, req: &ForestRequest) -> ForestAction {
        self.memory.observe(req);
        let action = self.decide(req);
        self.memory.acted(req, action);
        action
    }
}

/// Per unknown tile: the chance of a live monster and of a trap.
struct Danger {
    monster: [f64; 64],
    trap: [f64; 64],
}

impl Hard {
    /// Takes in a step it did not choose (`action` played at `req`): the
    /// game's own steps, when an analyser has Hard play on from a position.
    pub fn follow(&mut self, req: &ForestRequest, action: ForestAction) {
        self.memory.observe(req);
        self.memory.acted(req, action);
    }

    fn decide(&self, req: &ForestRequest) -> ForestAction {
        let m = &self.memory;
        let danger = self.posterior();
        let death_cost = f64::from(DEATH_PENALTY_PER_TILE) * f64::from(req.size) * f64::from(req.size);
        let safe: Area = m
            .unknown()
            .squares()
            .filter(|t| danger.monster[t.index() as usize] + danger.trap[t.index() as usize] < ZERO)
            .collect();
        let passable = m.visited.union(safe);
        let paths = Paths::new(req.at, passable, req.size);
        let mut best: Option<(f64, ForestAction)> = None;
        for target in m.unknown().squares() {
            let Some((moves, _, step)) = paths.approach(req.at, target) else { continue };
            let (monster, trap) =
                (danger.monster[target.index() as usize], danger.trap[target.index() as usize]);
            if trap > 1.0 - ZERO {
                continue; // surely a trap: no way through
            }
            let stone = monster * death_cost > f64::from(THROW_COST);
            let risk = trap + if stone { 0.0 } else { monster };
            let cost = risk * death_cost + f64::from(moves) + if stone { f64::from(THROW_COST) } else { 0.0 };
            let next_to = req.at.dir_to(target);
            let action = match next_to {
                Some(dir) if stone => ForestAction::throw(dir),
                _ => step,
            };
            if best.is_none_or(|(c, _)| cost < c) {
                best = Some((cost, action));
            }
        }
        best.map_or_else(|| paths.idle(req.at, passable), |(_, action)| action)
    }

    /// The exact posterior given every clue, death and stone in this forest.
    fn posterior(&self) -> Danger {
        let m = &self.memory;
        let c = &self.config;
        let (no_monster, no_trap) = (m.near(m.no_bones), m.near(m.no_leaves));
        let mut frontier = Frontier::default();
        let tiles: Vec<Coord> = m.unknown().squares().collect();
        for &t in &tiles {
            let mut w = [1.0 - c.monster_chance - c.trap_chance, c.monster_chance, c.trap_chance];
            if no_monster.contains(t) {
                w[1] = 0.0;
            }
            if no_trap.contains(t) {
                w[2] = 0.0;
            }
            if m.died_unstoned.contains(t) {
                w[0] = 0.0;
            }
            if m.died_stoned.contains(t) {
                (w[0], w[1]) = (0.0, 0.0);
            }
            frontier.add(t, w);
        }
        for v in m.bones.squares() {
            frontier.at_least_one(v.neighbours(m.size), 1);
        }
        for v in m.leaves.squares() {
            frontier.at_least_one(v.neighbours(m.size), 2);
        }
        let mut danger = Danger { monster: [0.0; 64], trap: [0.0; 64] };
        for (t, post) in tiles.iter().zip(frontier.posteriors()) {
            let i = t.index() as usize;
            danger.monster[i] = if m.stoned.contains(*t) { 0.0 } else { post[1] };
            danger.trap[i] = post[2];
        }
        danger
    }
}
