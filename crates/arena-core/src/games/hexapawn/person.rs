//! Hexapawn as a person plays it: a move typed as its two squares, `row
//! col` each (`2 1 1 1`, or the rules' `(2,1)->(1,1)`), or only the square
//! it goes to when one pawn alone can go there. `resign` is the game's own
//! resignation (`HexapawnAction::Resign`). The board is the replay's.

use player_api::{
    hexapawn::{HexMove, HexapawnAction, HexapawnGameInfo, HexapawnRequest, Square, SIZE},
    GameOver, Seat,
};

use super::{replay, Hexapawn};
use crate::{
    players::person::{ended, numbers, Answer, Choice, PersonGame, Question, Square as Cell},
    replay::terminal::Paint,
};

impl PersonGame for Hexapawn {
    type Sight = HexapawnGameInfo;

    const NOTATION: &'static str = "Hexapawn: a move is its two squares, 'row col' each (row 0 on top): '2 1 1 1' or '(2,1)->(1,1)'; or only where it goes, '1 1', when one pawn alone can go there. White (W) moves up, Black (B) down.";

    fn sight(info: &HexapawnGameInfo) -> HexapawnGameInfo {
        *info
    }

    fn question(_: &HexapawnGameInfo, request: &HexapawnRequest, _: &[String], paint: Paint) -> Question {
        let side = if request.seat == Seat::One { "White (W), moving up" } else { "Black (B), moving down" };
        let board = replay::board(&replay::board_record(&request.board), None, paint);
        Question {
            board: format!("Hexapawn, ply {}: you are {side}\n{board}", request.ply + 1),
            ask: "your move (row col row col)".into(),
            choices: request
                .board
                .legal_moves()
                .into_iter()
                .map(|mv| {
                    Choice::clicked(written(mv), vec![[mv.from.row, mv.from.col], [mv.to.row, mv.to.col]])
                })
                .collect(),
            squares: (0..SIZE)
                .map(|row| {
                    (0..SIZE)
                        .map(|col| match request.board.at(Square::new(row, col)) {
                            Some(Seat::One) => Cell::new("W"),
                            Some(Seat::Two) => Cell::new("B"),
                            None => Cell::new("."),
                        })
                        .collect()
                })
                .collect(),
        }
    }

    fn answer(
        _: &HexapawnGameInfo,
        request: &HexapawnRequest,
        _: &[String],
        line: &str,
    ) -> Result<Answer<HexapawnAction>, String> {
        let square = |row: i64, col: i64| -> Result<Square, String> {
            let fits = |n: i64| u8::try_from(n).map_err(|_| format!("({row},{col}) is off the board"));
            Ok(Square::new(fits(row)?, fits(col)?))
        };
        let mv = match numbers(line)?[..] {
            [r1, c1, r2, c2] => HexMove::new(square(r1, c1)?, square(r2, c2)?),
            [row, col] => {
                let to = square(row, col)?;
                let reaching: Vec<HexMove> =
                    request.board.legal_moves().into_iter().filter(|m| m.to == to).collect();
                match reaching[..] {
                    [one] => one,
                    [] => return Err(format!("no pawn of yours can move to {to}")),
                    _ => return Err(format!("more than one pawn can move to {to}: name its square too")),
                }
            }
            _ => return Err("type a move as 'row col row col', like '2 1 1 1'".into()),
        };
        request.board.check_move(mv).map_err(|why| format!("the move {mv}: {why}"))?;
        Ok(Answer::Done(HexapawnAction::Move(mv)))
    }

    fn resignation() -> Option<HexapawnAction> {
        Some(HexapawnAction::Resign)
    }

    fn over(_: &HexapawnGameInfo, over: &GameOver) -> String {
        ended(over.outcome, &over.reason)
    }
}

/// A move as a person types it.
fn written(mv: HexMove) -> String {
    format!("{} {} -> {} {}", mv.from.row, mv.from.col, mv.to.row, mv.to.col)
}

#[cfg(test)]
mod tests {
    use player_api::hexapawn::HexapawnBoard;

    use super::*;

    #[test]
    fn moves_are_typed_whole_or_by_their_square_and_bad_ones_refused() {
        let info = HexapawnGameInfo { seat: Seat::One, turn_budget_us: 5_000_000, seed: 1 };
        let request =
            HexapawnRequest { board: HexapawnBoard::start(), seat: Seat::One, ply: 0, time_left_us: 1 };
        let question = Hexapawn::question(&info, &request, &[], Paint { color: false });
        let texts: Vec<&str> = question.choices.iter().map(|c| c.text.as_str()).collect();
        assert_eq!(texts, ["2 0 -> 1 0", "2 1 -> 1 1", "2 2 -> 1 2"]);
        assert_eq!(question.choices[1].clicks, [[2, 1], [1, 1]]);
        assert!(question.board.contains("  2 W W W"), "{}", question.board);
        let answer = |line: &str| Hexapawn::answer(&info, &request, &[], line);
        let up = HexapawnAction::Move(HexMove::new(Square::new(2, 1), Square::new(1, 1)));
        assert_eq!(answer("(2,1)->(1,1)"), Ok(Answer::Done(up)));
        assert_eq!(answer("2 1 1 1"), Ok(Answer::Done(up)));
        assert_eq!(answer("1 1"), Ok(Answer::Done(up)));
        assert_eq!(answer("0 1"), Err("no pawn of yours can move to (0,1)".into()));
        assert_eq!(answer("2 1 0 1"), Err("the move (2,1)->(0,1): not one square forward".into()));
        assert_eq!(answer("e2e4"), Err("'e2e4' is not a number".into()));
    }
}
