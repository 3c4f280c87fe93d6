//! A match: two players, N games, seats alternating, results tallied.
//!
//! Games come in seat-swapped pairs on the same seed (games 2k and 2k+1),
//! so first-move advantage and the throws' luck cancel out over a pair.

use std::collections::{BTreeMap, HashMap};

use player_api::{trap::TrapState, Seat};
use serde::Serialize;

use crate::{
    clock::Spent,
    fault::{Fault, FaultKind},
    game::{Agent, Trap},
    parallel,
    players::{Hosting, Player},
    referee::trap::{self, Ending, TrapGame, TrapSettings, Turn},
    seeds,
};

/// What to play, and where the players run.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    pub settings: TrapSettings,
    pub games: u32,
    pub seed: u64,
    pub hosting: Hosting,
    /// The index of the first game to play: a match can be resumed or a
    /// single game of it replayed with the same seed and seats.
    pub first_game: u32,
    /// Games played at once (each thread with its own instances); the games
    /// are the same whatever it is. A watched match plays one at a time.
    pub concurrency: usize,
}

/// One game of a match, as the match sees it.
#[derive(Clone, Debug)]
pub struct MatchGame {
    pub index: u32,
    /// Which player (0 or 1, in the order given) sat in seat 1 and seat 2.
    pub seats: [usize; 2],
    pub record: TrapGame,
}

impl MatchGame {
    /// The winning player (0 or 1), or None for a draw.
    pub fn winner(&self) -> Option<usize> {
        self.record.winner().map(|seat| self.seats[seat.index()])
    }

    /// The player that failed, and how, if the game ended on a fault.
    pub fn fault(&self) -> Option<(usize, &Fault)> {
        self.record.ending.fault().map(|(seat, fault)| (self.seats[seat.index()], fault))
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
pub struct MatchResult {
    pub config: MatchConfig,
    pub tallies: [Tally; 2],
    pub games: Vec<MatchGame>,
}

impl MatchResult {
    pub fn average_turns(&self) -> f64 {
        let total: usize = self.games.iter().map(|g| g.record.turns.len()).sum();
        total as f64 / self.games.len().max(1) as f64
    }
}

/// Sees every turn of a match: the seats of the current game (which player
/// sits where), the state after the turn, the turn.
pub type TurnWatcher<'a> = &'a mut dyn FnMut([usize; 2], &TrapState, &Turn);

/// Seat assignment and seed of game `index`: pairs share a seed, seats swap.
pub fn schedule(base_seed: u64, index: u32) -> ([usize; 2], u64) {
    let seats = if index.is_multiple_of(2) { [0, 1] } else { [1, 0] };
    (seats, seeds::derive(base_seed, u64::from(index / 2)))
}

/// Plays the match. `on_game` sees each game as it finishes; `watch`, if
/// given, sees every turn (with the seats of the current game).
pub fn play(
    players: [&Player; 2],
    config: &MatchConfig,
    on_game: &mut dyn FnMut(&MatchGame),
    watch: Option<TurnWatcher>,
) -> MatchResult {
    let list = [players[0].clone(), players[1].clone()];
    let mut tallies = [Tally::new(players[0].name()), Tally::new(players[1].name())];
    let mut games = Vec::with_capacity(config.games as usize);
    let mut finish = |game: MatchGame| {
        tally(&mut tallies, &game);
        on_game(&game);
        games.push(game);
    };
    let indices = config.first_game..config.first_game + config.games;
    let new_pool = || InstancePool::new(&list, config.hosting.clone());
    let play_game = |pool: &mut InstancePool, index, see: &mut dyn FnMut(&TrapState, &Turn)| {
        let (seats, seed) = schedule(config.seed, index);
        MatchGame { index, seats, record: pool.play(seats, seed, &config.settings, see) }
    };
    match watch {
        Some(watch) => {
            let mut pool = new_pool();
            for index in indices {
                let seats = schedule(config.seed, index).0;
                finish(play_game(&mut pool, index, &mut |state, turn| watch(seats, state, turn)));
            }
        }
        None => parallel::play_in_order(
            indices,
            config.concurrency,
            new_pool,
            |pool, index| play_game(pool, index, &mut |_, _| {}),
            |_, game| finish(game),
        ),
    }
    MatchResult { config: config.clone(), tallies, games }
}

/// Live player instances, made when first needed and reused game after
/// game; one that failed is replaced by a fresh one for its next game.
pub struct InstancePool<'p> {
    players: &'p [Player],
    hosting: Hosting,
    live: HashMap<usize, Box<dyn Agent<Trap>>>,
}

impl<'p> InstancePool<'p> {
    pub fn new(players: &'p [Player], hosting: Hosting) -> InstancePool<'p> {
        InstancePool { players, hosting, live: HashMap::new() }
    }

    /// Plays one game between players `seats[0]` (seat 1) and `seats[1]`.
    pub fn play(
        &mut self,
        seats: [usize; 2],
        seed: u64,
        settings: &TrapSettings,
        watch: &mut dyn FnMut(&TrapState, &Turn),
    ) -> TrapGame {
        let mut agents = Vec::with_capacity(2);
        for (seat, &id) in Seat::BOTH.iter().zip(&seats) {
            let agent = match self.live.remove(&id) {
                Some(agent) => agent,
                None => match self.players[id].new_agent::<Trap>(&self.hosting, settings.startup_budget) {
                    Ok(agent) => agent,
                    Err(fault) => {
                        // Put back what was taken; the game is lost by the player that could not start.
                        for (id, agent) in seats.iter().zip(agents) {
                            self.live.insert(*id, agent);
                        }
                        let ending = Ending::Fault { loser: *seat, fault };
                        return TrapGame::unplayed(seed, *settings, ending);
                    }
                },
            };
            agents.push(agent);
        }
        let [mut one, mut two]: [Box<dyn Agent<Trap>>; 2] = agents.try_into().ok().expect("two agents");
        let record = trap::play(settings, seed, [&mut *one, &mut *two], watch);
        let failed = record.ending.fault().map(|(seat, _)| seats[seat.index()]);
        for (id, agent) in seats.into_iter().zip([one, two]) {
            // A player that failed gets a fresh instance (a fresh worker) next
            // time: whatever state it was in is not trusted.
            if failed != Some(id) {
                self.live.insert(id, agent);
            }
        }
        record
    }
}

fn tally(tallies: &mut [Tally; 2], game: &MatchGame) {
    match game.winner() {
        None => tallies.iter_mut().for_each(|t| t.draws += 1),
        Some(winner) => {
            tallies[winner].wins += 1;
            tallies[1 - winner].losses += 1;
        }
    }
    if let Some((player, fault)) = game.fault() {
        *tallies[player].failures.entry(fault.kind().name()).or_default() += 1;
    }
    for seat in Seat::BOTH {
        let (turns, total, max) = game.record.clock(seat);
        let t = &mut tallies[game.seats[seat.index()]];
        t.turns += turns;
        t.time_total += total;
        t.time_max = t.time_max.max(max);
    }
}
