//! The Trap referee.
//!
//! Per turn: one `act` call (judged on the settings' clock; a silent
//! worker is stopped at its `clock::Limits`) returns the move and the
//! target; then `check_move`, end check 1 (a move that traps the opponent
//! wins, and no target is needed), `check_target`, the landing
//! (`Throw::land`: a roll in 0..20 and, if the throw can miss, a pick among
//! the cells a miss may land on, both drawn from the game's generator), end
//! check 2 (the trap traps the opponent). End check 3 runs at the start of
//! each turn: a player with no legal move loses.

use std::{fmt, time::Duration};

use player_api::{
    trap::{
        IllegalMove, IllegalTrap, Pos, TrapGameInfo, TrapRequest, TrapState, DEFAULT_SIZE, DEFAULT_TURN_CAP,
    },
    GameOver, Outcome, Seat,
};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::{wire::cell_pos, Trap};
pub use crate::play::fault::{Fault, FaultKind, Spot};
use crate::play::referee::calls::{self, timed, Answer};
use crate::{
    game::Agent,
    play::clock::{Clock, Spent, DEFAULT_GRACE},
    play::seeds,
    play::time_control::{TimeControl, TurnClock},
    players::protocol::WireCell,
};

/// The settings of a Trap game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TrapSettings {
    pub size: u8,
    /// How a turn is timed (its budget, or a time bank), for both players
    /// unless a match gives each its own; one turn covers the move and the
    /// throw together.
    pub time: TimeControl,
    /// The budget for `new_game` (a player's start-up).
    pub startup_budget: Duration,
    /// Turns after which the game is a draw.
    pub turn_cap: u32,
    /// The clock budgets are charged on.
    pub clock: Clock,
    /// How far past its budget a call may go before it is lost.
    pub grace: Duration,
}

impl Default for TrapSettings {
    fn default() -> Self {
        TrapSettings {
            size: DEFAULT_SIZE,
            time: TimeControl::default(),
            startup_budget: Duration::from_secs(10),
            turn_cap: DEFAULT_TURN_CAP,
            clock: Clock::Wall,
            grace: DEFAULT_GRACE,
        }
    }
}

/// What a player answered for one turn. Cells as the player named them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TurnActions {
    pub step: WireCell,
    /// None when the move was illegal, won at once, or used the whole budget.
    pub trap: Option<WireCell>,
}

/// One turn as it was played.
#[derive(Clone, Debug, PartialEq)]
pub struct Turn {
    pub seat: Seat,
    /// The state the player's request showed (before its move): a replay
    /// keeps it, and re-simulation checks it.
    pub shown: TrapState,
    pub from: Pos,
    pub to: Pos,
    /// None when the move won at once (no throw is asked for).
    pub throw: Option<ThrowRecord>,
    /// The time the player used this turn, on both clocks.
    pub time: Spent,
    /// Under a time bank: what was left in it after this turn.
    pub bank_left: Option<Duration>,
}

/// A throw: where it was aimed, the chance of a hit, where it landed.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ThrowRecord {
    pub target: Pos,
    pub hit_chance: f64,
    pub landed: Pos,
}

/// How a game ended.
#[derive(Clone, Debug, PartialEq)]
pub enum Ending {
    /// `loser` has no legal move after the opponent's move or throw.
    Trapped { loser: Seat },
    /// `loser` had no legal move at the start of its own turn.
    BoxedIn { loser: Seat },
    /// `loser` broke a rule or failed to answer properly.
    Fault { loser: Seat, fault: Fault },
    /// The turn cap was reached: a draw.
    TurnCap(u32),
}

impl Ending {
    /// The winning seat, or None for a draw.
    pub fn winner(&self) -> Option<Seat> {
        match self {
            Ending::Trapped { loser } | Ending::BoxedIn { loser } | Ending::Fault { loser, .. } => {
                Some(loser.other())
            }
            Ending::TurnCap(_) => None,
        }
    }

    /// The fault that ended the game, if a player failed.
    pub fn fault(&self) -> Option<(Seat, &Fault)> {
        match self {
            Ending::Fault { loser, fault } => Some((*loser, fault)),
            _ => None,
        }
    }
}

impl fmt::Display for Ending {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Ending::Trapped { .. } => write!(f, "trapped"),
            Ending::BoxedIn { .. } => write!(f, "boxed in"),
            Ending::Fault { fault, .. } => write!(f, "{fault}"),
            Ending::TurnCap(cap) => write!(f, "turn cap ({cap} turns) reached"),
        }
    }
}

/// The turn a player failed on (the game's last request): what it was
/// shown and what it answered, if it answered (the referee then rejected
/// the answer: illegal, incomplete, or late).
#[derive(Clone, Debug, PartialEq)]
pub struct FailedTurn {
    pub seat: Seat,
    pub shown: TrapState,
    pub reply: Option<TurnActions>,
    pub time: Spent,
}

/// A finished game: enough to replay it exactly.
#[derive(Clone, Debug, PartialEq)]
pub struct TrapRecord {
    pub seed: u64,
    pub settings: TrapSettings,
    /// Each seat's time control (the settings' for both, unless the match
    /// gave each player its own).
    pub controls: [TimeControl; 2],
    /// The position the game started from, and the seat that moved first.
    pub start: TrapState,
    pub first: Seat,
    pub turns: Vec<Turn>,
    /// Set when the game ended on a fault during a turn.
    pub failed: Option<FailedTurn>,
    pub ending: Ending,
}

impl TrapRecord {
    /// A game that ended before it began (a player could not be started).
    pub fn unplayed(seed: u64, settings: TrapSettings, ending: Ending) -> TrapRecord {
        let start = TrapState::new(settings.size);
        let controls = [settings.time; 2];
        TrapRecord {
            seed,
            settings,
            controls,
            start,
            first: Seat::One,
            turns: Vec::new(),
            failed: None,
            ending,
        }
    }

    pub fn winner(&self) -> Option<Seat> {
        self.ending.winner()
    }
}

/// The seeds of the two players' own generators in a game seeded `seed`:
/// drawn apart from the arena's own stream, which players never see.
pub fn player_seeds(seed: u64) -> [u64; 2] {
    seeds::players(seed)
}

/// Plays one game from the start position, both players under the
/// settings' time control. `players[0]` sits in seat 1 (moves first).
///
/// `watch` sees the state after every turn. Both players are told the
/// result (`game_over`) at the end; their answer to that does not change it.
pub fn play<'a, 'w>(
    settings: &TrapSettings,
    seed: u64,
    players: [&'a mut dyn Agent<Trap>; 2],
    watch: &'w mut dyn FnMut(&TrapState, &Turn),
) -> TrapRecord {
    play_timed(settings, [settings.time; 2], seed, players, watch)
}

/// [`play`], each seat under its own time control (`controls`, in seat order).
pub fn play_timed<'a, 'w>(
    settings: &TrapSettings,
    controls: [TimeControl; 2],
    seed: u64,
    players: [&'a mut dyn Agent<Trap>; 2],
    watch: &'w mut dyn FnMut(&TrapState, &Turn),
) -> TrapRecord {
    play_from(settings, controls, seed, TrapState::new(settings.size), Seat::One, players, watch)
}

/// Plays one game from `start`, with `first` to move (for puzzles and tests).
pub fn play_from<'a, 'w>(
    settings: &TrapSettings,
    controls: [TimeControl; 2],
    seed: u64,
    start: TrapState,
    first: Seat,
    players: [&'a mut dyn Agent<Trap>; 2],
    watch: &'w mut dyn FnMut(&TrapState, &Turn),
) -> TrapRecord {
    let mut game = Game {
        settings: TrapSettings { size: start.size(), ..*settings },
        clocks: controls.map(TurnClock::new),
        state: start,
        rng: ChaCha8Rng::seed_from_u64(seed),
        players,
        turns: Vec::new(),
        failed: None,
        watch,
    };
    let ending = game.run(seed, first);
    let record = TrapRecord {
        seed,
        settings: game.settings,
        controls,
        start,
        first,
        turns: game.turns,
        failed: game.failed,
        ending,
    };
    for seat in Seat::BOTH {
        let outcome = match record.winner() {
            None => Outcome::Draw,
            Some(winner) if winner == seat => Outcome::Win,
            Some(_) => Outcome::Loss,
        };
        let told =
            GameOver { outcome, turns: record.turns.len() as u32, reason: record.ending.to_string().into() };
        game.players[seat.index()].game_over(told);
    }
    record
}

fn spot([row, col]: WireCell) -> Spot {
    Spot { row, col }
}

impl From<Pos> for Spot {
    fn from(pos: Pos) -> Spot {
        Spot { row: pos.row.into(), col: pos.col.into() }
    }
}

/// The fault of a move the rules forbid: `illegal move (r,c): why`.
pub fn illegal_move(step: Spot, why: IllegalMove) -> Fault {
    Fault::Illegal { what: "move", spot: step, why: why.to_string() }
}

/// The fault of a throw the rules forbid: `illegal trap (r,c): why`.
pub fn illegal_trap(target: Spot, why: IllegalTrap) -> Fault {
    Fault::Illegal { what: "trap", spot: target, why: why.to_string() }
}

struct Game<'a, 'w> {
    settings: TrapSettings,
    /// Each seat's clock.
    clocks: [TurnClock; 2],
    state: TrapState,
    rng: ChaCha8Rng,
    players: [&'a mut dyn Agent<Trap>; 2],
    turns: Vec<Turn>,
    failed: Option<FailedTurn>,
    watch: &'w mut dyn FnMut(&TrapState, &Turn),
}

impl Game<'_, '_> {
    fn run(&mut self, seed: u64, first: Seat) -> Ending {
        let own_seeds = player_seeds(seed);
        for seat in Seat::BOTH {
            if let Err(fault) = self.start(seat, own_seeds[seat.index()]) {
                return Ending::Fault { loser: seat, fault };
            }
        }
        let mut seat = first;
        loop {
            if self.turns.len() as u32 >= self.settings.turn_cap {
                return Ending::TurnCap(self.settings.turn_cap);
            }
            // End check 3: a player with no legal move at the start of its turn loses.
            if !self.state.can_move(seat) {
                return Ending::BoxedIn { loser: seat };
            }
            if let Some(ending) = self.turn(seat) {
                return ending;
            }
            seat = seat.other();
        }
    }

    fn start(&mut self, seat: Seat, seed: u64) -> Result<(), Fault> {
        let info = TrapGameInfo {
            seat,
            size: self.settings.size,
            turn_budget_us: self.clocks[seat.index()].control.first_turn().as_micros() as u64,
            seed,
        };
        let budget = self.settings.startup_budget;
        let player = &mut self.players[seat.index()];
        let (clock, grace) = (self.settings.clock, self.settings.grace);
        timed(clock, grace, budget, "new_game", || player.new_game(info, budget)).0
    }

    /// One turn of `seat`, recording a failure in `self.failed`.
    fn turn(&mut self, seat: Seat) -> Option<Ending> {
        let shown = self.state;
        let request = self.request(seat, self.clocks[seat.index()].limit());
        let own = &mut self.clocks[seat.index()];
        let (clock, grace) = (self.settings.clock, self.settings.grace);
        let (answer, used) = calls::turn(clock, grace, own, "turn", self.players[seat.index()], request);
        // A late answer is recorded as given, and loses.
        let (actions, result) = match answer {
            Answer::OnTime(actions) => (Some(actions), self.judge(seat, shown, actions, used)),
            Answer::Late(actions, fault) => (Some(actions), Err(fault)),
            Answer::Failed(fault) => (None, Err(fault)),
        };
        match result {
            Ok(ending) => ending,
            Err(fault) => {
                self.failed = Some(FailedTurn { seat, shown, reply: actions, time: used });
                Some(Ending::Fault { loser: seat, fault })
            }
        }
    }

    /// The rest of a turn once `seat` answered in time: the move, end check 1, the
    /// throw, end check 2. `Err` is the player's fault.
    fn judge(
        &mut self,
        seat: Seat,
        shown: TrapState,
        actions: TurnActions,
        used: Spent,
    ) -> Result<Option<Ending>, Fault> {
        let TurnActions { step, trap } = actions;
        let from = self.state.position(seat);
        let to = match cell_pos(step).map(|to| (to, self.state.check_move(seat, to))) {
            Some((to, Ok(()))) => to,
            Some((_, Err(why))) => return Err(illegal_move(spot(step), why)),
            None => return Err(illegal_move(spot(step), IllegalMove::OffBoard)),
        };
        self.state.move_player(seat, to);

        // End check 1: the move alone trapped the opponent; no throw is asked for.
        if !self.state.can_move(seat.other()) {
            self.record(Turn {
                seat,
                shown,
                from,
                to,
                throw: None,
                time: used,
                bank_left: self.bank_left(seat),
            });
            return Ok(Some(Ending::Trapped { loser: seat.other() }));
        }

        let Some(target) = trap else {
            return Err(Fault::Protocol("the turn has a move but no trap".to_string()));
        };
        let target = match cell_pos(target).map(|t| (t, self.state.check_target(t))) {
            Some((t, Ok(()))) => t,
            Some((_, Err(why))) => return Err(illegal_trap(spot(target), why)),
            None => return Err(illegal_trap(spot(target), IllegalTrap::OffBoard)),
        };
        let throw = self.state.throw(seat, target);
        let roll = self.rng.random_range(0..20);
        let pick = match throw.miss_cells().len() {
            0 => 0,
            n => self.rng.random_range(0..n),
        };
        let landed = throw.land(roll, pick);
        self.state.place_trap(landed);
        let record = ThrowRecord { target, hit_chance: throw.hit_chance(), landed };
        let bank_left = self.bank_left(seat);
        self.record(Turn { seat, shown, from, to, throw: Some(record), time: used, bank_left });

        // End check 2: the trap trapped the opponent.
        Ok((!self.state.can_move(seat.other())).then_some(Ending::Trapped { loser: seat.other() }))
    }

    fn request(&self, seat: Seat, time_left: Duration) -> TrapRequest {
        TrapRequest {
            state: self.state,
            seat,
            turn: self.turns.len() as u32,
            time_left_us: time_left.as_micros() as u64,
        }
    }

    fn bank_left(&self, seat: Seat) -> Option<Duration> {
        self.clocks[seat.index()].bank_left()
    }

    fn record(&mut self, turn: Turn) {
        (self.watch)(&self.state, &turn);
        self.turns.push(turn);
    }
}
