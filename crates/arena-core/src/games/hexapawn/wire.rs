//! Hexapawn on the wire (docs/protocol.md): the board in a `get_move`
//! request, and the move or resignation a reply gives, converted both ways.

use player_api::{
    hexapawn::{HexMove, HexapawnAction, HexapawnBoard, Square},
    Seat,
};
use serde::{Deserialize, Serialize};

use crate::players::protocol::{seat_from_number, Reply, WireCell};

/// A Hexapawn position: the pawns of each side, and whose move it is
/// (1 White, 2 Black).
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct WireBoard {
    pub white: Vec<WireCell>,
    pub black: Vec<WireCell>,
    pub to_move: u8,
}

impl From<&HexapawnBoard> for WireBoard {
    fn from(board: &HexapawnBoard) -> WireBoard {
        WireBoard {
            white: board.pawns(Seat::One).map(wire_square).collect(),
            black: board.pawns(Seat::Two).map(wire_square).collect(),
            to_move: board.to_move().number(),
        }
    }
}

impl WireBoard {
    /// The board, if it is a Hexapawn position.
    pub fn to_board(&self) -> Result<HexapawnBoard, String> {
        let squares = |cells: &[WireCell]| -> Result<Vec<Square>, String> {
            cells.iter().map(|&c| square(c).ok_or(format!("{c:?} is off the board"))).collect()
        };
        let to_move = seat_from_number(self.to_move).ok_or(format!("bad seat {}", self.to_move))?;
        HexapawnBoard::from_squares(&squares(&self.white)?, &squares(&self.black)?, to_move)
            .ok_or_else(|| "not a Hexapawn position".to_string())
    }
}

fn wire_square(square: Square) -> WireCell {
    [square.row.into(), square.col.into()]
}

fn square([row, col]: WireCell) -> Option<Square> {
    Some(Square::new(u8::try_from(row).ok()?, u8::try_from(col).ok()?))
}

/// A Hexapawn answer as a reply: a move, or resigning.
pub fn reply(action: HexapawnAction) -> Reply {
    match action {
        HexapawnAction::Move(mv) => Reply::Move { from: wire_square(mv.from), to: wire_square(mv.to) },
        HexapawnAction::Resign => Reply::Resign,
    }
}

/// The move a reply names, if its squares fit any board.
pub fn hex_move(from: WireCell, to: WireCell) -> Result<HexMove, String> {
    match (square(from), square(to)) {
        (Some(from), Some(to)) => Ok(HexMove::new(from, to)),
        _ => Err(format!("move {from:?} -> {to:?} is off the board")),
    }
}

#[cfg(test)]
mod tests {
    use player_api::hexapawn::{HexapawnGameInfo, HexapawnRequest};

    use super::*;
    use crate::{
        games::hexapawn::Hexapawn,
        players::isolation::WireGame,
        players::protocol::{through_a_frame, Request},
    };

    #[test]
    fn boards_and_moves_survive_the_wire() {
        let board = HexapawnBoard::start().play(HexapawnBoard::start().legal_moves()[1]);
        assert_eq!(WireBoard::from(&board).to_board(), Ok(board));
        for mv in HexapawnBoard::start().legal_moves() {
            let Reply::Move { from, to } = reply(HexapawnAction::Move(mv)) else { panic!() };
            assert_eq!(hex_move(from, to), Ok(mv));
        }
        assert_eq!(hex_move([0, 0], [300, 1]), Err("move [0, 0] -> [300, 1] is off the board".into()));
    }

    /// The frames docs/protocol.md shows, and the worker reads them back.
    #[test]
    fn the_frames_are_those_of_docs_protocol_md() {
        let info = HexapawnGameInfo { seat: Seat::Two, turn_budget_us: 5_000_000, seed: 7 };
        let new_game = Request::NewGame(Hexapawn::new_game_frame(&info));
        let json = r#"{"type":"new_game","game":"hexapawn","seat":2,"turn_budget_us":5000000,"seed":7}"#;
        assert_eq!(serde_json::to_string(&new_game).unwrap(), json);
        let Request::NewGame(read) = through_a_frame(&new_game) else { panic!() };
        assert_eq!(Hexapawn::info_of(&read), Ok(info));
        let board = HexapawnBoard::start();
        let request = HexapawnRequest { board, seat: Seat::One, ply: 0, time_left_us: 5_000_000 };
        let get_move = Hexapawn::act_frame(&request, std::time::Duration::ZERO);
        let json = r#"{"type":"get_move","seat":1,"ply":0,"time_left_us":5000000,"state":{"white":[[2,0],[2,1],[2,2]],"black":[[0,0],[0,1],[0,2]],"to_move":1}}"#;
        assert_eq!(serde_json::to_string(&get_move).unwrap(), json);
        assert_eq!(Hexapawn::request_of(&through_a_frame(&get_move)), Some(Ok(request)));
    }
}
