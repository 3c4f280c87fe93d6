//! Gardner's matchbox learner (HER, "Hexapawn Educable Robot"): one box per
//! position it has to move in, holding one bead per legal move. It draws a
//! bead at random and plays that move. When it loses, the bead of its last
//! move is taken away for good; when the box it must draw from is empty, it
//! resigns (and that loss takes the bead of the move that led there). It
//! starts knowing nothing but the rules and learns from its losses alone.
//!
//! A position and its mirror image share a box, as in Gardner's matchboxes.
//!
//! Its memory across matches (`--memory DIR`) is its boxes, as a JSON
//! document a person can read (`arena play --json` shows it): one box a
//! line, the position drawn as `Display` draws it, the side to move, and
//! the moves that still hold a bead.

use std::collections::HashMap;

use player_api::{
    hexapawn::{
        HexMove, HexapawnAction, HexapawnBoard, HexapawnGameInfo, HexapawnPlayer, HexapawnRequest, Square,
    },
    params::Setup,
    GameOver, Outcome, Seat,
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

    /// A learner that starts from the boxes its memory holds, if `setup`
    /// gives one (a memory it cannot read is no memory: it starts afresh).
    pub fn from_setup(setup: &Setup) -> Menace {
        let mut menace = Menace::default();
        if let Some(memory) = setup.memory() {
            menace.boxes = read_boxes(&String::from_utf8_lossy(memory));
        }
        menace
    }

    /// Its boxes as its memory: a JSON document, one box a line, in a
    /// fixed order (the same boxes, the same bytes).
    pub fn memory(&self) -> String {
        let mut boxes: Vec<(&HexapawnBoard, &Vec<HexMove>)> = self.boxes.iter().collect();
        boxes.sort();
        let lines: Vec<String> = boxes
            .into_iter()
            .map(|(board, beads)| {
                let drawn = board.to_string().trim_end().replace('\n', "/");
                let beads: Vec<String> = beads.iter().map(|mv| format!("\"{mv}\"")).collect();
                let to_move = board.to_move().number();
                format!(
                    "{{\"board\": \"{drawn}\", \"to_move\": {to_move}, \"beads\": [{}]}}",
                    beads.join(", ")
                )
            })
            .collect();
        format!("{{\"learner\": \"menace\", \"boxes\": [\n{}\n]}}\n", lines.join(",\n"))
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

/// The boxes of a memory `Menace::memory` wrote; lines it cannot read are
/// left out.
fn read_boxes(text: &str) -> HashMap<HexapawnBoard, Vec<HexMove>> {
    text.lines().filter_map(read_box).collect()
}

fn read_box(line: &str) -> Option<(HexapawnBoard, Vec<HexMove>)> {
    let drawn = line.split("\"board\": \"").nth(1)?.split('"').next()?;
    let to_move = match line.split("\"to_move\": ").nth(1)?.chars().next()? {
        '1' => Seat::One,
        '2' => Seat::Two,
        _ => return None,
    };
    let board = HexapawnBoard::from_diagram(&drawn.replace('/', " "), to_move).ok()?;
    let beads = line.split("\"beads\": [").nth(1)?.split(']').next()?;
    let beads = beads
        .split(", ")
        .filter(|b| !b.is_empty())
        .map(|bead| read_move(bead.trim_matches('"')))
        .collect::<Option<Vec<HexMove>>>()?;
    Some((board, beads))
}

/// A move as `HexMove`'s `Display` writes it: `(2,1)->(1,1)`.
fn read_move(text: &str) -> Option<HexMove> {
    let (from, to) = text.split_once("->")?;
    Some(HexMove::new(read_square(from)?, read_square(to)?))
}

fn read_square(text: &str) -> Option<Square> {
    let (row, col) = text.strip_prefix('(')?.strip_suffix(')')?.split_once(',')?;
    Some(Square::new(row.parse().ok()?, col.parse().ok()?))
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

    fn save_memory(&mut self) -> Option<Vec<u8>> {
        Some(self.memory().into_bytes())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn its_boxes_survive_the_memory_byte_for_byte() {
        let mut menace = Menace::default();
        let start = HexapawnBoard::start();
        let after = start.play(start.legal_moves()[0]);
        menace.boxes.insert(start, start.legal_moves()[1..].to_vec());
        menace.boxes.insert(after, Vec::new());
        let memory = menace.memory();
        assert!(memory.starts_with("{\"learner\": \"menace\", \"boxes\": [\n{\"board\": \""), "{memory}");
        let setup = Setup::new(Vec::new(), Some(memory.clone().into_bytes()));
        let again = Menace::from_setup(&setup);
        assert_eq!(again.boxes, menace.boxes);
        assert_eq!(again.memory(), memory);
        assert!(Menace::from_setup(&Setup::new(Vec::new(), Some(b"nonsense".to_vec()))).boxes.is_empty());
    }
}
