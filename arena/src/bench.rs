//! `arena bench PLAYER`: a student's one-command check against the
//! reference ladder (Easy, Medium, Hard): score with a 95% interval per
//! level, the would-be grade, and the lost games to replay. For Hexapawn,
//! a match against each level; for a single-player game, the player's mean
//! next to each level's on the same worlds.

use std::fmt::Write as _;

use crate::{
    games::{hexapawn::Hexapawn, trap::Trap},
    players::{Hosting, Level, Player},
    solo::{self, SoloSeries, SoloSettings},
    stats::{mean_interval, score_interval, Wdl},
    tournament::needed_wins,
    two_player::{self, MatchConfig, MatchResult, TwoPlayerGame},
};

/// One level's results.
pub struct LevelRun<G: TwoPlayerGame> {
    pub level: Level,
    pub result: MatchResult<G>,
}

/// Plays `games` against each level (seat-swapped pairs on shared seeds),
/// one game at a time (a learner learns through its match).
pub fn run<G: TwoPlayerGame>(
    player: &Player,
    games: u32,
    seed: u64,
    settings: G::Settings,
    hosting: &Hosting,
) -> Vec<LevelRun<G>> {
    Level::ALL
        .into_iter()
        .map(|level| {
            let opponent = Player::Builtin(level);
            let config = MatchConfig {
                settings,
                games,
                seed,
                hosting: hosting.clone(),
                first_game: 0,
                concurrency: 1,
            };
            LevelRun { level, result: two_player::play([player, &opponent], &config, &mut |_| {}, None) }
        })
        .collect()
}

/// The report; `replay` is how the player was named on the command line.
pub fn report(name: &str, replay: &str, runs: &[LevelRun<Trap>], seed: u64) -> String {
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

/// One series of a single-player ladder: the player's or a level's.
pub struct SoloLevelRun {
    /// None: the player benched; else the level.
    pub level: Option<Level>,
    pub series: SoloSeries,
}

/// `games` worlds for the player, then the same worlds for each level.
pub fn solo_run(
    player: &Player,
    settings: &SoloSettings,
    games: u32,
    seed: u64,
    hosting: &Hosting,
) -> Vec<SoloLevelRun> {
    let series = |p: &Player| solo::play_series(p, settings, (0, games), seed, (hosting, 1), &mut |_| {});
    let mut runs = vec![SoloLevelRun { level: None, series: series(player) }];
    runs.extend(
        Level::ALL
            .into_iter()
            .map(|level| SoloLevelRun { level: Some(level), series: series(&Player::Builtin(level)) }),
    );
    runs
}

/// The single-player report: each series' mean with its interval, and the
/// player's lead over each level on the same worlds (a paired difference,
/// so the worlds' luck cancels).
pub fn solo_report(name: &str, settings: &SoloSettings, runs: &[SoloLevelRun], seed: u64) -> String {
    let mut text = String::new();
    let Some((you, levels)) = runs.split_first() else { return text };
    let _ = writeln!(
        text,
        "{name} on {} ({}), the same {} worlds for every player (seed {seed}):\n",
        settings.game(),
        settings.describe(),
        you.series.summary.games
    );
    let _ = writeln!(text, "player        mean  95% interval        won   died  you - player (95%)");
    for run in runs {
        let s = &run.series.summary;
        let label = run.level.map_or_else(|| format!("{name} (you)"), |l| l.name().to_string());
        let lead = match run.level {
            None => String::new(),
            Some(_) => {
                let diffs: Vec<f64> = you
                    .series
                    .games
                    .iter()
                    .zip(&run.series.games)
                    .map(|(a, b)| (a.result.score - b.result.score) as f64)
                    .collect();
                let d = mean_interval(&diffs);
                format!("{:+.3} ({:+.3} .. {:+.3})", d.mean, d.lower, d.upper)
            }
        };
        let _ = writeln!(
            text,
            "{:<12} {:>6.3}  {:>7.3} .. {:<7.3} {:>5.1}% {:>5.1}%  {lead}",
            truncate(&label, 12),
            s.mean_score,
            s.interval[0],
            s.interval[1],
            100.0 * s.win_rate,
            100.0 * s.death_rate,
        );
    }
    if let Some(cleared) = you.series.summary.progress.map(|p| p.mean) {
        let _ = writeln!(text, "\nforests cleared per run: {cleared:.2}");
    }
    let beaten: Vec<&str> = levels
        .iter()
        .filter(|r| you.series.summary.mean_score > r.series.summary.interval[1])
        .filter_map(|r| r.level.map(Level::name))
        .collect();
    let _ = writeln!(
        text,
        "\nabove the interval of: {}",
        if beaten.is_empty() { "no level".to_string() } else { beaten.join(", ") }
    );
    if let Some(failures) =
        (you.series.summary.failures.total() > 0).then(|| you.series.summary.failures.compact())
    {
        let _ = writeln!(text, "failures: {failures}");
    }
    text
}

fn truncate(text: &str, width: usize) -> String {
    text.chars().take(width).collect()
}

/// The Hexapawn report: wins with a 95% interval per level, by colour.
pub fn hexapawn_report(name: &str, runs: &[LevelRun<Hexapawn>], seed: u64) -> String {
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
