//! The intervals of a Bradley–Terry fit: the diagonal of the covariance of
//! the mean-zero log-strengths, the inverse of the observed Fisher
//! information `I = P (L + D) P` (see [`super::bradley_terry`]). Exact by a
//! dense inverse, `O(m^3)`: milliseconds for a class, minutes for a field
//! of thousands. Beyond [`DENSE_LIMIT`] players, a sparse approximation in
//! `O(pairs)` (below): what a league of ten thousand refits in
//! milliseconds.

use super::Pairing;
use crate::stats::elo::logistic;

/// How a fit's intervals are computed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Intervals {
    /// The dense inverse: `O(m^3)` time, `O(m^2)` memory.
    Exact,
    /// Belief propagation over the pairs that met, corrected on a coarse
    /// field: `O(pairs)`.
    Sparse,
}

/// The largest field whose intervals [`Intervals::of_field`] computes
/// exactly: 300 players invert in about 30 ms (a league refits after its
/// rounds); 2,000 would take seconds and 10,000 minutes.
pub const DENSE_LIMIT: usize = 300;

impl Intervals {
    /// Exact up to [`DENSE_LIMIT`] players with games, sparse beyond.
    pub fn of_field(players: usize) -> Intervals {
        if players <= DENSE_LIMIT {
            Intervals::Exact
        } else {
            Intervals::Sparse
        }
    }
}

/// The information at `theta`: `I`'s unprojected form `M = L + D`, `L` the
/// Laplacian weighted by `n_ij p_ij (1 - p_ij)` and `D` the prior's
/// `p_i0 (1 - p_i0)`, as its diagonal and each pair's `(a, b, weight)`.
fn information(theta: &[f64], edges: &[Pairing]) -> (Vec<f64>, Vec<(usize, usize, f64)>) {
    let pairs: Vec<(usize, usize, f64)> = edges
        .iter()
        .map(|e| {
            let p = logistic(theta[e.a] - theta[e.b]);
            (e.a, e.b, e.games * p * (1.0 - p))
        })
        .collect();
    // The pairs first, then the prior: the order the sums were always
    // taken in (the intervals of earlier results, to the last digit).
    let mut diagonal = vec![0.0; theta.len()];
    for &(a, b, w) in &pairs {
        diagonal[a] += w;
        diagonal[b] += w;
    }
    for (d, &t) in diagonal.iter_mut().zip(theta) {
        // Virtual opponent at log-strength 0, the mean.
        let q = logistic(t);
        *d += q * (1.0 - q);
    }
    (diagonal, pairs)
}

/// The covariance's diagonal at `theta`, computed as `how` says.
pub(super) fn covariance_diagonal(theta: &[f64], edges: &[Pairing], how: Intervals) -> Vec<f64> {
    match how {
        Intervals::Exact => exact(theta, edges),
        Intervals::Sparse => sparse(theta, edges),
    }
}

/// The sparse approximation, in two parts (a two-level scheme, as
/// multigrid splits a problem):
///
/// - **Near**: Gaussian belief propagation's marginal variances over the
///   graph of the pairs that met (Weiss and Freeman 2001): each player's
///   precision is its own information `Δ_i` less, for each opponent `j`,
///   what `j`'s uncertainty without `i` takes away,
///   `P_i = Δ_i - sum_j w_ij^2 / P_(j without i)`, the messages found by
///   iterating the same rule. Exact on a tree; on a league's graph it
///   misses the walks around loops, which is to say the slow drift of a
///   whole region of the ratings against the rest: a league pairs close
///   ratings, so its graph is a band, and the players at its ends were
///   5-11% too sure (measured on a class).
/// - **Far**: that drift, exactly, on a coarse field: players in
///   [`BUCKETS`] buckets of neighbouring ratings, each bucket shifted as a
///   whole (the information of a shift: its players' diagonals less the
///   pairs inside it). A bucket's variance by the dense inverse, less belief
///   propagation's on the same coarse graph, is what propagation misses at
///   that scale; each player gets its bucket's.
///
/// `O(pairs)` per sweep (a few dozen), plus a 64 x 64 inverse. Against the
/// exact inverse on a class's league: within 3% (a test).
fn sparse(theta: &[f64], edges: &[Pairing]) -> Vec<f64> {
    let m = theta.len();
    let (diagonal, pairs) = information(theta, edges);
    let local = propagated_diagonal(&diagonal, &pairs);
    // Buckets of players of neighbouring ratings.
    let buckets = BUCKETS.min(m);
    let mut order: Vec<usize> = (0..m).collect();
    order.sort_by(|&x, &y| theta[x].total_cmp(&theta[y]));
    let mut bucket = vec![0; m];
    for (rank, &k) in order.iter().enumerate() {
        bucket[k] = rank * buckets / m;
    }
    // Each bucket shifted as a whole: the information of a shift is its
    // players' diagonals, less the pairs within it (a shift leaves them).
    let mut coarse_diagonal = vec![0.0; buckets];
    for (k, d) in diagonal.iter().enumerate() {
        coarse_diagonal[bucket[k]] += d;
    }
    let mut between = std::collections::BTreeMap::new();
    for &(a, b, w) in &pairs {
        let (a, b) = (bucket[a], bucket[b]);
        if a == b {
            coarse_diagonal[a] -= 2.0 * w;
        } else {
            *between.entry((a.min(b), a.max(b))).or_insert(0.0) += w;
        }
    }
    let between: Vec<(usize, usize, f64)> = between.into_iter().map(|((a, b), w)| (a, b, w)).collect();
    let exact = projected_inverse_diagonal(&coarse_diagonal, &between);
    let near = propagated_diagonal(&coarse_diagonal, &between);
    (0..m).map(|k| local[k] + (exact[bucket[k]] - near[bucket[k]]).max(0.0)).collect()
}

/// Gaussian belief propagation's variances for the symmetric matrix of
/// diagonal `diagonal` and `-w` at each of `pairs`.
fn propagated_diagonal(diagonal: &[f64], pairs: &[(usize, usize, f64)]) -> Vec<f64> {
    // Per pair, both ways: what b takes from a's precision, and a from b's.
    let mut to_a = vec![0.0; pairs.len()];
    let mut to_b = vec![0.0; pairs.len()];
    let mut taken = vec![0.0; diagonal.len()];
    let gather = |taken: &mut Vec<f64>, to_a: &[f64], to_b: &[f64]| {
        taken.fill(0.0);
        for (k, &(a, b, _)) in pairs.iter().enumerate() {
            taken[a] += to_a[k];
            taken[b] += to_b[k];
        }
    };
    for _ in 0..SWEEPS {
        gather(&mut taken, &to_a, &to_b);
        let mut change: f64 = 0.0;
        for (k, &(a, b, w)) in pairs.iter().enumerate() {
            // b's precision without a's message, then a's without b's.
            let new_a = w * w / (diagonal[b] - (taken[b] - to_b[k]));
            let new_b = w * w / (diagonal[a] - (taken[a] - to_a[k]));
            change =
                change.max((new_a - to_a[k]).abs() / diagonal[a]).max((new_b - to_b[k]).abs() / diagonal[b]);
            to_a[k] = new_a;
            to_b[k] = new_b;
        }
        if change < 1e-9 {
            break;
        }
    }
    gather(&mut taken, &to_a, &to_b);
    diagonal.iter().zip(&taken).map(|(d, t)| 1.0 / (d - t)).collect()
}

/// How many buckets of neighbouring ratings [`sparse`] shifts as wholes.
const BUCKETS: usize = 64;

/// The most sweeps of [`sparse`]'s messages (they settle in a few dozen).
const SWEEPS: usize = 100;

/// The exact diagonal of the covariance of mean-zero log-strengths `theta` (see
/// [`super::bradley_terry`]): the pseudo-inverse of `I = P (L + D) P`, computed as
/// `(I + J/m)^-1 - J/m`, whose null space `span(1)` is filled by `J/m`.
fn exact(theta: &[f64], edges: &[Pairing]) -> Vec<f64> {
    let (diagonal, pairs) = information(theta, edges);
    projected_inverse_diagonal(&diagonal, &pairs)
}

/// The diagonal of the pseudo-inverse of `P H P`, `H` the symmetric matrix
/// of diagonal `diagonal` and `-w` at `(a, b)` and `(b, a)` for each of
/// `pairs`.
fn projected_inverse_diagonal(diagonal: &[f64], pairs: &[(usize, usize, f64)]) -> Vec<f64> {
    let m = diagonal.len();
    let mut h = vec![0.0; m * m];
    for (k, d) in diagonal.iter().enumerate() {
        h[k * m + k] = *d;
    }
    for &(a, b, w) in pairs {
        h[a * m + b] -= w;
        h[b * m + a] -= w;
    }
    // P H P + J/m: (PHP)_ij = h_ij - r_i - r_j + mean(r), r = row means.
    let rows: Vec<f64> = h.chunks(m).map(|r| r.iter().sum::<f64>() / m as f64).collect();
    let grand = rows.iter().sum::<f64>() / m as f64;
    let inv_m = 1.0 / m as f64;
    for i in 0..m {
        for j in 0..m {
            h[i * m + j] += grand - rows[i] - rows[j] + inv_m;
        }
    }
    match invert(h, m) {
        Some(inv) => (0..m).map(|k| (inv[k * m + k] - inv_m).max(0.0)).collect(),
        None => vec![f64::INFINITY; m],
    }
}

/// Inverse of the dense row-major `m x m` matrix `a` by Gauss-Jordan
/// elimination with partial pivoting; `None` if it is singular.
fn invert(mut a: Vec<f64>, m: usize) -> Option<Vec<f64>> {
    let mut inv = vec![0.0; m * m];
    for k in 0..m {
        inv[k * m + k] = 1.0;
    }
    for col in 0..m {
        let pivot_row =
            (col..m).max_by(|&r, &s| a[r * m + col].abs().total_cmp(&a[s * m + col].abs())).unwrap_or(col);
        let pivot = a[pivot_row * m + col];
        if pivot == 0.0 || !pivot.is_finite() {
            return None;
        }
        if pivot_row != col {
            for j in 0..m {
                a.swap(pivot_row * m + j, col * m + j);
                inv.swap(pivot_row * m + j, col * m + j);
            }
        }
        let scale = 1.0 / pivot;
        for j in 0..m {
            a[col * m + j] *= scale;
            inv[col * m + j] *= scale;
        }
        for r in 0..m {
            let f = a[r * m + col];
            if r == col || f == 0.0 {
                continue;
            }
            // Columns left of `col` are already zero in the pivot row.
            for j in col..m {
                a[r * m + j] -= f * a[col * m + j];
            }
            for j in 0..m {
                inv[r * m + j] -= f * inv[col * m + j];
            }
        }
    }
    Some(inv)
}
