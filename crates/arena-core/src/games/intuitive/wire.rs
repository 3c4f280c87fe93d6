//! Intuitive AI on the wire (docs/protocol.md): what the player sees in a
//! `reveal` request, and the cell its reply names, converted both ways.

use player_api::intuitive::{Cell, CellSet, IntuitiveView};
use serde::{Deserialize, Serialize};

use crate::players::protocol::WireCell;

/// What an Intuitive AI player sees: the open cells and their hints.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct WireView {
    pub size: u8,
    pub score: i8,
    /// The gold's cell once it is open.
    pub gold: Option<WireCell>,
    pub open: Vec<WireCell>,
    pub breeze: Vec<WireCell>,
    pub smell: Vec<WireCell>,
    pub glitter: Vec<WireCell>,
}

impl From<&IntuitiveView> for WireView {
    fn from(view: &IntuitiveView) -> WireView {
        let size = view.size();
        WireView {
            size,
            score: view.score(),
            gold: view.gold().map(|g| wire_cell(Cell::from_index(g, size))),
            open: wire_cells(view.open(), size),
            breeze: wire_cells(view.breeze(), size),
            smell: wire_cells(view.smell(), size),
            glitter: wire_cells(view.glitter(), size),
        }
    }
}

impl WireView {
    /// The view, if it is a valid one.
    pub fn to_view(&self) -> Result<IntuitiveView, String> {
        let size = self.size;
        let gold = self.gold.map(|g| cell_set(&[g], size)).transpose()?.and_then(|g| g.nth_index(0));
        let open = cell_set(&self.open, size)?;
        let hints =
            [cell_set(&self.breeze, size)?, cell_set(&self.smell, size)?, cell_set(&self.glitter, size)?];
        IntuitiveView::from_parts(size, self.score, gold, open, hints)
            .ok_or_else(|| "hints or gold on closed cells, or a board size out of range".to_string())
    }
}

pub fn wire_cell(cell: Cell) -> WireCell {
    [cell.row.into(), cell.col.into()]
}

fn wire_cells(set: CellSet, size: u8) -> Vec<WireCell> {
    set.map(|i| wire_cell(Cell::from_index(i, size))).collect()
}

fn cell_index([row, col]: WireCell, size: u8) -> Option<u8> {
    Cell::new(u8::try_from(row).ok()?, u8::try_from(col).ok()?).index(size)
}

fn cell_set(cells: &[WireCell], size: u8) -> Result<CellSet, String> {
    cells.iter().map(|&c| cell_index(c, size).ok_or(format!("{c:?} is off the board"))).collect()
}

/// The cell a reveal names, as a `Cell` if it fits one: an answer such as
/// `[-1, 3]` fits none and is not an action at all.
pub fn reveal_cell([row, col]: WireCell) -> Result<Cell, String> {
    match (u8::try_from(row), u8::try_from(col)) {
        (Ok(row), Ok(col)) => Ok(Cell::new(row, col)),
        _ => Err(format!("reveal [{row}, {col}] is off the board")),
    }
}

#[cfg(test)]
mod tests {
    use player_api::intuitive::{IntuitiveGame, IntuitiveGameInfo, IntuitiveRequest, IntuitiveWorld};
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    use super::*;
    use crate::{
        games::intuitive::IntuitiveAi,
        players::isolation::WireGame,
        players::protocol::{through_a_frame, Request},
    };

    #[test]
    fn views_in_play_survive_the_wire() {
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        for _ in 0..300 {
            let size = rng.random_range(3..=8);
            let mut game = IntuitiveGame::new(IntuitiveWorld::generate(size, &mut rng));
            while !game.is_over() {
                let request = IntuitiveRequest { view: *game.view(), turn: 0, time_left_us: 1 };
                let frame = IntuitiveAi::act_frame(&request, std::time::Duration::ZERO);
                assert_eq!(IntuitiveAi::request_of(&through_a_frame(&frame)), Some(Ok(request)));
                let closed = request.view.closed();
                let cell = closed.nth_index(rng.random_range(0..closed.len())).unwrap();
                let _ = game.reveal(Cell::from_index(cell, size));
            }
        }
    }

    #[test]
    fn impossible_views_are_refused() {
        let view = WireView {
            size: 4,
            score: 0,
            gold: None,
            open: vec![[0, 0]],
            breeze: vec![[1, 1]],
            smell: vec![],
            glitter: vec![],
        };
        assert!(view.to_view().is_err(), "a hint on a closed cell");
        assert!(WireView { open: vec![[0, 9]], breeze: vec![], ..view.clone() }.to_view().is_err());
        assert!(WireView { size: 20, breeze: vec![], ..view }.to_view().is_err());
        assert_eq!(reveal_cell([-1, 3]), Err("reveal [-1, 3] is off the board".into()));
    }

    /// The frames docs/protocol.md shows.
    #[test]
    fn the_frames_are_those_of_docs_protocol_md() {
        let info = IntuitiveGameInfo { size: 4, turn_budget_us: 5_000_000, seed: 7 };
        let new_game = Request::NewGame(IntuitiveAi::new_game_frame(&info));
        let json = r#"{"type":"new_game","game":"intuitive-ai","size":4,"turn_budget_us":5000000,"seed":7}"#;
        assert_eq!(serde_json::to_string(&new_game).unwrap(), json);
        let Request::NewGame(read) = through_a_frame(&new_game) else { panic!() };
        assert_eq!(IntuitiveAi::info_of(&read), Ok(info));
        let json = r#"{"type":"reveal","turn":0,"time_left_us":5000000,"state":{"size":4,"score":0,"gold":null,"open":[[0,0]],"breeze":[],"smell":[[0,0]],"glitter":[]}}"#;
        let reveal: Request = serde_json::from_str(json).unwrap();
        let Some(Ok(request)) = IntuitiveAi::request_of(&reveal) else { panic!() };
        assert_eq!(
            serde_json::to_string(&IntuitiveAi::act_frame(&request, std::time::Duration::ZERO)).unwrap(),
            json
        );
    }
}
