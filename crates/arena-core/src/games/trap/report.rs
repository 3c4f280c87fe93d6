//! Trap: a line per game, a board per turn, the JSON object.

use std::fmt::Write as _;

use player_api::trap::TrapState;
use serde::Serialize;

use super::Trap;
use crate::report::ms;
use crate::{
    game::GameId,
    games::trap::{
        referee::Turn,
        replay::{turn_line, JsonSettings},
    },
    play::time_control::TimeControl,
    play::two_player::{MatchGame, MatchResult, Tally},
    players::levels::{default_wins, needed_wins},
    stats::{score_interval, Wdl},
    strength::bench::{LadderReport, LevelRun},
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

#[derive(Serialize)]
struct JsonMatch<'a> {
    game: &'static str,
    seed: u64,
    settings: JsonSettings,
    /// Each player's time control, when the match gave any its own.
    #[serde(skip_serializing_if = "Option::is_none")]
    player_time_controls: Option<[TimeControl; 2]>,
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
        player_time_controls: result.config.player_controls(),
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

/// `arena bench`: the score per level with a 95% interval, the would-be
/// grade by the course's marks, and the lost games to replay.
impl LadderReport for Trap {
    fn ladder_report(name: &str, replay: &str, runs: &[LevelRun<Trap>], seed: u64) -> String {
        let mut text = String::new();
        let games = runs.first().map_or(0, |r| r.result.games.len());
        let _ = writeln!(text, "{name} against the reference levels, {games} games each (seed {seed}):\n");
        let _ = writeln!(text, "level    W    D    L  score  95% interval  the course needs");
        let mut passed_all = true;
        for run in runs {
            let t = &run.result.tallies[0];
            let interval = score_interval(Wdl::new(t.wins, t.draws, t.losses));
            // The course's marks are out of 10 games: scaled to this run as a grade scales them.
            let share = f64::from(needed_wins(run.level)) / 10.0;
            let passed = t.wins >= default_wins(&[run.level], games as u32)[0];
            passed_all &= passed;
            let _ = writeln!(
                text,
                "{:<7} {:>3}  {:>3}  {:>3}  {:>4.0}%  {:>3.0}% - {:>3.0}%   {:.0}% wins: {}",
                run.level.name(),
                t.wins,
                t.draws,
                t.losses,
                interval.score * 100.0,
                interval.lower * 100.0,
                interval.upper * 100.0,
                share * 100.0,
                if passed { "pass" } else { "FAIL" }
            );
        }
        let _ = writeln!(
            text,
            "\nwould-be grade: {} (the course: at least 6/10 wins against easy, 4/10 against medium, 2/10 against hard)",
            if passed_all { "PASS" } else { "FAIL" }
        );
        let lost: Vec<String> = runs
            .iter()
            .flat_map(|run| {
                run.result.games.iter().filter(|g| g.winner() == Some(1)).take(2).map(move |g| {
                    format!(
                        "  {}: arena play {replay} {} --seed {seed} --only-game {} --watch   ({})",
                        run.level.name(),
                        run.level.name(),
                        g.index + 1,
                        g.record.ending
                    )
                })
            })
            .collect();
        if !lost.is_empty() {
            let _ = writeln!(text, "\nlost games to replay (up to two per level):\n{}", lost.join("\n"));
        }
        for run in runs {
            let t = &run.result.tallies[0];
            if let Some(failures) = t.failure_summary() {
                let _ = writeln!(text, "\nfailures against {}: {failures}", run.level.name());
            }
        }
        text
    }
}
