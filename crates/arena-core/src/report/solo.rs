//! Single-player games: a line per game, a player's summary line, the
//! summary, the JSON object.

use serde::Serialize;

use crate::play::solo::{self, SinglePlayerGame, SoloGame, SoloSeries, SoloSummary};

/// `game 3/10  seed 81  hard: score 1, won in 5 steps (found the monster)`
pub fn line<G: SinglePlayerGame>(game: &SoloGame<G>, total: u32, name: &str) -> String {
    let r = &game.result;
    let verdict = if r.won {
        "won"
    } else if r.deaths > 0 {
        "died"
    } else {
        "lost"
    };
    let progress = r
        .progress
        .zip(G::PROGRESS)
        .map_or_else(String::new, |(count, of)| format!(", {count} {}", of.counted));
    format!(
        "game {}/{total}  seed {}  {name}: score {}, {verdict} in {} steps{progress} ({})",
        game.index + 1,
        G::seed(&game.record),
        r.score,
        r.steps,
        r.reason
    )
}

/// One line for a player's series: mean with interval, rates, failures, time.
pub fn summary_line(name: &str, s: &SoloSummary) -> String {
    let progress = s.progress.map_or_else(String::new, |p| format!("  {} {:.2}", p.of.counted, p.mean));
    let failures = match s.failures.total() {
        0 => "no failures".to_string(),
        _ => format!("failures: {}", s.failures.compact()),
    };
    format!(
        "{name}  mean score {:.3} (95% {:.3} .. {:.3})  won {:.1}%  died {:.1}%{progress}  {failures}  time per game: mean {:.2} ms, max {:.2} ms",
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
pub fn summary<G: SinglePlayerGame>(name: &str, series: &SoloSeries<G>) -> String {
    format!(
        "{}\n{} games of {} ({}), seed {}",
        summary_line(name, &series.summary),
        series.summary.games,
        G::ID,
        solo::describe::<G>(&series.settings),
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
    result: &'a crate::play::solo::SoloScore,
}

/// A single-player series as one JSON object (docs/play-json.md).
pub fn json<G: SinglePlayerGame>(series: &SoloSeries<G>, name: &str, source: &str) -> String {
    let doc = JsonSolo {
        game: G::ID.name(),
        seed: series.seed,
        settings: solo::settings_json::<G>(&series.settings),
        players: vec![JsonSoloPlayer { name, source, summary: &series.summary }],
        games: series
            .games
            .iter()
            .map(|g| JsonSoloGame { index: g.index, seed: G::seed(&g.record), result: &g.result })
            .collect(),
    };
    serde_json::to_string_pretty(&doc).expect("plain data serialises")
}
