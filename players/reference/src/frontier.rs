//! Exact posteriors over hidden squares, by enumeration (AIMA's "frontier"
//! method), shared by the Wumpus World and Magic Forest bots.
//!
//! Each hidden square holds one of three states (0: nothing that matters,
//! 1 and 2: two kinds of hazard) with independent prior weights. Evidence
//! is "at least one of these squares is in state k" (a breeze, a stench, a
//! clue). Squares tied by no such constraint stay independent, so the
//! squares split into components that are enumerated one at a time.

use player_api::grid::{Area, Coord};

/// Components larger than this are not enumerated (3^k worlds): their
/// squares keep their priors. Never reached on the boards the games use.
const MAX_COMPONENT: usize = 16;

/// Hidden squares, their priors, and the evidence about them.
#[derive(Clone, Debug, Default)]
pub struct Frontier {
    squares: Vec<Coord>,
    priors: Vec<[f64; 3]>,
    /// (squares, state): at least one of these squares is in this state.
    at_least_one: Vec<(Area, usize)>,
}

impl Frontier {
    /// A hidden square with prior weights per state (they need not sum to
    /// 1; a zero weight rules a state out).
    pub fn add(&mut self, square: Coord, weights: [f64; 3]) {
        self.squares.push(square);
        self.priors.push(weights);
    }

    /// Evidence: at least one square of `among` is in `state`. Squares of
    /// `among` that were never added are known not to be in it.
    pub fn at_least_one(&mut self, among: Area, state: usize) {
        self.at_least_one.push((among, state));
    }

    /// The posterior of every added square, in the order added: each row
    /// sums to 1. With contradictory evidence the priors are returned.
    pub fn posteriors(&self) -> Vec<[f64; 3]> {
        let mut out: Vec<[f64; 3]> = self.priors.iter().map(|w| normalised(*w)).collect();
        let mut done = vec![false; self.squares.len()];
        for seed in 0..self.squares.len() {
            if done[seed] {
                continue;
            }
            let component = self.component(seed);
            component.iter().for_each(|&i| done[i] = true);
            let constraints: Vec<&(Area, usize)> = self
                .at_least_one
                .iter()
                .filter(|(among, _)| component.iter().any(|&i| among.contains(self.squares[i])))
                .collect();
            if constraints.is_empty() || component.len() > MAX_COMPONENT {
                continue;
            }
            if let Some(posterior) = self.enumerate(&component, &constraints) {
                for (k, &i) in component.iter().enumerate() {
                    out[i] = posterior[k];
                }
            }
        }
        out
    }

    /// The squares tied to square `seed` through shared constraints.
    fn component(&self, seed: usize) -> Vec<usize> {
        let mut members = vec![seed];
        let mut area = Area::from_iter([self.squares[seed]]);
        loop {
            let reach = self
                .at_least_one
                .iter()
                .filter(|(among, _)| !among.intersection(area).is_empty())
                .fold(area, |acc, (among, _)| acc.union(*among));
            let grown: Vec<usize> = (0..self.squares.len())
                .filter(|&i| reach.contains(self.squares[i]) && !members.contains(&i))
                .collect();
            if grown.is_empty() {
                return members;
            }
            for i in grown {
                members.push(i);
                area.insert(self.squares[i]);
            }
        }
    }

    /// Sums the weight of every assignment of the component's squares that
    /// meets the constraints; None if none does.
    fn enumerate(&self, component: &[usize], constraints: &[&(Area, usize)]) -> Option<Vec<[f64; 3]>> {
        let n = component.len();
        let mut states = vec![0usize; n];
        let mut sums = vec![[0.0; 3]; n];
        let mut total = 0.0;
        loop {
            let weight: f64 = (0..n).map(|k| self.priors[component[k]][states[k]]).product();
            if weight > 0.0 {
                let met = constraints.iter().all(|(among, state)| {
                    (0..n).any(|k| states[k] == *state && among.contains(self.squares[component[k]]))
                });
                if met {
                    total += weight;
                    for k in 0..n {
                        sums[k][states[k]] += weight;
                    }
                }
            }
            // Next assignment (odometer over 3 states).
            let mut k = 0;
            loop {
                if k == n {
                    return (total > 0.0).then(|| sums.iter().map(|s| s.map(|x| x / total)).collect());
                }
                states[k] += 1;
                if states[k] < 3 {
                    break;
                }
                states[k] = 0;
                k += 1;
            }
        }
    }
}

fn normalised(w: [f64; 3]) -> [f64; 3] {
    let total: f64 = w.iter().sum();
    if total > 0.0 {
        w.map(|x| x / total)
    } else {
        [1.0, 0.0, 0.0]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c(x: u8, y: u8) -> Coord {
        Coord::new(x, y)
    }

    /// AIMA 13.6: breezes at [1,2] and [2,1], pits with 0.2. Squares [1,3],
    /// [2,2], [3,1] are the frontier; P(pit at [1,3]) = 0.31, at [2,2] = 0.86.
    #[test]
    fn reproduces_the_textbook_frontier_example() {
        let mut f = Frontier::default();
        let (p13, p22, p31) = (c(0, 2), c(1, 1), c(2, 0));
        for s in [p13, p22, p31] {
            f.add(s, [0.8, 0.2, 0.0]);
        }
        f.add(c(3, 3), [0.8, 0.2, 0.0]);
        f.at_least_one(Area::from_iter([p13, p22]), 1);
        f.at_least_one(Area::from_iter([p22, p31]), 1);
        let post = f.posteriors();
        assert!((post[0][1] - 0.3103).abs() < 1e-3, "{:?}", post[0]);
        assert!((post[1][1] - 0.8621).abs() < 1e-3, "{:?}", post[1]);
        assert!((post[2][1] - 0.3103).abs() < 1e-3);
        assert!((post[3][1] - 0.2).abs() < 1e-12, "an unconstrained square keeps its prior");
    }

    #[test]
    fn a_single_candidate_is_certain_and_contradictions_keep_priors() {
        let mut f = Frontier::default();
        f.add(c(1, 0), [0.9, 0.05, 0.05]);
        f.add(c(0, 1), [1.0, 0.0, 0.0]);
        f.at_least_one(Area::from_iter([c(1, 0), c(0, 1)]), 2);
        assert_eq!(f.posteriors()[0], [0.0, 0.0, 1.0]);

        let mut g = Frontier::default();
        g.add(c(1, 0), [1.0, 0.0, 0.0]);
        g.at_least_one(Area::from_iter([c(1, 0)]), 1);
        assert_eq!(g.posteriors()[0], [1.0, 0.0, 0.0]);
    }
}
