//! Trap on the wire (docs/protocol.md): a position in a `turn` request,
//! and the cells of a reply, converted both ways.

use player_api::{
    trap::{Pos, TrapState, MAX_SIZE, MIN_SIZE},
    Seat,
};
use serde::{Deserialize, Serialize};

use crate::players::protocol::WireCell;

/// A Trap position on the wire.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct WireState {
    pub size: u8,
    /// Player 1's cell, then player 2's.
    pub players: [WireCell; 2],
    pub traps: Vec<WireCell>,
}

impl From<&TrapState> for WireState {
    fn from(state: &TrapState) -> WireState {
        WireState {
            size: state.size(),
            players: Seat::BOTH.map(|s| wire_cell(state.position(s))),
            traps: state.traps().map(wire_cell).collect(),
        }
    }
}

impl WireState {
    /// The position, if it is a valid one.
    pub fn to_state(&self) -> Result<TrapState, String> {
        let size = self.size;
        if !(MIN_SIZE..=MAX_SIZE).contains(&size) {
            return Err(format!("board size {size} is not supported"));
        }
        let cell = |c: WireCell| {
            cell_pos(c).filter(|p| p.is_on_board(size)).ok_or(format!("{c:?} is off the board"))
        };
        let players = [cell(self.players[0])?, cell(self.players[1])?];
        if players[0] == players[1] {
            return Err("both players on one cell".to_string());
        }
        let traps = self.traps.iter().map(|&t| cell(t)).collect::<Result<Vec<_>, _>>()?;
        Ok(TrapState::from_parts(size, players, traps))
    }
}

pub fn wire_cell(pos: Pos) -> WireCell {
    [pos.row.into(), pos.col.into()]
}

/// The cell a wire pair names, if it fits a `Pos` at all.
pub fn cell_pos([row, col]: WireCell) -> Option<Pos> {
    Some(Pos::new(u8::try_from(row).ok()?, u8::try_from(col).ok()?))
}

#[cfg(test)]
mod tests {
    use player_api::trap::{TrapGameInfo, TrapRequest};

    use super::*;
    use crate::{
        games::trap::Trap,
        players::isolation::WireGame,
        players::protocol::{through_a_frame, Payload, Request},
    };

    #[test]
    fn a_state_survives_the_wire() {
        let state =
            TrapState::from_parts(7, [Pos::new(1, 1), Pos::new(5, 5)], [Pos::new(3, 3), Pos::new(0, 6)]);
        assert_eq!(WireState::from(&state).to_state(), Ok(state));
        let bad = WireState { size: 7, players: [[0, 0], [0, 0]], traps: vec![] };
        assert!(bad.to_state().is_err());
        assert_eq!(cell_pos([-1, 3]), None);
        assert_eq!(cell_pos([2, 3]), Some(Pos::new(2, 3)));
    }

    /// The frames docs/protocol.md shows, and the worker reads them back.
    #[test]
    fn the_frames_are_those_of_docs_protocol_md() {
        let info = TrapGameInfo { seat: Seat::One, size: 7, turn_budget_us: 5_000_000, seed: 1234 };
        let new_game = Request::NewGame(Trap::new_game_frame(&info));
        let json =
            r#"{"type":"new_game","game":"trap","seat":1,"size":7,"turn_budget_us":5000000,"seed":1234}"#;
        assert_eq!(serde_json::to_string(&new_game).unwrap(), json);
        let Request::NewGame(read) = through_a_frame(&new_game) else { panic!() };
        assert_eq!(Trap::info_of(&read), Ok(info));

        let state = TrapState::from_parts(7, [Pos::new(1, 4), Pos::new(6, 3)], [Pos::new(5, 3)]);
        let request = TrapRequest { state, seat: Seat::Two, turn: 1, time_left_us: 5_000_000 };
        let turn = Trap::act_frame(&request, std::time::Duration::ZERO);
        let json = r#"{"type":"turn","seat":2,"turn":1,"time_left_us":5000000,"state":{"size":7,"players":[[1,4],[6,3]],"traps":[[5,3]]}}"#;
        assert_eq!(serde_json::to_string(&turn).unwrap(), json);
        assert_eq!(Trap::request_of(&through_a_frame(&turn)), Some(Ok(request)));
    }

    #[test]
    fn a_state_with_an_unknown_field_is_refused() {
        let state =
            Payload::of(&serde_json::json!({"size": 7, "players": [[0, 0], [1, 1]], "traps": [], "x": 1}));
        let turn = Request::Turn { seat: 1, turn: 0, time_left_us: 1, state, bank: None };
        let Some(Err(why)) = Trap::request_of(&through_a_frame(&turn)) else { panic!() };
        assert!(why.starts_with("bad state: unknown field `x`"), "{why}");
    }
}
