use player_api::trap::{Pos, TrapPlayer, TrapRequest};

use super::pick::{best_cell, fallback_target};

/// Medium: moves to the cell with the most free neighbours; throws at the
/// opponent's free neighbour that minimises (opponent's free neighbours -
/// own free neighbours). Equal choices go to the first in row-major order,
/// as Hard's do (docs/rules/trap.md, "Reference bots": why this order).
#[derive(Default)]
pub struct Medium;

impl TrapPlayer for Medium {
    fn get_move(&mut self, req: &TrapRequest) -> Pos {
        let score = |to: Pos| {
            let mut after = req.state;
            after.move_player(req.seat, to);
            after.free_neighbour_count(to) as i32
        };
        best_cell(req.state.legal_moves(req.seat), score).unwrap_or(req.me())
    }

    fn get_trap(&mut self, req: &TrapRequest) -> Pos {
        let (me, opponent) = (req.me(), req.opponent());
        let score = |target: Pos| {
            let mut after = req.state;
            after.place_trap(target);
            after.free_neighbour_count(me) as i32 - after.free_neighbour_count(opponent) as i32
        };
        best_cell(req.state.free_neighbours(opponent), score)
            .unwrap_or_else(|| fallback_target(&req.state, opponent))
    }
}
