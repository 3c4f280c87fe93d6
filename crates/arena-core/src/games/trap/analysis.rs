//! Trap's analyser: each turn judged by Expert's expectimax over whole
//! turns (steps, targets and the throw's landing distribution) at a fixed
//! node budget (`reference_bots::trap::expert::judge`), the value mapped to
//! the mover's win chance by a logistic curve fitted on the arena's own
//! games (`WIN_CURVE`).

use player_api::trap::{Pos, TrapState};

use super::{replay::TrapBody, wire::cell_pos};
use crate::{
    analysis::{AnalysedBody, Budget, Judgement, Measure},
    players::protocol::seat_from_number,
    replay::Replay,
};

/// The win chance of a search value `v` (the mover's, in [-1, 1]):
/// 1 / (1 + e^-(a v + b)). Fitted by `arena measure analysis --fit` (a
/// logistic regression of the mover's result on `v` over the positions of
/// games between the levels; docs/benchmarks.md, "The analyser").
pub const WIN_CURVE: (f64, f64) = (6.0, 0.0);

/// The mover's win chance of a search value.
pub fn win_chance(value: f64) -> f64 {
    let (a, b) = WIN_CURVE;
    1.0 / (1.0 + (-(a * value + b)).exp())
}

/// "moved to (3,4), threw at (2,4)"; "moved to (3,4)" when the move won.
fn turn_text(to: Pos, target: Option<Pos>) -> String {
    match target {
        Some(target) => format!("moved to {to}, threw at {target}"),
        None => format!("moved to {to}"),
    }
}

/// One turn's position, seat and action, from its record.
pub struct TurnPosition {
    pub state: TrapState,
    pub seat: player_api::Seat,
    pub to: Pos,
    pub target: Option<Pos>,
}

impl TrapBody {
    /// Every turn's position and what was played in it.
    pub fn positions(&self) -> Result<Vec<TurnPosition>, String> {
        let pos = |c| cell_pos(c).ok_or(format!("cell {c:?} is off any board"));
        self.turns
            .iter()
            .map(|t| {
                Ok(TurnPosition {
                    state: t.state.to_state()?,
                    seat: seat_from_number(t.seat).ok_or(format!("seat {}: 1 or 2", t.seat))?,
                    to: pos(t.to)?,
                    target: t.throw.map(|throw| pos(throw.target)).transpose()?,
                })
            })
            .collect()
    }
}

/// The search value of the turn played and of the best turn, for the mover.
pub fn judge_values(position: &TurnPosition, budget: Budget) -> reference_bots::trap::expert::Judged {
    reference_bots::trap::expert::judge(
        &position.state,
        position.seat,
        position.to,
        position.target,
        budget.nodes,
    )
}

fn square_pos(square: u32) -> Pos {
    Pos::new((square / 8) as u8, (square % 8) as u8)
}

impl AnalysedBody for TrapBody {
    fn measure(&self) -> Measure {
        Measure::WinChance
    }

    fn judge<E>(&self, _replay: &Replay<E>, budget: Budget) -> Result<Vec<Judgement>, String> {
        let positions = self.positions()?;
        Ok(positions
            .iter()
            .enumerate()
            .map(|(i, position)| {
                let judged = judge_values(position, budget);
                let best = judged.best;
                Judgement {
                    turn: i as u32 + 1,
                    // Players are listed in seat order.
                    player: position.seat.index(),
                    played: turn_text(position.to, position.target),
                    before: win_chance(best.value),
                    after: win_chance(judged.played),
                    best: turn_text(square_pos(best.step), best.target.map(square_pos)),
                    best_value: win_chance(best.value),
                }
            })
            .collect())
    }
}

#[cfg(test)]
mod tests {
    use player_api::Seat;

    use super::*;

    fn judged(diagram: &str, seat: Seat, to: Pos, target: Option<Pos>) -> (f64, f64) {
        let state = TrapState::from_diagram(diagram).unwrap();
        let j = judge_values(&TurnPosition { state, seat, to, target }, Budget::QUICK);
        (win_chance(j.best.value), win_chance(j.played))
    }

    #[test]
    fn a_forced_win_is_nearly_certain() {
        // Player 2 in the corner has one free cell, (1,1), beside player 1:
        // player 1 steps to (1,1) and player 2 is trapped.
        let board = "2 # #\n# . .\n. 1 .";
        let (before, after) = judged(board, Seat::One, Pos::new(1, 1), None);
        assert!(before > 0.99, "{before}");
        assert!(after > 0.99, "{after}");
    }

    #[test]
    fn a_forced_loss_is_nearly_hopeless() {
        // Player 1 has one cell to step to, and whatever it throws, player 2
        // then steps beside it and it is trapped.
        // Player 1's one step, to (3,1), leaves it one free cell, the one it
        // left; player 2 steps to (2,3) and throws there, from 2 cells (a
        // hit 19 times in 20).
        let board = ". . . . .\n# # # . .\n# 1 # . .\n# . # . 2\n# # # . .";
        let state = TrapState::from_diagram(board).unwrap();
        assert_eq!(state.legal_moves(Seat::One).len(), 1);
        let (before, after) = judged(board, Seat::One, Pos::new(3, 1), Some(Pos::new(2, 4)));
        assert!(before < 0.1, "{before}");
        assert!(after <= before, "{after}");
    }

    #[test]
    fn a_step_into_a_trap_is_a_blunder() {
        // Player 1 can step up into the open or down into the pocket (3,0),
        // whose one free neighbour is the cell it leaves: player 2 steps to
        // (2,2) and throws there from 2 cells.
        let board = ". . . . .\n. . . . .\n1 # . . .\n. # 2 . .\n# # . . .";
        let pocket = judged(board, Seat::One, Pos::new(3, 0), Some(Pos::new(2, 3)));
        let open = judged(board, Seat::One, Pos::new(1, 1), Some(Pos::new(2, 3)));
        assert!(pocket.0 - pocket.1 >= 0.3, "pocket: {pocket:?}");
        assert!(open.0 - open.1 < 0.1, "open: {open:?}");
    }

    #[test]
    fn the_same_position_gives_the_same_values() {
        let state = TrapState::new(7);
        let position =
            TurnPosition { state, seat: Seat::One, to: Pos::new(1, 3), target: Some(Pos::new(5, 3)) };
        assert_eq!(judge_values(&position, Budget::QUICK), judge_values(&position, Budget::QUICK));
    }
}
