//! Intuitive AI as a person plays it ("it doesn't matter who is playing"):
//! a cell to reveal, typed `row col` (or `(row,col)`), among the closed
//! ones. The board is the replay's: what the person has seen.

use player_api::intuitive::{
    Cell, IllegalReveal, IntuitiveGameInfo, IntuitiveGameOver, IntuitiveRequest, IntuitiveView,
};

use super::{replay, IntuitiveAi};
use crate::{
    players::person::{ended, numbers, Answer, Choice, PersonGame, Question, Square},
    replay::terminal::Paint,
};

impl PersonGame for IntuitiveAi {
    type Sight = IntuitiveGameInfo;

    const NOTATION: &'static str = "Intuitive AI: reveal a closed cell ('?'), typed 'row col' (row 0 on top), as '2 3' or '(2,3)'. Hints: b breeze (a pit next to it), s smell (the monster), g glitter (the gold); find the monster, avoid the pits.";

    fn sight(info: &IntuitiveGameInfo) -> IntuitiveGameInfo {
        *info
    }

    fn question(
        info: &IntuitiveGameInfo,
        request: &IntuitiveRequest,
        _: &[String],
        paint: Paint,
    ) -> Question {
        let view = &request.view;
        let board = replay::board(info.size, &replay::view_record(view), None, false, paint);
        Question {
            board: format!("Intuitive AI, reveal {}, score {}:\n{board}", request.turn + 1, view.score()),
            ask: "reveal (row col)".into(),
            choices: view
                .closed()
                .map(|i| Cell::from_index(i, view.size()))
                .map(|c| Choice::clicked(written(c), vec![[c.row, c.col]]))
                .collect(),
            squares: (0..view.size())
                .map(|row| {
                    (0..view.size()).map(|col| Square::new(glyph(view, Cell::new(row, col)))).collect()
                })
                .collect(),
        }
    }

    fn answer(
        _: &IntuitiveGameInfo,
        request: &IntuitiveRequest,
        _: &[String],
        line: &str,
    ) -> Result<Answer<Cell>, String> {
        let [row, col] = numbers(line)?[..] else {
            return Err("type a cell as 'row col', like '2 3'".into());
        };
        let fits =
            |n: i64| u8::try_from(n).map_err(|_| format!("({row},{col}): {}", IllegalReveal::OffBoard));
        let cell = Cell::new(fits(row)?, fits(col)?);
        let view = &request.view;
        match cell.index(view.size()) {
            None => Err(format!("({row},{col}): {}", IllegalReveal::OffBoard)),
            Some(index) if view.open().contains(index) => {
                Err(format!("({row},{col}): {}", IllegalReveal::AlreadyOpen))
            }
            Some(_) => Ok(Answer::Done(cell)),
        }
    }

    fn over(_: &IntuitiveGameInfo, over: &IntuitiveGameOver) -> String {
        format!("{}, score {}", ended(over.outcome, &over.reason), over.score)
    }
}

/// A cell's glyph, as the replay's board writes it: `?` closed, `G` the
/// gold, the hints' first letters, `.` an open cell with none.
fn glyph(view: &IntuitiveView, cell: Cell) -> String {
    let index = cell.index(view.size()).expect("a cell of the board");
    if view.gold() == Some(index) {
        return "G".into();
    }
    match view.hint(index) {
        None => "?".into(),
        Some(hint) => {
            let letters: String = [(hint.breeze, 'b'), (hint.smell, 's'), (hint.glitter, 'g')]
                .iter()
                .filter(|h| h.0)
                .map(|h| h.1)
                .collect();
            if letters.is_empty() {
                ".".into()
            } else {
                letters
            }
        }
    }
}

fn written(cell: Cell) -> String {
    format!("{} {}", cell.row, cell.col)
}

#[cfg(test)]
mod tests {
    use player_api::intuitive::IntuitiveWorld;

    use super::*;

    #[test]
    fn a_closed_cell_is_revealed_and_others_refused() {
        let world = IntuitiveWorld::generate(
            4,
            &mut <rand_chacha::ChaCha8Rng as rand::SeedableRng>::seed_from_u64(3),
        );
        let view = player_api::intuitive::IntuitiveView::start(&world);
        let info = IntuitiveGameInfo { size: 4, turn_budget_us: 1, seed: 1 };
        let request = IntuitiveRequest { view, turn: 0, time_left_us: 1 };
        let question = IntuitiveAi::question(&info, &request, &[], Paint { color: false });
        assert_eq!(question.choices.len(), 15);
        let open = (0..16u8).find(|&i| view.open().contains(i)).map(|i| Cell::from_index(i, 4)).unwrap();
        let answer = |line: &str| IntuitiveAi::answer(&info, &request, &[], line);
        assert_eq!(answer(&written(open)), Err(format!("({},{}): already open", open.row, open.col)));
        assert_eq!(answer("4 0"), Err("(4,0): off the board".into()));
        assert_eq!(answer("x"), Err("'x' is not a number".into()));
        let closed = &question.choices[0];
        assert!(matches!(answer(&closed.text), Ok(Answer::Done(_))));
        assert!(!question.squares[usize::from(open.row)][usize::from(open.col)].glyph.contains('?'));
    }
}
