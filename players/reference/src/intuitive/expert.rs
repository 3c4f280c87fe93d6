//! Expert: the optimal policy, by expectimax over belief states.
//!
//! A belief state is what the player has seen (open cells, their hints, the
//! gold if found); given it, every consistent world is equally likely
//! (see `belief`). Its value is the best expected score still to come:
//! for each closed cell, the chances of a pit (-1, end), the monster (+1,
//! end), the gold (+1, go on) and each hint (go on), from exact world
//! counts. Values are cached per state, up to the board's symmetries, and
//! the cache lives as long as the player, so a match fills it once.
//!
//! One shortcut keeps the tree small and the result exact: a cell that can
//! hold neither a pit nor the monster is opened at once. Opening it costs
//! nothing and can only add information (and maybe the gold), so some
//! optimal policy opens it first.

use std::collections::HashMap;

use player_api::intuitive::{
    Cell, CellSet, Hint, IntuitiveGameInfo, IntuitivePlayer, IntuitiveRequest, IntuitiveView,
};

use super::{belief::posterior, hard::Hard};

/// The largest board the exact search handles (4x4, the source's board);
/// on larger boards Expert plays as Hard.
pub const MAX_EXACT_CELLS: u8 = 16;

/// The optimal player. Its cache is shared by every game it plays.
#[derive(Default)]
pub struct Expert {
    values: HashMap<u128, f64>,
    /// The cell chosen in each view met in play (not up to symmetry: the
    /// cell must be the view's own).
    choices: HashMap<u128, u8>,
    /// The cell permutations of the board's 8 symmetries, for the cached size.
    symmetries: Vec<[u8; 16]>,
    size: u8,
}

/// Where a symmetry sends (row, col) on a board of side n.
type CellMap = fn(usize, usize, usize) -> (usize, usize);

/// One move's worth: the expected score still to come if `cell` is opened.
struct Choice {
    cell: u8,
    value: f64,
}

impl Expert {
    /// Belief states whose value is cached.
    pub fn cached_states(&self) -> usize {
        self.values.len()
    }

    /// The best expected score still to come in `view` (the score so far not included).
    pub fn value(&mut self, view: &IntuitiveView) -> f64 {
        self.prepare(view.size());
        let key = self.key(view);
        if let Some(&v) = self.values.get(&key) {
            return v;
        }
        let v = self.best(view).map_or(0.0, |c| c.value);
        self.values.insert(key, v);
        v
    }

    /// The best cell to open and its value; a free cell when there is one.
    fn best(&mut self, view: &IntuitiveView) -> Option<Choice> {
        let post = posterior(view, true);
        let total = post.total as f64;
        let mut best: Option<Choice> = None;
        let closed = view.closed();
        // Free cells first: one of them decides the state.
        let free = closed.into_iter().find(|&c| post.pit[c as usize] == 0 && post.monster[c as usize] == 0);
        let candidates: Vec<u8> = match free {
            Some(c) => vec![c],
            None => closed.collect(),
        };
        for c in candidates {
            let i = c as usize;
            let mut value = (post.monster[i] as f64 - post.pit[i] as f64) / total;
            if post.gold[i] > 0 {
                let mut next = *view;
                next.open_gold(c);
                value += post.gold[i] as f64 / total * (1.0 + self.value(&next));
            }
            for (code, &n) in post.hint[i].iter().enumerate() {
                if n > 0 {
                    let mut next = *view;
                    next.open_hint(c, Hint::from_code(code as u8));
                    value += n as f64 / total * self.value(&next);
                }
            }
            // Strictly better only: equal values keep the first cell.
            if best.as_ref().is_none_or(|b| value > b.value + 1e-12) {
                best = Some(Choice { cell: c, value });
            }
        }
        best
    }

    fn prepare(&mut self, size: u8) {
        if self.size == size {
            return;
        }
        self.values.clear();
        self.choices.clear();
        self.size = size;
        let n = size as usize;
        let at = |r: usize, c: usize| (r * n + c) as u8;
        let maps: [CellMap; 8] = [
            |r, c, _| (r, c),
            |r, c, n| (c, n - 1 - r),
            |r, c, n| (n - 1 - r, n - 1 - c),
            |r, c, n| (n - 1 - c, r),
            |r, c, n| (r, n - 1 - c),
            |r, c, n| (n - 1 - r, c),
            |r, c, _| (c, r),
            |r, c, n| (n - 1 - c, n - 1 - r),
        ];
        self.symmetries = maps
            .iter()
            .map(|map| {
                let mut perm = [0u8; 16];
                for r in 0..n {
                    for c in 0..n {
                        let (r2, c2) = map(r, c, n);
                        perm[r * n + c] = at(r2, c2);
                    }
                }
                perm
            })
            .collect();
    }

    /// The state's key: the smallest packing over the board's symmetries.
    fn key(&self, view: &IntuitiveView) -> u128 {
        self.symmetries.iter().map(|perm| pack(view, perm)).min().expect("eight symmetries")
    }
}

/// A view as one number, its cells renumbered by `perm`.
fn pack(view: &IntuitiveView, perm: &[u8; 16]) -> u128 {
    let sets = [view.open(), view.breeze(), view.smell(), view.glitter()];
    let moved = |set: CellSet| set.fold(0u128, |acc, i| acc | 1 << perm[i as usize]);
    let gold = view.gold().map_or(0xff, |g| perm[g as usize] as u128);
    sets.iter().enumerate().fold(gold << 64, |acc, (k, &s)| acc | moved(s) << (16 * k))
}

impl IntuitivePlayer for Expert {
    fn new_game(&mut self, _info: &IntuitiveGameInfo) {}

    fn reveal(&mut self, req: &IntuitiveRequest) -> Cell {
        let view = &req.view;
        if view.size() * view.size() > MAX_EXACT_CELLS {
            return Hard.reveal(req);
        }
        self.prepare(view.size());
        let raw = pack(view, &self.symmetries[0]);
        let cell = match self.choices.get(&raw) {
            Some(&cell) => cell,
            None => {
                let cell = self.best(view).expect("the arena only asks while a cell is closed").cell;
                self.choices.insert(raw, cell);
                cell
            }
        };
        Cell::from_index(cell, view.size())
    }
}
