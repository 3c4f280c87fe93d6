//! Trap as a person plays it: a turn asked in two parts, the move and then
//! the throw (unless the move wins), each a cell typed `row col` (or the
//! rules' `(row,col)`). The board is the replay's; the throw is asked with
//! the odds of hitting each cell beside it, the source document's picture
//! as numbers.

use player_api::{
    trap::{Pos, TrapGameInfo, TrapRequest, TrapState},
    GameOver, Seat,
};

use super::{referee::TurnActions, replay, wire::wire_cell, Trap};
use crate::{
    players::person::{ended, numbers, Answer, Choice, PersonGame, Question, Square},
    replay::{grid, terminal::Paint},
};

impl PersonGame for Trap {
    type Sight = TrapGameInfo;

    const NOTATION: &'static str = "Trap: a cell is 'row col' (row 0 on top, column 0 on the left), as '3 4' or '(3,4)'. A turn is a move (one king step) and then a throw (any cell but the players').";

    fn sight(info: &TrapGameInfo) -> TrapGameInfo {
        *info
    }

    fn question(_: &TrapGameInfo, request: &TrapRequest, given: &[String], paint: Paint) -> Question {
        let me = request.seat;
        let head = format!("Trap, turn {}: you are player {} ({})", request.turn + 1, me.number(), glyph(me));
        match moved(request, given) {
            None => Question {
                board: format!("{head}\n{}", replay::board(&request.state, None, paint)),
                ask: "your move (row col)".into(),
                choices: request
                    .state
                    .legal_moves(me)
                    .map(|p| Choice::clicked(cell(p), vec![at(p)]))
                    .collect(),
                squares: squares(&request.state, None),
            },
            Some(after) => Question {
                board: format!(
                    "{head}, moved to {}\n{}\n\n{}",
                    given[0],
                    replay::board(&after, None, paint),
                    odds(&after, me)
                ),
                ask: "your throw (row col)".into(),
                choices: targets(&after)
                    .map(|p| {
                        let shows = after
                            .throw(me, p)
                            .outcomes()
                            .map(|(q, chance)| (at(q), percent(chance)))
                            .collect();
                        Choice { shows, ..Choice::clicked(cell(p), vec![at(p)]) }
                    })
                    .collect(),
                squares: squares(&after, Some(me)),
            },
        }
    }

    fn answer(
        _: &TrapGameInfo,
        request: &TrapRequest,
        given: &[String],
        line: &str,
    ) -> Result<Answer<TurnActions>, String> {
        let pos = read_cell(line)?;
        let me = request.seat;
        match moved(request, given) {
            None => {
                request.state.check_move(me, pos).map_err(|why| format!("a move to {pos}: {why}"))?;
                let mut after = request.state;
                after.move_player(me, pos);
                if after.can_move(me.other()) {
                    Ok(Answer::Part(cell(pos)))
                } else {
                    // The move wins at once: no throw.
                    Ok(Answer::Done(TurnActions { step: wire_cell(pos), trap: None }))
                }
            }
            Some(after) => {
                after.check_target(pos).map_err(|why| format!("a throw at {pos}: {why}"))?;
                let step = read_cell(&given[0])?;
                Ok(Answer::Done(TurnActions { step: wire_cell(step), trap: Some(wire_cell(pos)) }))
            }
        }
    }

    fn over(_: &TrapGameInfo, over: &GameOver) -> String {
        ended(over.outcome, &over.reason)
    }
}

/// The position after the move already given, if one was.
fn moved(request: &TrapRequest, given: &[String]) -> Option<TrapState> {
    let step = read_cell(given.first()?).ok()?;
    let mut after = request.state;
    after.move_player(request.seat, step);
    Some(after)
}

/// A typed cell.
fn read_cell(line: &str) -> Result<Pos, String> {
    match numbers(line)?[..] {
        [row, col] => {
            let fits = |n: i64| u8::try_from(n).map_err(|_| format!("({row},{col}) is off the board"));
            Ok(Pos::new(fits(row)?, fits(col)?))
        }
        _ => Err("type a cell as 'row col', like '3 4'".into()),
    }
}

/// A cell as a person types it.
fn cell(pos: Pos) -> String {
    format!("{} {}", pos.row, pos.col)
}

fn glyph(seat: Seat) -> &'static str {
    if seat == Seat::One {
        "'1', blue"
    } else {
        "'2', red"
    }
}

/// A cell as a page names it.
fn at(pos: Pos) -> [u8; 2] {
    [pos.row, pos.col]
}

fn percent(chance: f64) -> String {
    format!("{:.0}%", chance * 100.0)
}

/// The board as a page draws it (the replay's glyphs); when `throwing`,
/// each cell notes the chance that a throw from there hits it.
fn squares(state: &TrapState, throwing: Option<Seat>) -> Vec<Vec<Square>> {
    let size = state.size();
    (0..size)
        .map(|r| {
            (0..size)
                .map(|c| {
                    let pos = Pos::new(r, c);
                    let glyph = if pos == state.position(Seat::One) {
                        "1"
                    } else if pos == state.position(Seat::Two) {
                        "2"
                    } else if state.has_trap(pos) {
                        "#"
                    } else {
                        "."
                    };
                    let note = match throwing {
                        Some(seat) if state.check_target(pos).is_ok() => {
                            percent(state.throw(seat, pos).hit_chance())
                        }
                        _ => String::new(),
                    };
                    Square { glyph: glyph.into(), note }
                })
                .collect()
        })
        .collect()
}

/// Where a throw may go: every cell but the players'.
fn targets(state: &TrapState) -> impl Iterator<Item = Pos> + '_ {
    let size = state.size();
    (0..size)
        .flat_map(move |r| (0..size).map(move |c| Pos::new(r, c)))
        .filter(|&p| state.check_target(p).is_ok())
}

/// The chance, in percent, that a throw from `seat`'s cell lands where it
/// is aimed, for every cell (a miss lands on a free neighbour of the
/// target, each alike).
fn odds(state: &TrapState, seat: Seat) -> String {
    let grid = grid::drawn_down(state.size(), 3, |r, c| {
        let pos = Pos::new(r, c);
        let entry = if pos == state.position(Seat::One) {
            "1".to_string()
        } else if pos == state.position(Seat::Two) {
            "2".to_string()
        } else {
            format!("{:.0}", state.throw(seat, pos).hit_chance() * 100.0)
        };
        format!("{entry:>3}")
    });
    format!("hit chance of a throw at each cell, %:\n{grid}")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn start() -> (TrapGameInfo, TrapRequest) {
        let info = TrapGameInfo { seat: Seat::One, size: 7, turn_budget_us: 5_000_000, seed: 1 };
        (info, TrapRequest { state: TrapState::new(7), seat: Seat::One, turn: 0, time_left_us: 5_000_000 })
    }

    #[test]
    fn a_turn_is_a_move_then_a_throw_and_bad_cells_are_refused() {
        let (info, request) = start();
        let plain = Paint { color: false };
        let first = Trap::question(&info, &request, &[], plain);
        let texts: Vec<&str> = first.choices.iter().map(|c| c.text.as_str()).collect();
        assert_eq!(texts, ["0 2", "0 4", "1 2", "1 3", "1 4"]);
        assert_eq!(first.choices[0].clicks, [[0, 2]]);
        assert_eq!(first.squares[0][3].glyph, "1");
        assert!(first.board.contains(" 0 . . . 1 . . ."), "{}", first.board);
        let refuse = |line: &str| Trap::answer(&info, &request, &[], line).unwrap_err();
        assert_eq!(refuse("3 3"), "a move to (3,3): not one king step from (0,3)");
        assert_eq!(refuse("0 3 1"), "type a cell as 'row col', like '3 4'");
        assert_eq!(refuse("-1 3"), "(-1,3) is off the board");
        assert_eq!(Trap::answer(&info, &request, &[], "(1,3)"), Ok(Answer::Part("1 3".into())));
        let given = ["1 3".to_string()];
        let second = Trap::question(&info, &request, &given, plain);
        assert_eq!(second.choices.len(), 47);
        assert!(second.board.contains("hit chance"), "{}", second.board);
        // A throw at (5,3), 4 away: 85% there, the rest shared by its free neighbours.
        let far = second.choices.iter().find(|c| c.text == "5 3").unwrap();
        assert_eq!(far.shows[0], ([5, 3], "85%".to_string()));
        assert_eq!(far.shows.len(), 1 + 7, "{:?}", far.shows);
        assert_eq!(second.squares[5][3].note, "85%");
        assert_eq!(
            Trap::answer(&info, &request, &given, "6 3").unwrap_err(),
            "a throw at (6,3): player 2 stands there"
        );
        assert_eq!(
            Trap::answer(&info, &request, &given, "5 3"),
            Ok(Answer::Done(TurnActions { step: [1, 3], trap: Some([5, 3]) }))
        );
    }
}
