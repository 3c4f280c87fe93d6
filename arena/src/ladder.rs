//! `arena bench PLAYER`: a student's one-command check against the
//! reference ladder (Easy, Medium, Hard): score with a 95% interval per
//! level, the would-be grade, and the lost games to replay.

use std::fmt::Write as _;

use crate::{
    matches::{self, MatchConfig, MatchResult},
    players::{Hosting, Level, Player},
    referee::trap::TrapSettings,
    stats::{score_interval, Wdl},
    tournament::needed_wins,
};

/// One level's results.
pub struct LevelRun {
    pub level: Level,
    pub result: MatchResult,
}

/// Plays `games` against each level (seat-swapped pairs on shared seeds).
pub fn run(
    player: &Player,
    games: u32,
    seed: u64,
    settings: TrapSettings,
    hosting: &Hosting,
) -> Vec<LevelRun> {
    Level::ALL
        .into_iter()
        .map(|level| {
            let opponent = Player::Builtin(level);
            let config = MatchConfig { settings, games, seed, hosting: hosting.clone(), first_game: 0 };
            LevelRun { level, result: matches::play([player, &opponent], &config, &mut |_| {}, None) }
        })
        .collect()
}

/// The report; `replay` is how the player was named on the command line.
pub fn report(name: &str, replay: &str, runs: &[LevelRun], seed: u64) -> String {
    let mut text = String::new();
    let games = runs.first().map_or(0, |r| r.result.games.len());
    let _ = writeln!(text, "{name} against the reference levels, {games} games each (seed {seed}):\n");
    let _ = writeln!(text, "level    W    D    L  score  95% interval  the course needs");
    let mut passed_all = true;
    for run in runs {
        let t = &run.result.tallies[0];
        let interval = score_interval(Wdl::new(t.wins, t.draws, t.losses));
        // The course's marks are out of 10 games: scale them to this run.
        let share = f64::from(needed_wins(run.level)) / 10.0;
        let passed = f64::from(t.wins) >= share * games as f64;
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
