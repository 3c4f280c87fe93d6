//! A player's failure as a replay keeps it: enough to show it, and to hand
//! it back to the referee when the game is re-simulated.

use std::time::Duration;

use player_api::Seat;
use serde::{Deserialize, Serialize};

use super::ReplayResult;
use crate::{
    game::{Agent, Game},
    play::clock::Clock,
    play::fault::Fault,
};

/// The fault that ended a game: who failed (an index into the replay's
/// players), its kind as tallies count it ("timeout", "illegal", ...), and
/// the details.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct FaultRecord {
    pub player: usize,
    pub kind: String,
    #[serde(flatten)]
    pub detail: FaultDetail,
}

/// What went wrong, by type.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum FaultDetail {
    /// An answer that was not a cell at all (the host's `invalid` reply).
    InvalidAction {
        what: String,
    },
    Timeout {
        during: String,
        used_ns: u64,
        budget_ns: u64,
        killed: bool,
        /// The clock `used_ns` was measured on (older replays: wall).
        #[serde(default, skip_serializing_if = "is_wall")]
        clock: Clock,
        /// How far past the budget it could go (older replays: none said).
        #[serde(default, skip_serializing_if = "is_zero")]
        grace_ns: u64,
        /// Stopped by the CPU clock's backstop of its own time.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        backstop: bool,
    },
    Panicked {
        message: String,
    },
    Crashed {
        how: String,
    },
    Protocol {
        what: String,
    },
    OutputFlood {
        limit_bytes: u64,
    },
    Unavailable {
        why: String,
    },
    /// A person gave the game up (`Fault::Resigned`).
    Resigned {
        how: String,
    },
    /// The machine's fault (`Fault::Overloaded`): no answer by the cap,
    /// most of it spent waiting for a core.
    Overloaded {
        during: String,
        wall_ns: u64,
        waited_ns: u64,
        budget_ns: u64,
    },
    /// An answer the rules forbid (`Fault::Illegal`): `type` is
    /// `illegal_<what>` (`illegal_move`, `illegal_trap`: the part of the
    /// answer, as the game names it), and the cell as the player named it.
    /// Re-simulation re-judges the answer. (Untagged, last: its tag is the
    /// game's, read by `illegal_type`.)
    #[serde(untagged)]
    Illegal {
        #[serde(rename = "type", with = "illegal_type")]
        what: String,
        cell: [i64; 2],
    },
}

/// `FaultDetail::Illegal`'s `type`: `illegal_` and the part of the answer.
mod illegal_type {
    use serde::{de::Error, Deserialize, Deserializer, Serializer};

    const PREFIX: &str = "illegal_";

    pub fn serialize<S: Serializer>(what: &str, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&format!("{PREFIX}{what}"))
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<String, D::Error> {
        let tag = String::deserialize(deserializer)?;
        match tag.strip_prefix(PREFIX) {
            Some(what) if !what.is_empty() => Ok(what.to_string()),
            _ => Err(D::Error::custom(format!("unknown fault type `{tag}`"))),
        }
    }
}

fn is_wall(clock: &Clock) -> bool {
    *clock == Clock::Wall
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

/// The calls a timeout can happen in (`Fault::Timeout::what`).
const CALLS: [&str; 4] = ["turn", "new_game", "game_over", "hello"];

/// What a re-simulated player answers once its recorded answers run out:
/// the failure the replay ends on, for the referee to see again, or, if it
/// ends on none, a protocol fault naming what the replay `lacks`.
pub(crate) fn replayed_failure(result: &ReplayResult, lacks: impl FnOnce() -> String) -> Fault {
    (result.fault.as_ref().and_then(FaultRecord::to_fault))
        .unwrap_or_else(|| Fault::Protocol(format!("the replay has no {}", lacks())))
}

/// A single-player game's recorded actions played back to the referee in
/// order (a rejected last answer among them, for the referee to judge
/// again); past the last, the failure the replay ends on. Keeps the
/// requests the referee made, for the replay to compare.
pub(crate) struct Recorded<'r, G: Game> {
    replay: &'r ReplayResult,
    actions: Vec<G::Action>,
    /// What an action is called in errors ("action", "reveal").
    what: &'static str,
    pub shown: Vec<G::Request>,
}

impl<'r, G: Game> Recorded<'r, G> {
    pub fn new(replay: &'r ReplayResult, actions: Vec<G::Action>, what: &'static str) -> Recorded<'r, G> {
        Recorded { replay, actions, what, shown: Vec::new() }
    }
}

impl<G: Game> Agent<G> for Recorded<'_, G>
where
    G::Action: Clone,
{
    fn new_game(&mut self, _: G::Info, _: Duration) -> Result<(), Fault> {
        Ok(())
    }

    fn act(&mut self, request: G::Request, _: Duration) -> Result<G::Action, Fault> {
        self.shown.push(request);
        let next = self.shown.len();
        match self.actions.get(next - 1) {
            Some(action) => Ok(action.clone()),
            None => Err(replayed_failure(self.replay, || format!("{} {next}", self.what))),
        }
    }

    fn game_over(&mut self, _: G::Over) {}
}

/// A request of a two-player game, numbered from 0 in its game (a turn, a ply).
pub(crate) trait Numbered {
    fn number(&self) -> usize;
}

/// One seat of a two-player game playing the recorded moves back to the
/// referee, by move number (both seats share the list; the referee asks
/// each for its own). At the move the game ended on, the failed seat
/// answers what the referee rejected, for it to judge again, or fails as
/// recorded. Keeps the requests the referee made, for the replay to compare.
pub(crate) struct SeatScript<'r, G: Game> {
    seat: Seat,
    replay: &'r ReplayResult,
    moves: &'r [G::Action],
    /// The seat that failed at the end, with its rejected answer, if any.
    failed: Option<(Seat, Option<G::Action>)>,
    /// The seat that failed before the first move.
    failed_at_start: Option<Seat>,
    /// What a move is called in errors ("turn", "move").
    what: &'static str,
    pub shown: Vec<G::Request>,
}

impl<'r, G: Game> SeatScript<'r, G>
where
    G::Action: Clone,
{
    /// Both seats' scripts.
    pub fn seats(
        replay: &'r ReplayResult,
        moves: &'r [G::Action],
        failed: Option<(Seat, Option<G::Action>)>,
        failed_at_start: Option<Seat>,
        what: &'static str,
    ) -> [SeatScript<'r, G>; 2] {
        Seat::BOTH.map(|seat| SeatScript {
            seat,
            replay,
            moves,
            failed: failed.clone(),
            failed_at_start,
            what,
            shown: Vec::new(),
        })
    }

    fn failure(&self) -> Fault {
        replayed_failure(self.replay, || "answer to judge".into())
    }
}

impl<G: Game> Agent<G> for SeatScript<'_, G>
where
    G::Action: Clone,
    G::Request: Numbered,
{
    fn new_game(&mut self, _: G::Info, _: Duration) -> Result<(), Fault> {
        match self.failed_at_start == Some(self.seat) {
            true => Err(self.failure()),
            false => Ok(()),
        }
    }

    fn act(&mut self, request: G::Request, _: Duration) -> Result<G::Action, Fault> {
        let index = request.number();
        self.shown.push(request);
        if let Some(action) = self.moves.get(index) {
            return Ok(action.clone());
        }
        match &self.failed {
            Some((seat, answer)) if *seat == self.seat && index == self.moves.len() => {
                answer.clone().ok_or_else(|| self.failure())
            }
            _ => Err(Fault::Protocol(format!("the replay has no {} {}", self.what, index + 1))),
        }
    }

    fn game_over(&mut self, _: G::Over) {}
}

impl FaultRecord {
    pub fn new(player: usize, fault: &Fault) -> FaultRecord {
        let detail = match fault {
            Fault::Illegal { what, spot, .. } => {
                FaultDetail::Illegal { what: what.to_string(), cell: [spot.row, spot.col] }
            }
            Fault::InvalidAction(what) => FaultDetail::InvalidAction { what: what.clone() },
            Fault::Timeout { what, used, budget, grace, killed, clock, backstop } => FaultDetail::Timeout {
                during: what.to_string(),
                used_ns: used.as_nanos() as u64,
                budget_ns: budget.as_nanos() as u64,
                killed: *killed,
                clock: *clock,
                grace_ns: grace.as_nanos() as u64,
                backstop: *backstop,
            },
            Fault::Panicked(message) => FaultDetail::Panicked { message: message.clone() },
            Fault::Crashed(how) => FaultDetail::Crashed { how: how.clone() },
            Fault::Protocol(what) => FaultDetail::Protocol { what: what.clone() },
            Fault::OutputFlood { limit } => FaultDetail::OutputFlood { limit_bytes: *limit },
            Fault::Unavailable(why) => FaultDetail::Unavailable { why: why.clone() },
            Fault::Resigned(how) => FaultDetail::Resigned { how: how.clone() },
            Fault::Overloaded { what, wall, waited, budget } => FaultDetail::Overloaded {
                during: what.to_string(),
                wall_ns: wall.as_nanos() as u64,
                waited_ns: waited.as_nanos() as u64,
                budget_ns: budget.as_nanos() as u64,
            },
        };
        FaultRecord { player, kind: fault.kind().name().to_string(), detail }
    }

    /// The fault itself, for a failure the referee cannot re-judge (the
    /// player's own: a crash, a timeout). None for an illegal answer: the
    /// referee judges the recorded answer again instead.
    pub fn to_fault(&self) -> Option<Fault> {
        Some(match &self.detail {
            FaultDetail::Illegal { .. } => return None,
            FaultDetail::Timeout { during, used_ns, budget_ns, killed, clock, grace_ns, backstop } => {
                Fault::Timeout {
                    what: CALLS.iter().find(|c| *c == during)?,
                    used: Duration::from_nanos(*used_ns),
                    budget: Duration::from_nanos(*budget_ns),
                    grace: Duration::from_nanos(*grace_ns),
                    killed: *killed,
                    clock: *clock,
                    backstop: *backstop,
                }
            }
            FaultDetail::InvalidAction { what } => Fault::InvalidAction(what.clone()),
            FaultDetail::Panicked { message } => Fault::Panicked(message.clone()),
            FaultDetail::Crashed { how } => Fault::Crashed(how.clone()),
            FaultDetail::Protocol { what } => Fault::Protocol(what.clone()),
            FaultDetail::OutputFlood { limit_bytes } => Fault::OutputFlood { limit: *limit_bytes },
            FaultDetail::Unavailable { why } => Fault::Unavailable(why.clone()),
            FaultDetail::Resigned { how } => Fault::Resigned(how.clone()),
            FaultDetail::Overloaded { during, wall_ns, waited_ns, budget_ns } => Fault::Overloaded {
                what: CALLS.iter().find(|c| *c == during)?,
                wall: Duration::from_nanos(*wall_ns),
                waited: Duration::from_nanos(*waited_ns),
                budget: Duration::from_nanos(*budget_ns),
            },
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn faults_the_referee_cannot_rejudge_come_back_unchanged() {
        let faults = [
            Fault::Timeout {
                what: "new_game",
                used: Duration::from_nanos(5_310_000_123),
                budget: Duration::from_secs(5),
                grace: Duration::ZERO,
                killed: true,
                clock: crate::play::clock::Clock::Wall,
                backstop: false,
            },
            Fault::Timeout {
                what: "turn",
                used: Duration::from_millis(2100),
                budget: Duration::from_secs(2),
                grace: Duration::from_millis(100),
                killed: true,
                clock: crate::play::clock::Clock::Cpu,
                backstop: false,
            },
            Fault::Timeout {
                what: "turn",
                used: Duration::from_millis(15_020),
                budget: Duration::from_secs(5),
                grace: Duration::from_secs(1),
                killed: true,
                clock: crate::play::clock::Clock::Wall,
                backstop: true,
            },
            Fault::Panicked("at src/lib.rs:3".into()),
            Fault::InvalidAction("get_move returned None, not a (row, col) tuple".into()),
            Fault::Crashed("killed by signal 11".into()),
            Fault::Protocol("the turn has a move but no trap".into()),
            Fault::OutputFlood { limit: 1 << 20 },
            Fault::Unavailable("no such file".into()),
            Fault::Overloaded {
                what: "turn",
                wall: Duration::from_secs(30),
                waited: Duration::from_millis(27_500),
                budget: Duration::from_secs(5),
            },
        ];
        for fault in faults {
            let record = FaultRecord::new(1, &fault);
            let json = serde_json::to_string(&record).unwrap();
            let back: FaultRecord = serde_json::from_str(&json).unwrap();
            assert_eq!(back.to_fault(), Some(fault.clone()), "{json}");
            assert_eq!(back.kind, fault.kind().name());
        }
    }

    #[test]
    fn an_illegal_answer_is_rejudged_not_replayed() {
        let fault = Fault::Illegal {
            what: "move",
            spot: crate::play::fault::Spot { row: -1, col: 3 },
            why: "off the board".into(),
        };
        let record = FaultRecord::new(0, &fault);
        assert_eq!(record.detail, FaultDetail::Illegal { what: "move".into(), cell: [-1, 3] });
        assert_eq!(record.kind, "illegal");
        assert_eq!(record.to_fault(), None);
        // As replays write it, and read it back.
        let json = r#"{"player":0,"kind":"illegal","type":"illegal_move","cell":[-1,3]}"#;
        assert_eq!(serde_json::to_string(&record).unwrap(), json);
        assert_eq!(serde_json::from_str::<FaultRecord>(json).unwrap(), record);
        let trap = r#"{"player":1,"kind":"illegal","type":"illegal_trap","cell":[9,9]}"#;
        let back: FaultRecord = serde_json::from_str(trap).unwrap();
        assert_eq!(back.detail, FaultDetail::Illegal { what: "trap".into(), cell: [9, 9] });
        assert_eq!(serde_json::to_string(&back).unwrap(), trap);
        assert!(serde_json::from_str::<FaultRecord>(
            r#"{"player":0,"kind":"x","type":"nonsense","cell":[1,1]}"#
        )
        .is_err());
    }
}
