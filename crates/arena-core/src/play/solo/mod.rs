//! Single-player games (Intuitive AI, Wumpus World, Magic Forest): a
//! player against a seeded series of worlds, scored by its mean score.
//!
//! Game `k` of a series seeded `s` is played on the world of seed
//! `seeds::derive(s, k)`, whoever plays it: `arena play`, `arena bench` and
//! a tournament's duplicate format all give players identical worlds.
//!
//! Generic over the game (`SinglePlayerGame`), as `two_player.rs` is: the
//! entry points name the game (`with_rules!`), nothing here does.

use std::{
    collections::HashMap,
    fmt,
    sync::atomic::AtomicBool,
    time::{Duration, Instant},
};

use player_api::Outcome;
use serde::{Deserialize, Serialize};

mod referee;
pub mod replay;

pub use self::referee::{
    live_start, play, play_in, play_local, play_watched, player_seed, world, Budgeted, DebugAs, Ending,
    SoloReferee, StepWatcher, Timed,
};

pub use crate::play::clock::Budgets;
use crate::play::time_control::TimeControl;
use crate::{
    game::{Agent, Unavailable},
    play::clock::Spent,
    play::fault::{Failures, Fault, FaultKind},
    play::seeds,
    players::agent::AbiGame,
    players::isolation::WireGame,
    players::person::PersonGame,
    players::{Hosting, Player},
    replay::{
        live::LivePlayers,
        notes::{Note, NoteTaker},
        Replay, ReplayGame, ReplayPlayer, ReplayResult,
    },
    stats::{mean_interval, MeanInterval},
};

/// A single-player game as the one single-player driver plays it: its
/// rules (its settings are [`Budgeted`] rules), its record, and what results
/// and replays read off the record; the one referee plays it through
/// [`SoloReferee`]. Implemented in `games/<game>/mod.rs`; a `single_player`
/// line of the games table (`games/mod.rs`).
pub trait SinglePlayerGame: AbiGame + WireGame + PersonGame + ReplayGame {
    /// What decides the worlds: a board size, a configuration.
    type Rules: Copy + fmt::Debug + PartialEq + DebugAs + Send + Sync + 'static;
    /// A finished game, whole: what a replay of it needs.
    type Record: Clone + fmt::Debug + PartialEq + Send + 'static;
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
    /// What `record` says as every single-player record does: its score
    /// and its replay's result follow from it.
    fn played(record: &Self::Record) -> SoloPlayed<'_, impl ExactSizeIterator<Item = Spent> + '_>;
    /// The replay's own part of the game `record` keeps, played with `settings`.
    fn body(record: &Self::Record, settings: &Budgeted<Self::Rules>) -> Self::Body;

    fn seed(record: &Self::Record) -> u64 {
        Self::played(record).seed
    }
    /// The game as results count it (`time_us` left 0: the caller times).
    fn score(record: &Self::Record) -> SoloScore {
        let played = Self::played(record);
        let fault = match played.fault {
            _ if played.illegal => Some(FaultKind::Illegal.name().to_string()),
            fault => fault.map(|fault| fault.kind().name().to_string()),
        };
        SoloScore {
            score: played.score,
            won: played.outcome == Outcome::Win,
            deaths: played.deaths,
            steps: played.steps.len() as u32,
            reason: played.ending.to_string(),
            fault,
            progress: played.progress,
            time_us: 0,
            cpu_us: played.steps.map(|time| time.cpu).sum::<Duration>().as_micros() as u64,
            replayed: 0,
        }
    }
    /// The game's replay; `settings` are the ones it was played with.
    fn replay(
        record: &Self::Record,
        settings: &Budgeted<Self::Rules>,
        player: ReplayPlayer,
    ) -> Replay<Self::Body> {
        let played = Self::played(record);
        let (steps, reason) = (played.steps.len() as u32, played.ending.to_string());
        let result = ReplayResult::single(played.outcome, played.score, steps, reason, played.fault);
        Replay::new(played.seed, vec![player], result, Self::body(record, settings))
    }
}

/// What every single-player game's record says alike, as results and its
/// replay read it (`SinglePlayerGame::played`).
pub struct SoloPlayed<'r, T> {
    pub seed: u64,
    pub outcome: Outcome,
    pub score: i64,
    /// The time each step answered took, in order.
    pub steps: T,
    /// How the game ended, for people.
    pub ending: &'r dyn fmt::Display,
    /// The fault that ended the game, if the player failed.
    pub fault: Option<&'r Fault>,
    /// Whether the rules ended it on an invalid action (counted as illegal).
    pub illegal: bool,
    /// Deaths by the world (`SoloScore::deaths`).
    pub deaths: u32,
    /// How far it got, for a game that counts it (`PROGRESS`).
    pub progress: Option<u32>,
}

/// A single-player game's settings: its rules and the budgets.
pub type SoloSettings<G> = Budgeted<<G as SinglePlayerGame>::Rules>;

/// What decides the worlds, for people: "4x4 board", "aima preset", ...
pub fn describe<G: SinglePlayerGame>(settings: &SoloSettings<G>) -> String {
    G::describe(&settings.rules)
}

/// The settings as a tournament's fingerprint reads them.
pub fn fingerprint<G: SinglePlayerGame>(settings: &SoloSettings<G>) -> String {
    format!("{}({settings:?})", G::FINGERPRINT_NAME)
}

/// The settings as `--json` and standings show them: the rules and the
/// budget of a request.
pub fn settings_json<G: SinglePlayerGame>(settings: &SoloSettings<G>) -> serde_json::Value {
    let mut json = G::json(&settings.rules);
    let (ms, bank) = settings.budgets.turn.recorded();
    json["time_per_turn_ms"] = ms.into();
    if let Some(bank) = bank {
        json["time_control"] = bank.to_string().into();
    }
    json
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
    /// Times the game was played again because the machine spoiled it
    /// (older journals: games are no longer played again, but postponed).
    #[serde(default, skip_serializing_if = "crate::report::units::is_zero")]
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
pub struct SoloGame<G: SinglePlayerGame> {
    pub index: u32,
    pub result: SoloScore,
    pub record: G::Record,
    /// What the player printed beside its steps (`replay::notes`): for its
    /// replay, not kept once the game is handed on.
    pub notes: Vec<Note>,
}

impl<G: SinglePlayerGame> SoloGame<G> {
    /// Its replay, played with `settings`, with the player's notes.
    pub fn replay(&self, settings: &SoloSettings<G>, player: ReplayPlayer) -> Replay<G::Body> {
        G::replay(&self.record, settings, player).with_notes(self.notes.clone())
    }
}

/// A series of games by one player.
pub struct SoloSeries<G: SinglePlayerGame> {
    pub settings: SoloSettings<G>,
    pub seed: u64,
    pub games: Vec<SoloGame<G>>,
    pub summary: SoloSummary,
}

/// The seed of game `index` of a series (or a duplicate tournament) seeded `base`.
pub fn game_seed(base: u64, index: u32) -> u64 {
    seeds::derive(base, u64::from(index))
}

/// Plays games `first..first + games` of the series seeded `seed`,
/// `concurrency` at a time, each thread with one instance of `player` (a new
/// one after a fault). `on_game` sees each game in order.
pub fn play_series<G: SoloReferee>(
    player: &Player,
    settings: &SoloSettings<G>,
    (first, games): (u32, u32),
    seed: u64,
    (hosting, concurrency): (&Hosting, usize),
    live: Option<&LivePlayers>,
    on_game: &mut dyn FnMut(&SoloGame<G>),
) -> SoloSeries<G> {
    let never = AtomicBool::new(false);
    play_series_until(player, settings, (first, games), seed, (hosting, concurrency), live, &never, on_game)
}

/// [`play_series`] until `stop` is set (a person quit: the game under way
/// is finished, no later one is played): the games played so far.
#[allow(clippy::too_many_arguments)]
pub fn play_series_until<G: SoloReferee>(
    player: &Player,
    settings: &SoloSettings<G>,
    (first, games): (u32, u32),
    seed: u64,
    (hosting, concurrency): (&Hosting, usize),
    live: Option<&LivePlayers>,
    stop: &AtomicBool,
    on_game: &mut dyn FnMut(&SoloGame<G>),
) -> SoloSeries<G> {
    let list = [player.clone()];
    let mut played = Vec::with_capacity(games as usize);
    crate::play::parallel::play_in_order_until(
        first..first + games,
        concurrency,
        stop,
        || SoloPool::<G>::new(&list, hosting.clone()),
        |pool, index| {
            let (result, record) = pool.play_fed(live, index, 0, game_seed(seed, index), settings);
            SoloGame { index, result, record, notes: pool.take_notes() }
        },
        |_, game| {
            on_game(&game);
            // A long series keeps its games, not their notes (each replay had them).
            played.push(SoloGame { notes: Vec::new(), ..game });
            std::ops::ControlFlow::Continue(())
        },
    );
    let summary = SoloSummary::of(G::PROGRESS, played.iter().map(|g| &g.result));
    SoloSeries { settings: *settings, seed, games: played, summary }
}

/// Live instances of a single-player game's players, one per player id,
/// reused game after game; one that failed is replaced by a fresh one for
/// its next game.
pub struct SoloPool<'p, G: SinglePlayerGame> {
    players: &'p [Player],
    /// Each player's own time control, if any (by index in `players`).
    controls: &'p [Option<TimeControl>],
    hosting: Hosting,
    live: HashMap<usize, Box<dyn Agent<G>>>,
    /// The notes of the game played last, until taken.
    notes: Vec<Note>,
}

impl<'p, G: SoloReferee> SoloPool<'p, G> {
    pub fn new(players: &'p [Player], hosting: Hosting) -> SoloPool<'p, G> {
        SoloPool { players, controls: &[], hosting, live: HashMap::new(), notes: Vec::new() }
    }

    /// What the player printed beside its steps in the game played last
    /// (`replay::notes`), taken.
    pub fn take_notes(&mut self) -> Vec<Note> {
        std::mem::take(&mut self.notes)
    }

    /// The pool with each player's own time control (by index; None plays
    /// under the settings').
    pub fn with_controls(self, controls: &'p [Option<TimeControl>]) -> SoloPool<'p, G> {
        SoloPool { controls, ..self }
    }

    /// Plays game `seed` with player `id`: its result (timed) and its
    /// record. A game the machine spoiled is not played again here: a
    /// tournament postpones it (`GameResult::spoiled`).
    pub fn play(&mut self, id: usize, seed: u64, settings: &SoloSettings<G>) -> (SoloScore, G::Record) {
        self.play_watched(id, seed, settings, &mut |_, _, _| {})
    }

    /// [`SoloPool::play`], game `index` fed to `live` as it is played (if
    /// given): the referee hands each step on, nothing more.
    pub fn play_fed(
        &mut self,
        live: Option<&LivePlayers>,
        index: u32,
        id: usize,
        seed: u64,
        settings: &SoloSettings<G>,
    ) -> (SoloScore, G::Record) {
        let Some(live) = live else { return self.play(id, seed, settings) };
        let (mut players, title) = live.seated(&[id], index);
        let player = players.pop().expect("one seat");
        let (own, start_player) = (self.settings(id, settings), player.clone());
        let tap = live.live.begin::<G, _>(title, move || live_start::<G>(&own, seed, start_player));
        let (result, record) = self.play_watched(id, seed, settings, &mut |request, step, state| {
            let (request, step, state) = (*request, step.clone(), state.clone());
            tap.turn(move || G::live_step(&request, &step, &state));
        });
        let kept = record.clone();
        tap.end(move || G::replay(&kept, &own, player));
        (result, record)
    }

    /// `settings` as player `id` plays them: under its own time control, if it has one.
    fn settings(&self, id: usize, settings: &SoloSettings<G>) -> SoloSettings<G> {
        match self.controls.get(id).copied().flatten() {
            Some(control) => settings.with_time(control),
            None => *settings,
        }
    }

    fn play_watched(
        &mut self,
        id: usize,
        seed: u64,
        settings: &SoloSettings<G>,
        watch: StepWatcher<G>,
    ) -> (SoloScore, G::Record) {
        crate::play::cores::play_in_slot(
            || self.play_once(id, seed, settings, &mut *watch),
            |(result, _)| result.fault.as_deref().is_some_and(FaultKind::is_machine),
        )
    }

    fn play_once(
        &mut self,
        id: usize,
        seed: u64,
        settings: &SoloSettings<G>,
        watch: StepWatcher<G>,
    ) -> (SoloScore, G::Record) {
        let started = Instant::now();
        let settings = self.settings(id, settings);
        let mut agent = match self.live.remove(&id) {
            Some(agent) => agent,
            None => new_agent::<G>(&self.players[id], &self.hosting, settings.budgets.startup),
        };
        let world = world::<G>(&settings.rules, seed);
        let taker = NoteTaker::default();
        let record =
            play_watched::<G>(&settings, seed, world, &mut taker.agent(0, agent.as_mut()), &mut |r, s, t| {
                taker.turn_done();
                watch(r, s, t)
            });
        self.notes = taker.finish();
        let mut result = G::score(&record);
        result.time_us = started.elapsed().as_micros() as u64;
        // A player that failed gets a fresh instance next time: whatever
        // state it was in is not trusted.
        if result.fault.is_none() || result.fault.as_deref() == Some(FaultKind::Illegal.name()) {
            self.live.insert(id, agent);
        }
        (result, record)
    }
}
