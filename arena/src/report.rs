//! How a match is shown: a line per game, a board per turn (`--watch`), a
//! summary, or one JSON object for scripts (schema in docs/play-json.md).

use std::fmt::Write as _;

use player_api::trap::TrapState;
use serde::{Deserialize, Serialize};

use crate::{
    matches::{MatchGame, MatchResult, Tally},
    referee::trap::{TrapSettings, Turn},
    units::short,
};

/// `game 3/10  seed 81  easy (P1) vs hard (P2): hard wins in 23 turns (trapped)`
pub fn game_line(game: &MatchGame, total: u32, names: [&str; 2]) -> String {
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

/// `player 1 (easy) moves (0,3) -> (1,3), throws at (4,3) (p = 0.85): lands on (4,4)`
pub fn turn_line(turn: &Turn, name: &str) -> String {
    let mut text = format!("{} ({name}) moves {} -> {}", turn.seat, turn.from, turn.to);
    match turn.throw {
        Some(t) if t.landed == t.target => {
            let _ = write!(text, ", throws at {} (p = {:.2}): hit", t.target, t.hit_chance);
        }
        Some(t) => {
            let _ = write!(text, ", throws at {} (p = {:.2}): lands on {}", t.target, t.hit_chance, t.landed);
        }
        None => text.push_str(" and the opponent cannot move"),
    }
    text
}

/// The summary after the games: one line per player, then the average length.
pub fn summary(result: &MatchResult) -> String {
    let mut text = String::new();
    let width = result.tallies.iter().map(|t| t.name.len()).max().unwrap_or(0);
    for t in &result.tallies {
        let _ = writeln!(
            text,
            "{:width$}  {} wins  {} draws  {} losses  {}  time per turn: mean {}, max {}",
            t.name,
            t.wins,
            t.draws,
            t.losses,
            failures(t),
            short(t.mean_turn_time()),
            short(t.time_max),
        );
    }
    let _ = write!(
        text,
        "{} games, average {:.1} turns, seed {}",
        result.games.len(),
        result.average_turns(),
        result.config.seed
    );
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

/// A game's settings as `--json` and replays show them.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct JsonSettings {
    pub board_size: u8,
    pub time_per_turn_ms: f64,
    pub turn_cap: u32,
}

impl From<&TrapSettings> for JsonSettings {
    fn from(settings: &TrapSettings) -> JsonSettings {
        JsonSettings {
            board_size: settings.size,
            time_per_turn_ms: settings.turn_budget.as_secs_f64() * 1e3,
            turn_cap: settings.turn_cap,
        }
    }
}

#[derive(Serialize)]
struct JsonPlayer<'a> {
    #[serde(flatten)]
    tally: &'a Tally,
    source: String,
    mean_turn_ms: f64,
    max_turn_ms: f64,
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
pub fn json(result: &MatchResult, sources: [String; 2]) -> String {
    let settings = &result.config.settings;
    let doc = JsonMatch {
        game: "trap",
        seed: result.config.seed,
        settings: JsonSettings::from(settings),
        players: result
            .tallies
            .iter()
            .zip(sources)
            .map(|(tally, source)| JsonPlayer {
                tally,
                source,
                mean_turn_ms: tally.mean_turn_time().as_secs_f64() * 1e3,
                max_turn_ms: tally.time_max.as_secs_f64() * 1e3,
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
        average_turns: result.average_turns(),
    };
    serde_json::to_string_pretty(&doc).expect("plain data serialises")
}
