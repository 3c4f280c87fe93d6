//! `arena measure analysis`: how good the analyser's win chances are, on
//! replays of games between the levels (docs/benchmarks.md, "The
//! analyser"). Every turn's position gives the mover's predicted win
//! chance and what became of the mover (a win 1, a draw 1/2, a loss 0);
//! predictions in deciles against the observed rate (with an interval
//! that takes a game's positions together), the largest gap, the table
//! these games fit (what Trap's `WIN_TABLE_EVEN` and `_ODD` become), the
//! cost per position, and each player's mean accuracy.

use std::{
    collections::BTreeMap,
    fmt::Write as _,
    path::{Path, PathBuf},
    time::Instant,
};

use anyhow::{Context, Result};

use crate::{
    analysis::{analyse, analysis_of, game_accuracy, Budget, GameAnalysis, Measure},
    games::replays::{Body, GameReplay},
};

/// One position: the mover's predicted win chance, and its result.
#[derive(Clone, Copy, Debug)]
struct Position {
    predicted: f64,
    result: f64,
    /// The search's value, where there is one (Trap): what the table maps.
    raw: Option<f64>,
    /// Which game (positions of a game share its result: they are not
    /// independent, and the confidence intervals say so).
    game: usize,
}

/// The least positions a block of the fitted table holds.
const FIT_BLOCK: usize = 300;

/// Trap's search value, depth and free squares at a position (for the fit).
type Raw = (f64, u32, u32);

/// What `arena measure analysis` prints; `positions_csv`, when given, gets
/// every Trap position's search value and result, a line each.
pub fn run(files: &[PathBuf], budget: Budget, positions_csv: Option<&Path>) -> Result<String> {
    let mut positions = Vec::new();
    let mut csv = String::from("replay,turn,player,value,depth,free_cells,result\n");
    let mut accuracy: BTreeMap<String, Vec<(f64, f64)>> = BTreeMap::new();
    let (mut seconds, mut turns, mut games, mut skipped) = (0.0, 0usize, 0usize, 0usize);
    let mut game_seconds: Vec<(usize, f64)> = Vec::new();
    // Per turn of a score game: |before - before'|, |drop - drop'| (as
    // shares of the span) and whether the marks agree, against 4x rollouts.
    let mut noise: Vec<(f64, f64, bool)> = Vec::new();
    for file in files {
        let replay = GameReplay::read(file)?;
        let started = Instant::now();
        // Trap's judgements come with the search's values, for the fit.
        let judged: Result<(GameAnalysis, Vec<Option<Raw>>), String> = match &replay.body {
            Body::Trap(body) => body.judged(budget).and_then(|judged| {
                let states = body.positions()?;
                let raws = (judged.iter().zip(&states))
                    .map(|((_, j), p)| {
                        Some((j.best.value, j.best.depth, p.state.bitboard().free().count_ones()))
                    })
                    .collect();
                Ok((analysis_of(&replay, judged.into_iter().map(|(j, _)| j).collect()), raws))
            }),
            _ => analyse(&replay, budget).map(|a| {
                let n = a.turns.len();
                (a, vec![None; n])
            }),
        };
        let Ok((analysis, raws)) = judged else {
            skipped += 1;
            continue;
        };
        let spent = started.elapsed().as_secs_f64();
        seconds += spent;
        turns += analysis.turns.len();
        games += 1;
        game_seconds.push((analysis.turns.len(), spent));
        for (i, player) in analysis.players.iter().enumerate() {
            // Lichess's weighted accuracy, and the same without the weights.
            let own: Vec<(f64, f64)> =
                analysis.turns.iter().filter(|t| t.judged.player == i).map(|t| (t.accuracy, 1.0)).collect();
            if let (Some(a), Some(plain)) = (player.accuracy, game_accuracy(&own)) {
                accuracy.entry(player.name.clone()).or_default().push((a, plain));
            }
        }
        if let Measure::ExpectedScore { span } = analysis.measure {
            // How noisy a sampled estimate is: the same turns with four
            // times the rollouts (other caves: the count is in the seed's
            // stream) as the reference.
            let finer = Budget { rollouts: budget.rollouts.saturating_mul(4), ..budget };
            if let Ok(reference) = analyse(&replay, finer) {
                for (a, b) in analysis.turns.iter().zip(&reference.turns) {
                    noise.push((
                        (a.judged.before - b.judged.before).abs() / span,
                        (a.drop - b.drop).abs() / span,
                        a.mark == b.mark,
                    ));
                }
            }
        }
        if analysis.measure != Measure::WinChance || replay.result.fault.is_some() {
            continue;
        }
        for (turn, raw) in analysis.turns.iter().zip(raws) {
            let result = match replay.result.winner {
                Some(w) if w == turn.judged.player => 1.0,
                Some(_) => 0.0,
                None => 0.5,
            };
            positions.push(Position {
                predicted: turn.judged.before,
                result,
                raw: raw.map(|r| r.0),
                game: games,
            });
            if let Some((value, depth, free)) = raw {
                let name = &replay.players[turn.judged.player].name;
                let _ = writeln!(
                    csv,
                    "{},{},{name},{value},{depth},{free},{result}",
                    file.display(),
                    turn.judged.turn
                );
            }
        }
    }
    if let Some(path) = positions_csv {
        std::fs::write(path, csv)
            .with_context(|| format!("cannot write the positions to {}", path.display()))?;
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
    if !noise.is_empty() {
        let n = noise.len() as f64;
        let mean = |f: fn(&(f64, f64, bool)) -> f64| noise.iter().map(f).sum::<f64>() / n;
        let _ = writeln!(
            out,
            "score estimates against {}x the rollouts ({} turns): before off by {:.4} of the span on average, \
             the drop by {:.4}, the same mark {:.1}% of the time",
            4,
            noise.len(),
            mean(|x| x.0),
            mean(|x| x.1),
            100.0 * mean(|x| f64::from(u8::from(x.2)))
        );
    }
    out.push_str(&calibration(&positions));
    out.push_str(&fitted_table(&positions));
    let _ = writeln!(
        out,
        "mean accuracy per player (95% interval of the mean; unweighted: without Lichess's volatility weights):"
    );
    let mut rows: Vec<(String, f64, f64, f64, usize)> = accuracy
        .into_iter()
        .map(|(name, a)| {
            let n = a.len() as f64;
            let mean = a.iter().map(|x| x.0).sum::<f64>() / n;
            let var = a.iter().map(|x| (x.0 - mean).powi(2)).sum::<f64>() / (n - 1.0).max(1.0);
            let plain = a.iter().map(|x| x.1).sum::<f64>() / n;
            (name, mean, 1.96 * (var / n).sqrt(), plain, a.len())
        })
        .collect();
    rows.sort_by(|a, b| b.1.total_cmp(&a.1));
    for (name, mean, half, plain, n) in &rows {
        let _ = writeln!(out, "  {name:<16} {mean:5.1} +- {half:4.1}  unweighted {plain:5.1}  ({n} games)");
    }
    let order: Vec<&str> = rows.iter().map(|r| r.0.as_str()).collect();
    let levels: Vec<&str> =
        order.iter().copied().filter(|n| ["expert", "hard", "medium", "easy"].contains(n)).collect();
    if levels.len() > 1 {
        let _ = writeln!(out, "levels by accuracy: {}", levels.join(" > "));
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
    let _ = writeln!(out, "decile      positions  games  predicted  observed    gap  95% (by game)");
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
        // The gap's error, positions of a game taken together (they share
        // its result): the square root of the sum over games of their
        // residuals' sum squared, over n.
        let mut by_game: BTreeMap<usize, f64> = BTreeMap::new();
        for p in &inside {
            *by_game.entry(p.game).or_default() += p.result - p.predicted;
        }
        let half = 1.96 * by_game.values().map(|r| r * r).sum::<f64>().sqrt() / n;
        // A decile of a few positions is noise: it does not set the largest gap.
        if inside.len() >= 50 {
            largest = largest.max(gap);
        }
        let _ = writeln!(
            out,
            "{low:.1}-{high:.1}   {:>10}  {:>5}  {predicted:9.3}  {observed:8.3}  {gap:5.3}  +-{half:.3}",
            inside.len(),
            by_game.len()
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

/// The monotone map from the search's value to the observed rate that
/// these positions give (`WIN_TABLE`'s steps): isotonic regression (pool
/// adjacent violators, equal values pooled first), its blocks then merged
/// to `FIT_BLOCK` positions at least; a step per block, up to the value
/// halfway to the next block. A proved end (a value of 1 or -1) is
/// certain and left out.
fn fitted_table(positions: &[Position]) -> String {
    let points: Vec<(f64, f64)> =
        positions.iter().filter_map(|p| p.raw.filter(|r| r.abs() < 1.0).map(|r| (r, p.result))).collect();
    if points.len() < FIT_BLOCK {
        return String::new();
    }
    let n = points.len();
    let steps = isotonic_steps(points, FIT_BLOCK);
    let mut out = format!(
        "fitted WIN_TABLE ({n} positions, {} steps of {FIT_BLOCK} or more; value up to, chance):\n",
        steps.len()
    );
    for chunk in steps.chunks(4) {
        let line: Vec<String> = chunk.iter().map(|(v, p)| format!("({v:.5}, {p:.4}),")).collect();
        let _ = writeln!(out, "    {}", line.join(" "));
    }
    out
}

/// Isotonic regression of `points`: its blocks of `least` points at least,
/// each as (the highest value it covers, halfway to the next block's
/// lowest; its mean result), the last covering up to 1.
fn isotonic_steps(mut points: Vec<(f64, f64)>, least: usize) -> Vec<(f64, f64)> {
    points.sort_by(|a, b| a.0.total_cmp(&b.0));
    // Blocks as (sum of results, count, lowest value, highest value).
    let mut blocks: Vec<(f64, usize, f64, f64)> = Vec::new();
    let rate = |b: &(f64, usize, f64, f64)| b.0 / b.1 as f64;
    // Equal values are one point: a step cannot split them.
    let mut groups: Vec<(f64, usize, f64, f64)> = Vec::new();
    for (x, y) in points {
        match groups.last_mut() {
            Some(last) if last.2 == x => {
                last.0 += y;
                last.1 += 1;
            }
            _ => groups.push((y, 1, x, x)),
        }
    }
    for group in groups {
        blocks.push(group);
        while blocks.len() > 1 && rate(&blocks[blocks.len() - 2]) >= rate(&blocks[blocks.len() - 1]) {
            let b = blocks.pop().expect("two blocks");
            let a = blocks.last_mut().expect("two blocks");
            *a = (a.0 + b.0, a.1 + b.1, a.2, b.3);
        }
    }
    // Small blocks are noise: merge each into its smaller neighbour
    // (merging neighbours keeps the rates increasing).
    while blocks.len() > 1 {
        let Some(i) = (0..blocks.len()).filter(|&i| blocks[i].1 < least).min_by_key(|&i| blocks[i].1) else {
            break;
        };
        let j = if i == 0 {
            1
        } else if i + 1 == blocks.len() || blocks[i - 1].1 <= blocks[i + 1].1 {
            i - 1
        } else {
            i + 1
        };
        let (lo, hi) = (i.min(j), i.max(j));
        let (a, b) = (blocks[lo], blocks[hi]);
        blocks[lo] = (a.0 + b.0, a.1 + b.1, a.2, b.3);
        blocks.remove(hi);
    }
    (0..blocks.len())
        .map(|i| {
            let up_to = blocks.get(i + 1).map_or(1.0, |next| (blocks[i].3 + next.2) / 2.0);
            (up_to, rate(&blocks[i]))
        })
        .collect()
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
            positions.push(Position { predicted: p, result: truth, raw: None, game: i });
        }
        let (s, t) = fit_logit(&positions);
        assert!((s - 2.0).abs() < 1e-3 && t.abs() < 1e-3, "{s} {t}");
    }

    #[test]
    fn the_isotonic_steps_increase_pool_violators_and_keep_equal_values_together() {
        // Results 0, 1, 0, 1, 1, 1 at values 0, 0.2, ..., 1: the 1 then 0
        // at 0.2 and 0.4 pool to 1/2.
        let points: Vec<(f64, f64)> =
            [0.0, 1.0, 0.0, 1.0, 1.0, 1.0].iter().enumerate().map(|(i, &y)| (i as f64 / 5.0, y)).collect();
        let steps = isotonic_steps(points.clone(), 1);
        assert_eq!(steps.len(), 3);
        for (got, want) in steps.iter().zip([(0.1, 0.0), (0.5, 0.5), (1.0, 1.0)]) {
            assert!((got.0 - want.0).abs() < 1e-12 && got.1 == want.1, "{steps:?}");
        }
        // Blocks of 3 at least: the first joins the pooled pair.
        let steps = isotonic_steps(points, 3);
        assert!(steps.len() == 2 && (steps[0].0 - 0.5).abs() < 1e-12 && steps[0].1 == 1.0 / 3.0, "{steps:?}");
        // Equal values are never split across steps, nor pooled with
        // what is below them unless the rates call for it.
        let tied = vec![(0.0, 0.0), (0.5, 1.0), (0.5, 0.0), (0.5, 1.0), (0.9, 1.0)];
        assert_eq!(isotonic_steps(tied, 1), vec![(0.25, 0.0), (0.7, 2.0 / 3.0), (1.0, 1.0)]);
        let after_a_pool = vec![(0.1, 1.0), (0.2, 0.0), (0.3, 1.0), (0.3, 1.0)];
        assert_eq!(isotonic_steps(after_a_pool, 1), vec![(0.25, 0.5), (1.0, 1.0)]);
    }
}
