//! `arena measure analysis`: how good the analyser's win chances are, on
//! replays of games between the levels (docs/benchmarks.md, "The
//! analyser"). Every turn's position gives the mover's predicted win
//! chance and what became of the mover (a win 1, a draw 1/2, a loss 0);
//! predictions in deciles against the observed rate, the largest gap, a
//! recalibration fitted on the logit (what `WIN_CURVE` becomes: its `a` and
//! `b` times the scale, plus the shift to `b`), the cost per position, and
//! each player's mean accuracy.

use std::{collections::BTreeMap, fmt::Write as _, path::PathBuf, time::Instant};

use anyhow::Result;

use crate::{
    analysis::{analyse, Budget, Measure},
    games::replays::GameReplay,
};

/// One position: the mover's predicted win chance, and its result.
#[derive(Clone, Copy, Debug)]
struct Position {
    predicted: f64,
    result: f64,
}

/// What `arena measure analysis` prints.
pub fn run(files: &[PathBuf], budget: Budget) -> Result<String> {
    let mut positions = Vec::new();
    let mut accuracy: BTreeMap<String, Vec<f64>> = BTreeMap::new();
    let (mut seconds, mut turns, mut games, mut skipped) = (0.0, 0usize, 0usize, 0usize);
    let mut game_seconds: Vec<(usize, f64)> = Vec::new();
    for file in files {
        let replay = GameReplay::read(file)?;
        let started = Instant::now();
        let Ok(analysis) = analyse(&replay, budget) else {
            skipped += 1;
            continue;
        };
        let spent = started.elapsed().as_secs_f64();
        seconds += spent;
        turns += analysis.turns.len();
        games += 1;
        game_seconds.push((analysis.turns.len(), spent));
        for player in &analysis.players {
            if let Some(a) = player.accuracy {
                accuracy.entry(player.name.clone()).or_default().push(a);
            }
        }
        if analysis.measure != Measure::WinChance || replay.result.fault.is_some() {
            continue;
        }
        for turn in &analysis.turns {
            let result = match replay.result.winner {
                Some(w) if w == turn.judged.player => 1.0,
                Some(_) => 0.0,
                None => 0.5,
            };
            positions.push(Position { predicted: turn.judged.before, result });
        }
    }
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{games} games analysed ({skipped} skipped), {} positions, budget {} nodes",
        positions.len(),
        budget.nodes
    );
    let _ = writeln!(
        out,
        "cost: {:.2} ms a position, {:.3} s a 30-turn game (this thread, {turns} turns in {seconds:.1} s)",
        1e3 * seconds / turns.max(1) as f64,
        30.0 * seconds / turns.max(1) as f64
    );
    if let Some((n, s)) = game_seconds.iter().filter(|(n, _)| *n >= 30).max_by(|a, b| a.1.total_cmp(&b.1)) {
        let _ = writeln!(out, "slowest game of 30 turns or more: {n} turns in {s:.3} s");
    }
    out.push_str(&calibration(&positions));
    let _ = writeln!(out, "mean accuracy per player:");
    let mut rows: Vec<(String, f64, usize)> = accuracy
        .into_iter()
        .map(|(name, a)| (name, a.iter().sum::<f64>() / a.len() as f64, a.len()))
        .collect();
    rows.sort_by(|a, b| b.1.total_cmp(&a.1));
    for (name, mean, n) in rows {
        let _ = writeln!(out, "  {name:<16} {mean:5.1}  ({n} games)");
    }
    Ok(out)
}

/// Deciles of predicted win chance against the observed rate, the largest
/// gap, and the logit recalibration.
fn calibration(positions: &[Position]) -> String {
    let mut out = String::new();
    if positions.is_empty() {
        return "no win-chance positions (two-player games) to calibrate on\n".into();
    }
    let _ = writeln!(out, "decile      positions  predicted  observed    gap");
    let mut largest: f64 = 0.0;
    for d in 0..10 {
        let (low, high) = (d as f64 / 10.0, (d + 1) as f64 / 10.0);
        let inside: Vec<&Position> =
            positions.iter().filter(|p| p.predicted >= low && (p.predicted < high || d == 9)).collect();
        if inside.is_empty() {
            let _ = writeln!(out, "{low:.1}-{high:.1}   {:>10}", 0);
            continue;
        }
        let n = inside.len() as f64;
        let predicted = inside.iter().map(|p| p.predicted).sum::<f64>() / n;
        let observed = inside.iter().map(|p| p.result).sum::<f64>() / n;
        let gap = (observed - predicted).abs();
        // A decile of a few positions is noise: it does not set the largest gap.
        if inside.len() >= 50 {
            largest = largest.max(gap);
        }
        let _ = writeln!(
            out,
            "{low:.1}-{high:.1}   {:>10}  {predicted:9.3}  {observed:8.3}  {gap:5.3}",
            inside.len()
        );
    }
    let _ = writeln!(out, "largest gap (deciles of 50 positions or more): {largest:.3}");
    let (scale, shift) = fit_logit(positions);
    let _ = writeln!(
        out,
        "recalibration: p' = 1/(1+e^-(s logit(p) + t)), s = {scale:.3}, t = {shift:.3} \
         (a curve (a, b) becomes (s a, s b + t))"
    );
    out
}

/// Logistic regression of the result on logit(predicted), by Newton's
/// method: the scale and shift that calibrate the predictions best.
fn fit_logit(positions: &[Position]) -> (f64, f64) {
    let xs: Vec<(f64, f64)> = positions
        .iter()
        .map(|p| {
            let q = p.predicted.clamp(1e-6, 1.0 - 1e-6);
            ((q / (1.0 - q)).ln(), p.result)
        })
        .collect();
    let (mut s, mut t) = (1.0, 0.0);
    for _ in 0..50 {
        let (mut gs, mut gt, mut hss, mut hst, mut htt) = (0.0, 0.0, 0.0, 0.0, 0.0);
        for &(x, y) in &xs {
            let p = 1.0 / (1.0 + (-(s * x + t)).exp());
            let w = p * (1.0 - p);
            gs += (y - p) * x;
            gt += y - p;
            hss += w * x * x;
            hst += w * x;
            htt += w;
        }
        let det = hss * htt - hst * hst;
        if det.abs() < 1e-12 {
            break;
        }
        let (ds, dt) = ((htt * gs - hst * gt) / det, (hss * gt - hst * gs) / det);
        s += ds;
        t += dt;
        if ds.abs() + dt.abs() < 1e-10 {
            break;
        }
    }
    (s, t)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_fit_recovers_a_known_scale() {
        // Results drawn as sigmoid(2 logit(p)): the fit finds s = 2, t = 0.
        let mut positions = Vec::new();
        for i in 1..200 {
            let p = i as f64 / 200.0;
            let logit = (p / (1.0 - p)).ln();
            let truth = 1.0 / (1.0 + (-2.0 * logit).exp());
            // Expected outcomes as fractional results: the same optimum.
            positions.push(Position { predicted: p, result: truth });
        }
        let (s, t) = fit_logit(&positions);
        assert!((s - 2.0).abs() < 1e-3 && t.abs() < 1e-3, "{s} {t}");
    }
}
