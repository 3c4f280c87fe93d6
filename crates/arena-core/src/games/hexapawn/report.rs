//! Hexapawn: a line per game, the JSON object.

use std::fmt::Write as _;

use serde::Serialize;

use super::Hexapawn;
use crate::report::ms;
use crate::{
    game::GameId,
    play::time_control::TimeControl,
    play::two_player::{MatchGame, MatchResult, Tally},
    stats::{score_interval, Wdl},
    strength::bench::{LadderReport, LevelRun},
};

/// `game 3/10  seed 81  easy (White) vs hard (Black): hard wins in 5 plies (reached the last row)`
pub fn line(game: &MatchGame<Hexapawn>, total: u32, names: [&str; 2]) -> String {
    let [white, black] = game.seats.map(|p| names[p]);
    format!(
        "game {}/{total}  seed {}  {white} (White) vs {black} (Black): {} wins in {} plies ({})",
        game.index + 1,
        game.record.seed,
        names[hexapawn_winner(game)],
        game.record.plies.len(),
        game.record.ending
    )
}

#[derive(Serialize)]
struct JsonHexapawn<'a> {
    game: &'static str,
    seed: u64,
    settings: serde_json::Value,
    /// Each player's time control, when the match gave any its own.
    #[serde(skip_serializing_if = "Option::is_none")]
    player_time_controls: Option<[TimeControl; 2]>,
    players: Vec<JsonHexapawnPlayer<'a>>,
    games: Vec<JsonHexapawnGame>,
    average_plies: f64,
}

#[derive(Serialize)]
struct JsonHexapawnPlayer<'a> {
    #[serde(flatten)]
    tally: &'a Tally,
    source: String,
    /// Points per game (a win 1): Hexapawn has no draws.
    mean_score: f64,
    interval: [f64; 2],
    win_rate: f64,
    /// Hexapawn has no deaths: always null.
    death_rate: Option<f64>,
    mean_move_ms: f64,
    max_move_ms: f64,
    mean_move_cpu_ms: f64,
    max_move_cpu_ms: f64,
}

#[derive(Serialize)]
struct JsonHexapawnGame {
    index: u32,
    seed: u64,
    seats: [usize; 2],
    winner: usize,
    plies: usize,
    reason: String,
}

/// A Hexapawn match as one JSON object (docs/play-json.md).
pub fn json(result: &MatchResult<Hexapawn>, sources: [String; 2]) -> String {
    let doc = JsonHexapawn {
        game: GameId::Hexapawn.name(),
        seed: result.config.seed,
        settings: match result.config.settings.time.recorded() {
            (ms, Some(bank)) => serde_json::json!({ "time_per_turn_ms": ms, "time_control": bank }),
            (ms, None) => serde_json::json!({ "time_per_turn_ms": ms }),
        },
        player_time_controls: result.config.player_controls(),
        players: result
            .tallies
            .iter()
            .zip(sources)
            .map(|(tally, source)| {
                let interval = score_interval(Wdl::new(tally.wins, tally.draws, tally.losses));
                JsonHexapawnPlayer {
                    tally,
                    source,
                    mean_score: interval.score,
                    interval: [interval.lower, interval.upper],
                    win_rate: f64::from(tally.wins) / result.games.len().max(1) as f64,
                    death_rate: None,
                    mean_move_ms: ms(tally.mean_turn_time().wall),
                    max_move_ms: ms(tally.time_max.wall),
                    mean_move_cpu_ms: ms(tally.mean_turn_time().cpu),
                    max_move_cpu_ms: ms(tally.time_max.cpu),
                }
            })
            .collect(),
        games: result
            .games
            .iter()
            .map(|g| JsonHexapawnGame {
                index: g.index,
                seed: g.record.seed,
                seats: g.seats,
                winner: hexapawn_winner(g),
                plies: g.record.plies.len(),
                reason: g.record.ending.to_string(),
            })
            .collect(),
        average_plies: result.average_moves(),
    };
    serde_json::to_string_pretty(&doc).expect("plain data serialises")
}

/// The player (0 or 1) that won a Hexapawn game: it has no draws.
fn hexapawn_winner(game: &MatchGame<Hexapawn>) -> usize {
    game.seats[game.record.winner().index()]
}

/// `arena bench`: wins with a 95% interval per level, by colour.
impl LadderReport for Hexapawn {
    fn ladder_report(name: &str, _replay: &str, runs: &[LevelRun<Hexapawn>], seed: u64) -> String {
        let mut text = String::new();
        let games = runs.first().map_or(0, |r| r.result.games.len());
        let _ = writeln!(
            text,
            "{name} at hexapawn against the reference levels, {games} games each (seed {seed}):\n"
        );
        let _ = writeln!(text, "level    W    L  score  95% interval  won as White  won as Black");
        for run in runs {
            let t = &run.result.tallies[0];
            let interval = score_interval(Wdl::new(t.wins, t.draws, t.losses));
            let won_as = |seat: usize| {
                let played = run.result.games.iter().filter(|g| g.seats[seat] == 0);
                let (n, won) = played.fold((0, 0), |(n, w), g| (n + 1, w + u32::from(g.winner() == Some(0))));
                format!("{won}/{n}")
            };
            let _ = writeln!(
                text,
                "{:<7} {:>3}  {:>3}  {:>4.0}%  {:>3.0}% - {:>3.0}%   {:>11}  {:>12}",
                run.level.name(),
                t.wins,
                t.losses,
                interval.score * 100.0,
                interval.lower * 100.0,
                interval.upper * 100.0,
                won_as(0),
                won_as(1),
            );
            if let Some(failures) = t.failure_summary() {
                let _ = writeln!(text, "  failures against {}: {failures}", run.level.name());
            }
        }
        text
    }
}
