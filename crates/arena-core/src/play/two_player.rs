//! A match of a two-player game (Trap, Hexapawn): two players, N games,
//! seats alternating, results tallied; one driver for every such game.
//!
//! Games come in seat-swapped pairs on the same seed (games 2k and 2k+1),
//! so first-move advantage and the game's luck cancel out over a pair.

use std::{
    collections::{BTreeMap, HashMap},
    fmt::{self, Debug},
    ops::ControlFlow,
    sync::atomic::{AtomicBool, Ordering},
    time::Duration,
};

use player_api::Seat;
use serde::Serialize;

use crate::{
    game::{Agent, Unavailable},
    play::clock::Spent,
    play::fault::{Fault, FaultKind},
    play::parallel,
    play::seeds,
    play::time_control::TimeControl,
    players::agent::AbiGame,
    players::isolation::WireGame,
    players::person::PersonGame,
    players::{Hosting, Player},
    replay::{
        live::{LivePlayers, LiveTurn},
        notes::{Note, NoteTaker},
        FaultRecord, Replay, ReplayGame, ReplayPlayer, ReplayResult,
    },
};

/// A game two players play against each other, as a match plays it.
/// Implemented in `games/<game>/mod.rs`.
pub trait TwoPlayerGame: AbiGame + WireGame + PersonGame + ReplayGame {
    type Settings: Copy + Debug + Send + Sync + 'static;
    /// One game as the referee recorded it.
    type Record: Clone + Debug + Send + 'static;
    /// What `--watch` and a live feed see after each turn: the position
    /// and the turn (cloned for a feed: keep them small).
    type State: Clone + Send + 'static;
    type Turn: Clone + Send + 'static;

    /// Whether its players learn across a match (Hexapawn's matchbox
    /// learner): a match, or a tournament's pairing, is then played whole,
    /// in order, one game at a time, by instances of its own.
    const LEARNS: bool;
    /// Whether `--watch` draws each turn as it is played (`watch_turn`);
    /// if not, it draws a game's replay once it is over. (Every referee
    /// reports its turns: live feeds need them.)
    const WATCHES_TURNS: bool;
    /// Whether it is the course's own graded game (Trap): the submissions
    /// server's default course and its league play the first such game.
    /// Any game can be graded (the `grade` format); this only picks the
    /// default.
    const COURSE_GRADING: bool;

    fn startup_budget(settings: &Self::Settings) -> Duration;
    /// The most turns a game can last, if its rules cap them (a plan's worst case).
    fn turn_cap(settings: &Self::Settings) -> Option<u32>;
    /// What a tournament's fingerprint holds of its settings.
    fn settings_print(settings: &Self::Settings) -> SettingsPrint;
    /// How a turn (a move, a ply) is timed, for players without their own control.
    fn time_control(settings: &Self::Settings) -> TimeControl;
    /// Plays one game; `agents[0]` sits in seat 1, each seat under its
    /// `controls`.
    fn play(
        settings: &Self::Settings,
        controls: [TimeControl; 2],
        seed: u64,
        agents: [&mut dyn Agent<Self>; 2],
        watch: &mut dyn FnMut(&Self::State, &Self::Turn),
    ) -> Self::Record;
    /// What `record` says as every two-player record does: the rest of a
    /// record's reading (the winner, the failure, the clock, its replay's
    /// result) follows from it.
    fn played(record: &Self::Record) -> Played<'_, impl ExactSizeIterator<Item = TurnTime> + '_>;
    /// The record of a game before its first turn, each seat under its
    /// `controls`: a live feed's start (its ending is a placeholder).
    fn start_record(settings: &Self::Settings, controls: [TimeControl; 2], seed: u64) -> Self::Record;
    /// The replay's own part of the game `record` keeps.
    fn body(record: &Self::Record) -> Self::Body;
    /// A turn as a live feed carries it (the record its replay lists, and
    /// the fields it changes); `state` is the position after it.
    fn live_turn(state: &Self::State, turn: &Self::Turn) -> LiveTurn;

    /// The record of a game that could not start because the player in
    /// `loser`'s seat could not be started, if the game records it so;
    /// None (by default) plays it with that player `Unavailable`, failing
    /// at `new_game`, recorded by the referee like any failure.
    fn unplayed(
        _settings: &Self::Settings,
        _seed: u64,
        _loser: Seat,
        _fault: &Fault,
    ) -> Option<Self::Record> {
        None
    }
    /// The winning seat; None for a draw.
    fn winner(record: &Self::Record) -> Option<Seat> {
        Self::played(record).winner
    }
    /// The seat that lost by failing, and the kind of failure (counted);
    /// by default the fault's.
    fn failure(record: &Self::Record) -> Option<(Seat, &'static str)> {
        Self::played(record).fault.map(|(seat, fault)| (seat, fault.kind().name()))
    }
    /// The seat that lost by failing, and the failure as people read it (a
    /// game whose records keep the whole fault says more than its kind).
    fn failure_text(record: &Self::Record) -> Option<(Seat, String)> {
        Self::failure(record).map(|(seat, kind)| (seat, kind.to_string()))
    }
    /// The seat whose instance broke (its state is not trusted any more:
    /// it gets a fresh one for its next game): the one whose fault ended it.
    fn broken(record: &Self::Record) -> Option<Seat> {
        Self::played(record).fault.map(|(seat, _)| seat)
    }
    /// Moves and time used by `seat`: (moves, total, longest).
    fn clock(record: &Self::Record, seat: Seat) -> (u32, Spent, Spent) {
        let times = Self::played(record).turns.filter(|t| t.seat == seat).map(|t| t.time);
        times.fold((0, Spent::default(), Spent::default()), |(n, total, max), t| {
            (n + 1, total + t, max.max(t))
        })
    }
    /// `seat`'s time control, when it is not the settings' budget per turn
    /// (a bank, or the player's own), and under a bank what was left after
    /// its last turn: what journals keep.
    fn seat_time(record: &Self::Record, seat: Seat) -> (Option<TimeControl>, Option<Duration>) {
        let played = Self::played(record);
        let control = played.controls[seat.index()];
        let left = played.turns.filter(|t| t.seat == seat).last().and_then(|t| t.bank_left);
        (crate::play::time_control::worth_recording(control, played.time), left)
    }
    /// The moves (turns, plies) played.
    fn moves(record: &Self::Record) -> usize {
        Self::played(record).turns.len()
    }
    fn seed(record: &Self::Record) -> u64 {
        Self::played(record).seed
    }
    /// How the game ended, for people.
    fn reason(record: &Self::Record) -> String {
        Self::played(record).ending.to_string()
    }
    /// The game's replay, `players` in seat order.
    fn replay(record: &Self::Record, players: [ReplayPlayer; 2]) -> Replay<Self::Body> {
        let played = Self::played(record);
        let result = ReplayResult {
            winner: played.winner.map(Seat::index),
            reason: played.ending.to_string(),
            turns: played.turns.len() as u32,
            fault: played.fault.map(|(seat, fault)| FaultRecord::new(seat.index(), fault)),
            outcome: None,
            score: None,
        };
        Replay::new(played.seed, players.to_vec(), result, Self::body(record))
    }
    /// The replay of a game before its first turn: a live feed's start
    /// (its result is a placeholder, replaced).
    fn replay_start(
        settings: &Self::Settings,
        controls: [TimeControl; 2],
        seed: u64,
        players: [ReplayPlayer; 2],
    ) -> Replay<Self::Body> {
        Self::replay(&Self::start_record(settings, controls, seed), players)
    }

    /// `arena play`'s line for one game of a match of `total`.
    fn line(game: &MatchGame<Self>, total: u32, names: [&str; 2]) -> String;
    /// `arena play`'s summary of a match.
    fn summary(result: &MatchResult<Self>) -> String;
    /// `arena play --json`'s object (docs/play-json.md).
    fn json(result: &MatchResult<Self>, sources: [String; 2]) -> String;
    /// `--watch`'s view of one turn, `names` in seat order: asked only of
    /// games that report turns as they are played (`WATCHES_TURNS`).
    fn watch_turn(_state: &Self::State, _turn: &Self::Turn, _names: [&str; 2]) -> String {
        String::new()
    }
    /// One turn in a line, `names` in seat order: what a person at the
    /// table is told of each turn (the next question draws the board).
    fn turn_line(turn: &Self::Turn, names: [&str; 2]) -> String;
}

/// What every two-player game's record says alike, as a match, its
/// journals and its replay read it (`TwoPlayerGame::played`).
pub struct Played<'r, T> {
    pub seed: u64,
    /// The settings' time control, and each seat's.
    pub time: TimeControl,
    pub controls: [TimeControl; 2],
    /// The turns (moves, plies) played, in order.
    pub turns: T,
    /// How the game ended, for people.
    pub ending: &'r dyn fmt::Display,
    /// The winning seat; None for a draw.
    pub winner: Option<Seat>,
    /// The fault that ended the game: the seat that failed, and how.
    pub fault: Option<(Seat, &'r Fault)>,
}

/// A turn as every two-player record keeps it: whose it was, the time it
/// took, and under a time bank what was left in it after.
#[derive(Clone, Copy, Debug)]
pub struct TurnTime {
    pub seat: Seat,
    pub time: Spent,
    pub bank_left: Option<Duration>,
}

/// What a tournament's fingerprint holds of a game's settings: a journal
/// resumes only under the same text (`tournament::fingerprint`).
#[derive(Debug, Clone, PartialEq)]
pub struct SettingsPrint {
    /// The board size and turn cap every fingerprint has begun with since
    /// the first game's settings stood in for every game; a game without
    /// them keeps the values they had then (the default).
    pub head: (u8, u32),
    /// Its own part, after the players ("" for none).
    pub tail: String,
}

impl Default for SettingsPrint {
    fn default() -> SettingsPrint {
        // Frozen: changing these would orphan every journal written before.
        SettingsPrint { head: (7, 400), tail: String::new() }
    }
}

/// What to play, and where the players run.
#[derive(Clone, Debug)]
pub struct MatchConfig<G: TwoPlayerGame> {
    pub settings: G::Settings,
    pub games: u32,
    pub seed: u64,
    pub hosting: Hosting,
    /// The index of the first game to play: a match can be resumed or a
    /// single game of it replayed with the same seed and seats.
    pub first_game: u32,
    /// Games played at once (each thread with its own instances); the games
    /// are the same whatever it is. A watched match, or one whose players
    /// learn from game to game (Hexapawn), plays one at a time.
    pub concurrency: usize,
    /// Each player's own time control, in the order given (`--tc1`,
    /// `--tc2`); None plays under the settings' control.
    pub controls: [Option<TimeControl>; 2],
    /// Where each game is fed as it is played, if watched live (`--live`).
    pub live: Option<LivePlayers>,
}

/// One game of a match, as the match sees it.
#[derive(Clone, Debug)]
pub struct MatchGame<G: TwoPlayerGame> {
    pub index: u32,
    /// Which player (0 or 1, in the order given) sat in seat 1 and seat 2.
    pub seats: [usize; 2],
    pub record: G::Record,
    /// What the players printed beside their turns (`replay::notes`):
    /// for its replay, not kept once the game is handed on.
    pub notes: Vec<Note>,
}

impl<G: TwoPlayerGame> MatchGame<G> {
    /// Its replay, `players` in seat order, with the players' notes.
    pub fn replay(&self, players: [ReplayPlayer; 2]) -> Replay<G::Body> {
        G::replay(&self.record, players).with_notes(self.notes.clone())
    }

    /// The winning player (0 or 1), or None for a draw.
    pub fn winner(&self) -> Option<usize> {
        winner::<G>(&self.record).map(|seat| self.seats[seat.index()])
    }

    /// The player that lost by failing, and the kind of failure.
    pub fn failure(&self) -> Option<(usize, &'static str)> {
        G::failure(&self.record).map(|(seat, kind)| (self.seats[seat.index()], kind))
    }

    /// The player that lost by failing, and the failure as people read it.
    pub fn failure_text(&self) -> Option<(usize, String)> {
        G::failure_text(&self.record).map(|(seat, text)| (self.seats[seat.index()], text))
    }
}

/// One player's results over a match.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Tally {
    pub name: String,
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
    /// Losses by failure kind (every `FaultKind`, zeros included).
    pub failures: BTreeMap<&'static str, u32>,
    #[serde(skip)]
    pub turns: u32,
    #[serde(skip)]
    pub time_total: Spent,
    #[serde(skip)]
    pub time_max: Spent,
}

impl Tally {
    pub fn new(name: &str) -> Tally {
        let failures = FaultKind::ALL.iter().map(|k| (k.name(), 0)).collect();
        Tally { name: name.to_string(), failures, ..Tally::default() }
    }

    /// The failures that happened, as "2 timeout, 1 crashed"; None if none did.
    pub fn failure_summary(&self) -> Option<String> {
        let found: Vec<String> =
            self.failures.iter().filter(|(_, n)| **n > 0).map(|(k, n)| format!("{n} {k}")).collect();
        (!found.is_empty()).then(|| found.join(", "))
    }

    pub fn mean_turn_time(&self) -> Spent {
        self.time_total.mean(self.turns)
    }
}

/// The whole match.
#[derive(Clone, Debug)]
pub struct MatchResult<G: TwoPlayerGame> {
    pub config: MatchConfig<G>,
    pub tallies: [Tally; 2],
    pub games: Vec<MatchGame<G>>,
}

impl<G: TwoPlayerGame> MatchResult<G> {
    /// Moves (turns, plies) per game.
    pub fn average_moves(&self) -> f64 {
        let total: usize = self.games.iter().map(|g| G::moves(&g.record)).sum();
        total as f64 / self.games.len().max(1) as f64
    }
}

/// Sees every turn of a match: the seats of the current game (which player
/// sits where), the state after the turn, the turn.
pub type TurnWatcher<'a, G> =
    &'a mut dyn FnMut([usize; 2], &<G as TwoPlayerGame>::State, &<G as TwoPlayerGame>::Turn);

/// The winning seat of a game as it counts: a game the machine spoiled
/// (`FaultKind::Machine`, still so after its replays) is no one's loss,
/// and counts as a draw.
pub fn winner<G: TwoPlayerGame>(record: &G::Record) -> Option<Seat> {
    if spoiled::<G>(record) {
        None
    } else {
        G::winner(record)
    }
}

/// Whether a player lost `record`'s game by the machine's fault.
pub fn spoiled<G: TwoPlayerGame>(record: &G::Record) -> bool {
    G::failure(record).is_some_and(|(_, kind)| FaultKind::is_machine(kind))
}

impl<G: TwoPlayerGame> MatchConfig<G> {
    /// Each player's time control, in the order given, when the match gave
    /// any its own (`--json`'s `player_time_controls`); None when both play
    /// under the settings'.
    pub fn player_controls(&self) -> Option<[TimeControl; 2]> {
        let default = G::time_control(&self.settings);
        self.controls.iter().any(Option::is_some).then(|| self.controls.map(|c| c.unwrap_or(default)))
    }
}

/// Seat assignment and seed of game `index`: pairs share a seed, seats swap.
pub fn schedule(base_seed: u64, index: u32) -> ([usize; 2], u64) {
    let seats = if index.is_multiple_of(2) { [0, 1] } else { [1, 0] };
    (seats, seeds::derive(base_seed, u64::from(index / 2)))
}

/// Plays the match. `on_game` sees each game as it finishes; `watch`, if
/// given, sees every turn (with the seats of the current game).
pub fn play<G: TwoPlayerGame>(
    players: [&Player; 2],
    config: &MatchConfig<G>,
    on_game: &mut dyn FnMut(&MatchGame<G>),
    watch: Option<TurnWatcher<G>>,
) -> MatchResult<G> {
    play_stopped(players, config, &AtomicBool::new(false), on_game, watch)
}

/// [`play`] until `stop` is set (a person quit: the game under way is
/// finished, no later one is played): the games played so far.
pub fn play_stopped<G: TwoPlayerGame>(
    players: [&Player; 2],
    config: &MatchConfig<G>,
    stop: &AtomicBool,
    on_game: &mut dyn FnMut(&MatchGame<G>),
    watch: Option<TurnWatcher<G>>,
) -> MatchResult<G> {
    let mut games = Vec::with_capacity(config.games as usize);
    let mut keep = |game: MatchGame<G>| {
        on_game(&game);
        games.push(game);
        ControlFlow::Continue(())
    };
    let tallies = play_until(players, config, stop, &mut keep, watch);
    MatchResult { config: config.clone(), tallies, games }
}

/// What a player hands back at the end of a match to keep (`--memory`):
/// its memory, None if it handed none back (or broke in the last game and
/// was not asked), or why asking failed.
pub type Kept = Result<Option<Vec<u8>>, String>;

/// Plays the match one game at a time on one instance of each player (a
/// learner learns from each game in turn, whatever `config.concurrency`),
/// until `stop` is set (a person quit), then asks each player for the
/// memory to keep: the match, and what each
/// player handed back, in the order given.
pub fn play_remembering<G: TwoPlayerGame>(
    players: [&Player; 2],
    config: &MatchConfig<G>,
    stop: &AtomicBool,
    on_game: &mut dyn FnMut(&MatchGame<G>),
    mut watch: Option<TurnWatcher<G>>,
) -> (MatchResult<G>, [Kept; 2]) {
    let list = [players[0].clone(), players[1].clone()];
    let mut tallies = [Tally::new(players[0].name()), Tally::new(players[1].name())];
    let mut games = Vec::with_capacity(config.games as usize);
    let mut pool = InstancePool::<G>::new(&list, config.hosting.clone()).with_controls(&config.controls);
    for index in config.first_game..config.first_game + config.games {
        if stop.load(Ordering::SeqCst) {
            break;
        }
        let (seats, seed) = schedule(config.seed, index);
        let record = match watch.as_mut() {
            Some(watch) => pool.play_fed(
                config.live.as_ref(),
                index,
                seats,
                seed,
                &config.settings,
                &mut |state, turn| watch(seats, state, turn),
            ),
            None => pool.play_fed(config.live.as_ref(), index, seats, seed, &config.settings, &mut |_, _| {}),
        };
        let game = MatchGame { index, seats, record, notes: pool.take_notes() };
        tally(&mut tallies, &game);
        on_game(&game);
        // A long match keeps its games, not their notes (each replay had them).
        games.push(MatchGame { notes: Vec::new(), ..game });
    }
    let kept = pool.memories(G::startup_budget(&config.settings));
    (MatchResult { config: config.clone(), tallies, games }, kept)
}

/// Plays the match until `on_game` breaks (no later game is handed on,
/// whatever the concurrency) or `stop` is set (the games under way are
/// finished and handed on, in order): a sequential test (`sprt`) decides
/// after each game, and Ctrl-C keeps what was played. The games are handed
/// on, not kept (a test may play millions); returns the tallies.
pub fn play_until<G: TwoPlayerGame>(
    players: [&Player; 2],
    config: &MatchConfig<G>,
    stop: &AtomicBool,
    on_game: &mut dyn FnMut(MatchGame<G>) -> ControlFlow<()>,
    watch: Option<TurnWatcher<G>>,
) -> [Tally; 2] {
    let list = [players[0].clone(), players[1].clone()];
    let mut tallies = [Tally::new(players[0].name()), Tally::new(players[1].name())];
    let mut finish = |game: MatchGame<G>| {
        tally(&mut tallies, &game);
        on_game(game)
    };
    let indices = config.first_game..config.first_game + config.games;
    let new_pool = || InstancePool::new(&list, config.hosting.clone()).with_controls(&config.controls);
    let play_game = |pool: &mut InstancePool<G>, index, see: &mut dyn FnMut(&G::State, &G::Turn)| {
        let (seats, seed) = schedule(config.seed, index);
        let record = pool.play_fed(config.live.as_ref(), index, seats, seed, &config.settings, see);
        MatchGame { index, seats, record, notes: pool.take_notes() }
    };
    match watch {
        Some(watch) => {
            let mut pool = new_pool();
            for index in indices {
                if stop.load(Ordering::SeqCst) {
                    break;
                }
                let seats = schedule(config.seed, index).0;
                let game = play_game(&mut pool, index, &mut |state, turn| watch(seats, state, turn));
                if finish(game).is_break() {
                    break;
                }
            }
        }
        None => parallel::play_in_order_until(
            indices,
            config.concurrency,
            stop,
            new_pool,
            |pool, index| play_game(pool, index, &mut |_, _| {}),
            |_, game| finish(game),
        ),
    }
    tallies
}

/// Live player instances, made when first needed and reused game after
/// game (a learner keeps its memory); one that broke is replaced by a
/// fresh one for its next game.
pub struct InstancePool<'p, G: TwoPlayerGame> {
    players: &'p [Player],
    /// Each player's own time control, if any (by index in `players`).
    controls: &'p [Option<TimeControl>],
    hosting: Hosting,
    live: HashMap<usize, Box<dyn Agent<G>>>,
    /// The notes of the game played last, until taken.
    notes: Vec<Note>,
    /// Players given a memory (`give_memory`), by id: instances are made of these.
    given: HashMap<usize, Player>,
}

impl<'p, G: TwoPlayerGame> InstancePool<'p, G> {
    pub fn new(players: &'p [Player], hosting: Hosting) -> InstancePool<'p, G> {
        InstancePool {
            players,
            controls: &[],
            hosting,
            live: HashMap::new(),
            notes: Vec::new(),
            given: HashMap::new(),
        }
    }

    /// What the players printed beside their turns in the game played
    /// last (`replay::notes`), taken.
    pub fn take_notes(&mut self) -> Vec<Note> {
        std::mem::take(&mut self.notes)
    }

    /// The pool with each player's own time control (by index; a player
    /// past the list's end, or None, plays under the settings').
    pub fn with_controls(self, controls: &'p [Option<TimeControl>]) -> InstancePool<'p, G> {
        InstancePool { controls, ..self }
    }

    /// Plays one game between players `seats[0]` (seat 1) and `seats[1]`:
    /// its record. A game the machine spoiled is not played again here, on
    /// a machine still overloaded: it counts as no one's (`winner`), and a
    /// tournament postpones it (`GameResult::spoiled`).
    pub fn play(
        &mut self,
        seats: [usize; 2],
        seed: u64,
        settings: &G::Settings,
        watch: &mut dyn FnMut(&G::State, &G::Turn),
    ) -> G::Record {
        // The core pool's slot, if this process has one (the server).
        crate::play::cores::play_in_slot(|| self.play_once(seats, seed, settings, watch), spoiled::<G>)
    }

    /// [`InstancePool::play`], game `index` fed to `live` as it is played
    /// (if given): the referee hands each turn on, nothing more.
    pub fn play_fed(
        &mut self,
        live: Option<&LivePlayers>,
        index: u32,
        seats: [usize; 2],
        seed: u64,
        settings: &G::Settings,
        watch: &mut dyn FnMut(&G::State, &G::Turn),
    ) -> G::Record {
        let Some(live) = live else { return self.play(seats, seed, settings, watch) };
        let (players, title) = live.seated(&seats, index);
        let players: [ReplayPlayer; 2] = players.try_into().expect("two seats");
        let (settings, controls, start_players) =
            (*settings, self.controls(seats, settings), players.clone());
        let tap =
            live.live.begin::<G, _>(title, move || G::replay_start(&settings, controls, seed, start_players));
        let record = self.play(seats, seed, &settings, &mut |state, turn| {
            watch(state, turn);
            let (state, turn) = (state.clone(), turn.clone());
            tap.turn(move || G::live_turn(&state, &turn));
        });
        let kept = record.clone();
        tap.end(move || G::replay(&kept, players));
        record
    }

    /// What players 0 and 1 hand back to keep at the end of their match,
    /// each asked within `budget` (a player with no live instance, one that
    /// broke, is not asked).
    pub fn memories(&mut self, budget: Duration) -> [Kept; 2] {
        [0, 1].map(|id| self.memory_of(id, budget))
    }

    /// What player `id`'s live instance hands back to keep (`Ok(None)`:
    /// nothing, or no live instance).
    pub fn memory_of(&mut self, id: usize, budget: Duration) -> Kept {
        match self.live.get_mut(&id) {
            Some(agent) => agent.save_memory(budget).map_err(|fault| fault.to_string()),
            None => Ok(None),
        }
    }

    /// Player `id`'s instances from now on start with `memory` (a
    /// tournament's `--memory`: its store, given at its pairing's start).
    pub fn give_memory(&mut self, id: usize, memory: Option<Vec<u8>>) {
        self.given.insert(id, self.players[id].with_memory(memory));
    }

    /// The time controls of players `seats[0]` and `seats[1]`: their own, or the settings'.
    fn controls(&self, seats: [usize; 2], settings: &G::Settings) -> [TimeControl; 2] {
        seats.map(|id| self.controls.get(id).copied().flatten().unwrap_or_else(|| G::time_control(settings)))
    }

    fn play_once(
        &mut self,
        seats: [usize; 2],
        seed: u64,
        settings: &G::Settings,
        watch: &mut dyn FnMut(&G::State, &G::Turn),
    ) -> G::Record {
        self.notes = Vec::new();
        let mut agents = Vec::with_capacity(2);
        for (seat, &id) in Seat::BOTH.iter().zip(&seats) {
            let agent = match self.live.remove(&id) {
                Some(agent) => agent,
                None => match self
                    .given
                    .get(&id)
                    .unwrap_or(&self.players[id])
                    .new_agent::<G>(&self.hosting, G::startup_budget(settings))
                {
                    Ok(agent) => agent,
                    Err(fault) => {
                        if let Some(record) = G::unplayed(settings, seed, *seat, &fault) {
                            // Put back what was taken; the game is lost by the player that could not start.
                            for (id, agent) in seats.iter().zip(agents) {
                                self.live.insert(*id, agent);
                            }
                            return record;
                        }
                        Box::new(Unavailable(fault))
                    }
                },
            };
            agents.push(agent);
        }
        let [mut one, mut two]: [Box<dyn Agent<G>>; 2] = agents.try_into().ok().expect("two agents");
        let controls = self.controls(seats, settings);
        let taker = NoteTaker::default();
        let record = {
            let (mut one, mut two) = (taker.agent(0, &mut *one), taker.agent(1, &mut *two));
            G::play(settings, controls, seed, [&mut one, &mut two], &mut |state, turn| {
                taker.turn_done();
                watch(state, turn)
            })
        };
        self.notes = taker.finish();
        let broken = G::broken(&record).map(|seat| seats[seat.index()]);
        for (id, agent) in seats.into_iter().zip([one, two]) {
            // A player that broke gets a fresh instance (a fresh worker) next
            // time: whatever state it was in is not trusted.
            if broken != Some(id) {
                self.live.insert(id, agent);
            }
        }
        record
    }
}

fn tally<G: TwoPlayerGame>(tallies: &mut [Tally; 2], game: &MatchGame<G>) {
    match game.winner() {
        None => tallies.iter_mut().for_each(|t| t.draws += 1),
        Some(winner) => {
            tallies[winner].wins += 1;
            tallies[1 - winner].losses += 1;
        }
    }
    if let Some((player, kind)) = game.failure() {
        *tallies[player].failures.entry(kind).or_default() += 1;
    }
    for seat in Seat::BOTH {
        let (moves, total, max) = G::clock(&game.record, seat);
        let t = &mut tallies[game.seats[seat.index()]];
        t.turns += moves;
        t.time_total += total;
        t.time_max = t.time_max.max(max);
    }
}
