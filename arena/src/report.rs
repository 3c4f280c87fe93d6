//! How a match is shown: a line per game, a board per turn (`--watch`), a
//! summary, or one JSON object for scripts (schema in docs/play-json.md).

use std::{fmt::Write as _, time::Duration};

use player_api::trap::TrapState;
use serde::Serialize;

use crate::{
    game::{GameId, Hexapawn, Trap},
    referee::trap::Turn,
    replay::trap::{turn_line, JsonSettings},
    solo::{SoloGame, SoloSeries, SoloSummary},
    stats::{score_interval, Wdl},
    two_player::{MatchGame, MatchResult, Tally},
    units::short,
};

/// `game 3/10  seed 81  easy (P1) vs hard (P2): hard wins in 23 turns (trapped)`
pub fn game_line(game: &MatchGame<Trap>, total: u32, names: [&str; 2]) -> String {
    let [one, two] = game.seats.map(|p| names[p]);
    let verdict = match game.winner() {
        Some(w) => format!("{} wins", names[w]),
        None => "draw".to_string(),
    };
    format!(
        "game {}/{total}  seed {}  {one} (P1) vs {two} (P2): {verdict} in {} turns ({})",
        game.index + 1,
        game.record.seed,
        game.record.turns.len(),
        game.record.ending
    )
}

/// A turn and the board after it, for `--watch`.
pub fn turn_view(state: &TrapState, turn: &Turn, name: &str) -> String {
    format!("{}\n{state}", turn_line(turn, name))
}

/// The summary after the games: one line per player, then the average length.
pub fn summary(result: &MatchResult<Trap>) -> String {
    let mut text = tally_lines(&result.tallies, "turn");
    let _ = write!(
        text,
        "{} games, average {:.1} turns, seed {}",
        result.games.len(),
        result.average_moves(),
        result.config.seed
    );
    text
}

/// A line per player: wins, draws, losses, failures, time per `unit`.
fn tally_lines(tallies: &[Tally; 2], unit: &str) -> String {
    let mut text = String::new();
    let width = tallies.iter().map(|t| t.name.len()).max().unwrap_or(0);
    for t in tallies {
        let _ = writeln!(
            text,
            "{:width$}  {} wins  {} draws  {} losses  {}  time per {unit}: mean {}, max {}",
            t.name,
            t.wins,
            t.draws,
            t.losses,
            failures(t),
            short(t.mean_turn_time().wall),
            short(t.time_max.wall),
        );
    }
    text
}

fn failures(t: &Tally) -> String {
    t.failure_summary().map_or_else(|| "no failures".to_string(), |found| format!("failures: {found}"))
}

#[derive(Serialize)]
struct JsonMatch<'a> {
    game: &'static str,
    seed: u64,
    settings: JsonSettings,
    players: Vec<JsonPlayer<'a>>,
    games: Vec<JsonGame>,
    average_turns: f64,
}

#[derive(Serialize)]
struct JsonPlayer<'a> {
    #[serde(flatten)]
    tally: &'a Tally,
    source: String,
    mean_turn_ms: f64,
    max_turn_ms: f64,
    mean_turn_cpu_ms: f64,
    max_turn_cpu_ms: f64,
}

#[derive(Serialize)]
struct JsonGame {
    index: u32,
    seed: u64,
    /// Player indices (into `players`) in seat 1 and seat 2.
    seats: [usize; 2],
    winner: Option<usize>,
    turns: usize,
    reason: String,
}

/// The match as one JSON object.
pub fn json(result: &MatchResult<Trap>, sources: [String; 2]) -> String {
    let settings = &result.config.settings;
    let doc = JsonMatch {
        game: GameId::Trap.name(),
        seed: result.config.seed,
        settings: JsonSettings::from(settings),
        players: result
            .tallies
            .iter()
            .zip(sources)
            .map(|(tally, source)| JsonPlayer {
                tally,
                source,
                mean_turn_ms: ms(tally.mean_turn_time().wall),
                max_turn_ms: ms(tally.time_max.wall),
                mean_turn_cpu_ms: ms(tally.mean_turn_time().cpu),
                max_turn_cpu_ms: ms(tally.time_max.cpu),
            })
            .collect(),
        games: result
            .games
            .iter()
            .map(|g| JsonGame {
                index: g.index,
                seed: g.record.seed,
                seats: g.seats,
                winner: g.winner(),
                turns: g.record.turns.len(),
                reason: g.record.ending.to_string(),
            })
            .collect(),
        average_turns: result.average_moves(),
    };
    serde_json::to_string_pretty(&doc).expect("plain data serialises")
}

/// `game 3/10  seed 81  hard: score 1, won in 5 steps (found the monster)`
pub fn solo_line(game: &SoloGame, total: u32, name: &str) -> String {
    let r = &game.result;
    let verdict = if r.won {
        "won"
    } else if r.deaths > 0 {
        "died"
    } else {
        "lost"
    };
    let cleared = r.cleared.map_or_else(String::new, |c| format!(", {c} forests cleared"));
    format!(
        "game {}/{total}  seed {}  {name}: score {}, {verdict} in {} steps{cleared} ({})",
        game.index + 1,
        game.record.seed(),
        r.score,
        r.steps,
        r.reason
    )
}

/// One line for a player's series: mean with interval, rates, failures, time.
pub fn solo_summary_line(name: &str, s: &SoloSummary) -> String {
    let cleared = s.forests_cleared.map_or_else(String::new, |c| format!("  forests cleared {c:.2}"));
    let failures = match s.failures.total() {
        0 => "no failures".to_string(),
        _ => format!("failures: {}", s.failures.compact()),
    };
    format!(
        "{name}  mean score {:.3} (95% {:.3} .. {:.3})  won {:.1}%  died {:.1}%{cleared}  {failures}  time per game: mean {:.2} ms, max {:.2} ms",
        s.mean_score,
        s.interval[0],
        s.interval[1],
        100.0 * s.win_rate,
        100.0 * s.death_rate,
        s.mean_game_ms,
        s.max_game_ms
    )
}

/// The summary of `arena play` for a single-player game.
pub fn solo_summary(name: &str, series: &SoloSeries) -> String {
    format!(
        "{}\n{} games of {} ({}), seed {}",
        solo_summary_line(name, &series.summary),
        series.summary.games,
        series.settings.game(),
        series.settings.describe(),
        series.seed
    )
}

#[derive(Serialize)]
struct JsonSolo<'a> {
    game: &'static str,
    seed: u64,
    settings: serde_json::Value,
    players: Vec<JsonSoloPlayer<'a>>,
    games: Vec<JsonSoloGame<'a>>,
}

#[derive(Serialize)]
struct JsonSoloPlayer<'a> {
    name: &'a str,
    source: &'a str,
    #[serde(flatten)]
    summary: &'a SoloSummary,
}

#[derive(Serialize)]
struct JsonSoloGame<'a> {
    index: u32,
    seed: u64,
    #[serde(flatten)]
    result: &'a crate::solo::SoloScore,
}

/// A single-player series as one JSON object (docs/play-json.md).
pub fn solo_json(series: &SoloSeries, name: &str, source: &str) -> String {
    let doc = JsonSolo {
        game: series.settings.game(),
        seed: series.seed,
        settings: series.settings.json(),
        players: vec![JsonSoloPlayer { name, source, summary: &series.summary }],
        games: series
            .games
            .iter()
            .map(|g| JsonSoloGame { index: g.index, seed: g.record.seed(), result: &g.result })
            .collect(),
    };
    serde_json::to_string_pretty(&doc).expect("plain data serialises")
}

/// `game 3/10  seed 81  easy (White) vs hard (Black): hard wins in 5 plies (reached the last row)`
pub fn hexapawn_line(game: &MatchGame<Hexapawn>, total: u32, names: [&str; 2]) -> String {
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

/// The summary of a Hexapawn match.
pub fn hexapawn_summary(result: &MatchResult<Hexapawn>) -> String {
    let mut text = tally_lines(&result.tallies, "move");
    let _ = write!(
        text,
        "{} games, average {:.1} plies, seed {}",
        result.games.len(),
        result.average_moves(),
        result.config.seed
    );
    text
}

#[derive(Serialize)]
struct JsonHexapawn<'a> {
    game: &'static str,
    seed: u64,
    settings: serde_json::Value,
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
pub fn hexapawn_json(result: &MatchResult<Hexapawn>, sources: [String; 2]) -> String {
    let doc = JsonHexapawn {
        game: GameId::Hexapawn.name(),
        seed: result.config.seed,
        settings: serde_json::json!({
            "time_per_turn_ms": result.config.settings.turn_budget.as_secs_f64() * 1e3,
        }),
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

/// A duration in milliseconds, as the JSON outputs give times.
fn ms(time: Duration) -> f64 {
    time.as_secs_f64() * 1e3
}
