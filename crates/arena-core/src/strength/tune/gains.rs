//! OpenBench's gain schedules: how far a parameter is perturbed (`c_k`)
//! and how far it moves on a result (`a_k`, as the rate `r_k = a_k /
//! c_k^2`) at iteration k of N, from the values wanted at the end.
//!
//! With alpha = 0.602, gamma = 0.101 and A = 0.1 N (OpenBench's defaults):
//!
//! - c_k = max(C_END N^gamma / k^gamma, 0.5 for an int), so c_N = C_END;
//! - a_k = R_END C_END^2 (A + N)^alpha / (A + k)^alpha, so a_N / c_N^2 = R_END;
//! - r_k = a_k / c_k^2.
//!
//! An int's perturbation stays at least half a step, so that random
//! rounding still tries its neighbours.

use super::param::{Kind, TunedParam};

/// The exponents and A of the schedules.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Schedule {
    pub iterations: u32,
    /// a_k's decay.
    pub alpha: f64,
    /// c_k's decay.
    pub gamma: f64,
    /// A as a share of the iterations.
    pub a_ratio: f64,
}

impl Schedule {
    /// OpenBench's defaults for a tune of `iterations`.
    pub fn new(iterations: u32) -> Schedule {
        Schedule { iterations, alpha: 0.602, gamma: 0.101, a_ratio: 0.1 }
    }

    fn big_a(&self) -> f64 {
        self.a_ratio * f64::from(self.iterations)
    }

    /// (c_k, r_k) of `param` at iteration `k` (counted from 1).
    pub fn gains(&self, param: &TunedParam, k: u32) -> (f64, f64) {
        let (n, k) = (f64::from(self.iterations), f64::from(k.max(1)));
        let floor = if param.kind == Kind::Int { 0.5 } else { 0.0 };
        let c = (param.c_end * n.powf(self.gamma) / k.powf(self.gamma)).max(floor);
        let a = param.r_end * param.c_end.powi(2) * (self.big_a() + n).powf(self.alpha)
            / (self.big_a() + k).powf(self.alpha);
        (c, a / (c * c))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn param(kind: Kind, c_end: f64, r_end: f64) -> TunedParam {
        TunedParam { name: "x".into(), kind, start: 0.0, min: -100.0, max: 100.0, c_end, r_end }
    }

    #[test]
    fn the_last_iteration_has_the_end_values() {
        let schedule = Schedule::new(500);
        let (c, r) = schedule.gains(&param(Kind::Float, 0.3, 0.002), 500);
        assert!((c - 0.3).abs() < 1e-12 && (r - 0.002).abs() < 1e-12, "{c} {r}");
    }

    #[test]
    fn the_first_iteration_is_openbenchs() {
        // OpenBench (spsa_utils.py): c_value = C_end N^gamma, a_value =
        // R_end C_end^2 (A + N)^alpha; at k: c = c_value / k^gamma, r =
        // a_value / (A + k)^alpha / c^2. N = 1000, A = 100, k = 1:
        let schedule = Schedule::new(1000);
        let (c, r) = schedule.gains(&param(Kind::Float, 2.0, 0.002), 1);
        let c_expected = 2.0 * 1000f64.powf(0.101);
        let r_expected = 0.002 * 4.0 * 1100f64.powf(0.602) / 101f64.powf(0.602) / c_expected.powi(2);
        assert!((c - c_expected).abs() < 1e-12, "{c} {c_expected}");
        assert!((r - r_expected).abs() < 1e-15, "{r} {r_expected}");
        // Both shrink over the tune.
        let (c_mid, _) = schedule.gains(&param(Kind::Float, 2.0, 0.002), 500);
        let a = |k| {
            let (c, r) = schedule.gains(&param(Kind::Float, 2.0, 0.002), k);
            r * c * c
        };
        assert!(c > c_mid && c_mid > 2.0 && a(1) > a(500) && a(500) > a(1000));
    }

    #[test]
    fn an_int_is_perturbed_by_at_least_half_a_step() {
        let (c, r) = Schedule::new(100).gains(&param(Kind::Int, 0.1, 0.002), 100);
        assert_eq!(c, 0.5);
        // r_k is a_k / c_k^2 with the floored c.
        assert!((r - 0.002 * 0.01 / 0.25).abs() < 1e-15, "{r}");
    }
}
