use super::pick::fallback_target;
use player_api::{
    params::{Param, Setup},
    trap::{Pos, TrapPlayer, TrapRequest, TrapState},
    Seat,
};

/// Hard: depth-limited expectiminimax with alpha-beta, as the course's Hard
/// level: two search trees, one per decision. The depth limit of 3 counts
/// the layers of the tree as the course draws it (decision, chance, reply),
/// so the chance node is a layer of its own (docs/rules/trap.md, "Reference
/// bots").
///
/// - Move: my move (max), the opponent's throw at one of my free neighbours
///   (min), its chance node (hit with p from where the opponent stands,
///   else nothing changes), then utility = own free neighbours + 0.5 x the
///   free neighbours summed over those neighbours (a one-step lookahead).
/// - Trap: my throw at one of the opponent's free neighbours (max), its
///   chance node, the opponent's move (min), then utility = 2 x own
///   mobility - opponent mobility.
///
/// A trapped opponent is worth `WIN`, being trapped `-WIN`. Hard is
/// deterministic: equal choices go to the first in row-major order.
///
/// The depth and the utilities' weights are its parameters ([`Hard::params`],
/// `arena play --param1 move_lookahead=0.7 hard ...`); the defaults are
/// the course's level.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Hard {
    /// Layers of the tree, the root decision's included (`depth`).
    pub depth: u32,
    /// The move tree's utility: x own free neighbours (`move_mobility`)
    pub move_mobility: f64,
    /// + x the free neighbours summed over them (`move_lookahead`).
    pub move_lookahead: f64,
    /// The trap tree's utility: x own mobility (`trap_mobility`)
    pub trap_mobility: f64,
    /// - x the opponent's mobility (`trap_opponent`).
    pub trap_opponent: f64,
}

impl Default for Hard {
    fn default() -> Hard {
        Hard { depth: 3, move_mobility: 1.0, move_lookahead: 0.5, trap_mobility: 2.0, trap_opponent: 1.0 }
    }
}

impl Hard {
    /// The parameters Hard accepts, at today's values.
    pub fn params() -> Vec<Param> {
        let d = Hard::default();
        vec![
            Param::int("depth", i64::from(d.depth), 1, 5),
            Param::float("move_mobility", d.move_mobility, 0.0, 10.0),
            Param::float("move_lookahead", d.move_lookahead, 0.0, 10.0),
            Param::float("trap_mobility", d.trap_mobility, 0.0, 10.0),
            Param::float("trap_opponent", d.trap_opponent, 0.0, 10.0),
        ]
    }

    /// Hard with the values `setup` gives (the defaults for the others).
    pub fn from_setup(setup: &Setup) -> Hard {
        let setup = setup.clone().with_defaults(&Hard::params());
        Hard {
            depth: setup.get_i64("depth").clamp(1, 5) as u32,
            move_mobility: setup.get_f64("move_mobility"),
            move_lookahead: setup.get_f64("move_lookahead"),
            trap_mobility: setup.get_f64("trap_mobility"),
            trap_opponent: setup.get_f64("trap_opponent"),
        }
    }
}

const WIN: f64 = 1.0e6;

impl TrapPlayer for Hard {
    fn get_move(&mut self, req: &TrapRequest) -> Pos {
        let search = Search { me: req.seat, weights: *self };
        let mut best = (f64::NEG_INFINITY, req.me());
        for to in req.state.legal_moves(req.seat) {
            let mut after = req.state;
            after.move_player(req.seat, to);
            let value = search.opponent_throw(&after, self.depth - 1, best.0, f64::INFINITY);
            if value > best.0 {
                best = (value, to);
            }
        }
        best.1
    }

    fn get_trap(&mut self, req: &TrapRequest) -> Pos {
        let search = Search { me: req.seat, weights: *self };
        let mut best = (f64::NEG_INFINITY, None);
        for target in req.state.free_neighbours(req.opponent()) {
            let value = search.my_throw_outcome(&req.state, target, self.depth - 1);
            if value > best.0 {
                best = (value, Some(target));
            }
        }
        best.1.unwrap_or_else(|| fallback_target(&req.state, req.opponent()))
    }
}

struct Search {
    me: Seat,
    weights: Hard,
}

impl Search {
    fn them(&self) -> Seat {
        self.me.other()
    }

    /// Terminal value when one side is trapped, from my point of view.
    fn decided(&self, state: &TrapState) -> Option<f64> {
        if !state.can_move(self.them()) {
            Some(WIN)
        } else if !state.can_move(self.me) {
            Some(-WIN)
        } else {
            None
        }
    }

    // --- the move tree -------------------------------------------------

    fn move_utility(&self, state: &TrapState) -> f64 {
        let neighbours = state.legal_moves(self.me);
        let lookahead: u32 = neighbours.map(|n| state.free_neighbour_count(n)).sum();
        self.weights.move_mobility * neighbours.len() as f64 + self.weights.move_lookahead * lookahead as f64
    }

    /// Max node: my move.
    fn my_move(&self, state: &TrapState, depth: u32, mut alpha: f64, beta: f64) -> f64 {
        if let Some(v) = self.decided(state) {
            return v;
        }
        if depth == 0 {
            return self.move_utility(state);
        }
        let mut best = f64::NEG_INFINITY;
        for to in state.legal_moves(self.me) {
            let mut after = *state;
            after.move_player(self.me, to);
            best = best.max(self.opponent_throw(&after, depth - 1, alpha, beta));
            alpha = alpha.max(best);
            if alpha >= beta {
                break;
            }
        }
        best
    }

    /// Min node: the opponent throws at one of my free neighbours from where
    /// it stands; each throw is a chance node (hit with p, else no effect).
    fn opponent_throw(&self, state: &TrapState, depth: u32, alpha: f64, mut beta: f64) -> f64 {
        if let Some(v) = self.decided(state) {
            return v;
        }
        if depth == 0 {
            return self.move_utility(state);
        }
        let mut best = f64::INFINITY;
        for target in state.free_neighbours(state.position(self.me)) {
            best = best.min(self.opponent_throw_outcome(state, target, depth - 1));
            beta = beta.min(best);
            if alpha >= beta {
                break;
            }
        }
        if best == f64::INFINITY {
            self.move_utility(state)
        } else {
            best
        }
    }

    /// Chance node: the opponent's throw at `target` hits with p, else
    /// changes nothing.
    fn opponent_throw_outcome(&self, state: &TrapState, target: Pos, depth: u32) -> f64 {
        // The limit falls on a chance node at depths 2 and 5: it is a leaf
        // then, as a decision is at the limit.
        if depth == 0 {
            return self.move_utility(state);
        }
        let p = state.throw(self.them(), target).hit_chance();
        let mut hit = *state;
        hit.place_trap(target);
        // Children of a chance node get the full window: a bound from a
        // cut-off child would corrupt the expectation.
        let full = (f64::NEG_INFINITY, f64::INFINITY);
        p * self.my_move(&hit, depth - 1, full.0, full.1)
            + (1.0 - p) * self.my_move(state, depth - 1, full.0, full.1)
    }

    // --- the trap tree -------------------------------------------------

    fn trap_utility(&self, state: &TrapState) -> f64 {
        self.weights.trap_mobility * state.free_neighbour_count(state.position(self.me)) as f64
            - self.weights.trap_opponent * state.free_neighbour_count(state.position(self.them())) as f64
    }

    /// Chance node: my throw at `target` hits with p, else changes nothing.
    fn my_throw_outcome(&self, state: &TrapState, target: Pos, depth: u32) -> f64 {
        // A leaf at the limit (depths 1 and 4), as in the move tree.
        if depth == 0 {
            return self.trap_utility(state);
        }
        let p = state.throw(self.me, target).hit_chance();
        let mut hit = *state;
        hit.place_trap(target);
        let full = (f64::NEG_INFINITY, f64::INFINITY);
        p * self.opponent_move(&hit, depth - 1, full.0, full.1)
            + (1.0 - p) * self.opponent_move(state, depth - 1, full.0, full.1)
    }

    /// Min node: the opponent's move.
    fn opponent_move(&self, state: &TrapState, depth: u32, alpha: f64, mut beta: f64) -> f64 {
        if let Some(v) = self.decided(state) {
            return v;
        }
        if depth == 0 {
            return self.trap_utility(state);
        }
        let mut best = f64::INFINITY;
        for to in state.legal_moves(self.them()) {
            let mut after = *state;
            after.move_player(self.them(), to);
            best = best.min(self.my_next_throw(&after, depth - 1, alpha, beta));
            beta = beta.min(best);
            if alpha >= beta {
                break;
            }
        }
        best
    }

    /// Max node: my next throw at one of the opponent's free neighbours.
    fn my_next_throw(&self, state: &TrapState, depth: u32, mut alpha: f64, beta: f64) -> f64 {
        if let Some(v) = self.decided(state) {
            return v;
        }
        if depth == 0 {
            return self.trap_utility(state);
        }
        let mut best = f64::NEG_INFINITY;
        for target in state.free_neighbours(state.position(self.them())) {
            best = best.max(self.my_throw_outcome(state, target, depth - 1));
            alpha = alpha.max(best);
            if alpha >= beta {
                break;
            }
        }
        best
    }
}
