//! `arena bench`'s analysis of the games played: where each lost game
//! turned (the turning point, `analysis`), beside the commands that replay
//! them; with `--analyse`, the player's mean accuracy per level.

use std::fmt::Write as _;

use super::{level_player, LevelRun};
use crate::{
    analysis::{self, text, AnalysedBody, Budget},
    play::two_player::{MatchGame, TwoPlayerGame},
    replay::ReplayPlayer,
};

/// The lost games `arena bench` lists per level (as its replay commands).
pub const LOST_LISTED: usize = 2;

/// The analysis of `game`, the benched player named `name`.
fn analysed<G: TwoPlayerGame>(
    game: &MatchGame<G>,
    name: &str,
    level: crate::players::Level,
    budget: Budget,
) -> Option<analysis::GameAnalysis>
where
    G::Body: AnalysedBody,
{
    let benched = ReplayPlayer { name: name.to_string(), source: name.to_string() };
    let players = game.seats.map(|who| if who == 0 { benched.clone() } else { level_player(level) });
    analysis::analyse(&G::replay(&game.record, players), budget).ok()
}

/// For each level, each listed lost game's turning point; with
/// `accuracy`, the player's mean accuracy over all its games per level.
pub fn report<G: TwoPlayerGame>(name: &str, runs: &[LevelRun<G>], budget: Budget, accuracy: bool) -> String
where
    G::Body: AnalysedBody,
{
    let mut lines = Vec::new();
    for run in runs {
        for game in run.result.games.iter().filter(|g| g.winner() == Some(1)).take(LOST_LISTED) {
            if let Some(line) =
                analysed(game, name, run.level, budget).as_ref().and_then(text::turning_point_line)
            {
                lines.push(format!("  {} game {}: {line}", run.level.name(), game.index + 1));
            }
        }
    }
    let mut out = String::new();
    if !lines.is_empty() {
        let _ = writeln!(
            out,
            "\nwhere the lost games turned (arena analyse; docs/analysis.md):\n{}",
            lines.join("\n")
        );
    }
    if accuracy {
        let _ = writeln!(out, "\n{name}'s mean accuracy (0-100, docs/analysis.md):");
        for run in runs {
            let accuracies: Vec<f64> = (run.result.games.iter())
                .filter_map(|game| {
                    // The benched player's seat: its index among the replay's players.
                    let seat = game.seats.iter().position(|&who| who == 0)?;
                    analysed(game, name, run.level, budget)?.players.get(seat)?.accuracy
                })
                .collect();
            let mean = match accuracies.len() {
                0 => "-".to_string(),
                n => format!("{:.1}", accuracies.iter().sum::<f64>() / n as f64),
            };
            let _ = writeln!(out, "  against {:<7} {mean}  ({} games)", run.level.name(), accuracies.len());
        }
    }
    out
}
