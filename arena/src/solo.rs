//! Single-player games (Intuitive AI, Wumpus World, Magic Forest): a
//! player against a seeded series of worlds, scored by its mean score.
//!
//! Game `k` of a series seeded `s` is played on the world of seed
//! `seeds::derive(s, k)`, whoever plays it: `arena play`, `arena bench` and
//! a tournament's duplicate format all give players identical worlds.

use std::{
    collections::HashMap,
    time::{Duration, Instant},
};

use player_api::wumpus::StepEnd;
use serde::{Deserialize, Serialize};

use crate::{
    clock::{Clock, Spent},
    fault::{Failures, Fault, FaultKind},
    game::{Agent, GameId, IntuitiveAi, MagicForest, Unavailable, Wumpus},
    players::{Hosting, Player},
    referee::{
        intuitive::{self, IntuitiveEnding, IntuitiveRecord, IntuitiveSettings},
        magic_forest::{self, ForestRun, ForestSettings},
        wumpus::{self, WumpusGame, WumpusSettings},
    },
    replay::{self, Replay, ReplayPlayer},
    seeds,
    stats::{mean_interval, MeanInterval},
};

/// A single-player game with its settings.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum SoloSettings {
    Intuitive(IntuitiveSettings),
    Wumpus(WumpusSettings),
    Forest(ForestSettings),
}

/// The options a command line or a tournament file gives a game; `None`
/// means the game's default.
#[derive(Clone, Debug, Default)]
pub struct GameOptions {
    /// Intuitive AI: the board size N (N x N cells, N pits).
    pub board_size: Option<u8>,
    /// Wumpus World: `aima` (default) or `project`.
    pub preset: Option<String>,
    /// Magic Forest: the size of the last (largest) forest.
    pub largest_forest: Option<u8>,
    pub turn_budget: Option<Duration>,
    pub startup_budget: Option<Duration>,
    /// The clock budgets are charged on.
    pub clock: Clock,
}

/// A bad option: the option's key (`board_size`, `preset`, `largest_forest`)
/// and what is wrong with it.
#[derive(Debug, Clone, PartialEq)]
pub struct OptionError {
    pub key: &'static str,
    pub message: String,
}

impl SoloSettings {
    /// The settings of single-player game `game` with `options`; `Ok(None)`
    /// if `game` is not a single-player game. Options another game owns are
    /// errors (rather than silently ignored).
    pub fn build(game: GameId, options: &GameOptions) -> Result<Option<SoloSettings>, OptionError> {
        let wrong = |key: &'static str, owner: &str| OptionError {
            key,
            message: format!("{game} has no {}: it is for {owner}", key.replace('_', " ")),
        };
        let only = |key: &'static str, given: bool, owner: &str, this: GameId| {
            if given && game != this {
                Err(wrong(key, owner))
            } else {
                Ok(())
            }
        };
        if !game.is_single_player() {
            return Ok(None);
        }
        only("board_size", options.board_size.is_some(), "intuitive-ai (and trap)", GameId::IntuitiveAi)?;
        only("preset", options.preset.is_some(), "wumpus", GameId::Wumpus)?;
        only("largest_forest", options.largest_forest.is_some(), "magic-forest", GameId::MagicForest)?;
        let turn = options.turn_budget.unwrap_or(Duration::from_secs(5));
        let startup = options.startup_budget.unwrap_or(Duration::from_secs(10));
        let clock = options.clock;
        let settings = match game {
            GameId::IntuitiveAi => {
                use player_api::intuitive::{DEFAULT_SIZE, MAX_SIZE, MIN_SIZE};
                let size = options.board_size.unwrap_or(DEFAULT_SIZE);
                if !(MIN_SIZE..=MAX_SIZE).contains(&size) {
                    return Err(OptionError {
                        key: "board_size",
                        message: format!(
                            "board size {size}: Intuitive AI boards are {MIN_SIZE} to {MAX_SIZE}"
                        ),
                    });
                }
                SoloSettings::Intuitive(IntuitiveSettings {
                    clock,
                    size,
                    turn_budget: turn,
                    startup_budget: startup,
                })
            }
            GameId::Wumpus => {
                let name = options.preset.as_deref().unwrap_or("aima");
                let config = player_api::wumpus::WumpusConfig::preset(name).ok_or_else(|| OptionError {
                    key: "preset",
                    message: format!("unknown preset \"{name}\": use aima or project"),
                })?;
                SoloSettings::Wumpus(WumpusSettings {
                    config,
                    step_budget: turn,
                    startup_budget: startup,
                    clock,
                })
            }
            _ => {
                let mut config = player_api::magic_forest::ForestConfig::default();
                config.largest = options.largest_forest.unwrap_or(config.largest);
                config.check().map_err(|e| OptionError { key: "largest_forest", message: e.to_string() })?;
                SoloSettings::Forest(ForestSettings {
                    config,
                    step_budget: turn,
                    startup_budget: startup,
                    clock,
                })
            }
        };
        Ok(Some(settings))
    }

    /// The game's name, as `--game` and tournament files spell it.
    pub fn game(&self) -> &'static str {
        match self {
            SoloSettings::Intuitive(_) => GameId::IntuitiveAi,
            SoloSettings::Wumpus(_) => GameId::Wumpus,
            SoloSettings::Forest(_) => GameId::MagicForest,
        }
        .name()
    }

    pub fn startup_budget(&self) -> Duration {
        match self {
            SoloSettings::Intuitive(s) => s.startup_budget,
            SoloSettings::Wumpus(s) => s.startup_budget,
            SoloSettings::Forest(s) => s.startup_budget,
        }
    }

    /// The budget of one request (a reveal, a step).
    pub fn turn_budget(&self) -> Duration {
        match self {
            SoloSettings::Intuitive(s) => s.turn_budget,
            SoloSettings::Wumpus(s) => s.step_budget,
            SoloSettings::Forest(s) => s.step_budget,
        }
    }

    /// What decides the worlds, for people: "4x4 board", "aima preset", ...
    pub fn describe(&self) -> String {
        match self {
            SoloSettings::Intuitive(s) => format!("{0}x{0} board", s.size),
            SoloSettings::Wumpus(s) => match preset_name(s) {
                Some(name) => format!("{name} preset"),
                None => format!("{0}x{0} cave", s.config.size),
            },
            SoloSettings::Forest(s) => format!("forests 3x3 to {0}x{0}", s.config.largest),
        }
    }

    /// The settings as `--json` and standings show them.
    pub fn json(&self) -> serde_json::Value {
        let turn_ms = self.turn_budget().as_secs_f64() * 1e3;
        match self {
            SoloSettings::Intuitive(s) => {
                serde_json::json!({ "board_size": s.size, "time_per_turn_ms": turn_ms })
            }
            SoloSettings::Wumpus(s) => serde_json::json!({
                "preset": preset_name(s),
                "size": s.config.size,
                "time_per_turn_ms": turn_ms,
            }),
            SoloSettings::Forest(s) => {
                serde_json::json!({ "largest_forest": s.config.largest, "time_per_turn_ms": turn_ms })
            }
        }
    }

    /// Plays game `seed` with `agent` (of this game's kind).
    fn play(&self, seed: u64, agent: &mut SoloAgent) -> SoloRecord {
        match (self, agent) {
            (SoloSettings::Intuitive(s), SoloAgent::Intuitive(a)) => {
                SoloRecord::Intuitive(intuitive::play_agent(s, seed, a.as_mut()))
            }
            (SoloSettings::Wumpus(s), SoloAgent::Wumpus(a)) => {
                SoloRecord::Wumpus(wumpus::play_agent(s, seed, a.as_mut()))
            }
            (SoloSettings::Forest(s), SoloAgent::Forest(a)) => {
                SoloRecord::Forest(magic_forest::play_agent(s, seed, a.as_mut()))
            }
            _ => unreachable!("agents are made for the settings they play"),
        }
    }

    /// A new instance of `player` for this game; one that cannot start
    /// loses its game by the fault (the referee records it).
    fn new_agent(&self, player: &Player, hosting: &Hosting) -> SoloAgent {
        let startup = self.startup_budget();
        match self {
            SoloSettings::Intuitive(_) => SoloAgent::Intuitive(
                player
                    .new_agent::<IntuitiveAi>(hosting, startup)
                    .unwrap_or_else(|f| Box::new(Unavailable(f))),
            ),
            SoloSettings::Wumpus(_) => SoloAgent::Wumpus(
                player.new_agent::<Wumpus>(hosting, startup).unwrap_or_else(|f| Box::new(Unavailable(f))),
            ),
            SoloSettings::Forest(_) => SoloAgent::Forest(
                player
                    .new_agent::<MagicForest>(hosting, startup)
                    .unwrap_or_else(|f| Box::new(Unavailable(f))),
            ),
        }
    }
}

fn preset_name(settings: &WumpusSettings) -> Option<&'static str> {
    ["aima", "project"]
        .into_iter()
        .find(|name| player_api::wumpus::WumpusConfig::preset(name) == Some(settings.config))
}

/// A finished game, whole: what a replay of it needs.
#[derive(Clone, Debug, PartialEq)]
pub enum SoloRecord {
    Intuitive(IntuitiveRecord),
    Wumpus(WumpusGame),
    Forest(ForestRun),
}

impl SoloRecord {
    /// The game's replay; `settings` are the ones it was played with (the
    /// records of Wumpus World and Magic Forest keep the rules, not the budgets).
    pub fn replay(&self, settings: &SoloSettings, player: ReplayPlayer) -> Replay {
        match (self, settings) {
            (SoloRecord::Intuitive(r), _) => replay::intuitive::from_record(r, player),
            (SoloRecord::Wumpus(r), SoloSettings::Wumpus(s)) => replay::wumpus::from_record(r, s, player),
            (SoloRecord::Forest(r), SoloSettings::Forest(s)) => {
                replay::magic_forest::from_record(r, s, player)
            }
            _ => unreachable!("a record is replayed with the settings it was played with"),
        }
    }

    pub fn seed(&self) -> u64 {
        match self {
            SoloRecord::Intuitive(r) => r.seed,
            SoloRecord::Wumpus(r) => r.seed,
            SoloRecord::Forest(r) => r.seed,
        }
    }

    /// The game as results count it (`time_us` left 0: the caller times).
    pub fn score(&self) -> SoloScore {
        let fault = |f: &Fault| Some(f.kind().name().to_string());
        match self {
            SoloRecord::Intuitive(r) => SoloScore {
                score: r.score.into(),
                won: r.ending == IntuitiveEnding::Monster,
                deaths: u32::from(r.ending == IntuitiveEnding::Pit),
                steps: r.reveals.len() as u32,
                reason: r.ending.to_string(),
                fault: match &r.ending {
                    IntuitiveEnding::Illegal { .. } => Some(FaultKind::Illegal.name().to_string()),
                    IntuitiveEnding::Fault(f) => fault(f),
                    _ => None,
                },
                cleared: None,
                time_us: 0,
                cpu_us: cpu_us(r.reveals.iter().map(|x| x.time)),
            },
            SoloRecord::Wumpus(r) => SoloScore {
                score: r.score.into(),
                won: r.won(),
                deaths: u32::from(r.died()),
                steps: r.steps.len() as u32,
                reason: r.ending.to_string(),
                fault: match &r.ending {
                    wumpus::Ending::Rules(StepEnd::Invalid(..)) => {
                        Some(FaultKind::Illegal.name().to_string())
                    }
                    wumpus::Ending::Fault(f) => fault(f),
                    _ => None,
                },
                cleared: None,
                time_us: 0,
                cpu_us: cpu_us(r.steps.iter().map(|x| x.time)),
            },
            SoloRecord::Forest(r) => SoloScore {
                score: r.score.into(),
                won: r.won(),
                deaths: r.deaths,
                steps: r.steps.len() as u32,
                reason: r.ending.to_string(),
                fault: match &r.ending {
                    magic_forest::Ending::Fault(f) => fault(f),
                    _ => None,
                },
                cleared: Some(r.cleared),
                time_us: 0,
                cpu_us: cpu_us(r.steps.iter().map(|x| x.time)),
            },
        }
    }
}

/// One game as results, journals and reports count it.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct SoloScore {
    pub score: i64,
    /// Won: the monster found, out with the gold, every forest cleared.
    pub won: bool,
    /// Deaths by the world (a pit, the wumpus, a forest's monster or trap);
    /// faults and invalid actions are scored as deaths but not counted here.
    pub deaths: u32,
    /// Requests answered (reveals, steps).
    pub steps: u32,
    /// How the game ended.
    pub reason: String,
    /// The kind of failure that ended it ("timeout", "illegal", ...).
    pub fault: Option<String>,
    /// Magic Forest: forests cleared.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cleared: Option<u32>,
    /// Wall-clock time of the whole game (the player's answers and the referee).
    pub time_us: u64,
    /// CPU time the player's answers used (older journals: 0).
    #[serde(default)]
    pub cpu_us: u64,
}

/// The CPU time of a game's answers, in microseconds.
fn cpu_us(times: impl Iterator<Item = Spent>) -> u64 {
    times.map(|t| t.cpu).sum::<Duration>().as_micros() as u64
}

/// One player's results over a series of games.
#[derive(Serialize, Debug, Clone, PartialEq)]
pub struct SoloSummary {
    pub games: u32,
    pub mean_score: f64,
    /// The mean's 95% interval, `[lower, upper]`.
    pub interval: [f64; 2],
    pub win_rate: f64,
    /// Share of games with at least one death.
    pub death_rate: f64,
    /// Magic Forest: mean forests cleared per run.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub forests_cleared: Option<f64>,
    pub failures: Failures,
    pub mean_game_ms: f64,
    pub max_game_ms: f64,
}

impl SoloSummary {
    pub fn of<'a>(scores: impl IntoIterator<Item = &'a SoloScore>) -> SoloSummary {
        let scores: Vec<&SoloScore> = scores.into_iter().collect();
        let n = scores.len().max(1) as f64;
        let share = |count: usize| count as f64 / n;
        let MeanInterval { mean, lower, upper } =
            mean_interval(&scores.iter().map(|s| s.score as f64).collect::<Vec<_>>());
        let mut failures = Failures::default();
        scores.iter().filter_map(|s| s.fault.as_deref()).for_each(|kind| failures.add(kind));
        let cleared: Vec<u32> = scores.iter().filter_map(|s| s.cleared).collect();
        let time_ms = |us: u64| us as f64 / 1e3;
        SoloSummary {
            games: scores.len() as u32,
            mean_score: mean,
            interval: [lower, upper],
            win_rate: share(scores.iter().filter(|s| s.won).count()),
            death_rate: share(scores.iter().filter(|s| s.deaths > 0).count()),
            forests_cleared: (!cleared.is_empty())
                .then(|| cleared.iter().map(|&c| f64::from(c)).sum::<f64>() / cleared.len() as f64),
            failures,
            mean_game_ms: time_ms(scores.iter().map(|s| s.time_us).sum::<u64>()) / n,
            max_game_ms: time_ms(scores.iter().map(|s| s.time_us).max().unwrap_or(0)),
        }
    }
}

/// One game of a series.
#[derive(Clone, Debug)]
pub struct SoloGame {
    pub index: u32,
    pub result: SoloScore,
    pub record: SoloRecord,
}

/// A series of games by one player.
pub struct SoloSeries {
    pub settings: SoloSettings,
    pub seed: u64,
    pub games: Vec<SoloGame>,
    pub summary: SoloSummary,
}

/// The seed of game `index` of a series (or a duplicate tournament) seeded `base`.
pub fn game_seed(base: u64, index: u32) -> u64 {
    seeds::derive(base, u64::from(index))
}

/// Plays games `first..first + games` of the series seeded `seed`,
/// `concurrency` at a time, each thread with one instance of `player` (a new
/// one after a fault). `on_game` sees each game in order.
pub fn play_series(
    player: &Player,
    settings: &SoloSettings,
    (first, games): (u32, u32),
    seed: u64,
    (hosting, concurrency): (&Hosting, usize),
    on_game: &mut dyn FnMut(&SoloGame),
) -> SoloSeries {
    let list = [player.clone()];
    let mut played = Vec::with_capacity(games as usize);
    crate::parallel::play_in_order(
        first..first + games,
        concurrency,
        || SoloPool::new(&list, hosting.clone()),
        |pool, index| {
            let (result, record) = pool.play(0, game_seed(seed, index), settings);
            SoloGame { index, result, record }
        },
        |_, game| {
            on_game(&game);
            played.push(game);
        },
    );
    let summary = SoloSummary::of(played.iter().map(|g| &g.result));
    SoloSeries { settings: *settings, seed, games: played, summary }
}

/// A live single-player instance of some game.
enum SoloAgent {
    Intuitive(Box<dyn Agent<IntuitiveAi>>),
    Wumpus(Box<dyn Agent<Wumpus>>),
    Forest(Box<dyn Agent<MagicForest>>),
}

/// Live instances of single-player games, one per player id, reused game
/// after game; one that failed is replaced by a fresh one for its next game.
pub struct SoloPool<'p> {
    players: &'p [Player],
    hosting: Hosting,
    live: HashMap<usize, SoloAgent>,
}

impl<'p> SoloPool<'p> {
    pub fn new(players: &'p [Player], hosting: Hosting) -> SoloPool<'p> {
        SoloPool { players, hosting, live: HashMap::new() }
    }

    /// Plays game `seed` with player `id`: its result (timed) and its record.
    pub fn play(&mut self, id: usize, seed: u64, settings: &SoloSettings) -> (SoloScore, SoloRecord) {
        let started = Instant::now();
        let mut agent = match self.live.remove(&id) {
            Some(agent) => agent,
            None => settings.new_agent(&self.players[id], &self.hosting),
        };
        let record = settings.play(seed, &mut agent);
        let mut result = record.score();
        result.time_us = started.elapsed().as_micros() as u64;
        // A player that failed gets a fresh instance next time: whatever
        // state it was in is not trusted.
        if result.fault.is_none() || result.fault.as_deref() == Some(FaultKind::Illegal.name()) {
            self.live.insert(id, agent);
        }
        (result, record)
    }
}
