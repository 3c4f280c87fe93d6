use player_api::hexapawn::{
    HexMove, HexapawnAction, HexapawnBoard, HexapawnGameInfo, HexapawnPlayer, HexapawnRequest,
};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use super::random_move;

/// Hard: perfect play. It solves the position (the whole game tree has a
/// few hundred nodes) and plays a winning move whenever one exists, so it
/// never loses as Black. In a lost position it plays the move that makes the
/// opponent's win longest, which leaves an imperfect opponent the most room
/// to go wrong.
pub struct Hard {
    rng: ChaCha8Rng,
}

impl Default for Hard {
    fn default() -> Self {
        Hard { rng: ChaCha8Rng::seed_from_u64(0) }
    }
}

/// Whether the side to move on `board` wins with perfect play by both sides.
pub fn side_to_move_wins(board: &HexapawnBoard) -> bool {
    match board.winner() {
        Some(winner) => winner == board.to_move(),
        None => board.legal_moves().into_iter().any(|mv| !side_to_move_wins(&board.play(mv))),
    }
}

/// Plies until the game ends with perfect play (the winner hurries, the
/// loser stalls).
fn plies_left(board: &HexapawnBoard) -> u32 {
    if board.winner().is_some() {
        return 0;
    }
    let replies = board.legal_moves().into_iter().map(|mv| board.play(mv));
    if side_to_move_wins(board) {
        replies.filter(|b| !side_to_move_wins(b)).map(|b| 1 + plies_left(&b)).min().unwrap_or(0)
    } else {
        replies.map(|b| 1 + plies_left(&b)).max().unwrap_or(0)
    }
}

impl HexapawnPlayer for Hard {
    fn new_game(&mut self, info: &HexapawnGameInfo) {
        self.rng = ChaCha8Rng::seed_from_u64(info.seed);
    }

    fn get_move(&mut self, req: &HexapawnRequest) -> HexapawnAction {
        let board = req.board;
        let moves = board.legal_moves();
        let winning: Vec<HexMove> =
            moves.iter().copied().filter(|&mv| !side_to_move_wins(&board.play(mv))).collect();
        let choice = if winning.is_empty() {
            let longest = moves.iter().map(|&mv| plies_left(&board.play(mv))).max().unwrap_or(0);
            moves.iter().copied().filter(|&mv| plies_left(&board.play(mv)) == longest).collect()
        } else {
            winning
        };
        random_move(&choice, &mut self.rng).map_or(HexapawnAction::Resign, HexapawnAction::Move)
    }
}
