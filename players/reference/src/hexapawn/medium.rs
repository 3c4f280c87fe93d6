use player_api::hexapawn::{
    HexMove, HexapawnAction, HexapawnBoard, HexapawnGameInfo, HexapawnPlayer, HexapawnRequest,
};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use super::random_move;

/// Medium: takes a move that wins at once; otherwise avoids the moves after
/// which the opponent can win at once; otherwise plays at random.
pub struct Medium {
    rng: ChaCha8Rng,
}

impl Default for Medium {
    fn default() -> Self {
        Medium { rng: ChaCha8Rng::seed_from_u64(0) }
    }
}

/// Whether the side to move on `board` has a move that wins at once.
fn wins_in_one(board: &HexapawnBoard) -> bool {
    let me = board.to_move();
    board.legal_moves().into_iter().any(|mv| board.play(mv).winner() == Some(me))
}

impl HexapawnPlayer for Medium {
    fn new_game(&mut self, info: &HexapawnGameInfo) {
        self.rng = ChaCha8Rng::seed_from_u64(info.seed);
    }

    fn get_move(&mut self, req: &HexapawnRequest) -> HexapawnAction {
        let board = req.board;
        let moves = board.legal_moves();
        let winning: Vec<HexMove> =
            moves.iter().copied().filter(|&mv| board.play(mv).winner() == Some(req.seat)).collect();
        let safe: Vec<HexMove> = moves.iter().copied().filter(|&mv| !wins_in_one(&board.play(mv))).collect();
        [winning, safe, moves]
            .iter()
            .find(|choice| !choice.is_empty())
            .and_then(|choice| random_move(choice, &mut self.rng))
            .map_or(HexapawnAction::Resign, HexapawnAction::Move)
    }
}
