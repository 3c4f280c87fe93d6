//! Shortest paths over tiles the wanderer trusts (4 directions, one action a step).

use std::collections::VecDeque;

use player_api::magic_forest::{Area, Coord, Dir, ForestAction};

/// Breadth-first distances from the wanderer's tile over `passable` tiles.
pub(crate) struct Paths {
    size: u8,
    dist: [u32; 64],
    /// The first step of a shortest path to each tile.
    first: [Option<Dir>; 64],
}

impl Paths {
    pub fn new(at: Coord, passable: Area, size: u8) -> Paths {
        let mut p = Paths { size, dist: [u32::MAX; 64], first: [None; 64] };
        p.dist[at.index() as usize] = 0;
        let mut queue = VecDeque::from([at]);
        while let Some(t) = queue.pop_front() {
            for d in Dir::ALL {
                let Some(next) = t.step(d, size).filter(|n| passable.contains(*n)) else { continue };
                let (i, j) = (t.index() as usize, next.index() as usize);
                if p.dist[j] == u32::MAX {
                    p.dist[j] = p.dist[i] + 1;
                    p.first[j] = p.first[i].or(Some(d));
                    queue.push_back(next);
                }
            }
        }
        p
    }

    /// Moves to reach a neighbour of `target` and the first action towards
    /// `target` (a move onto it when already next to it), if reachable.
    pub fn approach(&self, at: Coord, target: Coord) -> Option<(u32, Coord, ForestAction)> {
        target
            .neighbours(self.size)
            .squares()
            .filter(|n| self.dist[n.index() as usize] != u32::MAX)
            .min_by_key(|n| self.dist[n.index() as usize])
            .map(|n| {
                let first = match self.first[n.index() as usize] {
                    Some(d) => d,
                    None => at.dir_to(target).expect("the wanderer stands next to the target"),
                };
                (self.dist[n.index() as usize], n, ForestAction::walk(first))
            })
    }

    /// A harmless action: a move into the edge if there is one, else a step to a trusted tile.
    pub fn idle(&self, at: Coord, passable: Area) -> ForestAction {
        let dir = Dir::ALL
            .into_iter()
            .find(|&d| at.step(d, self.size).is_none())
            .or_else(|| {
                Dir::ALL.into_iter().find(|&d| at.step(d, self.size).is_some_and(|n| passable.contains(n)))
            })
            .unwrap_or(Dir::North);
        ForestAction::walk(dir)
    }
}
