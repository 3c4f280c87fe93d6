//! A Hexapawn match: two players, N games in seat-swapped pairs (as Trap's
//! matches), one instance per player for the whole match, told every
//! result, so a learning player (menace) learns within the match.

use std::collections::HashMap;

use player_api::Seat;

use crate::{
    clock::Spent,
    game::{Agent, Hexapawn, Unavailable},
    matches::{schedule, Tally},
    players::{Hosting, Player},
    referee::hexapawn::{self, HexapawnEnding, HexapawnRecord, HexapawnSettings},
    replay::{self, Replay, ReplayPlayer},
};

/// What to play, and where the players run.
#[derive(Clone, Debug)]
pub struct DuelConfig {
    pub settings: HexapawnSettings,
    pub games: u32,
    pub seed: u64,
    pub hosting: Hosting,
}

/// One game of a match.
#[derive(Clone, Debug)]
pub struct DuelGame {
    pub index: u32,
    /// Which player (0 or 1) was White (seat 1) and Black (seat 2).
    pub seats: [usize; 2],
    pub record: HexapawnRecord,
}

impl DuelGame {
    /// The winning player (0 or 1): Hexapawn has no draws.
    pub fn winner(&self) -> usize {
        self.seats[self.record.winner().index()]
    }

    /// The game's replay; `players` by player index (0 and 1), seated here.
    pub fn replay(&self, players: &[ReplayPlayer]) -> Replay {
        replay::hexapawn::from_record(&self.record, self.seats.map(|p| players[p].clone()))
    }

    /// The player that lost by failing, and the kind of failure.
    pub fn fault(&self) -> Option<(usize, &'static str)> {
        fault_of(&self.record).map(|(seat, kind)| (self.seats[seat.index()], kind))
    }
}

/// The seat that lost by failing (an illegal move counts), and the kind.
pub fn fault_of(record: &HexapawnRecord) -> Option<(Seat, &'static str)> {
    match &record.ending {
        HexapawnEnding::Illegal { loser, .. } => Some((*loser, "illegal")),
        HexapawnEnding::Fault { loser, fault } => Some((*loser, fault.kind().name())),
        HexapawnEnding::Won { .. } | HexapawnEnding::Resigned { .. } => None,
    }
}

/// Moves and time used per seat: (plies, total, longest).
pub fn clock(record: &HexapawnRecord, seat: Seat) -> (u32, Spent, Spent) {
    let times = record.plies.iter().filter(|p| p.seat == seat).map(|p| p.time);
    times.fold((0, Spent::default(), Spent::default()), |(n, total, max), t| (n + 1, total + t, max.max(t)))
}

/// The whole match.
pub struct DuelResult {
    pub config: DuelConfig,
    pub tallies: [Tally; 2],
    pub games: Vec<DuelGame>,
}

impl DuelResult {
    pub fn average_plies(&self) -> f64 {
        let total: usize = self.games.iter().map(|g| g.record.plies.len()).sum();
        total as f64 / self.games.len().max(1) as f64
    }
}

/// Plays the match; `on_game` sees each game as it finishes.
pub fn play(players: [&Player; 2], config: &DuelConfig, on_game: &mut dyn FnMut(&DuelGame)) -> DuelResult {
    let list = [players[0].clone(), players[1].clone()];
    let mut pool = DuelPool::new(&list, config.hosting.clone());
    let mut tallies = [Tally::new(players[0].name()), Tally::new(players[1].name())];
    let mut games = Vec::with_capacity(config.games as usize);
    for index in 0..config.games {
        let (seats, seed) = schedule(config.seed, index);
        let game = DuelGame { index, seats, record: pool.play(seats, seed, &config.settings) };
        tally(&mut tallies, &game);
        on_game(&game);
        games.push(game);
    }
    DuelResult { config: config.clone(), tallies, games }
}

/// Live Hexapawn instances by player id, kept across games (a learner
/// keeps its memory); one that failed is replaced for its next game.
pub struct DuelPool<'p> {
    players: &'p [Player],
    hosting: Hosting,
    live: HashMap<usize, Box<dyn Agent<Hexapawn>>>,
}

impl<'p> DuelPool<'p> {
    pub fn new(players: &'p [Player], hosting: Hosting) -> DuelPool<'p> {
        DuelPool { players, hosting, live: HashMap::new() }
    }

    /// Plays one game: player `seats[0]` White, `seats[1]` Black.
    pub fn play(&mut self, seats: [usize; 2], seed: u64, settings: &HexapawnSettings) -> HexapawnRecord {
        let [mut white, mut black] = seats.map(|id| {
            self.live.remove(&id).unwrap_or_else(|| {
                self.players[id]
                    .new_agent::<Hexapawn>(&self.hosting, settings.startup_budget)
                    .unwrap_or_else(|fault| Box::new(Unavailable(fault)))
            })
        });
        let record = hexapawn::play_agents(settings, seed, [&mut *white, &mut *black]);
        // An illegal move is the player's answer, not a broken instance.
        let failed = match &record.ending {
            HexapawnEnding::Fault { loser, .. } => Some(seats[loser.index()]),
            _ => None,
        };
        for (id, agent) in seats.into_iter().zip([white, black]) {
            if failed != Some(id) {
                self.live.insert(id, agent);
            }
        }
        record
    }
}

fn tally(tallies: &mut [Tally; 2], game: &DuelGame) {
    let winner = game.winner();
    tallies[winner].wins += 1;
    tallies[1 - winner].losses += 1;
    if let Some((player, kind)) = game.fault() {
        *tallies[player].failures.entry(kind).or_default() += 1;
    }
    for seat in Seat::BOTH {
        let (plies, total, max) = clock(&game.record, seat);
        let t = &mut tallies[game.seats[seat.index()]];
        t.turns += plies;
        t.time_total += total;
        t.time_max = t.time_max.max(max);
    }
}
