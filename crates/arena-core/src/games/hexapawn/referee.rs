//! The Hexapawn referee: one game between two seats, validated, timed,
//! recorded. Hexapawn has no chance events; the seed only gives each
//! player its own seed.

use std::{fmt, time::Duration};

use player_api::{
    hexapawn::{
        HexMove, HexWin, HexapawnAction, HexapawnBoard, HexapawnGameInfo, HexapawnPlayer, HexapawnRequest,
        IllegalHexMove,
    },
    GameOver, Outcome, Seat,
};

use super::Hexapawn;
use crate::play::referee::{
    calls::{self, timed},
    InProcess,
};
use crate::{
    game::Agent,
    play::clock::{Clock, Spent, DEFAULT_GRACE},
    play::fault::Fault,
    play::seeds,
    play::time_control::{TimeControl, TurnClock},
};

/// The settings of a Hexapawn game.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct HexapawnSettings {
    /// How a move is timed (its budget, or a time bank), for both players
    /// unless a match gives each its own.
    pub time: TimeControl,
    /// The budget for `new_game` (a player's start-up).
    pub startup_budget: Duration,
    /// The clock budgets are charged on.
    pub clock: Clock,
    /// How far past its budget a call may go before it is lost.
    pub grace: Duration,
}

/// Spelled as before time controls (`turn_budget: 5s`): tournament
/// fingerprints hold this text, so it must not change (a grace other than
/// the default is in the fingerprint apart: `tournament::fingerprint`).
impl fmt::Debug for HexapawnSettings {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("HexapawnSettings")
            .field("turn_budget", &self.time)
            .field("startup_budget", &self.startup_budget)
            .field("clock", &self.clock)
            .finish()
    }
}

impl Default for HexapawnSettings {
    fn default() -> Self {
        HexapawnSettings {
            time: TimeControl::default(),
            startup_budget: Duration::from_secs(10),
            clock: Clock::Wall,
            grace: DEFAULT_GRACE,
        }
    }
}

/// One ply as it was played.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Ply {
    pub seat: Seat,
    pub mv: HexMove,
    /// The time the player used, on both clocks.
    pub time: Spent,
    /// Under a time bank: what was left in it after this ply.
    pub bank_left: Option<Duration>,
}

/// How a game ended.
#[derive(Clone, Debug, PartialEq)]
pub enum HexapawnEnding {
    /// Won on the board.
    Won {
        winner: Seat,
        how: HexWin,
    },
    Resigned {
        loser: Seat,
    },
    /// An illegal move loses at once.
    Illegal {
        loser: Seat,
        mv: HexMove,
        why: IllegalHexMove,
    },
    /// The player failed (timeout, panic, ...).
    Fault {
        loser: Seat,
        fault: Fault,
    },
}

impl HexapawnEnding {
    pub fn winner(&self) -> Seat {
        match self {
            HexapawnEnding::Won { winner, .. } => *winner,
            HexapawnEnding::Resigned { loser }
            | HexapawnEnding::Illegal { loser, .. }
            | HexapawnEnding::Fault { loser, .. } => loser.other(),
        }
    }
}

impl fmt::Display for HexapawnEnding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HexapawnEnding::Won { how, .. } => write!(f, "{how}"),
            HexapawnEnding::Resigned { .. } => write!(f, "resigned"),
            HexapawnEnding::Illegal { mv, why, .. } => write!(f, "illegal move {mv}: {why}"),
            HexapawnEnding::Fault { fault, .. } => write!(f, "{fault}"),
        }
    }
}

/// A finished game: enough to replay it exactly.
#[derive(Clone, Debug, PartialEq)]
pub struct HexapawnRecord {
    pub seed: u64,
    pub settings: HexapawnSettings,
    /// Each seat's time control (the settings' for both, unless the match
    /// gave each player its own).
    pub controls: [TimeControl; 2],
    pub start: HexapawnBoard,
    pub plies: Vec<Ply>,
    pub ending: HexapawnEnding,
}

impl HexapawnRecord {
    pub fn winner(&self) -> Seat {
        self.ending.winner()
    }

    /// The positions the players were shown, one per request, in order.
    pub fn boards(&self) -> Vec<HexapawnBoard> {
        let mut boards = vec![self.start];
        for ply in &self.plies {
            boards.push(boards.last().expect("starts with the start").play(ply.mv));
        }
        boards.truncate(self.plies.len() + usize::from(self.ending.is_request_answer()));
        boards
    }
}

impl HexapawnEnding {
    /// Whether the game ended on an answer (resign, illegal, fault) to a
    /// request whose position is not followed by a played ply.
    fn is_request_answer(&self) -> bool {
        !matches!(self, HexapawnEnding::Won { .. })
    }
}

/// The seeds of the two players' own generators in a game seeded `seed`.
pub fn player_seeds(seed: u64) -> [u64; 2] {
    seeds::players(seed)
}

/// Plays one game with both players in the arena's process. `players[0]`
/// is White (seat 1, moves first).
pub fn play(
    settings: &HexapawnSettings,
    seed: u64,
    [white, black]: [&mut dyn HexapawnPlayer; 2],
) -> HexapawnRecord {
    play_agents(settings, seed, [&mut InProcess::<Hexapawn>(white), &mut InProcess::<Hexapawn>(black)])
}

/// Plays one game from the start position, both under the settings' time
/// control. `agents[0]` is White. Both are told the result at the end.
pub fn play_agents(
    settings: &HexapawnSettings,
    seed: u64,
    agents: [&mut dyn Agent<Hexapawn>; 2],
) -> HexapawnRecord {
    play_timed(settings, [settings.time; 2], seed, agents)
}

/// [`play_agents`], each seat under its own time control (`controls`, in seat order).
pub fn play_timed(
    settings: &HexapawnSettings,
    controls: [TimeControl; 2],
    seed: u64,
    agents: [&mut dyn Agent<Hexapawn>; 2],
) -> HexapawnRecord {
    play_watched(settings, controls, seed, agents, &mut |_, _| {})
}

/// [`play_timed`]; `watch` sees each ply as it is played: the board after
/// it, and the board its request showed with the ply.
pub fn play_watched(
    settings: &HexapawnSettings,
    controls: [TimeControl; 2],
    seed: u64,
    mut agents: [&mut dyn Agent<Hexapawn>; 2],
    watch: &mut dyn FnMut(&HexapawnBoard, &(HexapawnBoard, Ply)),
) -> HexapawnRecord {
    let start = HexapawnBoard::start();
    let mut plies = Vec::new();
    let mut clocks = controls.map(TurnClock::new);
    let ending = run(settings, &mut clocks, seed, start, &mut plies, &mut agents, watch);
    let record = HexapawnRecord { seed, settings: *settings, controls, start, plies, ending };
    for seat in Seat::BOTH {
        let outcome = if record.winner() == seat { Outcome::Win } else { Outcome::Loss };
        let told =
            GameOver { outcome, turns: record.plies.len() as u32, reason: record.ending.to_string().into() };
        agents[seat.index()].game_over(told);
    }
    record
}

fn run(
    settings: &HexapawnSettings,
    clocks: &mut [TurnClock; 2],
    seed: u64,
    mut board: HexapawnBoard,
    plies: &mut Vec<Ply>,
    agents: &mut [&mut dyn Agent<Hexapawn>; 2],
    watch: &mut dyn FnMut(&HexapawnBoard, &(HexapawnBoard, Ply)),
) -> HexapawnEnding {
    let own_seeds = player_seeds(seed);
    for seat in Seat::BOTH {
        let info = HexapawnGameInfo {
            seat,
            turn_budget_us: clocks[seat.index()].control.first_turn().as_micros() as u64,
            seed: own_seeds[seat.index()],
        };
        let agent = &mut agents[seat.index()];
        let (clock, grace, startup) = (settings.clock, settings.grace, settings.startup_budget);
        if let (Err(fault), _) = timed(clock, grace, startup, "new_game", || agent.new_game(info, startup)) {
            return HexapawnEnding::Fault { loser: seat, fault };
        }
    }
    loop {
        if let Some((winner, how)) = board.decided() {
            return HexapawnEnding::Won { winner, how };
        }
        let seat = board.to_move();
        let own = &mut clocks[seat.index()];
        let time_left_us = own.limit().as_micros() as u64;
        let request = HexapawnRequest { board, seat, ply: plies.len() as u32, time_left_us };
        let (reply, time) =
            calls::turn(settings.clock, settings.grace, own, "turn", agents[seat.index()], request);
        let mv = match reply.result() {
            Ok(HexapawnAction::Move(mv)) => mv,
            Ok(HexapawnAction::Resign) => return HexapawnEnding::Resigned { loser: seat },
            Err(fault) => return HexapawnEnding::Fault { loser: seat, fault },
        };
        if let Err(why) = board.check_move(mv) {
            return HexapawnEnding::Illegal { loser: seat, mv, why };
        }
        let shown = board;
        board = board.play(mv);
        let ply = Ply { seat, mv, time, bank_left: own.bank_left() };
        watch(&board, &(shown, ply));
        plies.push(ply);
    }
}
