//! A game's analysis as people read it: `arena analyse`'s table, and the
//! one line that names a lost game's turning point (`arena bench`).

use std::fmt::Write as _;

use super::{GameAnalysis, Measure, PlayerAnalysis, TurnAnalysis};

/// "win chance" or "expected score".
fn measure_name(measure: Measure) -> &'static str {
    match measure {
        Measure::WinChance => "win chance",
        Measure::ExpectedScore { .. } => "expected score",
    }
}

/// "turn 14, moved to (3,4): win chance 0.62 -> 0.18; best was moved to (2,4), threw at (1,1)"
pub fn turn_line(measure: Measure, turn: &TurnAnalysis) -> String {
    let j = &turn.judged;
    let mut line =
        format!("turn {}, {}: {} {:.2} -> {:.2}", j.turn, j.played, measure_name(measure), j.before, j.after);
    if let Some(mark) = turn.mark {
        let _ = write!(line, " ({}; best was {}, {:.2})", mark.name(), j.best, j.best_value);
    }
    line
}

/// The turning point of a lost game, as one line; None when it has none.
pub fn turning_point_line(analysis: &GameAnalysis) -> Option<String> {
    let turn = &analysis.turns[analysis.turning_point?];
    let name = &analysis.players.get(turn.judged.player)?.name;
    Some(format!("{name}'s {}", turn_line(analysis.measure, turn)))
}

fn player_line(player: &PlayerAnalysis) -> String {
    let accuracy = player.accuracy.map_or("-".to_string(), |a| format!("{a:.1}"));
    format!(
        "{}: accuracy {accuracy}, {} inaccuracies, {} mistakes, {} blunders",
        player.name, player.inaccuracies, player.mistakes, player.blunders
    )
}

/// `arena analyse`'s report of one game: a line per turn, then each
/// player's accuracy and marks, then the turning point.
pub fn report(analysis: &GameAnalysis) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "{}", analysis.summary);
    let what = measure_name(analysis.measure);
    let _ =
        writeln!(out, "{:>5}  {:<14} {:<34} {:>15}  {:<10}  best", "turn", "player", "played", what, "mark");
    for turn in &analysis.turns {
        let j = &turn.judged;
        let name = analysis.players.get(j.player).map_or("?", |p| p.name.as_str());
        let change = format!("{:.2} -> {:.2}", j.before, j.after);
        let mark = turn.mark.map_or("", |m| m.name());
        let best = if turn.drop > 0.0 { format!("{} ({:.2})", j.best, j.best_value) } else { String::new() };
        let _ = writeln!(
            out,
            "{:>5}  {:<14} {:<34} {:>15}  {:<10}  {best}",
            j.turn, name, j.played, change, mark
        );
    }
    for player in &analysis.players {
        let _ = writeln!(out, "{}", player_line(player));
    }
    if let Some(line) = turning_point_line(analysis) {
        let _ = writeln!(out, "turning point: {line}");
    }
    out
}
