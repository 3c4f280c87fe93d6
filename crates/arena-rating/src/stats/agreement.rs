//! How far two rankings of the same players agree: Spearman's rank
//! correlation (the matchmaking simulation compares its ratings with the
//! players' true strengths by it).

/// Spearman's rank correlation of `x` and `y` (paired samples): Pearson's
/// correlation of their ranks, tied values sharing the average of the
/// ranks they span. 1 when the two orders agree, -1 when one reverses the
/// other. NaN when there are fewer than two samples or one side has a
/// single value throughout (no order to compare).
///
/// Panics if the two slices differ in length.
pub fn spearman(x: &[f64], y: &[f64]) -> f64 {
    assert_eq!(x.len(), y.len(), "Spearman's correlation of {} values against {}", x.len(), y.len());
    let (rx, ry) = (average_ranks(x), average_ranks(y));
    let n = x.len() as f64;
    let (mx, my) = (rx.iter().sum::<f64>() / n, ry.iter().sum::<f64>() / n);
    let (mut sxy, mut sxx, mut syy) = (0.0, 0.0, 0.0);
    for (a, b) in rx.iter().zip(&ry) {
        sxy += (a - mx) * (b - my);
        sxx += (a - mx) * (a - mx);
        syy += (b - my) * (b - my);
    }
    sxy / (sxx * syy).sqrt()
}

/// The rank of each value counted from 1 (smallest first); equal values
/// share the mean of the ranks they occupy.
fn average_ranks(values: &[f64]) -> Vec<f64> {
    let mut order: Vec<usize> = (0..values.len()).collect();
    order.sort_by(|&i, &j| values[i].total_cmp(&values[j]));
    let mut ranks = vec![0.0; values.len()];
    let mut start = 0;
    while start < order.len() {
        let mut end = start + 1;
        while end < order.len() && values[order[end]] == values[order[start]] {
            end += 1;
        }
        // Positions start..end hold ranks start+1 ..= end: their mean.
        let rank = (start + 1 + end) as f64 / 2.0;
        for &k in &order[start..end] {
            ranks[k] = rank;
        }
        start = end;
    }
    ranks
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::close;

    #[test]
    fn spearman_by_hand_with_ties() {
        // x = [10, 20, 20, 30, 40]: ranks [1, 2.5, 2.5, 4, 5].
        // y = [ 1,  3,  2,  2,  5]: ranks [1, 4, 2.5, 2.5, 5].
        // Means 3 and 3; deviations dx = [-2, -.5, -.5, 1, 2],
        // dy = [-2, 1, -.5, -.5, 2].
        // sum dx dy = 4 - .5 + .25 - .5 + 4 = 7.25;
        // sum dx^2 = sum dy^2 = 4 + .25 + .25 + 1 + 4 = 9.5.
        // rho = 7.25 / 9.5 = 0.763158.
        let x = [10.0, 20.0, 20.0, 30.0, 40.0];
        let y = [1.0, 3.0, 2.0, 2.0, 5.0];
        assert_eq!(average_ranks(&x), vec![1.0, 2.5, 2.5, 4.0, 5.0]);
        assert_eq!(average_ranks(&y), vec![1.0, 4.0, 2.5, 2.5, 5.0]);
        assert!(close(spearman(&x, &y), 7.25 / 9.5, 1e-12), "{}", spearman(&x, &y));
        assert!(close(spearman(&y, &x), spearman(&x, &y), 1e-12));
        // Only the order counts: any increasing map of x gives the same.
        let cubed: Vec<f64> = x.iter().map(|v| v * v * v).collect();
        assert!(close(spearman(&cubed, &y), 7.25 / 9.5, 1e-12));
    }

    #[test]
    fn spearman_extremes() {
        let x = [3.0, 1.0, 2.0, 5.0];
        assert!(close(spearman(&x, &x), 1.0, 1e-12));
        let reversed: Vec<f64> = x.iter().map(|v| -v).collect();
        assert!(close(spearman(&x, &reversed), -1.0, 1e-12));
        // No order on one side, or nothing to compare: NaN.
        assert!(spearman(&x, &[7.0; 4]).is_nan());
        assert!(spearman(&[1.0], &[2.0]).is_nan());
    }
}
