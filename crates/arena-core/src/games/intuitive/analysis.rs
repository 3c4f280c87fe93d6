//! Intuitive AI's analyser: exact. Expert is the optimal policy (its
//! expectimax over belief states reaches the optimum, 0.946 a game on 4x4);
//! a view's value is the score so far plus Expert's expected score still to
//! come, and a reveal's value that of opening its cell then playing
//! optimally. A reveal's cost is its drop below the best reveal. Boards up
//! to 4x4 (`MAX_EXACT_CELLS`); larger ones are refused.

use player_api::intuitive::{Cell, IntuitiveGame, IntuitiveView, GOLD_SCORE, MONSTER_SCORE, PIT_SCORE};
use reference_bots::intuitive::{Expert, MAX_EXACT_CELLS};

use super::replay::IntuitiveBody;
use crate::analysis::{AnalysedBody, Budget, Judgement, Measure};
use crate::replay::Replay;

/// The range of final scores: a pit at once (-1) to the gold and the
/// monster (+2).
const SPAN: f64 = (GOLD_SCORE + MONSTER_SCORE - PIT_SCORE) as f64;

fn cell_text(index: u8, size: u8) -> String {
    let cell = Cell::from_index(index, size);
    format!("opened ({},{})", cell.row, cell.col)
}

/// The judgement of opening `cell` in `view`.
fn judge_reveal(expert: &mut Expert, view: &IntuitiveView, cell: u8) -> (f64, f64, u8) {
    let so_far = f64::from(view.score());
    let best_cell = expert.best_cell(view);
    let best = so_far + expert.value(view);
    let played = so_far + expert.value_of_opening(view, cell);
    (best, played.min(best), best_cell)
}

impl AnalysedBody for IntuitiveBody {
    fn measure(&self) -> Measure {
        Measure::ExpectedScore { span: SPAN }
    }

    fn judge<E>(&self, _replay: &Replay<E>, _budget: Budget, from: usize) -> Result<Vec<Judgement>, String> {
        let size = self.settings.rules.board_size;
        if u32::from(size) * u32::from(size) > u32::from(MAX_EXACT_CELLS) {
            return Err(format!("Intuitive AI is analysed on boards up to 4x4; this one is {size}x{size}"));
        }
        let mut game = IntuitiveGame::new(self.world()?);
        let mut expert = Expert::default();
        let mut turns = Vec::new();
        for (i, reveal) in self.reveals.iter().enumerate() {
            let cell = Cell::new(reveal.cell[0], reveal.cell[1]);
            let view = *game.view();
            let index = game.check_reveal(cell).map_err(|e| format!("reveal {}: {e}", i + 1))?;
            if i >= from {
                let (best, played, best_cell) = judge_reveal(&mut expert, &view, index);
                turns.push(Judgement {
                    turn: i as u32 + 1,
                    player: 0,
                    played: cell_text(index, size),
                    before: best,
                    after: played,
                    best: cell_text(best_cell, size),
                    best_value: best,
                });
            }
            game.reveal(cell).map_err(|e| format!("reveal {}: {e}", i + 1))?;
        }
        Ok(turns)
    }
}

#[cfg(test)]
mod tests {
    use player_api::intuitive::IntuitiveWorld;

    use super::*;

    #[test]
    fn a_safe_reveal_costs_nothing_and_a_needless_risk_costs_its_odds() {
        // 3x3: pits at (0,2), (1,2), (2,1), the monster at (2,2), the gold
        // at (2,0); the start (0,0) shows nothing, so its neighbours are safe.
        let pits = [Cell::new(0, 2), Cell::new(1, 2), Cell::new(2, 1)];
        let world =
            IntuitiveWorld::from_parts(3, &pits, Cell::new(2, 0), Cell::new(2, 2), Cell::new(0, 0)).unwrap();
        let game = IntuitiveGame::new(world);
        let view = *game.view();
        let mut expert = Expert::with_own_cache();
        let safe = Cell::new(0, 1).index(3).unwrap();
        let (best, played, _) = judge_reveal(&mut expert, &view, safe);
        assert!((best - played).abs() < 1e-9, "{best} {played}");
        // A far cell unseen by any hint: a pit there is possible.
        let far = Cell::new(2, 2).index(3).unwrap();
        let (best, risky, _) = judge_reveal(&mut expert, &view, far);
        assert!(best - risky > 0.05, "{best} {risky}");
        assert!(best > 0.0 && best <= 2.0);
    }
}
