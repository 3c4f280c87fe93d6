//! Trap's analyser: each turn judged by Expert's expectimax over whole
//! turns (steps, targets and the throw's landing distribution) at a fixed
//! node budget (`reference_bots::trap::expert::judge`), the value mapped to
//! the mover's win chance by a table fitted on the arena's own games
//! (`WIN_TABLE`).

use player_api::trap::{Pos, TrapState};
use reference_bots::trap::expert::Judged;

use super::{replay::TrapBody, wire::cell_pos};
use crate::{
    analysis::{AnalysedBody, Budget, Judgement, Measure, Searched},
    players::protocol::seat_from_number,
    replay::Replay,
};

/// The mover's win chance by the search's value (in [-1, 1]), in steps:
/// (the value up to which a step holds, its chance). The isotonic
/// regression of the mover's result on the value, fitted by `arena measure
/// analysis` on 1,200 games between the levels (seed 50; 25,509 positions,
/// steps of 300 positions or more) and measured on 1,200 others (seed 51):
/// docs/benchmarks.md, "The analyser". A proved end (1 or -1) is certain.
pub const WIN_TABLE: &[(f64, f64)] = &[
    (-0.99429, 0.0042),
    (-0.97732, 0.0127),
    (-0.92205, 0.0291),
    (-0.85574, 0.0410),
    (-0.41130, 0.0459),
    (-0.35118, 0.0744),
    (-0.30089, 0.0998),
    (-0.27191, 0.1171),
    (-0.24029, 0.1576),
    (-0.20648, 0.2058),
    (-0.16099, 0.2432),
    (-0.01136, 0.3403),
    (0.05466, 0.3936),
    (0.13357, 0.4484),
    (0.18150, 0.5126),
    (0.25044, 0.5560),
    (0.28536, 0.6174),
    (0.29815, 0.6962),
    (0.30794, 0.7530),
    (0.33640, 0.7908),
    (0.37552, 0.8221),
    (0.41288, 0.8389),
    (0.45428, 0.8878),
    (0.47960, 0.8998),
    (0.91848, 0.9231),
    (0.96234, 0.9517),
    (0.99234, 0.9638),
    (0.99846, 0.9710),
    (1.00000, 0.9864),
];

/// The mover's win chance of a search value.
pub fn win_chance(value: f64) -> f64 {
    // A step that traps the opponent wins; being trapped loses.
    if value >= 1.0 {
        return 1.0;
    }
    if value <= -1.0 {
        return 0.0;
    }
    let i = WIN_TABLE.partition_point(|&(up_to, _)| up_to < value).min(WIN_TABLE.len() - 1);
    WIN_TABLE[i].1
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
pub fn judge_values(position: &TurnPosition, budget: Budget) -> Judged {
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

    fn judge<E>(&self, _replay: &Replay<E>, budget: Budget, from: usize) -> Result<Vec<Judgement>, String> {
        Ok(self.judged(budget, from)?.into_iter().map(|(judgement, _)| judgement).collect())
    }

    fn judge_searched<E>(
        &self,
        _replay: &Replay<E>,
        budget: Budget,
    ) -> Result<Vec<(Judgement, Option<Searched>)>, String> {
        let positions = self.positions()?;
        Ok((self.judged(budget, 0)?.into_iter().zip(&positions))
            .map(|((judgement, judged), position)| {
                let searched = Searched {
                    value: judged.best.value,
                    depth: judged.best.depth,
                    free_cells: position.state.bitboard().free().count_ones(),
                };
                (judgement, Some(searched))
            })
            .collect())
    }
}

impl TrapBody {
    /// Every turn from index `from` on judged, with the search's own
    /// values (for `arena measure analysis`, which fits the curve on them).
    pub fn judged(&self, budget: Budget, from: usize) -> Result<Vec<(Judgement, Judged)>, String> {
        let positions = self.positions()?;
        Ok(positions
            .iter()
            .enumerate()
            .skip(from)
            .map(|(i, position)| {
                let judged = judge_values(position, budget);
                let best = judged.best;
                let judgement = Judgement {
                    turn: i as u32 + 1,
                    // Players are listed in seat order.
                    player: position.seat.index(),
                    played: turn_text(position.to, position.target),
                    before: win_chance(best.value),
                    after: win_chance(judged.played),
                    best: turn_text(square_pos(best.step), best.target.map(square_pos)),
                    best_value: win_chance(best.value),
                };
                (judgement, judged)
            })
            .collect())
    }
}

#[cfg(test)]
mod tests {
    use player_api::Seat;

    use super::*;

    fn judged(diagram: &str, seat: Seat, to: Pos, target: Option<Pos>) -> (f64, f64) {
        judged_with(diagram, seat, to, target, Budget::QUICK)
    }

    fn judged_with(diagram: &str, seat: Seat, to: Pos, target: Option<Pos>, budget: Budget) -> (f64, f64) {
        let state = TrapState::from_diagram(diagram).unwrap();
        let j = judge_values(&TurnPosition { state, seat, to, target }, budget);
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
        // (2,2) and throws there from 2 cells. Player 2 is hemmed in too,
        // so the position is good for player 1 until it steps in.
        let board = ". . . . .\n. . . . .\n1 # . # .\n. # 2 # .\n# # . # .";
        // Deep enough to see the pocket close (depth 3 at least).
        let budget = Budget { nodes: 50_000, ..Budget::QUICK };
        let pocket = judged_with(board, Seat::One, Pos::new(3, 0), Some(Pos::new(4, 2)), budget);
        let open = judged_with(board, Seat::One, Pos::new(1, 1), Some(Pos::new(2, 2)), budget);
        assert!(pocket.0 - pocket.1 >= 0.3, "pocket: {pocket:?}");
        assert!(open.0 - open.1 < 0.1, "open: {open:?}");
    }

    #[test]
    fn the_table_rises_and_proved_ends_are_certain() {
        assert!(WIN_TABLE.windows(2).all(|w| w[0].0 < w[1].0 && w[0].1 <= w[1].1), "{WIN_TABLE:?}");
        assert_eq!(WIN_TABLE.last().unwrap().0, 1.0);
        assert_eq!((win_chance(1.0), win_chance(-1.0)), (1.0, 0.0));
        // A value is given its step's chance: up to and including its bound.
        let (bound, chance) = WIN_TABLE[10];
        assert_eq!(win_chance(bound), chance);
        assert_eq!(win_chance(bound + 1e-9), WIN_TABLE[11].1);
        assert!(win_chance(-0.5) < win_chance(0.0) && win_chance(0.0) < win_chance(0.5));
    }

    #[test]
    fn the_same_position_gives_the_same_values() {
        let state = TrapState::new(7);
        let position =
            TurnPosition { state, seat: Seat::One, to: Pos::new(1, 3), target: Some(Pos::new(5, 3)) };
        assert_eq!(judge_values(&position, Budget::QUICK), judge_values(&position, Budget::QUICK));
    }
}
