//! The exact posterior over hidden worlds given what a player has seen.
//!
//! Every placement of the pits, the gold and the monster is equally likely
//! before the game, and the start cell is drawn uniformly from the safe
//! cells, whose number does not depend on the placement; so given a view,
//! every world consistent with it is equally likely. This module counts
//! them: it enumerates the pit sets that agree with the breezes and, for
//! each, counts the (gold, monster) pairs that agree with the glitters and
//! smells in closed form, without listing them.

use player_api::intuitive::{Cell, CellSet, IntuitiveView};

/// Counts of consistent worlds, in total and per closed cell.
#[derive(Clone, Debug)]
pub struct Posterior {
    /// Consistent worlds.
    pub total: u64,
    /// Worlds with a pit (resp. the monster, the gold) on each cell.
    pub pit: [u64; 64],
    pub monster: [u64; 64],
    pub gold: [u64; 64],
    /// Worlds in which each cell holds a hint cell showing hint code `h`
    /// (see `Hint::code`); filled only when asked for.
    pub hint: Vec<[u64; 8]>,
}

impl Posterior {
    /// The chance that cell `index` holds a pit.
    pub fn pit_chance(&self, index: u8) -> f64 {
        self.pit[index as usize] as f64 / self.total as f64
    }

    pub fn monster_chance(&self, index: u8) -> f64 {
        self.monster[index as usize] as f64 / self.total as f64
    }

    /// The same counts with cell `i` renamed `to[i]` (a symmetry of the
    /// board maps a view's posterior to its image's).
    pub fn renumbered(&self, to: &[u8]) -> Posterior {
        let mut moved = Posterior {
            total: self.total,
            pit: [0; 64],
            monster: [0; 64],
            gold: [0; 64],
            hint: vec![[0; 8]; self.hint.len()],
        };
        for (i, &j) in to.iter().enumerate() {
            let j = j as usize;
            moved.pit[j] = self.pit[i];
            moved.monster[j] = self.monster[i];
            moved.gold[j] = self.gold[i];
            if let (Some(from), Some(into)) = (self.hint.get(i), moved.hint.get_mut(j)) {
                *into = *from;
            }
        }
        moved
    }
}

/// The orthogonal neighbours of every cell of a `size` board.
pub fn neighbour_sets(size: u8) -> [CellSet; 64] {
    let mut sets = [CellSet::EMPTY; 64];
    for i in 0..size * size {
        sets[i as usize] = Cell::from_index(i, size).neighbours(size);
    }
    sets
}

/// Counts the worlds consistent with `view`; with `hints`, also how each
/// closed cell's hint is distributed.
pub fn posterior(view: &IntuitiveView, hints: bool) -> Posterior {
    let size = view.size();
    let near = neighbour_sets(size);
    let closed = view.closed();
    let hint_cells = view.open().minus(view.gold().map_or(CellSet::EMPTY, CellSet::single));

    // What the hints rule out or require.
    let mut pit_free = CellSet::EMPTY;
    let mut breezes: Vec<CellSet> = Vec::new();
    let mut monster_cells = closed;
    let mut gold_cells = closed;
    for h in hint_cells {
        let around = near[h as usize];
        if view.breeze().contains(h) {
            breezes.push(around);
        } else {
            pit_free = pit_free.union(around);
        }
        monster_cells = if view.smell().contains(h) {
            monster_cells.intersection(around)
        } else {
            monster_cells.minus(around)
        };
        gold_cells = if view.glitter().contains(h) {
            gold_cells.intersection(around)
        } else {
            gold_cells.minus(around)
        };
    }
    let found_gold = view.gold();
    let pit_cells: Vec<u8> = closed.minus(pit_free).collect();
    for b in &mut breezes {
        *b = b.intersection(closed.minus(pit_free));
    }

    let mut post = Posterior {
        total: 0,
        pit: [0; 64],
        monster: [0; 64],
        gold: [0; 64],
        hint: if hints { vec![[0; 8]; 64] } else { Vec::new() },
    };
    let mut count_pits = |pits: CellSet| {
        if breezes.iter().any(|b| b.intersection(pits).is_empty()) {
            return;
        }
        let monsters = monster_cells.minus(pits);
        let golds = gold_cells.minus(pits);
        let worlds = match found_gold {
            Some(_) => monsters.len() as u64,
            None => monsters.len() as u64 * golds.len() as u64 - monsters.intersection(golds).len() as u64,
        };
        if worlds == 0 {
            return;
        }
        post.total += worlds;
        for p in pits {
            post.pit[p as usize] += worlds;
        }
        for m in monsters {
            post.monster[m as usize] += match found_gold {
                Some(_) => 1,
                None => golds.len() as u64 - u64::from(golds.contains(m)),
            };
        }
        if found_gold.is_none() {
            for g in golds {
                post.gold[g as usize] += monsters.len() as u64 - u64::from(monsters.contains(g));
            }
        }
        if hints {
            for c in closed.minus(pits) {
                let around = near[c as usize];
                let breeze = u8::from(!around.intersection(pits).is_empty());
                let me = CellSet::single(c);
                let (ms, gs) = (monsters.minus(me), golds.minus(me));
                let m_near = [ms.minus(around).len() as u64, ms.intersection(around).len() as u64];
                let counts = &mut post.hint[c as usize];
                match found_gold {
                    Some(g) => {
                        let glitter = u8::from(around.contains(g));
                        for smell in 0..2u8 {
                            counts[(breeze | smell << 1 | glitter << 2) as usize] += m_near[smell as usize];
                        }
                    }
                    None => {
                        let g_near = [gs.minus(around).len() as u64, gs.intersection(around).len() as u64];
                        let both = ms.intersection(gs);
                        let same = [both.minus(around).len() as u64, both.intersection(around).len() as u64];
                        for smell in 0..2u8 {
                            for glitter in 0..2u8 {
                                let mut n = m_near[smell as usize] * g_near[glitter as usize];
                                if smell == glitter {
                                    n -= same[smell as usize];
                                }
                                counts[(breeze | smell << 1 | glitter << 2) as usize] += n;
                            }
                        }
                    }
                }
            }
        }
    };
    for_each_subset(&pit_cells, view.pit_count() as usize, CellSet::EMPTY, &mut count_pits);
    post
}

/// Calls `visit` with every `k`-subset of `cells`.
fn for_each_subset(cells: &[u8], k: usize, chosen: CellSet, visit: &mut impl FnMut(CellSet)) {
    if k == 0 {
        visit(chosen);
        return;
    }
    if cells.len() < k {
        return;
    }
    let mut with = chosen;
    with.insert(cells[0]);
    for_each_subset(&cells[1..], k - 1, with, visit);
    for_each_subset(&cells[1..], k, chosen, visit);
}
