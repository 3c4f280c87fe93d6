//! Single-player games (Intuitive AI, Wumpus World, Magic Forest): a
//! player against a seeded series of worlds, scored by its mean score.
//!
//! Game `k` of a series seeded `s` is played on the world of seed
//! `seeds::derive(s, k)`, whoever plays it: `arena play`, `arena bench` and
//! a tournament's duplicate format all give players identical worlds.
//!
//! `solo_games!`, fed the table's single-player lines, generates
//! `SoloSettings` and `SoloRecord` (a game's settings or record, for the
//! CLI and tournaments) and their dispatch.

use std::{
    collections::HashMap,
    fmt,
    time::{Duration, Instant},
};

use serde::{Deserialize, Serialize};

mod referee;
pub mod replay;

pub use self::referee::{
    play, play_in, play_local, player_seed, world, Budgeted, DebugAs, Ending, SoloReferee, Timed,
};

pub use crate::clock::Budgets;
use crate::time_control::TimeControl;
use crate::{
    agent::AbiGame,
    clock::Spent,
    fault::{Failures, Fault, FaultKind},
    game::{Agent, Game, GameId, Unavailable},
    isolation::WireGame,
    players::{Hosting, Player},
    replay::{Replay, ReplayPlayer},
    seeds,
    stats::{mean_interval, MeanInterval},
};

/// A single-player game as the one single-player driver plays it: its
/// rules (its settings are [`Budgeted`] rules), its record, and what results
/// and replays read off the record; the one referee plays it through
/// [`SoloReferee`]. Implemented in `games/<game>/mod.rs`; a `single_player`
/// line of the games table (`games/mod.rs`).
pub trait SinglePlayerGame: AbiGame + WireGame {
    /// What decides the worlds: a board size, a configuration.
    type Rules: Copy + fmt::Debug + PartialEq + DebugAs;
    /// A finished game, whole: what a replay of it needs.
    type Record: Clone + fmt::Debug + PartialEq;
    /// The name tournament fingerprints give its settings (older journals
    /// were fingerprinted with it: changing it stops them resuming).
    const FINGERPRINT_NAME: &'static str;
    /// What it counts of how far a run got besides its score, if anything
    /// (its `SoloScore::progress`), and how reports name it.
    const PROGRESS: Option<RunMeasure> = None;

    /// What decides the worlds, for people: "4x4 board", "aima preset", ...
    fn describe(rules: &Self::Rules) -> String;
    /// The rules as `--json` and standings show them (an object; the
    /// budget is added to it).
    fn json(rules: &Self::Rules) -> serde_json::Value;
    fn seed(record: &Self::Record) -> u64;
    /// The game as results count it (`time_us` left 0: the caller times).
    fn score(record: &Self::Record) -> SoloScore;
    /// The game's replay; `settings` are the ones it was played with.
    fn replay(record: &Self::Record, settings: &Budgeted<Self::Rules>, player: ReplayPlayer) -> Replay;
}

/// The single-player games' lines of the games table: the variant
/// `SoloSettings`, `SoloRecord` and the live agents hold it in, and its
/// `SinglePlayerGame` type.
/// Everything below dispatches through here, once per method.
macro_rules! solo_games {
    (() $($variant:ident = $game:path, $name:literal, $kind:ident;)*) => {
        /// A single-player game with its settings.
        #[derive(Clone, Copy, Debug, PartialEq)]
        pub enum SoloSettings {
            $($variant(Budgeted<<$game as SinglePlayerGame>::Rules>)),*
        }

        /// A finished game of some single-player game.
        #[derive(Clone, Debug, PartialEq)]
        pub enum SoloRecord {
            $($variant(<$game as SinglePlayerGame>::Record)),*
        }

        /// A live instance of a player of some single-player game.
        enum SoloAgent {
            $($variant(Box<dyn Agent<$game>>)),*
        }

        /// What game `game` counts of how far a run got, if it is a
        /// single-player game that counts something.
        pub fn progress_of(game: GameId) -> Option<RunMeasure> {
            match game {
                $(GameId::$variant => <$game as SinglePlayerGame>::PROGRESS,)*
                #[allow(unreachable_patterns)]
                _ => None,
            }
        }

        /// What the single-player games count of how far a run got, in the
        /// table's order (one each at most).
        pub fn progress_measures() -> Vec<RunMeasure> {
            [$(<$game as SinglePlayerGame>::PROGRESS),*].into_iter().flatten().collect()
        }

        impl SoloSettings {
            fn fingerprint_parts(&self) -> (&'static str, String) {
                match self { $(SoloSettings::$variant(s) => (<$game as SinglePlayerGame>::FINGERPRINT_NAME, format!("{s:?}"))),* }
            }

            /// The game these settings are for.
            pub fn id(&self) -> GameId {
                match self { $(SoloSettings::$variant(_) => <$game as Game>::ID),* }
            }

            pub fn budgets(&self) -> Budgets {
                match self { $(SoloSettings::$variant(s) => s.budgets),* }
            }

            /// The settings with each step timed by `control`.
            pub fn with_time(&self, control: TimeControl) -> SoloSettings {
                let mut timed = *self;
                match &mut timed { $(SoloSettings::$variant(s) => s.budgets.turn = control),* }
                timed
            }

            /// What decides the worlds, for people: "4x4 board", "aima preset", ...
            pub fn describe(&self) -> String {
                match self { $(SoloSettings::$variant(s) => <$game as SinglePlayerGame>::describe(&s.rules)),* }
            }

            /// The rules as the game shows them.
            fn rules_json(&self) -> serde_json::Value {
                match self { $(SoloSettings::$variant(s) => <$game as SinglePlayerGame>::json(&s.rules)),* }
            }

            /// Plays game `seed` with `live` if it is an instance of this
            /// game, else with a new instance of `player`; that instance goes
            /// back with the record. One that cannot start loses its game by
            /// the fault (the referee records it).
            fn play(&self, seed: u64, live: Option<SoloAgent>, player: &Player, hosting: &Hosting) -> (SoloRecord, SoloAgent) {
                match self {
                    $(SoloSettings::$variant(s) => {
                        let mut agent = match live {
                            Some(SoloAgent::$variant(agent)) => agent,
                            _ => new_agent::<$game>(player, hosting, s.budgets.startup),
                        };
                        let record = play::<$game>(s, seed, agent.as_mut());
                        (SoloRecord::$variant(record), SoloAgent::$variant(agent))
                    })*
                }
            }
        }

        impl SoloRecord {
            /// The game's replay; `settings` are the ones it was played with.
            pub fn replay(&self, settings: &SoloSettings, player: ReplayPlayer) -> Replay {
                match (self, settings) {
                    $((SoloRecord::$variant(r), SoloSettings::$variant(s)) => <$game as SinglePlayerGame>::replay(r, s, player),)*
                    #[allow(unreachable_patterns)]
                    _ => unreachable!("a record is replayed with the settings it was played with"),
                }
            }

            pub fn seed(&self) -> u64 {
                match self { $(SoloRecord::$variant(r) => <$game as SinglePlayerGame>::seed(r)),* }
            }

            /// The game played.
            pub fn id(&self) -> GameId {
                match self { $(SoloRecord::$variant(_) => <$game as Game>::ID),* }
            }

            /// The game as results count it (`time_us` left 0: the caller times).
            pub fn score(&self) -> SoloScore {
                match self { $(SoloRecord::$variant(r) => <$game as SinglePlayerGame>::score(r)),* }
            }
        }
    };
}

crate::games::table!({crate::game::games} only single_player {solo_games} ());

impl SoloSettings {
    /// The game's name, as `--game` and tournament files spell it.
    pub fn game(&self) -> &'static str {
        self.id().name()
    }

    pub fn startup_budget(&self) -> Duration {
        self.budgets().startup
    }

    /// How one request (a reveal, a step) is timed.
    pub fn time_control(&self) -> TimeControl {
        self.budgets().turn
    }

    /// The settings as a tournament's fingerprint reads them.
    pub fn fingerprint(&self) -> String {
        let (name, settings) = self.fingerprint_parts();
        format!("{name}({settings})")
    }

    /// The settings as `--json` and standings show them: the rules and the
    /// budget of a request.
    pub fn json(&self) -> serde_json::Value {
        let mut json = self.rules_json();
        let (ms, bank) = self.time_control().recorded();
        json["time_per_turn_ms"] = ms.into();
        if let Some(bank) = bank {
            json["time_control"] = bank.to_string().into();
        }
        json
    }
}

/// A new instance of `player` for game `G`; one that cannot start is
/// `Unavailable` and loses its game by the fault.
fn new_agent<G: SinglePlayerGame>(
    player: &Player,
    hosting: &Hosting,
    startup: Duration,
) -> Box<dyn Agent<G>> {
    player.new_agent::<G>(hosting, startup).unwrap_or_else(|f| Box::new(Unavailable(f)))
}

/// The name of the failure `fault` for results ("timeout", "illegal", ...).
pub(crate) fn fault_name(fault: &Fault) -> Option<String> {
    Some(fault.kind().name().to_string())
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
    /// How far it got, for the games that count it (`SinglePlayerGame::
    /// PROGRESS`; journals and `--json` call it `cleared`).
    #[serde(default, rename = "cleared", skip_serializing_if = "Option::is_none")]
    pub progress: Option<u32>,
    /// Wall-clock time of the whole game (the player's answers and the referee).
    pub time_us: u64,
    /// CPU time the player's answers used (older journals: 0).
    #[serde(default)]
    pub cpu_us: u64,
    /// Times the game was played again because the machine spoiled it.
    #[serde(default, skip_serializing_if = "crate::units::is_zero")]
    pub replayed: u32,
}

/// What a single-player game counts of how far a run got besides its score
/// (Magic Forest: the forests cleared), as reports name it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RunMeasure {
    /// What is counted, after a number: "forests cleared".
    pub counted: &'static str,
    /// Its column in standings tables: "forests".
    pub column: &'static str,
    /// Its mean per run's key in JSON and CSV: "forests_cleared".
    pub key: &'static str,
}

/// The mean count of a `RunMeasure` per run; serialised as `{key: mean}`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MeanProgress {
    pub of: RunMeasure,
    pub mean: f64,
}

impl Serialize for MeanProgress {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = serializer.serialize_map(Some(1))?;
        map.serialize_entry(self.of.key, &self.mean)?;
        map.end()
    }
}

/// The CPU time of a game's answers, in microseconds.
pub(crate) fn cpu_us(times: impl Iterator<Item = Spent>) -> u64 {
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
    /// The mean progress per run, for games that count it.
    #[serde(flatten)]
    pub progress: Option<MeanProgress>,
    pub failures: Failures,
    pub mean_game_ms: f64,
    pub max_game_ms: f64,
}

impl SoloSummary {
    /// The summary of `scores`, games of a game counting `progress`.
    pub fn of<'a>(
        progress: Option<RunMeasure>,
        scores: impl IntoIterator<Item = &'a SoloScore>,
    ) -> SoloSummary {
        let scores: Vec<&SoloScore> = scores.into_iter().collect();
        let n = scores.len().max(1) as f64;
        let share = |count: usize| count as f64 / n;
        let MeanInterval { mean, lower, upper } =
            mean_interval(&scores.iter().map(|s| s.score as f64).collect::<Vec<_>>());
        let mut failures = Failures::default();
        scores.iter().filter_map(|s| s.fault.as_deref()).for_each(|kind| failures.add(kind));
        let counts: Vec<u32> = scores.iter().filter_map(|s| s.progress).collect();
        let time_ms = |us: u64| us as f64 / 1e3;
        SoloSummary {
            games: scores.len() as u32,
            mean_score: mean,
            interval: [lower, upper],
            win_rate: share(scores.iter().filter(|s| s.won).count()),
            death_rate: share(scores.iter().filter(|s| s.deaths > 0).count()),
            progress: progress.filter(|_| !counts.is_empty()).map(|of| MeanProgress {
                of,
                mean: counts.iter().map(|&c| f64::from(c)).sum::<f64>() / counts.len() as f64,
            }),
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
    let summary = SoloSummary::of(progress_of(settings.id()), played.iter().map(|g| &g.result));
    SoloSeries { settings: *settings, seed, games: played, summary }
}

/// Live instances of single-player games, one per player id, reused game
/// after game; one that failed is replaced by a fresh one for its next game.
pub struct SoloPool<'p> {
    players: &'p [Player],
    /// Each player's own time control, if any (by index in `players`).
    controls: &'p [Option<TimeControl>],
    hosting: Hosting,
    live: HashMap<usize, SoloAgent>,
}

impl<'p> SoloPool<'p> {
    pub fn new(players: &'p [Player], hosting: Hosting) -> SoloPool<'p> {
        SoloPool { players, controls: &[], hosting, live: HashMap::new() }
    }

    /// The pool with each player's own time control (by index; None plays
    /// under the settings').
    pub fn with_controls(self, controls: &'p [Option<TimeControl>]) -> SoloPool<'p> {
        SoloPool { controls, ..self }
    }

    /// Plays game `seed` with player `id`: its result (timed) and its
    /// record. A game the machine spoiled is played again, on the same
    /// seed, up to `fault::MACHINE_REPLAYS` times (`replayed` counts them).
    pub fn play(&mut self, id: usize, seed: u64, settings: &SoloSettings) -> (SoloScore, SoloRecord) {
        // The core pool's slot, if this process has one (the server).
        let _slot = crate::cores::take();
        let ((mut result, record), replayed) = crate::fault::replayed_while_spoiled(
            || self.play_once(id, seed, settings),
            |(result, _)| {
                (result.fault.as_deref() == Some(FaultKind::Machine.name())).then(|| result.reason.clone())
            },
        );
        result.replayed = replayed;
        (result, record)
    }

    fn play_once(&mut self, id: usize, seed: u64, settings: &SoloSettings) -> (SoloScore, SoloRecord) {
        let started = Instant::now();
        let live = self.live.remove(&id);
        let settings = match self.controls.get(id).copied().flatten() {
            Some(control) => settings.with_time(control),
            None => *settings,
        };
        let (record, agent) = settings.play(seed, live, &self.players[id], &self.hosting);
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
