//! Helpers shared by the Trap rules tests (trap_board.rs, trap_throws.rs,
//! trap_endings.rs).

use player_api::trap::{Cells, Pos, TrapState};

/// The cell at `row`, `col`.
pub fn p(row: u8, col: u8) -> Pos {
    Pos::new(row, col)
}

/// The set of the cells at these `(row, col)` pairs.
pub fn cells(list: &[(u8, u8)]) -> Cells {
    list.iter().map(|&(r, c)| p(r, c)).collect()
}

/// A position drawn as text (`TrapState::from_diagram`).
pub fn board(text: &str) -> TrapState {
    TrapState::from_diagram(text).unwrap()
}
