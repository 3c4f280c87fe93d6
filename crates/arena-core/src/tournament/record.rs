//! A finished tournament game as the journal keeps it: one JSON line each.
//! Everything standings and reports need, nothing that depends on how the
//! game was run (times aside).

use serde::{Deserialize, Serialize};

use crate::{
    play::clock::Spent, play::solo::SoloScore, play::time_control::TimeControl,
    play::two_player::TwoPlayerGame,
};

/// One game to play.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ScheduledGame {
    pub index: usize,
    /// Player ids in seat 1 and seat 2.
    pub seats: [usize; 2],
    pub seed: u64,
}

/// One finished game. Player ids index the tournament's player list.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct GameResult {
    /// The game's index in the schedule.
    pub index: usize,
    pub seed: u64,
    /// Player ids in seat 1 and seat 2.
    pub seats: [usize; 2],
    /// The winner's player id, or None for a draw.
    pub winner: Option<usize>,
    pub turns: u32,
    /// Why the game ended ("trapped", "timeout: 5.31 s > 5.00 s", ...).
    pub reason: String,
    /// The player that lost by failing, and the kind ("timeout", "illegal", ...).
    pub fault: Option<FaultRecord>,
    /// Time used per seat.
    pub clock: [SeatClock; 2],
    /// A single-player game's result (its one player sits in both seats;
    /// `winner` is that player if it won).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub solo: Option<SoloScore>,
    /// Times the game was played again, on the same seed, because the
    /// machine spoiled it (older journals only: a game the machine spoils,
    /// `Fault::Overloaded`, is now postponed and never journaled).
    #[serde(default, skip_serializing_if = "crate::report::units::is_zero")]
    pub replayed: u32,
    /// Its replay was asked for (`[replays]`) but not written: the run's
    /// replays had reached `replays.max_bytes`.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub replay_left_out: bool,
}

#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct FaultRecord {
    pub player: usize,
    pub kind: String,
}

/// A seat's time over one game.
#[derive(Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Default)]
pub struct SeatClock {
    pub turns: u32,
    /// Wall-clock time: all turns, the longest.
    pub total_us: u64,
    pub max_us: u64,
    /// CPU time the player used: all turns, the longest (older journals: 0).
    #[serde(default)]
    pub cpu_total_us: u64,
    #[serde(default)]
    pub cpu_max_us: u64,
    /// The seat's time control, when it was a bank or the player's own
    /// (absent: the settings' budget per turn).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub time_control: Option<TimeControl>,
    /// Under a bank: what was left in it after the seat's last turn.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bank_left_us: Option<u64>,
}

impl SeatClock {
    /// `turns` turns that took `total` in all, the longest `max`.
    pub fn of(turns: u32, total: Spent, max: Spent) -> SeatClock {
        let us = |d: std::time::Duration| d.as_micros() as u64;
        SeatClock {
            turns,
            total_us: us(total.wall),
            max_us: us(max.wall),
            cpu_total_us: us(total.cpu),
            cpu_max_us: us(max.cpu),
            time_control: None,
            bank_left_us: None,
        }
    }
}

impl GameResult {
    /// The record of `game` of a two-player game, played as schedule
    /// entry `index` with the players `seats` (ids) in seat 1 and seat 2.
    pub fn two_player<G: TwoPlayerGame>(index: usize, seats: [usize; 2], game: &G::Record) -> GameResult {
        let seat_id = |seat: player_api::Seat| seats[seat.index()];
        GameResult {
            index,
            seed: G::seed(game),
            seats,
            winner: crate::play::two_player::winner::<G>(game).map(seat_id),
            turns: G::moves(game) as u32,
            reason: G::reason(game),
            fault: G::failure(game)
                .map(|(seat, kind)| FaultRecord { player: seat_id(seat), kind: kind.to_string() }),
            clock: player_api::Seat::BOTH.map(|seat| {
                let (turns, total, max) = G::clock(game, seat);
                let (time_control, left) = G::seat_time(game, seat);
                let bank_left_us = left.map(|left| left.as_micros() as u64);
                SeatClock { time_control, bank_left_us, ..SeatClock::of(turns, total, max) }
            }),
            solo: None,
            replayed: 0,
            replay_left_out: false,
        }
    }

    /// The record of player `id`'s single-player game seeded `seed`.
    pub fn solo(index: usize, id: usize, seed: u64, result: SoloScore) -> GameResult {
        let replayed = result.replayed;
        let clock = SeatClock {
            turns: result.steps,
            total_us: result.time_us,
            max_us: result.time_us,
            cpu_total_us: result.cpu_us,
            cpu_max_us: result.cpu_us,
            ..SeatClock::default()
        };
        GameResult {
            index,
            seed,
            seats: [id, id],
            winner: result.won.then_some(id),
            turns: result.steps,
            reason: result.reason.clone(),
            fault: result.fault.as_ref().map(|kind| FaultRecord { player: id, kind: kind.clone() }),
            clock: [clock, SeatClock::default()],
            solo: Some(result),
            replayed,
            replay_left_out: false,
        }
    }

    /// Whether the machine spoiled the game (`Fault::Overloaded`): it is
    /// no one's result, so it is never journaled nor counted, but played
    /// again once the machine has cores to give (a postponed game).
    pub fn spoiled(&self) -> bool {
        self.fault.as_ref().is_some_and(|f| crate::play::fault::FaultKind::is_machine(&f.kind))
    }

    /// Player `id`'s score in this game: 1 win, 0.5 draw, 0 loss (a
    /// single-player game: its score).
    pub fn score_of(&self, id: usize) -> f64 {
        if let Some(solo) = &self.solo {
            return if self.seats[0] == id { solo.score as f64 } else { 0.0 };
        }
        match self.winner {
            None => 0.5,
            Some(w) if w == id => 1.0,
            Some(_) => 0.0,
        }
    }

    /// The same game with the times left out (for comparing runs); the
    /// time controls stay (they are the games' own, not measured).
    pub fn without_times(&self) -> GameResult {
        let clock = self.clock.map(|c| SeatClock {
            turns: c.turns,
            time_control: c.time_control,
            ..SeatClock::default()
        });
        let solo = self.solo.clone().map(|s| SoloScore { time_us: 0, cpu_us: 0, ..s });
        GameResult { clock, solo, ..self.clone() }
    }
}
