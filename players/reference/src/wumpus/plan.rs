//! Shortest action plans (Forward and turns each cost one action) over
//! squares the agent considers safe.

use std::collections::VecDeque;

use player_api::wumpus::{Area, Coord, Dir, WumpusAction};

const STATES: usize = 64 * 4;

fn state(s: Coord, d: Dir) -> usize {
    s.index() as usize * 4 + d as usize
}

/// Breadth-first distances from the agent's square and facing, walking only
/// on `passable` squares.
pub(crate) struct Planner {
    size: u8,
    dist: [u32; STATES],
    /// The first action of a shortest plan reaching each state.
    first: [Option<WumpusAction>; STATES],
}

impl Planner {
    pub fn new(at: Coord, facing: Dir, passable: Area, size: u8) -> Planner {
        let mut p = Planner { size, dist: [u32::MAX; STATES], first: [None; STATES] };
        let start = state(at, facing);
        p.dist[start] = 0;
        let mut queue = VecDeque::from([(at, facing)]);
        while let Some((s, d)) = queue.pop_front() {
            let here = state(s, d);
            let mut next =
                vec![(s, d.left(), WumpusAction::TurnLeft), (s, d.right(), WumpusAction::TurnRight)];
            if let Some(ahead) = s.step(d, size).filter(|a| passable.contains(*a)) {
                next.push((ahead, d, WumpusAction::Forward));
            }
            for (s2, d2, action) in next {
                let there = state(s2, d2);
                if p.dist[there] == u32::MAX {
                    p.dist[there] = p.dist[here] + 1;
                    p.first[there] = p.first[here].or(Some(action));
                    queue.push_back((s2, d2));
                }
            }
        }
        p
    }

    /// Cost and first action to stand on `s` facing `d` (None: unreachable;
    /// a first action of None: already there).
    pub fn to_face(&self, s: Coord, d: Dir) -> Option<(u32, Option<WumpusAction>)> {
        let i = state(s, d);
        (self.dist[i] != u32::MAX).then_some((self.dist[i], self.first[i]))
    }

    /// Cost and first action to stand on `s`, any facing.
    pub fn to_stand(&self, s: Coord) -> Option<(u32, Option<WumpusAction>)> {
        Dir::ALL.into_iter().filter_map(|d| self.to_face(s, d)).min_by_key(|(cost, _)| *cost)
    }

    /// Cost and first action to step onto `target` (which need not be
    /// passable) from a reachable neighbour.
    pub fn to_enter(&self, target: Coord) -> Option<(u32, WumpusAction)> {
        target
            .neighbours(self.size)
            .squares()
            .filter_map(|s| {
                let d = s.dir_to(target)?;
                let (cost, first) = self.to_face(s, d)?;
                Some((cost + 1, first.unwrap_or(WumpusAction::Forward)))
            })
            .min_by_key(|(cost, _)| *cost)
    }
}
