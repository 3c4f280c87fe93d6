//! One SPSA iteration, as pure functions: the perturbation (a random sign
//! per parameter, theta + c delta against theta - c delta, an int rounded
//! at random, both clipped to the range) and the update (theta moves by
//! r c result delta, clipped), as OpenBench's server and client do.
//!
//! Everything random of iteration k comes from a generator seeded with
//! the tune's seed and k, so an iteration is the same whether the tune ran
//! through or was resumed, and wherever its games were played.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::{gains::Schedule, param::Kind, param::TunedParam};
use crate::play::seeds;

/// What iteration k plays: the two perturbed players' values.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Perturbation {
    /// The iteration, counted from 1.
    pub k: u32,
    /// +1 or -1 per parameter: the direction theta+ lies in.
    pub flips: Vec<i8>,
    /// The values of theta + c delta (rounded, clipped), and of theta - c delta.
    pub plus: Vec<f64>,
    pub minus: Vec<f64>,
    /// c_k and r_k per parameter.
    pub c: Vec<f64>,
    pub r: Vec<f64>,
}

/// The domain of the perturbations' seeds: not the games' (`game_seed`).
const PERTURBATION: u64 = 0x5350_5341_0001;
/// The domain of the games' seeds.
const GAMES: u64 = 0x5350_5341_0002;

/// The perturbation of iteration `k` around `theta`.
pub fn perturb(params: &[TunedParam], schedule: &Schedule, theta: &[f64], seed: u64, k: u32) -> Perturbation {
    let mut rng = ChaCha8Rng::seed_from_u64(seeds::derive(seeds::derive(seed, PERTURBATION), u64::from(k)));
    let mut p = Perturbation { k, flips: vec![], plus: vec![], minus: vec![], c: vec![], r: vec![] };
    for (param, &value) in params.iter().zip(theta) {
        let (c, r) = schedule.gains(param, k);
        let flip: i8 = if rng.random_bool(0.5) { 1 } else { -1 };
        let (mut plus, mut minus) = (value + f64::from(flip) * c, value - f64::from(flip) * c);
        // One draw for both, as OpenBench: floor(x + u) rounds up with the
        // chance of x's fraction, and the two stay 2c apart on average.
        let u: f64 = rng.random();
        if param.kind == Kind::Int {
            plus = (plus + u).floor();
            minus = (minus + u).floor();
        }
        p.flips.push(flip);
        p.plus.push(param.clip(plus));
        p.minus.push(param.clip(minus));
        p.c.push(c);
        p.r.push(r);
    }
    p
}

/// The seed iteration `k`'s games are played on: pair j on
/// `seeds::derive(game_seed, j)`, seats swapped within the pair (the
/// match's schedule).
pub fn game_seed(seed: u64, k: u32) -> u64 {
    seeds::derive(seeds::derive(seed, GAMES), u64::from(k))
}

/// Theta after iteration `p`, whose games gave `result`: theta+'s wins
/// minus its losses (in games) over theta-.
pub fn update(params: &[TunedParam], theta: &[f64], p: &Perturbation, result: f64) -> Vec<f64> {
    params
        .iter()
        .enumerate()
        .map(|(i, param)| param.clip(theta[i] + p.r[i] * p.c[i] * result * f64::from(p.flips[i])))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn params() -> Vec<TunedParam> {
        vec![
            TunedParam::parse("depth, int, 3, 0, 6, 1, 0.01").unwrap(),
            TunedParam::parse("weight, float, 1, 0, 2, 0.1, 0.01").unwrap(),
        ]
    }

    #[test]
    fn a_perturbation_is_theta_plus_and_minus_c_in_random_directions() {
        let (params, schedule) = (params(), Schedule::new(100));
        let theta = [3.0, 1.0];
        let mut seen_flips = std::collections::HashSet::new();
        for k in 1..=100 {
            let p = perturb(&params, &schedule, &theta, 9, k);
            assert_eq!(p, perturb(&params, &schedule, &theta, 9, k), "repeatable");
            for (i, param) in params.iter().enumerate() {
                assert!(p.flips[i] == 1 || p.flips[i] == -1);
                assert_eq!(p.c[i], schedule.gains(param, k).0);
            }
            // The float is exact; the int is rounded to a neighbour of theta +- c.
            assert!((p.plus[1] - (1.0 + f64::from(p.flips[1]) * p.c[1])).abs() < 1e-12);
            assert!((p.minus[1] - (1.0 - f64::from(p.flips[1]) * p.c[1])).abs() < 1e-12);
            for value in [p.plus[0], p.minus[0]] {
                assert_eq!(value.fract(), 0.0);
                assert!((value - 3.0).abs() <= p.c[0] + 1.0, "{value} c {}", p.c[0]);
            }
            // The int's pair is on the side of its flip (or equal after rounding).
            assert!((p.plus[0] - p.minus[0]) * f64::from(p.flips[0]) >= 0.0);
            seen_flips.insert(p.flips.clone());
        }
        assert_eq!(seen_flips.len(), 4, "every direction is drawn");
        assert_ne!(perturb(&params, &schedule, &theta, 10, 1).flips.len(), 0);
    }

    #[test]
    fn random_rounding_is_unbiased() {
        // c = 0.5 exactly at the end, theta 3.25: plus = 3.75 rounds up 3/4 of the time.
        let params = vec![TunedParam::parse("n, int, 3, 0, 6, 0.5, 0.01").unwrap()];
        let schedule = Schedule::new(1);
        let mut sum = 0.0;
        for seed in 0..4000 {
            let p = perturb(&params, &schedule, &[3.25], seed, 1);
            sum += if p.flips[0] == 1 { p.plus[0] } else { p.minus[0] };
        }
        let mean = sum / 4000.0;
        assert!((mean - 3.75).abs() < 0.03, "{mean}");
    }

    #[test]
    fn values_are_clipped_to_the_range() {
        let params = vec![TunedParam::parse("w, float, 0, 0, 1, 5, 0.01").unwrap()];
        let p = perturb(&params, &Schedule::new(10), &[0.0], 1, 1);
        assert!(p.plus[0] >= 0.0 && p.plus[0] <= 1.0 && p.minus[0] >= 0.0 && p.minus[0] <= 1.0);
        assert_eq!(update(&params, &[0.9], &p, 1000.0 * f64::from(p.flips[0])), vec![1.0]);
    }

    #[test]
    fn theta_moves_by_r_c_result_delta() {
        let params = params();
        let p = perturb(&params, &Schedule::new(100), &[3.0, 1.0], 4, 7);
        let theta = update(&params, &[3.0, 1.0], &p, 3.0);
        for i in 0..2 {
            let expected = [3.0, 1.0][i] + p.r[i] * p.c[i] * 3.0 * f64::from(p.flips[i]);
            assert!((theta[i] - expected).abs() < 1e-12);
        }
        // A drawn iteration moves nothing.
        assert_eq!(update(&params, &[3.0, 1.0], &p, 0.0), vec![3.0, 1.0]);
    }

    #[test]
    fn the_games_seed_is_not_the_perturbations() {
        assert_ne!(game_seed(1, 1), game_seed(1, 2));
        assert_ne!(game_seed(1, 1), game_seed(2, 1));
        assert_eq!(game_seed(5, 3), game_seed(5, 3));
    }
}
