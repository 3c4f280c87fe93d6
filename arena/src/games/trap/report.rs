//! Trap: a line per game, a board per turn, the summary, the JSON object.

use player_api::trap::TrapState;
use serde::Serialize;

use super::Trap;
use crate::report::{match_summary, ms};
use crate::{
    game::GameId,
    games::trap::{
        referee::Turn,
        replay::{turn_line, JsonSettings},
    },
    two_player::{MatchGame, MatchResult, Tally},
};

/// `game 3/10  seed 81  easy (P1) vs hard (P2): hard wins in 23 turns (trapped)`
pub fn line(game: &MatchGame<Trap>, total: u32, names: [&str; 2]) -> String {
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
    match_summary(result, "turn", "turns")
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
