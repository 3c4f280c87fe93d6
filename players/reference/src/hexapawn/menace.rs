//! Gardner's matchbox learner (HER, "Hexapawn Educable Robot"): one box per
//! position it has to move in, holding one bead per legal move. It draws a
//! bead at random and plays that move. When it loses, the bead of its last
//! move is taken away for good; when the box it must draw from is empty, it
//! resigns (and that loss takes the bead of the move that led there). It
//! starts knowing nothing but the rules and learns from its losses alone.
//!
//! A position and its mirror image share a box, as in Gardner's matchboxes.

use std::collections::HashMap;

use player_api::{
    hexapawn::{HexMove, HexapawnAction, HexapawnBoard, HexapawnGameInfo, HexapawnPlayer, HexapawnRequest},
    GameOver, Outcome,
};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// The learner. One instance keeps its boxes across the games it plays.
pub struct Menace {
    /// Beads per position, both in the position's canonical orientation.
    boxes: HashMap<HexapawnBoard, Vec<HexMove>>,
    /// This game's draws: (box, bead), in the canonical orientation.
    played: Vec<(HexapawnBoard, HexMove)>,
    rng: ChaCha8Rng,
}

impl Default for Menace {
    fn default() -> Self {
        Menace::new(0)
    }
}

/// The orientation a position's box is kept in (of it and its mirror, the
/// smaller), and whether that is the mirror.
fn canonical(board: &HexapawnBoard) -> (HexapawnBoard, bool) {
    let mirror = board.mirrored();
    if mirror < *board {
        (mirror, true)
    } else {
        (*board, false)
    }
}

impl Menace {
    /// A learner with empty memory; `seed` drives its bead draws. (The
    /// arena's per-game seed is ignored: the learner keeps one generator
    /// for the whole match.)
    pub fn new(seed: u64) -> Menace {
        Menace { boxes: HashMap::new(), played: Vec::new(), rng: ChaCha8Rng::seed_from_u64(seed) }
    }

    /// The moves the learner may still play in `board` (every legal move in
    /// a position it has never met; none where it would resign).
    pub fn beads(&self, board: &HexapawnBoard) -> Vec<HexMove> {
        let (key, mirrored) = canonical(board);
        match self.boxes.get(&key) {
            Some(beads) => beads.iter().map(|&mv| if mirrored { mv.mirrored() } else { mv }).collect(),
            None => board.legal_moves(),
        }
    }

    /// Boxes opened so far (positions met).
    pub fn boxes(&self) -> usize {
        self.boxes.len()
    }

    fn draw(&mut self, board: &HexapawnBoard) -> Option<HexMove> {
        let (key, mirrored) = canonical(board);
        let beads = self.boxes.entry(key).or_insert_with(|| unique(key.legal_moves(), &key));
        if beads.is_empty() {
            return None;
        }
        let bead = beads[self.rng.random_range(0..beads.len())];
        self.played.push((key, bead));
        Some(if mirrored { bead.mirrored() } else { bead })
    }

    /// A loss: the last bead drawn leaves its box.
    fn punish(&mut self) {
        if let Some((key, bead)) = self.played.last() {
            if let Some(beads) = self.boxes.get_mut(key) {
                beads.retain(|b| b != bead);
            }
        }
    }
}

/// In a position that is its own mirror image, a move and its mirror are
/// one bead.
fn unique(moves: Vec<HexMove>, board: &HexapawnBoard) -> Vec<HexMove> {
    if board.mirrored() != *board {
        return moves;
    }
    let mut beads: Vec<HexMove> = Vec::new();
    for mv in moves {
        if !beads.contains(&mv.mirrored()) {
            beads.push(mv);
        }
    }
    beads
}

impl HexapawnPlayer for Menace {
    fn new_game(&mut self, _info: &HexapawnGameInfo) {
        self.played.clear();
    }

    fn get_move(&mut self, req: &HexapawnRequest) -> HexapawnAction {
        self.draw(&req.board).map_or(HexapawnAction::Resign, HexapawnAction::Move)
    }

    fn game_over(&mut self, result: &GameOver) {
        if result.outcome == Outcome::Loss {
            self.punish();
        }
        self.played.clear();
    }
}
