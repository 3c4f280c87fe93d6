//! Hexapawn's analyser: exact. The game is solved (Hard's
//! `side_to_move_wins` searches the whole tree, a few hundred positions), so
//! a position's win chance is 1 or 0, and a move that hands a won game over
//! is a blunder.

use player_api::hexapawn::HexapawnBoard;
use reference_bots::hexapawn::side_to_move_wins;

use super::replay::{board_from, move_from, HexapawnBody};
use crate::analysis::{AnalysedBody, Budget, Judgement, Measure};
use crate::players::protocol::seat_from_number;
use crate::replay::Replay;

/// The win chance of the side to move with perfect play: 1 or 0.
fn value(board: &HexapawnBoard) -> f64 {
    f64::from(u8::from(side_to_move_wins(board)))
}

/// The mover's win chance after it played onto `after`.
fn after_value(after: &HexapawnBoard) -> f64 {
    1.0 - value(after)
}

impl AnalysedBody for HexapawnBody {
    fn measure(&self) -> Measure {
        Measure::WinChance
    }

    fn judge<E>(&self, _replay: &Replay<E>, _budget: Budget, from: usize) -> Result<Vec<Judgement>, String> {
        self.plies
            .iter()
            .enumerate()
            .skip(from)
            .map(|(i, ply)| {
                let board = board_from(&ply.board)?;
                let seat = seat_from_number(ply.seat).ok_or(format!("seat {}: 1 or 2", ply.seat))?;
                let played = move_from(ply.mv);
                let moves = board.legal_moves();
                let best = moves
                    .iter()
                    .copied()
                    .max_by(|a, b| after_value(&board.play(*a)).total_cmp(&after_value(&board.play(*b))))
                    .unwrap_or(played);
                Ok(Judgement {
                    turn: i as u32 + 1,
                    player: seat.index(),
                    played: format!("moved {played}"),
                    before: value(&board),
                    after: after_value(&board.play(played)),
                    best: format!("moved {best}"),
                    best_value: value(&board),
                })
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use player_api::{
        hexapawn::{HexMove, Square},
        Seat,
    };

    use super::*;

    #[test]
    fn the_start_is_lost_for_white_and_a_wrong_reply_throws_blacks_win_away() {
        let start = HexapawnBoard::default();
        assert_eq!(value(&start), 0.0, "Black wins Hexapawn with perfect play");
        // Every White first move leaves Black a win; after (2,1)->(1,1),
        // Black's capture (0,0)x(1,1) keeps the win and (0,0)->(1,0) does not.
        let after_centre = start.play(HexMove::new(Square::new(2, 1), Square::new(1, 1)));
        assert_eq!(after_centre.to_move(), Seat::Two);
        assert_eq!(value(&after_centre), 1.0);
        let capture = HexMove::new(Square::new(0, 0), Square::new(1, 1));
        let push = HexMove::new(Square::new(0, 0), Square::new(1, 0));
        assert_eq!(after_value(&after_centre.play(capture)), 1.0);
        assert_eq!(after_value(&after_centre.play(push)), 0.0);
    }
}
