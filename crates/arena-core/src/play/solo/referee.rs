//! The one referee of the single-player games: the settings they share (the
//! game's rules with the budgets), the record of a step, how a game ends,
//! and the step loop. A game supplies its state transitions
//! ([`SoloReferee`]); the loop validates, times and records every call.
//!
//! The world depends on the seed alone, so every player given the same seed
//! plays the same world (the duplicate format of tournaments).

use std::{fmt, ops::Deref, time::Duration};

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use super::{Budgets, SinglePlayerGame};
use crate::{
    game::{Agent, Game},
    play::clock::Spent,
    play::fault::Fault,
    play::referee::{
        calls::{self, timed},
        InProcess, LocalGame,
    },
    play::seeds,
    play::time_control::{TimeControl, TurnClock},
    replay::{live::LiveTurn, Replay, ReplayPlayer},
};

/// The settings of a single-player game: its rules and the budgets.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Budgeted<R> {
    /// What decides the worlds: a board size, a configuration.
    pub rules: R,
    pub budgets: Budgets,
}

impl<R> Budgeted<R> {
    /// `rules` with the default budgets.
    pub fn new(rules: R) -> Budgeted<R> {
        Budgeted { rules, budgets: Budgets::default() }
    }

    /// The settings with each step timed by `control`.
    pub fn with_time(self, control: TimeControl) -> Budgeted<R> {
        Budgeted { budgets: Budgets { turn: control, ..self.budgets }, ..self }
    }
}

impl<R: Default> Default for Budgeted<R> {
    fn default() -> Self {
        Budgeted::new(R::default())
    }
}

/// How a game's settings are spelled by `{:?}`: as the struct each game had
/// before they shared [`Budgeted`] (`IntuitiveSettings { size: 4,
/// turn_budget: 5s, startup_budget: 10s, clock: Wall }`). Tournament
/// journals are fingerprinted with that text, so it must not change.
pub trait DebugAs {
    /// The struct's name.
    const NAME: &'static str;
    /// The name of the turn budget's field.
    const TURN: &'static str;
    /// Adds the rules' fields.
    fn fields(&self, out: &mut fmt::DebugStruct<'_, '_>);
}

impl<R: DebugAs> fmt::Debug for Budgeted<R> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut out = f.debug_struct(R::NAME);
        self.rules.fields(&mut out);
        out.field(R::TURN, &self.budgets.turn)
            .field("startup_budget", &self.budgets.startup)
            .field("clock", &self.budgets.clock)
            .finish()
    }
}

/// One step as it was played, with the time the player took to answer (on
/// both clocks). Steps are equal when the game is: the time is left out
/// (same seed and same actions give the same record, however long the
/// player thought).
#[derive(Clone, Copy, Debug)]
pub struct Timed<S> {
    pub step: S,
    pub time: Spent,
    /// Under a time bank: what was left in it after this step.
    pub bank_left: Option<Duration>,
}

impl<S: PartialEq> PartialEq for Timed<S> {
    fn eq(&self, other: &Self) -> bool {
        self.step == other.step
    }
}

impl<S: Eq> Eq for Timed<S> {}

impl<S> Deref for Timed<S> {
    type Target = S;

    fn deref(&self) -> &S {
        &self.step
    }
}

/// How a game ended.
#[derive(Clone, Debug, PartialEq)]
pub enum Ending<E> {
    /// By the rules (a win, a death, the cap, an invalid action).
    Rules(E),
    /// The player failed to answer properly (timeout, panic, ...).
    Fault(Fault),
}

impl<E> Ending<E> {
    /// The fault that ended the game, if the player failed.
    pub fn fault(&self) -> Option<&Fault> {
        match self {
            Ending::Fault(fault) => Some(fault),
            Ending::Rules(_) => None,
        }
    }
}

impl<E: fmt::Display> fmt::Display for Ending<E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Ending::Rules(end) => write!(f, "{end}"),
            Ending::Fault(fault) => write!(f, "{fault}"),
        }
    }
}

/// A single-player game's state transitions, as the one step loop drives them.
pub trait SoloReferee: SinglePlayerGame + Game<Request: Copy + Send + 'static> {
    /// What the seed draws: a world, a run's forests.
    type World: Clone;
    /// The game being played (cloned after each step for a live feed).
    type State: Clone + Send + 'static;
    /// What one step records (the time apart).
    type Step: Clone + Send + 'static;
    /// How the rules end a game.
    type End;

    /// A world drawn with `rng` (see [`world`]).
    fn draw(rules: &Self::Rules, rng: &mut ChaCha8Rng) -> Self::World;
    fn start(rules: &Self::Rules, world: &Self::World) -> Self::State;
    /// What `new_game` tells the player; `seed` is its own generator's.
    fn info(state: &Self::State, settings: &Budgeted<Self::Rules>, seed: u64) -> Self::Info;
    /// The request of step `turn` (from 0).
    fn request(state: &Self::State, turn: u32, budget: Duration) -> Self::Request;
    /// Plays the answer `action` to `request`: the step to record (None when
    /// the rules reject it before it counts) and the end, if it ended the game.
    fn step(
        state: &mut Self::State,
        request: Self::Request,
        action: Self::Action,
    ) -> (Option<Self::Step>, Option<Self::End>);
    /// Ends the game of a player that failed.
    fn forfeit(state: &mut Self::State);
    /// The finished game, and what the player is told.
    fn finish(
        seed: u64,
        settings: &Budgeted<Self::Rules>,
        world: Self::World,
        steps: Vec<Timed<Self::Step>>,
        ending: Ending<Self::End>,
        state: &Self::State,
    ) -> (Self::Record, Self::Over);
    /// A step as a live feed carries it (the record its replay lists, and
    /// the fields it changes): the request it answered, the step, the game
    /// after it.
    fn live_step(request: &Self::Request, step: &Timed<Self::Step>, state: &Self::State) -> LiveTurn;
}

/// The replay of game `seed` before its first step: a live feed's start
/// (its result is a placeholder, replaced).
pub fn live_start<G: SoloReferee>(
    settings: &Budgeted<G::Rules>,
    seed: u64,
    player: ReplayPlayer,
) -> Replay<G::Body> {
    let world = world::<G>(&settings.rules, seed);
    let state = G::start(&settings.rules, &world);
    let unplayed = Ending::Fault(Fault::Protocol("not played yet".into()));
    let (record, _) = G::finish(seed, settings, world, Vec::new(), unplayed, &state);
    G::replay(&record, settings, player)
}

/// Sees each step as it is played: the request it answered, the step, the
/// game after it (a live feed clones them).
pub type StepWatcher<'a, G> =
    &'a mut dyn FnMut(&<G as Game>::Request, &Timed<<G as SoloReferee>::Step>, &<G as SoloReferee>::State);

/// The world of the game seeded `seed`: the arena's first draws.
pub fn world<G: SoloReferee>(rules: &G::Rules, seed: u64) -> G::World {
    G::draw(rules, &mut ChaCha8Rng::seed_from_u64(seed))
}

/// The seed of the player's own generator in a game seeded `seed`.
pub fn player_seed(seed: u64) -> u64 {
    seeds::player(seed, 0)
}

/// Plays game `seed` (its world drawn from the seed). The player is told the
/// result at the end.
pub fn play<G: SoloReferee>(settings: &Budgeted<G::Rules>, seed: u64, agent: &mut dyn Agent<G>) -> G::Record
where
    G::Request: Copy,
{
    play_watched(settings, seed, world::<G>(&settings.rules, seed), agent, &mut |_, _, _| {})
}

/// [`play`] with a player in the arena's process.
pub fn play_local<'a, G: SoloReferee + LocalGame>(
    settings: &Budgeted<G::Rules>,
    seed: u64,
    player: &'a mut G::Player<'a>,
) -> G::Record
where
    G::Request: Copy,
{
    play(settings, seed, &mut InProcess::<G>(player))
}

/// Plays one game in a given world (hand-made worlds in tests and puzzles).
pub fn play_in<G: SoloReferee>(
    settings: &Budgeted<G::Rules>,
    seed: u64,
    world: G::World,
    agent: &mut dyn Agent<G>,
) -> G::Record
where
    G::Request: Copy,
{
    play_watched(settings, seed, world, agent, &mut |_, _, _| {})
}

/// [`play_in`]; `watch` sees each step as it is played, and the game after it.
pub fn play_watched<G: SoloReferee>(
    settings: &Budgeted<G::Rules>,
    seed: u64,
    world: G::World,
    agent: &mut dyn Agent<G>,
    watch: StepWatcher<G>,
) -> G::Record
where
    G::Request: Copy,
{
    let mut state = G::start(&settings.rules, &world);
    let mut steps = Vec::new();
    let ending = run(settings, seed, &mut state, &mut steps, agent, watch);
    if matches!(ending, Ending::Fault(_)) {
        G::forfeit(&mut state);
    }
    let (record, over) = G::finish(seed, settings, world, steps, ending, &state);
    agent.game_over(over);
    record
}

/// The step loop: `new_game`, then a request per step until the game ends.
fn run<G: SoloReferee>(
    settings: &Budgeted<G::Rules>,
    seed: u64,
    state: &mut G::State,
    steps: &mut Vec<Timed<G::Step>>,
    agent: &mut dyn Agent<G>,
    watch: StepWatcher<G>,
) -> Ending<G::End>
where
    G::Request: Copy,
{
    let Budgets { turn, startup, clock, grace } = settings.budgets;
    let info = G::info(state, settings, player_seed(seed));
    if let (Err(fault), _) = timed(clock, grace, startup, "new_game", || agent.new_game(info, startup)) {
        return Ending::Fault(fault);
    }
    let mut own = TurnClock::new(turn);
    loop {
        let request = G::request(state, steps.len() as u32, own.limit());
        // The call is named as the wire names it: a "turn", a "step".
        let (answer, time) = calls::turn(clock, grace, &mut own, G::ACT, agent, request);
        let action = match answer.result() {
            Ok(action) => action,
            Err(fault) => return Ending::Fault(fault),
        };
        let (step, end) = G::step(state, request, action);
        if let Some(step) = step {
            let step = Timed { step, time, bank_left: own.bank_left() };
            watch(&request, &step, state);
            steps.push(step);
        }
        if let Some(end) = end {
            return Ending::Rules(end);
        }
    }
}
