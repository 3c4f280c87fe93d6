use player_api::magic_forest::{Coord, ForestAction, ForestGameInfo, ForestPlayer, ForestRequest};

use super::{memory::Memory, paths::Paths};

/// Medium: the source document's wanderer. On the first visit of a tile
/// with bones (leaves), every unvisited neighbour's monster (trap) score
/// rises by 1/4, 1/3, 1/2 or 1 when 0, 1, 2 or 3 of the tile's neighbours
/// were visited; a tile without bones (leaves) clears its neighbours'
/// monster (trap) score for good. Among the unvisited tiles next to
/// visited ones it picks, in this order: one with both scores 0 (the
/// nearest); a likely monster that is no trap (the highest monster score);
/// a likely monster and trap (the highest monster score); a likely trap
/// (the lowest trap score). It throws a stone before stepping onto a likely
/// monster. A tile it died on scores 1 for both (1 for the trap alone after
/// a stone).
pub struct Medium {
    memory: Memory,
    monster: [f64; 64],
    trap: [f64; 64],
}

impl Default for Medium {
    fn default() -> Self {
        Medium { memory: Memory::default(), monster: [0.0; 64], trap: [0.0; 64] }
    }
}

impl ForestPlayer for Medium {
    fn new_game(&mut self, _info: &ForestGameInfo) {
        *self = Medium::default();
    }

    fn step(&mut self, req: &ForestRequest) -> ForestAction {
        if self.memory.size == 0 || req.forest != self.memory.forest {
            (self.monster, self.trap) = ([0.0; 64], [0.0; 64]);
        }
        let first_visit = self.memory.observe(req);
        if first_visit {
            self.update_scores(req);
        }
        let action = self.decide(req);
        self.memory.acted(req, action);
        action
    }
}

impl Medium {
    fn update_scores(&mut self, req: &ForestRequest) {
        let m = &self.memory;
        let around = req.at.neighbours(m.size);
        let visited_around = around.intersection(m.visited).len();
        let rise = 1.0 / f64::from(4u32.saturating_sub(visited_around).max(1));
        for t in around.minus(m.visited).squares() {
            let i = t.index() as usize;
            if req.bones {
                self.monster[i] += rise;
            }
            if req.leaves {
                self.trap[i] += rise;
            }
        }
    }

    fn scores(&self, i: usize, t: Coord) -> (f64, f64) {
        let m = &self.memory;
        let monster =
            if m.near(m.no_bones).contains(t) || m.stoned.contains(t) { 0.0 } else { self.monster[i] };
        let trap = if m.near(m.no_leaves).contains(t) { 0.0 } else { self.trap[i] };
        let died = m.died_unstoned.contains(t) || m.died_stoned.contains(t);
        match died {
            true if m.died_stoned.contains(t) => (monster, 1.0),
            true => (if m.stoned.contains(t) { 0.0 } else { 1.0 }, 1.0),
            false => (monster, trap),
        }
    }

    fn decide(&self, req: &ForestRequest) -> ForestAction {
        let m = &self.memory;
        let paths = Paths::new(req.at, m.visited, m.size);
        // (rule rank, preference, moves): lower is better.
        let mut best: Option<((u8, f64, u32), ForestAction)> = None;
        for t in m.unknown().intersection(m.near(m.visited)).squares() {
            let Some((moves, _, step)) = paths.approach(req.at, t) else { continue };
            let (monster, trap) = self.scores(t.index() as usize, t);
            let key = match (monster > 0.0, trap > 0.0) {
                (false, false) => (0, 0.0, moves),
                (true, false) => (1, -monster, moves),
                (true, true) => (2, -monster, moves),
                (false, true) => (3, trap, moves),
            };
            let action = match req.at.dir_to(t) {
                Some(dir) if monster > 0.0 => ForestAction::throw(dir),
                _ => step,
            };
            if best.is_none_or(|(k, _)| key < k) {
                best = Some((key, action));
            }
        }
        best.map_or_else(|| paths.idle(req.at, m.visited), |(_, action)| action)
    }
}
