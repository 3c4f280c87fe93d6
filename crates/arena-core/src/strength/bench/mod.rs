//! `arena bench PLAYER`: a student's one-command check against the
//! reference ladder (Easy, Medium, Hard): score with a 95% interval per
//! level, the would-be grade, and the lost games to replay. For Hexapawn,
//! a match against each level; for a single-player game, the player's mean
//! next to each level's on the same worlds.

pub mod time_sweep;
pub mod turning_points;

use std::fmt::Write as _;

use crate::{
    play::solo::{self, SinglePlayerGame, SoloReferee, SoloSeries, SoloSettings},
    play::time_control::TimeControl,
    play::two_player::{self, MatchConfig, MatchResult, TwoPlayerGame},
    players::{memory::MemoryDir, Hosting, Level, Player},
    replay::{live::LivePlayers, ReplayPlayer},
    stats::mean_interval,
};

/// One level's results.
pub struct LevelRun<G: TwoPlayerGame> {
    pub level: Level,
    pub result: MatchResult<G>,
}

/// The benched player's store (`--memory DIR`): given back at the start
/// of each level's match, replaced by what it hands back at the end.
pub struct Remember<'a> {
    pub stores: &'a MemoryDir,
    /// The player's store in `stores` (`memory::store_name`).
    pub name: String,
    /// Says a store not given or not kept, in one line (the results stand).
    pub warn: &'a dyn Fn(&str),
}

/// What else a bench's matches do, if asked: fed to `live` (its one player
/// is the one benched); the player keeping its `memory` from match to match
/// (the levels never learn).
#[derive(Default, Clone, Copy)]
pub struct Along<'a> {
    pub live: Option<&'a LivePlayers>,
    pub memory: Option<&'a Remember<'a>>,
}

/// Plays `games` against each level (seat-swapped pairs on shared seeds),
/// one game at a time (a learner learns through its match); `controls` are
/// the player's and the levels' own time controls, if any.
pub fn run<G: TwoPlayerGame>(
    player: &Player,
    games: u32,
    seed: u64,
    settings: G::Settings,
    hosting: &Hosting,
    controls: [Option<TimeControl>; 2],
    along: Along,
) -> Vec<LevelRun<G>> {
    let Along { live, memory } = along;
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
                controls,
                live: live.map(|live| against(live, level)),
            };
            let result = match memory {
                None => two_player::play([player, &opponent], &config, &mut |_| {}, None),
                Some(memory) => remembering(player, &opponent, &config, memory),
            };
            LevelRun { level, result }
        })
        .collect()
}

/// One level's match, the player given its store and keeping what it hands back.
fn remembering<G: TwoPlayerGame>(
    player: &Player,
    opponent: &Player,
    config: &MatchConfig<G>,
    memory: &Remember,
) -> MatchResult<G> {
    let given = memory.stores.load(&memory.name).unwrap_or_else(|why| {
        (memory.warn)(&why);
        None
    });
    let player = player.with_memory(given);
    let never = std::sync::atomic::AtomicBool::new(false);
    let (result, [kept, _]) =
        two_player::play_remembering([&player, opponent], config, &never, &mut |_| {}, None);
    match kept {
        Ok(Some(bytes)) => {
            if let Err(why) = memory.stores.keep(&memory.name, &bytes) {
                (memory.warn)(&why);
            }
        }
        Ok(None) => {}
        Err(why) => (memory.warn)(&format!("the memory of {} was not handed back: {why}", memory.name)),
    }
    result
}

/// A two-player game's `arena bench` report: its results against each
/// level; `replay` is how the player was named on the command line (for
/// the commands that replay its lost games). In `games/<game>/report.rs`.
pub trait LadderReport: TwoPlayerGame {
    fn ladder_report(name: &str, replay: &str, runs: &[LevelRun<Self>], seed: u64) -> String;
}

/// One series of a single-player ladder: the player's or a level's.
pub struct SoloLevelRun<G: SinglePlayerGame> {
    /// None: the player benched; else the level.
    pub level: Option<Level>,
    pub series: SoloSeries<G>,
}

/// `games` worlds for the player, then the same worlds for each level;
/// fed to `live` if given (its one player is the one benched).
pub fn solo_run<G: SoloReferee>(
    player: &Player,
    settings: &SoloSettings<G>,
    games: u32,
    seed: u64,
    hosting: &Hosting,
    live: Option<&LivePlayers>,
) -> Vec<SoloLevelRun<G>> {
    let series = |p: &Player, live: Option<LivePlayers>| {
        solo::play_series::<G>(p, settings, (0, games), seed, (hosting, 1), live.as_ref(), &mut |_| {})
    };
    let mut runs = vec![SoloLevelRun { level: None, series: series(player, live.cloned()) }];
    runs.extend(Level::ALL.into_iter().map(|level| {
        // The level's series, fed as the level's (its one player).
        let fed = live.map(|live| LivePlayers { players: vec![level_player(level)], ..live.clone() });
        SoloLevelRun { level: Some(level), series: series(&Player::Builtin(level), fed) }
    }));
    runs
}

/// `live`'s player, then `level`: a match against the level, fed.
fn against(live: &LivePlayers, level: Level) -> LivePlayers {
    let players = vec![live.players[0].clone(), level_player(level)];
    LivePlayers { players, ..live.clone() }
}

/// A level as replays name it.
fn level_player(level: Level) -> ReplayPlayer {
    ReplayPlayer { name: level.name().to_string(), source: level.name().to_string() }
}

/// The single-player report: each series' mean with its interval, and the
/// player's lead over each level on the same worlds (a paired difference,
/// so the worlds' luck cancels).
pub fn solo_report<G: SinglePlayerGame>(
    name: &str,
    settings: &SoloSettings<G>,
    runs: &[SoloLevelRun<G>],
    seed: u64,
) -> String {
    let mut text = String::new();
    let Some((you, levels)) = runs.split_first() else { return text };
    let _ = writeln!(
        text,
        "{name} on {} ({}), the same {} worlds for every player (seed {seed}):\n",
        G::ID,
        solo::describe::<G>(settings),
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
    if let Some(progress) = you.series.summary.progress {
        let _ = writeln!(text, "\n{} per run: {:.2}", progress.of.counted, progress.mean);
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
